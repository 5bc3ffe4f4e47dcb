package backfill

import (
	"container/heap"
	"fmt"

	"github.com/schedlab/schedlab/freeprofile"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
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

// Foreign jobs on nodes (policy.NodeForeignLoad; docs/nodes.md,
// "Overlapping partitions"): a foreign job is planned as one of the
// policy's own running jobs started now, holding exactly what it holds
// on the partition's nodes until its estimated end: it enters the
// mirror state, the profile and the heap of estimated ends, so that an
// early end frees its resources sooner and an overrun holds them for
// the instant only, and every start, reservation and repair counts it
// like any running job. It never enters the queue, the multifactor
// usage or the QOS counts. A pass makes its reservations anew around
// the running jobs (foreign ones included) whenever the plan changed
// (an occupation or a release is a change, as a start or an end), so
// nothing kept from an earlier pass ignores it.

var _ policy.NodeForeignLoad = (*NodePolicy)(nil)

// OccupyNodes implements policy.NodeForeignLoad.
func (b *NodePolicy) OccupyNodes(now float64, id job.ID, a nodes.Allocation, end float64) {
	if b.err != nil || len(a.Nodes) == 0 {
		return
	}
	if _, dup := b.runOf[id]; dup {
		b.fail(fmt.Errorf("policy %s at t=%g: foreign job %d occupies nodes twice", b.name, now, id))
		return
	}
	if b.av {
		// A node the mirror holds whole since the last pass (down, or in
		// a window) is available again: the model starts jobs on
		// available nodes only. The next pass looks again (availPass).
		for _, na := range a.Nodes {
			if nd := na.Node; nd >= 0 && nd < len(b.blocked) && b.blocked[nd] {
				b.st.Release(b.whole[nd])
				b.blocked[nd] = false
				b.freeCores += len(b.whole[nd].Nodes[0].Cores)
			}
		}
	}
	if !b.st.Occupy(a) {
		b.fail(fmt.Errorf("policy %s at t=%g: foreign job %d: what it holds on the partition's nodes is not free in the policy's state", b.name, now, id))
		return
	}
	if !(end > now) {
		end = now // at its estimate already: held for the instant only
	}
	var s int32
	if k := len(b.freeRuns); k > 0 {
		s = b.freeRuns[k-1]
		b.freeRuns = b.freeRuns[:k-1]
	} else {
		b.runs = append(b.runs, nodeRun{})
		s = int32(len(b.runs) - 1)
	}
	c := a.Clone()
	cores := 0
	for _, na := range a.Nodes {
		cores += len(na.Cores)
	}
	b.runs[s] = nodeRun{id: id, start: now, end: end, alloc: c, hold: b.prof.AddAllocation(now, nodes.Span(now, end-now), c), cores: cores, live: true, foreign: true}
	b.runOf[id] = s
	b.freeCores -= cores
	b.changes++
	heap.Push(&b.due, dueItem{end: end, slot: s, id: id})
}

// ReleaseNodes implements policy.NodeForeignLoad.
func (b *NodePolicy) ReleaseNodes(now float64, id job.ID) {
	s, ok := b.runOf[id]
	if !ok || !b.runs[s].foreign {
		return
	}
	b.ended(id, s)
}
