package backfill

import (
	"fmt"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// FirstFit is greedy first-fit without reservations: at each pass it walks
// the whole queue in order and starts every job that fits the processors
// still free, whatever waits ahead of it. It is the baseline that
// hafshejani-2012 calls "backfilling" ("the algorithm goes forward in the
// queue until it reaches a job whose required processor is less or equal
// to the number of free processors and runs that"). Without a reservation
// a wide job can starve while narrower later jobs keep passing it; that is
// the rule, not a defect of this implementation. Estimates are never read.
type FirstFit struct {
	w    waitQueue
	slab attrsSlab
	mf   *multifactor // the multifactor order; nil: o
}

// NewFirstFit returns first-fit over one machine, the queue in order o.
func NewFirstFit(o Order) *FirstFit { return &FirstFit{w: waitQueue{order: o}} }

// NewFirstFitMultifactor returns first-fit over one machine of procs
// CPUs, the queue sorted by the multifactor priority p at every pass.
func NewFirstFitMultifactor(procs int, p Multifactor) (*FirstFit, error) {
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("policy firstfit: %w", err)
	}
	if procs <= 0 {
		return nil, fmt.Errorf("policy firstfit: machine size must be positive, got %d", procs)
	}
	return &FirstFit{w: waitQueue{order: OrderMultifactor}, mf: newMultifactor(p, procs)}, nil
}

func (f *FirstFit) Name() string { return "firstfit" }

func (f *FirstFit) Submit(now float64, j job.Info) {
	if f.mf == nil {
		f.w.insert(newEntry(&j, nil))
		return
	}
	e := newEntry(&j, &f.slab)
	f.mf.attach(&e, &j)
	f.w.insert(e)
}

func (f *FirstFit) Finish(now float64, id job.ID) {
	if f.mf != nil {
		f.mf.finished(id, now)
	}
}

// Schedule starts, in queue order, every waiting job that fits the free
// processors left by the jobs started before it in this pass. A job that
// starts while one ahead of it still waits is Backfilled; otherwise it is
// Immediate at its submit time and Reserved later (it waited in queue
// order: there is no reservation, the name is the engine's).
func (f *FirstFit) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	if f.mf != nil {
		f.mf.sort(now, f.w.q) // re-evaluated at every pass
	}
	free := v.Free(0)
	started, first := 0, -1
	blocked := false
	for i := 0; i < len(f.w.q) && free > 0; i++ {
		e := &f.w.q[i]
		if e.Procs > free {
			blocked = true
			continue
		}
		free -= e.Procs
		e.started = true
		plan.Start(e.ID, reasonFor(blocked, now, &e.jobKey))
		if f.mf != nil {
			f.mf.started(e.ID, e.x.who, e.Procs, now)
		}
		if first < 0 {
			first = i
		}
		started++
	}
	if started > 0 {
		f.w.compact(first, started)
	}
}
