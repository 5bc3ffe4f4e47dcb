package backfill

import (
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// FCFS is strict first-come first-served: jobs start in queue order while
// the head fits; nothing passes a blocked head.
type FCFS struct {
	w waitQueue
	// machs is nil for the one-machine policy (NewFCFS), which reads the
	// free CPUs of machine 0 and nothing else; NewFCFSMulti sets it.
	machs []platform.Machine
	free  []int // scratch: free CPUs per machine during a pass
	slab  attrsSlab
}

// NewFCFS returns a strict FCFS policy over one machine.
func NewFCFS() *FCFS { return &FCFS{} }

// NewFCFSMulti returns strict FCFS over the machines of p: the head job
// goes to the first machine in index order that can hold it (CanHold) and
// has enough free CPUs now; the pass stops at the first job that fits
// nowhere. A job that no machine can hold is not queued (it could never
// start; the model reports it at the end of the run).
func NewFCFSMulti(p platform.Platform) *FCFS {
	ms, _ := machinesOf(p, PickFirst)
	return &FCFS{machs: ms, free: make([]int, len(ms))}
}

func (f *FCFS) Name() string { return "fcfs" }

func (f *FCFS) Submit(now float64, j job.Info) {
	if f.machs == nil {
		f.w.insert(newEntry(&j, nil))
		return
	}
	for m := range f.machs {
		if holds(&f.machs[m], j.Procs, j.Mem, j.Speed) {
			f.w.insert(newEntry(&j, &f.slab))
			return
		}
	}
}

func (f *FCFS) Finish(now float64, id job.ID) {}

func (f *FCFS) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	if f.machs != nil {
		f.scheduleMulti(now, v, plan)
		return
	}
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

func (f *FCFS) scheduleMulti(now float64, v policy.Machines, plan *policy.Plan) {
	for m := range f.free {
		f.free[m] = v.Free(m)
	}
	n := 0
	for ; n < len(f.w.q); n++ {
		e := &f.w.q[n]
		m := 0
		mem, speed := e.needs()
		for m < len(f.machs) && !(f.free[m] >= e.Procs && holds(&f.machs[m], e.Procs, mem, speed)) {
			m++
		}
		if m == len(f.machs) {
			break // strict: nothing passes the head
		}
		f.free[m] -= e.Procs
		plan.StartOn(e.ID, reasonFor(false, now, &e.jobKey), m)
	}
	f.w.q = f.w.q[n:]
}
