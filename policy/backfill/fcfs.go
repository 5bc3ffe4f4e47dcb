package backfill

import (
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// FCFS is strict first-come first-served: jobs start in queue order while
// the head fits; nothing passes a blocked head.
type FCFS struct {
	w waitQueue
}

// NewFCFS returns a strict FCFS policy.
func NewFCFS() *FCFS { return &FCFS{} }

func (f *FCFS) Name() string                   { return "fcfs" }
func (f *FCFS) Submit(now float64, j job.Info) { f.w.insert(j) }
func (f *FCFS) Finish(now float64, id job.ID)  {}

func (f *FCFS) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	free := v.Free(0)
	n := 0
	for n < len(f.w.q) && f.w.q[n].Procs <= free {
		e := &f.w.q[n]
		free -= e.Procs
		plan.Start(e.ID, reasonFor(false, now, &e.jobKey))
		n++
	}
	f.w.q = f.w.q[n:] // started jobs are a prefix: reslice (see compact)
}
