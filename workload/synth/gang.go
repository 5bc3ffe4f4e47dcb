package synth

import (
	"fmt"
	"math/rand/v2"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/rng"
)

// EstimateModel draws estimate = actual x (1 + u), u uniform in [-E, E]
// (dimitriadou-karatza-2010). The uniform draw comes from its own stream,
// so runs with different E see the same jobs and the same draws, scaled.
type estimator struct {
	e float64
	r *rand.Rand
}

func (m estimator) estimate(actual float64) float64 {
	u := m.r.Float64()*2 - 1
	return actual * (1 + float64(m.e*u))
}

// Locals is the local-job stream of one site: Poisson arrivals, exponential
// service, estimates with error up to E.
type Locals struct {
	meanIA, meanS float64
	arr, svc      *rand.Rand
	est           estimator
	n             int64
	t             float64
	site, streams int
}

// NewLocals returns site's local stream of replication rep. streams is the
// number of job streams (sites + 1), used to keep job ids unique.
func NewLocals(seed uint64, rep, site, streams int, meanInterarrival, meanService, e float64) (*Locals, error) {
	if !(meanInterarrival > 0) || !(meanService > 0) || !(e >= 0 && e < 1) {
		return nil, fmt.Errorf("synth: locals need positive means and 0 <= E < 1 (got %g, %g, %g)", meanInterarrival, meanService, e)
	}
	p := fmt.Sprintf("site%d-", site)
	return &Locals{meanIA: meanInterarrival, meanS: meanService, site: site, streams: streams,
		arr: rng.New(seed, rep, p+rng.Arrivals), svc: rng.New(seed, rep, p+rng.Service),
		est: estimator{e, rng.New(seed, rep, p+rng.Estimates)}}, nil
}

// Next returns the next local job.
func (l *Locals) Next() (actual.Job, error) {
	l.n++
	l.t += float64(l.arr.ExpFloat64() * l.meanIA)
	run := l.svc.ExpFloat64() * l.meanS
	return actual.Job{ID: job.ID(l.n*int64(l.streams) + int64(l.site)), Submit: l.t, Procs: 1, Runtime: run,
		Estimate: l.est.estimate(run), Request: -1, User: -1, Group: -1, Partition: -1, Local: true}, nil
}

// GangSizes is a gang-size distribution.
type GangSizes struct {
	Pow2     bool // {2, 4, 8, 16} uniformly; else uniform on Min..Max
	Min, Max int
}

// Gangs is the gang stream at the grid scheduler.
type Gangs struct {
	meanIA, meanS float64
	sizes         GangSizes
	shared        bool
	arr, size     *rand.Rand
	svc           *rand.Rand
	est           estimator
	n             int64
	t             float64
	streams       int
}

// NewGangs returns the gang stream of replication rep. With shared, all
// tasks of a gang get one service time; else each task its own.
func NewGangs(seed uint64, rep, streams int, meanInterarrival, meanService float64, sizes GangSizes, shared bool, e float64) (*Gangs, error) {
	if !(meanInterarrival > 0) || !(meanService > 0) || !(e >= 0 && e < 1) {
		return nil, fmt.Errorf("synth: gangs need positive means and 0 <= E < 1")
	}
	if !sizes.Pow2 && (sizes.Min < 1 || sizes.Max < sizes.Min) {
		return nil, fmt.Errorf("synth: gang sizes %d..%d", sizes.Min, sizes.Max)
	}
	return &Gangs{meanIA: meanInterarrival, meanS: meanService, sizes: sizes, shared: shared, streams: streams,
		arr: rng.New(seed, rep, rng.GangArrivals), size: rng.New(seed, rep, rng.GangSizes),
		svc: rng.New(seed, rep, "gang-"+rng.Service), est: estimator{e, rng.New(seed, rep, "gang-"+rng.Estimates)}}, nil
}

// Next returns the next gang: Procs tasks, Runtime and Estimate of its
// longest task.
func (g *Gangs) Next() (actual.Job, error) {
	g.n++
	g.t += float64(g.arr.ExpFloat64() * g.meanIA)
	var n int
	if g.sizes.Pow2 {
		n = 2 << g.size.IntN(4)
	} else {
		n = g.sizes.Min + g.size.IntN(g.sizes.Max-g.sizes.Min+1)
	}
	tasks := make([]actual.Task, n)
	shared := g.svc.ExpFloat64() * g.meanS
	j := actual.Job{ID: job.ID(g.n*int64(g.streams) + int64(g.streams-1)), Submit: g.t, Procs: n, Request: -1, User: -1, Group: -1, Partition: -1, Tasks: tasks}
	for k := range tasks {
		run := shared
		if !g.shared && k > 0 {
			run = g.svc.ExpFloat64() * g.meanS
		}
		tasks[k] = actual.Task{Runtime: run, Estimate: g.est.estimate(run)}
		j.Runtime = max(j.Runtime, run)
		j.Estimate = max(j.Estimate, tasks[k].Estimate)
	}
	return j, nil
}
