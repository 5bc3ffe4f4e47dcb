package backfill

import (
	"fmt"

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
	mf    *multifactor // the multifactor order (NewFCFSMultifactor); nil: FCFS
	// hz: with announced windows (PlanAvailability), per machine, the
	// idle CPUs' next-window starts during a pass; nil without.
	hz []policy.Horizons
}

// PlanAvailability (policy.AvailabilityPlanner): the head job also
// needs enough idle CPUs clear of every announced window until its
// estimated end (docs/availability.md); down CPUs are never free.
func (f *FCFS) PlanAvailability(ws []policy.Window) {
	if len(ws) > 0 {
		f.hz = make([]policy.Horizons, max(1, len(f.machs)))
	}
}

// clear reports whether job e can start on machine m as far as the
// windows go, and takes its CPUs from the pass's horizons if so.
func (f *FCFS) clear(now float64, m int, e *entry) bool {
	if f.hz == nil {
		return true
	}
	end := now + e.Estimate
	if f.machs != nil {
		bm := 0.0
		if e.x != nil {
			bm = e.x.bmEst
		}
		end = now + f.machs[m].Duration(e.Estimate, bm)
	}
	if f.hz[m].Clear(end) < e.Procs {
		return false
	}
	f.hz[m].Take(end, e.Procs)
	return true
}

func (f *FCFS) loadHorizons(v policy.Machines) {
	if f.hz != nil {
		for m := range f.hz {
			f.hz[m].Load(v.(policy.AvailabilityView), m)
		}
	}
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

// NewFCFSMultifactor returns strict priority order over one machine of
// procs CPUs: at every pass the queue is sorted by the multifactor
// priority p and jobs start from its head while they fit; nothing passes
// a blocked head (Slurm's sched/builtin with priority/multifactor).
func NewFCFSMultifactor(procs int, p Multifactor) (*FCFS, error) {
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("policy fcfs: %w", err)
	}
	if procs <= 0 {
		return nil, fmt.Errorf("policy fcfs: machine size must be positive, got %d", procs)
	}
	return &FCFS{w: waitQueue{order: OrderMultifactor}, mf: newMultifactor(p, procs)}, nil
}

func (f *FCFS) Submit(now float64, j job.Info) {
	if f.mf != nil {
		e := newEntry(&j, &f.slab)
		f.mf.attach(&e, &j)
		f.w.insert(e)
		return
	}
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

func (f *FCFS) Finish(now float64, id job.ID) {
	if f.mf != nil {
		f.mf.finished(id, now)
	}
}

func (f *FCFS) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	if f.machs != nil {
		f.scheduleMulti(now, v, plan)
		return
	}
	if f.mf != nil {
		f.mf.sort(now, f.w.q) // re-evaluated at every pass
	}
	free := v.Free(0)
	f.loadHorizons(v)
	n := 0
	for n < len(f.w.q) && f.w.q[n].Procs <= free && f.clear(now, 0, &f.w.q[n]) {
		e := &f.w.q[n]
		free -= e.Procs
		plan.Start(e.ID, reasonFor(false, now, &e.jobKey))
		if f.mf != nil {
			f.mf.started(e.ID, e.x.who, e.Procs, now)
		}
		n++
	}
	f.w.q = f.w.q[n:] // started jobs are a prefix: reslice (see compact)
}

func (f *FCFS) scheduleMulti(now float64, v policy.Machines, plan *policy.Plan) {
	for m := range f.free {
		f.free[m] = v.Free(m)
	}
	f.loadHorizons(v)
	n := 0
	for ; n < len(f.w.q); n++ {
		e := &f.w.q[n]
		m := 0
		mem, speed := e.needs()
		for m < len(f.machs) && !(f.free[m] >= e.Procs && holds(&f.machs[m], e.Procs, mem, speed) && f.clear(now, m, e)) {
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
