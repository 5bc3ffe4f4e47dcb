package workload

import (
	"fmt"

	"github.com/schedlab/schedlab/internal/enum"
	"github.com/schedlab/schedlab/job/actual"
)

// Source yields jobs in submit order, io.EOF after the last (the engine's
// Source contract).
type Source interface {
	Next() (actual.Job, error)
}

// Estimate is a runtime-estimate model: what schedulers are told a job
// will take.
type Estimate uint8

const (
	// EstimateRequest: the user's requested time; the actual runtime when
	// the request is unknown.
	EstimateRequest Estimate = iota
	// EstimateExact: the actual runtime (perfect knowledge).
	EstimateExact
	// EstimateTsafrir: the request, where a job without one gets a
	// request drawn from Tsafrir's model of user estimates (the runner
	// draws them: package workload/tsafrir); Apply treats it as
	// EstimateRequest.
	EstimateTsafrir
	// EstimatePredict: system-generated predictions (EASY++); the runner
	// puts a predicting layer between the jobs and the policy (package
	// policy/predict). Jobs still carry their requests as estimates, so
	// Apply treats it as EstimateRequest.
	EstimatePredict
)

// Estimates lists the estimate models, in documentation order (a fresh
// slice).
func Estimates() []Estimate {
	return []Estimate{EstimateRequest, EstimateExact, EstimateTsafrir, EstimatePredict}
}

// EstimateNames lists the names ParseEstimate accepts, in the order of
// Estimates (a fresh slice).
func EstimateNames() []string {
	es := Estimates()
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.String()
	}
	return out
}

// String is the model's name, as ParseEstimate reads it.
func (e Estimate) String() string {
	switch e {
	case EstimateRequest:
		return "request"
	case EstimateExact:
		return "exact"
	case EstimateTsafrir:
		return "tsafrir"
	case EstimatePredict:
		return "predict"
	}
	return fmt.Sprintf("Estimate(%d)", uint8(e))
}

// ParseEstimate parses a model name.
func ParseEstimate(s string) (Estimate, error) {
	return enum.ParseNamed("estimate model", s, Estimates()...)
}

// Apply sets j.Estimate under model e.
func (e Estimate) Apply(j *actual.Job) {
	switch e {
	case EstimateExact:
		j.Estimate = j.Runtime
	default:
		if j.Request > 0 {
			j.Estimate = j.Request
		} else {
			j.Estimate = j.Runtime
		}
	}
}

// WithEstimates returns src with every job's Estimate set by model e.
func WithEstimates(src Source, e Estimate) Source { return &estimated{src, e} }

type estimated struct {
	src Source
	e   Estimate
}

// NextInto is Next writing the job to *j, in place when the source can
// (see Prefetch); on error *j is unchanged.
func (s *estimated) NextInto(j *actual.Job) error {
	if in, ok := s.src.(intoSource); ok {
		if err := in.NextInto(j); err != nil {
			return err
		}
		s.e.Apply(j)
		return nil
	}
	x, err := s.Next()
	if err == nil {
		*j = x
	}
	return err
}

func (s *estimated) Next() (actual.Job, error) {
	j, err := s.src.Next()
	if err == nil {
		s.e.Apply(&j)
	}
	return j, err
}
