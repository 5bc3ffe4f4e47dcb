package backfill

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
)

// The hand-worked cases run on 2 nodes of 4 cores and 2 GPUs: n1 owns
// cores 0-3 and gpu units 0-1, n2 cores 4-7 and gpu units 2-3.
const gpuNodes = "n[1-2]:cores=4:gres=gpu=2"

func tasks(n int) *nodes.Request { r := nodes.FromProcs(n); return &r }

// allocText writes an allocation as "n1:c0-2:gpu0,n2:c4" (cores, then
// each kind's units; "!" after an exclusive one).
func allocText(ns *nodes.Nodes, a nodes.Allocation) string {
	var parts []string
	for _, na := range a.Nodes {
		s := ns.Name(na.Node) + ":c" + runs(na.Cores)
		for _, g := range na.GRES {
			s += ":" + g.Kind.String() + runs(g.Units)
		}
		parts = append(parts, s)
	}
	out := strings.Join(parts, ",")
	if a.Exclusive {
		out += "!"
	}
	return out
}

func runs(ids []int) string {
	var b strings.Builder
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(';')
		}
		if j > i {
			fmt.Fprintf(&b, "%d-%d", ids[i], ids[j])
		} else {
			fmt.Fprintf(&b, "%d", ids[i])
		}
		i = j + 1
	}
	return b.String()
}

type wantStart struct {
	id     job.ID
	start  float64
	alloc  string
	reason job.StartReason
}

// runHand drives a node policy of depth depth (-1: strict FCFS) over
// jobs (each running its estimate) and checks every start.
func runHand(t *testing.T, depth int, jobs []nodeJobSpec, want []wantStart) map[job.ID][]float64 {
	t.Helper()
	ns := mustNodes(t, gpuNodes)
	nb, err := NewNodePolicy(NodeConfig{Name: "test", Nodes: ns, Depth: max(depth, 0), Strict: depth < 0, Order: OrderFCFS})
	if err != nil {
		t.Fatal(err)
	}
	resv := map[job.ID][]float64{}
	nb.SetOnReserve(func(now float64, id job.ID, at float64) { resv[id] = append(resv[id], at) })
	for i := range jobs {
		jobs[i].dur = jobs[i].est
		jobs[i].procs = jobs[i].req.CPUs()
	}
	got := driveNodes(t, ns, nb, jobs)
	for _, w := range want {
		g := got[w.id]
		if a := allocText(ns, g.alloc); g.start != w.start || a != w.alloc || g.reason != w.reason {
			t.Errorf("job %d: starts %g on %s (%v), want %g on %s (%v)", w.id, g.start, a, g.reason, w.start, w.alloc, w.reason)
		}
	}
	return resv
}

func gpuReq(tasks, perNode int) *nodes.Request {
	return &nodes.Request{Tasks: tasks, CPUsPerTask: 1, GRESPerNode: []nodes.GRES{{Name: "gpu", Count: perNode}}}
}

// A GPU job waits for GPUs while cores are free; a CPU job backfills
// beside its reservation, on the reserved node too (EASY).
//
//	A (t=0): 2 tasks, 2 gpus a node, 2 nodes: n1 c0 g0-1, n2 c4 g2-3, until 100.
//	B (t=1): 1 task, 1 gpu: no GPU free (6 cores are); reserved at 100
//	   (A's end) on n1: 1 core, 1 gpu.
//	C (t=2): 4 tasks, until 202: over [2, 202) n1 holds 1 core at every
//	   instant (A to 100, then B's reservation): 3 free; n2 3 free. It
//	   starts on n1 c1-3 and n2 c5.
//	D (t=3): 2 tasks until 303: n1 is full (A + C, then C + B), n2 has
//	   2: n2 c6-7.
//	E (t=4): 1 task: nothing free; waits (EASY: one reservation, B's).
//	At 100 A ends: B starts on n1 (c0, g0), then E on n2 (c4).
func TestNodesGPUJobWaitsCPUJobBackfills(t *testing.T) {
	resv := runHand(t, 1, []nodeJobSpec{
		{id: 1, submit: 0, est: 100, req: &nodes.Request{Nodes: 2, Tasks: 2, CPUsPerTask: 1, GRESPerNode: []nodes.GRES{{Name: "gpu", Count: 2}}}},
		{id: 2, submit: 1, est: 50, req: gpuReq(1, 1)},
		{id: 3, submit: 2, est: 200, req: tasks(4)},
		{id: 4, submit: 3, est: 300, req: tasks(2)},
		{id: 5, submit: 4, est: 300, req: tasks(1)},
	}, []wantStart{
		{1, 0, "n1:c0:gpu0-1,n2:c4:gpu2-3", job.Immediate},
		{2, 100, "n1:c0:gpu0", job.Reserved},
		{3, 2, "n1:c1-3,n2:c5", job.Backfilled},
		{4, 3, "n2:c6-7", job.Backfilled},
		{5, 100, "n2:c4", job.Reserved},
	})
	if got := fmt.Sprint(resv[2]); got != "[100 100 100 100]" {
		t.Errorf("B's reservations %s, want at 100 in each pass it waits (t=1..4)", got)
	}
}

// EASY's repair: a long job backfills onto the reserved node because
// the head still fits at its shadow time on the other node.
//
//	A (t=0): 3 tasks, until 50: n1 c0-2.
//	B (t=0): 4 tasks on 1 node, until 50: n2 c4-7.
//	H (t=1): 4 tasks on 1 node, 100: no node has 4 free; reserved at 50
//	   (shadow time) on n1, the first that fits then.
//	L (t=2): 1 task, 200 (past the shadow time): over [2, 202) n1 is
//	   full (A, then H's reservation: 4 cores from 50), n2 too (B
//	   until 50): it does not fit beside the reservation. Beside the
//	   running jobs alone it fits on n1 (c3);
//	   H's reservation, placed again at 50 beside it, fits on n2
//	   (free from 50): L starts on n1 and H is reserved on n2 (the
//	   pool's "extra processors": 8 free at 50, H takes 4).
//	At 50 H starts on n2.
func TestNodesEASYRepair(t *testing.T) {
	one := func(n int) *nodes.Request { return &nodes.Request{Nodes: 1, Tasks: n, CPUsPerTask: 1} }
	resv := runHand(t, 1, []nodeJobSpec{
		{id: 1, submit: 0, est: 50, req: tasks(3)},
		{id: 2, submit: 0, est: 50, req: one(4)},
		{id: 3, submit: 1, est: 100, req: one(4)},
		{id: 4, submit: 2, est: 200, req: tasks(1)},
	}, []wantStart{
		{1, 0, "n1:c0-2", job.Immediate},
		{2, 0, "n2:c4-7", job.Immediate},
		{3, 50, "n2:c4-7", job.Reserved},
		{4, 2, "n1:c3", job.Backfilled},
	})
	if got := fmt.Sprint(resv[3]); got != "[50 50]" {
		t.Errorf("H's reservations %s, want at 50 at t=1 and t=2", got)
	}
}

// A job beside a reservation on the other node, and one that finds
// nothing free until the first end after the head's start.
//
//	A (t=0): 3 tasks until 100: n1 c0-2. B (t=0): 4 tasks on 1 node
//	until 50: n2.
//	H (t=1): 4 tasks on 1 node: reserved at 50 on n2 (n1 busy to 100).
//	L (t=2): 1 task, 200: beside H's reservation over [2, 202) n1 has
//	   1 free (c3) - it starts there (no repair needed: the
//	   reservation is on n2).
//	M (t=3): 1 task, 10: nothing free now; waits. At 50 H takes n2,
//	   n1 is full (A, L): M starts at 100 (A's end) on n1 c0.
func TestNodesEASYBesideReservation(t *testing.T) {
	one := func(n int) *nodes.Request { return &nodes.Request{Nodes: 1, Tasks: n, CPUsPerTask: 1} }
	runHand(t, 1, []nodeJobSpec{
		{id: 1, submit: 0, est: 100, req: tasks(3)},
		{id: 2, submit: 0, est: 50, req: one(4)},
		{id: 3, submit: 1, est: 100, req: one(4)},
		{id: 4, submit: 2, est: 200, req: tasks(1)},
		{id: 5, submit: 3, est: 10, req: tasks(1)},
	}, []wantStart{
		{1, 0, "n1:c0-2", job.Immediate},
		{2, 0, "n2:c4-7", job.Immediate},
		{3, 50, "n2:c4-7", job.Reserved},
		{4, 2, "n1:c3", job.Backfilled},
		{5, 100, "n1:c0", job.Reserved},
	})
}

// Conservative on nodes, every reservation worked by hand (each job
// runs its estimate):
//
//	A (t=0) 4 tasks on 1 node, 100: n1. B (t=0) 2 tasks on 1 node, 50: n2 c4-5.
//	C (t=1) 4 on 1 node, 100: candidates 50, 100: at 50 n2 is free: C at 50 on n2.
//	D (t=2) 4 on 1 node, 30: at 50 n2 holds C, n1 A: no; at 100 n1: D at 100 on n1.
//	E (t=3) 2 on 1 node, 40: over [3, 43) n2 has 2 free (C from 50): starts, c6-7.
//	F (t=4) 1 task, 60: nothing free now. Candidates 43 (E), 50, 100, 130
//	   (D), 150 (C): at 43 and 50 n2 gets C within the hour, n1 A; at 100
//	   n1 has D, n2 C to 150; at 130 n1 is free: F at 130 on n1.
//	At 43 (E ends) F could start on n2 beside the running jobs, but
//	   C's reservation, placed again at 50 beside it, no longer fits
//	   (3 cores on n2, n1 busy): the repair fails, F keeps 130.
//	At 50 C starts; at 100 D; at 130 F.
func TestNodesConservative(t *testing.T) {
	one := func(n int) *nodes.Request { return &nodes.Request{Nodes: 1, Tasks: n, CPUsPerTask: 1} }
	resv := runHand(t, Unlimited, []nodeJobSpec{
		{id: 1, submit: 0, est: 100, req: one(4)},
		{id: 2, submit: 0, est: 50, req: one(2)},
		{id: 3, submit: 1, est: 100, req: one(4)},
		{id: 4, submit: 2, est: 30, req: one(4)},
		{id: 5, submit: 3, est: 40, req: one(2)},
		{id: 6, submit: 4, est: 60, req: tasks(1)},
	}, []wantStart{
		{1, 0, "n1:c0-3", job.Immediate},
		{2, 0, "n2:c4-5", job.Immediate},
		{3, 50, "n2:c4-7", job.Reserved},
		{4, 100, "n1:c0-3", job.Reserved},
		{5, 3, "n2:c6-7", job.Backfilled},
		{6, 130, "n1:c0", job.Reserved},
	})
	for id, want := range map[job.ID]string{3: "[50 50 50 50 50]", 4: "[100 100 100 100 100]", 6: "[130 130 130 130]"} {
		if got := fmt.Sprint(resv[id]); got != want {
			t.Errorf("job %d's reservations %s, want %s", id, got, want)
		}
	}
}

// An exclusive job takes a node with no job, all its cores; one that
// finds none waits for a node to empty (EASY).
//
//	A (t=0) 1 task, 100: n1 c0. X (t=1) exclusive 1 task, 50: n2, c4-7.
//	C (t=2) 4 tasks, 10: n1 has 3 free, n2 is whole: reserved at 51.
//	D (t=3) 1 task, 10: over [3, 13) n1 has 3 free: n1 c1.
//	E (t=4) exclusive, 10: n1 has jobs, n2 is whole: waits.
//	At 51 C starts (n1 c1-3, n2 c4); E's reservation: at 61 (C's end) n2
//	   has no job: E starts at 61 on n2.
func TestNodesExclusive(t *testing.T) {
	excl := &nodes.Request{Tasks: 1, CPUsPerTask: 1, Exclusive: true}
	runHand(t, 1, []nodeJobSpec{
		{id: 1, submit: 0, est: 100, req: tasks(1)},
		{id: 2, submit: 1, est: 50, req: excl},
		{id: 3, submit: 2, est: 10, req: tasks(4)},
		{id: 4, submit: 3, est: 10, req: tasks(1)},
		{id: 5, submit: 4, est: 10, req: excl},
	}, []wantStart{
		{1, 0, "n1:c0", job.Immediate},
		{2, 1, "n2:c4-7!", job.Immediate},
		{3, 51, "n1:c1-3,n2:c4", job.Reserved},
		{4, 3, "n1:c1", job.Backfilled},
		{5, 61, "n2:c4-7!", job.Reserved},
	})
}

// A job of exactly 2 nodes: its share (2 tasks a node) skips n1 (1
// free) and is not tried again, so it waits for A's end; a 1-task job
// backfills on n1 meanwhile (EASY).
//
//	A (t=0) 3 tasks, 100: n1 c0-2. P (t=1) 4 tasks on exactly 2 nodes,
//	50: n1 skipped, n2 takes 3, no node left: reserved at 100, where n1
//	takes 3 (one left for n2) and n2 1. Q (t=2) 1 task, 20: n1 c3.
func TestNodesTwoNodeJob(t *testing.T) {
	runHand(t, 1, []nodeJobSpec{
		{id: 1, submit: 0, est: 100, req: tasks(3)},
		{id: 2, submit: 1, est: 50, req: &nodes.Request{Nodes: 2, Tasks: 4, CPUsPerTask: 1}},
		{id: 3, submit: 2, est: 20, req: tasks(1)},
	}, []wantStart{
		{1, 0, "n1:c0-2", job.Immediate},
		{2, 100, "n1:c0-2,n2:c4", job.Reserved},
		{3, 2, "n1:c3", job.Backfilled},
	})
}
