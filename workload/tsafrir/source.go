package tsafrir

import (
	"errors"
	"math/rand/v2"

	"github.com/schedlab/schedlab/job/actual"
)

// Source is workload.Source, declared here because a package under
// workload/ does not import workload (internal/lint): jobs in submit
// order, io.EOF after the last. Any workload.Source is a Source and the
// other way round.
type Source interface {
	Next() (actual.Job, error)
}

// WithRequests returns src with modelled requests: every job's Request is
// m.Request(its Runtime) (with onlyMissing, only the jobs whose Request
// is <= 0, i.e. unknown), and every job's Estimate becomes its Request,
// so that schedulers see the request and the job is killed at it as
// usual. Per-task estimates (gang jobs) are left alone.
//
// One number is drawn from r per job, used or not, in the order of the
// stream: the k-th job's request depends on the k-th draw only. A nil m
// or r makes the first Next return an error.
//
// The result reads in place (NextInto) when src does, as
// workload.Prefetch likes.
func WithRequests(src Source, m *Model, r *rand.Rand, onlyMissing bool) Source {
	return &requests{src: src, m: m, r: r, onlyMissing: onlyMissing}
}

type requests struct {
	src         Source
	m           *Model
	r           *rand.Rand
	onlyMissing bool
}

// intoSource matches workload's in-place reading (NextInto).
type intoSource interface {
	NextInto(j *actual.Job) error
}

func (s *requests) check() error {
	switch {
	case s.src == nil:
		return errors.New("tsafrir.WithRequests: nil source src")
	case s.m == nil:
		return errors.New("tsafrir.WithRequests: nil model m")
	case s.r == nil:
		return errors.New("tsafrir.WithRequests: nil random stream r")
	}
	return nil
}

func (s *requests) apply(j *actual.Job) {
	u := s.r.Float64()
	if !s.onlyMissing || !(j.Request > 0) {
		j.Request = s.m.request(j.Runtime, u)
	}
	j.Estimate = j.Request
}

func (s *requests) Next() (actual.Job, error) {
	if err := s.check(); err != nil {
		return actual.Job{}, err
	}
	j, err := s.src.Next()
	if err == nil {
		s.apply(&j)
	}
	return j, err
}

// NextInto is Next writing the job to *j, in place when the source can;
// on error *j is unchanged.
func (s *requests) NextInto(j *actual.Job) error {
	if err := s.check(); err != nil {
		return err
	}
	if in, ok := s.src.(intoSource); ok {
		if err := in.NextInto(j); err != nil {
			return err
		}
		s.apply(j)
		return nil
	}
	x, err := s.Next()
	if err == nil {
		*j = x
	}
	return err
}
