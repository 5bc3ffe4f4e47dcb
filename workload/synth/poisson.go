package synth

import (
	"fmt"
	"io"
	"math/rand/v2"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/rng"
)

// Poisson is an endless (or Limit-long) stream of one-processor jobs with
// exponential inter-arrival times of mean MeanInterarrival and exponential
// service demands of mean MeanService. Estimates are exact.
type Poisson struct {
	meanIA, meanS float64
	limit         int64
	arr, svc      *rand.Rand
	n             int64
	t             float64
	procs         int
}

// NewPoisson returns the stream of replication rep of seed. limit 0 means
// endless (the simulation's stopping rule ends it).
func NewPoisson(seed uint64, rep int, meanInterarrival, meanService float64, limit int64) (*Poisson, error) {
	if !(meanInterarrival > 0) || !(meanService > 0) {
		return nil, fmt.Errorf("synth: mean inter-arrival %g and mean service %g must be positive", meanInterarrival, meanService)
	}
	return &Poisson{meanIA: meanInterarrival, meanS: meanService, limit: limit, procs: 1,
		arr: rng.New(seed, rep, rng.Arrivals), svc: rng.New(seed, rep, rng.Service)}, nil
}

// Next returns the next job.
func (p *Poisson) Next() (actual.Job, error) {
	if p.limit > 0 && p.n >= p.limit {
		return actual.Job{}, io.EOF
	}
	p.n++
	p.t += float64(p.arr.ExpFloat64() * p.meanIA)
	run := p.svc.ExpFloat64() * p.meanS
	return actual.Job{ID: job.ID(p.n), Submit: p.t, Procs: p.procs, Runtime: run, Estimate: run, Request: -1, User: -1, Group: -1, Partition: -1}, nil
}
