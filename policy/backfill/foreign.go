package backfill

import (
	"github.com/schedlab/schedlab/freeprofile"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// Foreign jobs: the jobs of other partitions on CPUs this partition
// shares with them (policy.ForeignLoad; docs/partitions.md).
//
// A foreign job is planned as one of the engine's own running jobs
// started now, on machine 0, of the processors it holds here, until its
// estimated end: it enters the running set, the profile (or the EASY
// fast path's list of running jobs) and the heap of estimated ends, so
// that an early end frees its processors sooner, an overrun holds them
// for the instant only, and EASY's shadow time and extra processors and
// conservative's profile count it like any running job. It never enters
// the queue, the multifactor usage or the priority order.
//
// Unlike an own start, an occupation is not planned by this engine: the
// processors it takes may be those a reservation counted on. So, as
// when a running job's estimate grows (Reestimate), the next pass lifts
// every reservation and places them again in queue order (rebuild),
// around the running jobs, foreign ones included; a reservation thus
// moves later only when a foreign job (or an overrun) takes what it
// needed. A release is an end: early, it frees processors as an early
// completion does (dirty).

var (
	_ policy.ForeignLoad = (*Backfill)(nil)
	_ policy.ForeignLoad = (*FCFS)(nil)
	_ policy.ForeignLoad = (*FirstFit)(nil)
)

// Occupy implements policy.ForeignLoad.
func (b *Backfill) Occupy(now float64, id job.ID, procs int, end float64) {
	if procs <= 0 {
		return
	}
	if !(end > now) {
		end = freeprofile.Span(now, 0) // as an own job of zero estimate
	}
	b.running.Set(id, run{procs: procs, estEnd: end, start: now})
	b.pl.add(now, id, 0, procs, end)
	b.dirty, b.rebuild = true, true
	b.arrivalsOnly = false
	b.openValid = false
}

// Release implements policy.ForeignLoad.
func (b *Backfill) Release(now float64, id job.ID) {
	var r run
	if !b.running.Take(id, &r) {
		return
	}
	b.arrivalsOnly = false
	b.ended(now, id, r)
}

// Occupy implements policy.ForeignLoad: strict FCFS plans nothing
// ahead, and the free CPUs it reads (Machines.Free) are the
// partition's idle ones, foreign jobs excluded already.
func (f *FCFS) Occupy(float64, job.ID, int, float64) {}

// Release implements policy.ForeignLoad (nothing to do, see Occupy).
func (f *FCFS) Release(float64, job.ID) {}

// Occupy implements policy.ForeignLoad: first-fit plans nothing ahead
// and reads only Machines.Free.
func (f *FirstFit) Occupy(float64, job.ID, int, float64) {}

// Release implements policy.ForeignLoad (nothing to do, see Occupy).
func (f *FirstFit) Release(float64, job.ID) {}
