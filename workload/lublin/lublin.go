package lublin

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/rng"
)

// The purposes of the random streams (package rng): one per aspect of a
// job, so that changing one aspect's parameters (or the requested-time
// model) leaves the others' draws unchanged.
const (
	PurposeSizes    = "lublin-sizes"
	PurposeRuntimes = "lublin-runtimes"
	PurposeArrivals = "lublin-arrivals"
	PurposeUsers    = "lublin-users"
	PurposeRequests = "lublin-requests"
)

// Source yields the jobs of one replication of a Params, in submit
// order, with ids 1..Jobs, then io.EOF. It holds no job: memory does not
// grow with Jobs. A Source is not safe for concurrent use.
type Source struct {
	p Params

	sizes, runs, arrs, users, reqs *rand.Rand

	maxN   int
	arrA   float64 // shape of the log inter-arrival Gamma: AArr·ARAR
	factor float64 // arrival factor in use (ArrivalFactor, or from Load)

	// The clock: t seconds since time 0, in half-hour slot slot of the
	// day, off seconds into it.
	t      float64
	slot   int
	off    float64
	weight [slots]float64
	dayOp  float64 // model time in one day: Σ weight · slotSeconds

	userCDF []float64 // userCDF[k-1] = P(user <= k)

	n int // jobs produced
}

// New returns the jobs of replication replication of seed under p,
// after p.Check. Replications of one seed are independent; the same
// (p, seed, replication) gives the same jobs, bit for bit. Setting up
// takes O(Users) time and memory (and O(Procs) time when p.Load is set).
func New(p Params, seed uint64, replication int) (*Source, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	s := &Source{
		p:      p,
		sizes:  rng.New(seed, replication, PurposeSizes),
		runs:   rng.New(seed, replication, PurposeRuntimes),
		arrs:   rng.New(seed, replication, PurposeArrivals),
		maxN:   p.maxSize(),
		arrA:   p.AArr * p.ARAR,
		factor: p.arrivalFactor(),
		slot:   2 * p.StartHour,
	}
	if p.DailyCycle {
		s.weight = cycleWeights(p.ANum, p.BNum)
		for _, w := range s.weight {
			s.dayOp += w * slotSeconds
		}
	}
	if p.Users > 0 {
		s.users = rng.New(seed, replication, PurposeUsers)
		s.userCDF = make([]float64, p.Users)
		sum := 0.0
		for k := range s.userCDF {
			sum += 1 / float64(k+1)
			s.userCDF[k] = sum
		}
		for k := range s.userCDF {
			s.userCDF[k] /= sum
		}
	}
	if p.Request != nil {
		s.reqs = rng.New(seed, replication, PurposeRequests)
	}
	return s, nil
}

// Params returns the parameters the source was made with.
func (s *Source) Params() Params { return s.p }

// ArrivalFactor is the factor the inter-arrival times are multiplied
// by: Params.ArrivalFactor, or the one a target Load set.
func (s *Source) ArrivalFactor() float64 { return s.factor }

// Next returns the next job, io.EOF after the last. It fails only when
// Params.Request returns a request below the runtime (or not a number).
func (s *Source) Next() (actual.Job, error) {
	var j actual.Job
	err := s.NextInto(&j)
	return j, err
}

// NextInto is Next writing the job to *j (all of its fields); on error
// *j is unchanged.
func (s *Source) NextInto(j *actual.Job) error {
	if s.n >= s.p.Jobs {
		return io.EOF
	}
	s.advance()
	n := s.size()
	run := s.runtime(n)
	req := run
	if s.p.Request != nil {
		req = s.p.Request(run, s.reqs)
		if !(req >= run) || math.IsInf(req, 1) {
			return fmt.Errorf("lublin: job %d: the request model gave %v for a runtime of %v s; a request must be a finite number >= the runtime", s.n+1, req, run)
		}
	}
	user := int32(-1)
	if s.users != nil {
		u := s.users.Float64()
		user = int32(sort.SearchFloat64s(s.userCDF, u)) + 1
		if int(user) > s.p.Users { // u above the last sum's rounding
			user = int32(s.p.Users)
		}
	}
	s.n++
	*j = actual.Job{ID: job.ID(s.n), Submit: math.Round(s.t), Procs: n, Runtime: run, Request: req, Estimate: req, User: user, Group: -1}
	return nil
}

// size draws a job's processor count.
func (s *Source) size() int {
	p := &s.p
	u := s.sizes.Float64()
	if u < p.SerialProb {
		return 1
	}
	lo, hi := p.ULow, p.UMed // the first stage, with probability UProb
	if s.sizes.Float64() >= p.UProb {
		lo, hi = p.UMed, p.UHi
	}
	x := lo + (hi-lo)*s.sizes.Float64()
	if u < p.SerialProb+p.Pow2Prob {
		x = math.Floor(x + 0.5)
	}
	return min(int(math.Floor(math.Exp2(x)+0.5)), s.maxN)
}

// runtime draws the runtime of a job of n processors, in whole seconds.
func (s *Source) runtime(n int) float64 {
	p := &s.p
	a, b := p.A2, p.B2
	if s.runs.Float64() < p.mixP(n) {
		a, b = p.A1, p.B1
	}
	g := gammaRand(s.runs, a, b)
	for g > MaxLogRuntime {
		g = gammaRand(s.runs, a, b)
	}
	return max(1, math.Round(math.Exp(g)*p.RuntimeFactor))
}

// advance moves the clock to the next arrival.
func (s *Source) advance() {
	g := gammaRand(s.arrs, s.arrA, s.p.BArr)
	for g > MaxLogInterarrival {
		g = gammaRand(s.arrs, s.arrA, s.p.BArr)
	}
	x := math.Exp(g) * s.factor // model time to the next arrival
	if !s.p.DailyCycle {
		s.t += x
		return
	}
	if x >= s.dayOp {
		days := math.Floor(x / s.dayOp)
		s.t += days * daySeconds
		x -= days * s.dayOp
	}
	for {
		w := s.weight[s.slot]
		rest := (slotSeconds - s.off) * w // model time left in this slot
		if x < rest {
			s.off += x / w
			s.t += x / w
			return
		}
		x -= rest
		s.t += slotSeconds - s.off
		s.off = 0
		s.slot = (s.slot + 1) % slots
	}
}
