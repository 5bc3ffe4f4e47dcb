package engine_test

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/nodecheck"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
)

// Partitions of nodes with unavailable nodes (nodepartsavail.go):
// windows cut to each partition's nodes, down nodes in its view, a
// change of availability on its nodes a reason to pass. Two nodes of 4
// cores, n1 (cores 0-3) and n2 (4-7), EASY in every partition,
// runtimes the estimates.

type nodePartRun struct {
	start, end float64
	alloc      string
	killed     bool
}

func runNodePartsAvail(t *testing.T, ps []engine.NodePartition, av *engine.NodeAvailability, jobs []actual.Job, want map[job.ID]nodePartRun) {
	t.Helper()
	plat := mustNodes(t, "n[1-2]:cores=4")
	l := newNodeLog(t, plat)
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: plat, Partitions: ps, Source: workload.FromSlice(jobs), Listener: l, Availability: av})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	for id, w := range want {
		x := l.runs[id]
		if x == nil {
			t.Fatalf("job %d did not run", id)
		}
		if got := allocText(plat, x.alloc); x.start != w.start || x.end != w.end || got != w.alloc || x.killed != w.killed {
			t.Errorf("job %d: [%g, %g) on %s killed=%v, want [%g, %g) on %s killed=%v", id, x.start, x.end, got, x.killed, w.start, w.end, w.alloc, w.killed)
		}
	}
	recs := nodeRecs(plat, l)
	for i := range recs {
		recs[i].Allowed = ps[l.runs[job.ID(recs[i].ID)].job.Partition-1].Nodes
	}
	if err := validate.CheckNodes(nodecheck.Caps(plat), recs); err != nil {
		t.Error(err)
	}
}

func tasksReq(n int) nodes.Request { return nodes.Request{Tasks: n, CPUsPerTask: 1} }

// Disjoint partitions A = n1 (number 1), B = n2 (number 2), a window
// [10, 50) on n2, told to B alone (in B's ids: its node 0).
//
//	J1 B t=0 4 tasks, 20 s: [0, 20) runs into the window at 10: B
//	   reserves it at 50, the window's end.
//	J2 A t=0 4 tasks, 100 s: n1, [0, 100).
//	J3 B t=1 2 tasks, 5 s: ends at 6, before the window and J1's
//	   reservation: backfilled on n2 (4-5).
//	J4 A t=2 1 task, 10 s: A's node is full until 100 (the window is
//	   not A's): n1 core 0 at 100.
//	t=50: the window ends; B passes (a change on its node, nothing of
//	   its own happens then): J1 on n2, [50, 70).
func TestNodePartitionsWindowDisjoint(t *testing.T) {
	ns := mustNodes(t, "n[1-2]:cores=4")
	ps := []engine.NodePartition{partOf(t, ns, "A", []int{0}, "easy", false, 1), partOf(t, ns, "B", []int{1}, "easy", false, 2)}
	av := &engine.NodeAvailability{Windows: []policy.NodeWindow{{Start: 10, End: 50, Nodes: platform.Runs{1, 1}}}}
	jobs := []actual.Job{
		inPart(nj(1, 0, 20, 20, tasksReq(4)), 2),
		inPart(nj(2, 0, 100, 100, tasksReq(4)), 1),
		inPart(nj(3, 1, 5, 5, tasksReq(2)), 2),
		inPart(nj(4, 2, 10, 10, tasksReq(1)), 1),
	}
	runNodePartsAvail(t, ps, av, jobs, map[job.ID]nodePartRun{
		1: {50, 70, "n2:4-7/t4", false}, 2: {0, 100, "n1:0-3/t4", false}, 3: {1, 6, "n2:4-5/t2", false}, 4: {100, 110, "n1:0", false}})
}

// Overlapping partitions A = n[1-2] (number 1, first), B = n2 (number
// 2), a window [10, 50) on n2, told to both (A's node 1, B's node 0).
//
//	J1 A t=0 8 tasks, 5 s: ends before the window: n1 and n2, [0, 5).
//	J2 B t=1 1 task, 20 s: n2 is J1's until 5, and [5, 25) runs into
//	   the window: reserved at 50.
//	J3 A t=2 2 tasks, 30 s: reserved at 5, on n1 (first fit; n2 is in
//	   the window from 10).
//	J5 A t=3 4 tasks, 10 s: waits (one reservation).
//	t=5: J1 ends; A passes first: J3 on n1 (0-1), [5, 35). J5, A's head
//	   now: 2 cores free on n1, and n2's window begins at 10, before
//	   J5's end: reserved at 35 on n1. B: J2 still runs into the window.
//	t=35: J3 ends; J5 on n1 (0-3), [35, 45).
//	t=50: the window ends; B: J2 on n2 core 4, [50, 70).
func TestOverlappingNodePartitionsWindow(t *testing.T) {
	ns := mustNodes(t, "n[1-2]:cores=4")
	ps := []engine.NodePartition{partOf(t, ns, "A", []int{0, 1}, "easy", false, 1), partOf(t, ns, "B", []int{1}, "easy", false, 2)}
	av := &engine.NodeAvailability{Windows: []policy.NodeWindow{{Start: 10, End: 50, Nodes: platform.Runs{1, 1}}}}
	jobs := []actual.Job{
		inPart(nj(1, 0, 5, 5, tasksReq(8)), 1),
		inPart(nj(2, 1, 20, 20, tasksReq(1)), 2),
		inPart(nj(3, 2, 30, 30, tasksReq(2)), 1),
		inPart(nj(5, 3, 10, 10, tasksReq(4)), 1),
	}
	runNodePartsAvail(t, ps, av, jobs, map[job.ID]nodePartRun{
		1: {0, 5, "n1:0-3/t4 n2:4-7/t4", false}, 2: {50, 70, "n2:4", false}, 3: {5, 35, "n1:0-1/t2", false}, 5: {35, 45, "n1:0-3/t4", false}})
}

// Overlapping partitions A = n[1-2] (first), B = n2; n2 fails at 10
// (rule kill) and is back at 30.
//
//	J1 B t=0 2 tasks, 100 s: n2 (4-5) from 0; killed at 10.
//	J2 A t=5 8 tasks, 10 s: J1 (foreign) holds n2: reserved at 100.
//	t=10: J1 is killed; n2 is down (B's view and A's show it down). A
//	   down node is held for the instant only: J2 is reserved just
//	   after 10.
//	J3 A t=12 4 tasks, 10 s: n1 is free, but J3 would hold it when J2
//	   is reserved: it waits.
//	J4 B t=15 1 task, 5 s: n2 is down: it waits.
//	t=30: n2 is back; both partitions pass (a change on their nodes),
//	   A first: J2 on n1 and n2, [30, 40); B: J4 waits for it.
//	t=40: J2 ends; A: J3 on n1 (0-3), [40, 50); B: J4 on n2 core 4,
//	   [40, 45).
func TestOverlappingNodePartitionsFailure(t *testing.T) {
	ns := mustNodes(t, "n[1-2]:cores=4")
	ps := []engine.NodePartition{partOf(t, ns, "A", []int{0, 1}, "easy", false, 1), partOf(t, ns, "B", []int{1}, "easy", false, 2)}
	ch := changeSlice{{Time: 10, CPUs: platform.Runs{1, 1}, Down: true}, {Time: 30, CPUs: platform.Runs{1, 1}}}
	av := &engine.NodeAvailability{Failures: &ch, OnFailure: engine.FailKill}
	jobs := []actual.Job{
		inPart(nj(1, 0, 100, 100, tasksReq(2)), 2),
		inPart(nj(2, 5, 10, 10, tasksReq(8)), 1),
		inPart(nj(3, 12, 10, 10, tasksReq(4)), 1),
		inPart(nj(4, 15, 5, 5, tasksReq(1)), 2),
	}
	runNodePartsAvail(t, ps, av, jobs, map[job.ID]nodePartRun{
		1: {0, 10, "n2:4-5/t2", true}, 2: {30, 40, "n1:0-3/t4 n2:4-7/t4", false}, 3: {40, 50, "n1:0-3/t4", false}, 4: {40, 45, "n2:4", false}})
}

// Random platforms, 2 or 3 random overlapping partitions under fcfs,
// easy or conservative, random windows and failures (rule kill or
// requeue, every other seed): every run ends, passes the checker
// (capacity over all partitions, each job on its partition's nodes; a
// requeued job by its last attempt), no job holds a node over a window
// or a failure of it (a job the failure hit ends at the failure), and
// every attempt cut short was cut at the start of a window or failure.
func TestNodePartitionsAvailRandomInvariants(t *testing.T) {
	runs := 40
	if testing.Short() {
		runs = 10
	}
	requeued := 0
	for seed := 0; seed < runs; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 44))
		ns := randomNodes(t, r)
		k := 2 + r.IntN(2)
		sets := make([][]int, k)
		for n := range ns.Len() {
			in := false
			for p := range sets {
				if r.IntN(2) == 0 {
					sets[p], in = append(sets[p], n), true
				}
			}
			if !in {
				p := r.IntN(k)
				sets[p] = append(sets[p], n)
			}
		}
		var ps []engine.NodePartition
		for p := range sets {
			if len(sets[p]) == 0 {
				sets[p] = []int{r.IntN(ns.Len())}
			}
			ps = append(ps, partOf(t, ns, string(rune('a'+p)), sets[p], []string{"fcfs", "easy", "conservative"}[r.IntN(3)], false, int32(p)))
		}
		// per node: off intervals, windows and failures, disjoint
		type span struct{ from, to float64 }
		off := make([][]span, ns.Len())
		var ws []policy.NodeWindow
		var ch changeSlice
		for nd := range ns.Len() {
			at := float64(r.IntN(20))
			for range 1 + r.IntN(3) {
				from, to := at, at+float64(1+r.IntN(15))
				off[nd] = append(off[nd], span{from, to})
				if r.IntN(2) == 0 {
					ws = append(ws, policy.NodeWindow{Start: from, End: to, Nodes: platform.Runs{int32(nd), int32(nd)}})
				} else {
					ch = append(ch, engine.Change{Time: from, CPUs: platform.Runs{int32(nd), int32(nd)}, Down: true},
						engine.Change{Time: to, CPUs: platform.Runs{int32(nd), int32(nd)}})
				}
				at = to + float64(1+r.IntN(20))
			}
		}
		slices.SortStableFunc(ch, func(a, b engine.Change) int { return cmp.Compare(a.Time, b.Time) })
		var jobs []actual.Job
		for _, j := range randomNodeJobs(ns, r, 60) {
			j.Partition = int32(r.IntN(k))
			sub, _ := engine.PartitionNodes(ns, ps[j.Partition].Nodes)
			q := nodes.FromProcs(j.Procs)
			if j.Req != nil {
				q = *j.Req
			}
			if nodes.Fits(sub, q) && j.Estimate > 0 {
				jobs = append(jobs, j)
			}
		}
		rule := []engine.OnFailure{engine.FailKill, engine.FailRequeue}[seed%2]
		al := &availLog{nodeLog: newNodeLog(t, ns)}
		l := al.nodeLog
		c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Partitions: ps, Source: workload.FromSlice(jobs), Listener: al,
			Availability: &engine.NodeAvailability{Windows: ws, Failures: &ch, OnFailure: rule}})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := c.Run(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		recs := nodeRecs(ns, l)
		for i := range recs {
			recs[i].Allowed = ps[l.runs[job.ID(recs[i].ID)].job.Partition].Nodes
		}
		if err := validate.CheckNodes(nodecheck.Caps(ns), recs); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for _, cut := range al.cut { // "id start-end cpus requeued=..."
			var id job.ID
			var from, to float64
			if _, err := fmt.Sscanf(cut, "%d %g-%g", &id, &from, &to); err != nil {
				t.Fatalf("seed %d: %q: %v", seed, cut, err)
			}
			hit := false
			for _, offs := range off {
				for _, o := range offs {
					hit = hit || o.from == to
				}
			}
			if !hit {
				t.Fatalf("seed %d: job %d cut at %g, when no node became unavailable", seed, id, to)
			}
			if strings.HasSuffix(cut, "requeued=true") {
				requeued++
			}
		}
		for id, x := range l.runs {
			for _, na := range x.alloc.Nodes {
				for _, o := range off[na.Node] {
					if x.start < o.to && o.from < x.end {
						t.Fatalf("seed %d: job %d holds node %s over [%g, %g), unavailable over [%g, %g)", seed, id, ns.Name(na.Node), x.start, x.end, o.from, o.to)
					}
				}
			}
		}
	}
	if requeued == 0 {
		t.Fatal("no job was requeued: the rule requeue is not exercised")
	}
}

// A policy that reads the view and names no allocation (viewFCFS) in
// each of two disjoint partitions, A = n1 (number 1) and B = n2 (number
// 2): its view shows its unavailable node with no free core and the
// down one in DownNodes (in its ids), and the model's allocation within
// the partition keeps clear of windows. n2 fails at 5 (rule kill) and
// is back at 8; a window holds it over [20, 30).
//
//	J3 A t=0 4 procs, 50 s: n1, [0, 50).
//	J1 B t=0 4 procs, 10 s: n2 from 0, killed at 5.
//	J2 B t=1 4 procs, 3 s: waits; at 5 B's view shows n2 down, no core
//	   free (DownNodes [0]); at 8 n2 is back and B passes: [8, 11).
//	J4 B t=12 4 procs, 5 s: ends before the window: n2, [12, 17).
//	J5 B t=21 1 proc, 2 s: n2 is in the window, its view shows no free
//	   core: at 30, when the window ends, [30, 32).
func TestNodePartitionsViewShowsUnavailable(t *testing.T) {
	a, b := &viewFCFS{}, &viewFCFS{}
	ps := []engine.NodePartition{{Name: "A", Nodes: []int{0}, Numbers: []int32{1}, Policy: a}, {Name: "B", Nodes: []int{1}, Numbers: []int32{2}, Policy: b}}
	ch := changeSlice{{Time: 5, CPUs: platform.Runs{1, 1}, Down: true}, {Time: 8, CPUs: platform.Runs{1, 1}}}
	av := &engine.NodeAvailability{Windows: []policy.NodeWindow{{Start: 20, End: 30, Nodes: platform.Runs{1, 1}}}, Failures: &ch, OnFailure: engine.FailKill}
	in := func(j actual.Job, p int32) actual.Job { j.Partition = p; return j }
	jobs := []actual.Job{in(pjob(3, 0, 4, 50), 1), in(pjob(1, 0, 4, 10), 2), in(pjob(2, 1, 4, 3), 2), in(pjob(4, 12, 4, 5), 2), in(pjob(5, 21, 1, 2), 2)}
	runNodePartsAvail(t, ps, av, jobs, map[job.ID]nodePartRun{
		3: {0, 50, "n1:0-3/t4", false}, 1: {0, 5, "n2:4-7/t4", true}, 2: {8, 11, "n2:4-7/t4", false},
		4: {12, 17, "n2:4-7/t4", false}, 5: {30, 32, "n2:4", false}})
	sawDown := false
	for _, d := range b.down {
		if len(d) == 1 && d[0] == 0 {
			sawDown = true
		} else if len(d) != 0 {
			t.Errorf("B's view: down nodes %v, want [] or [0]", d)
		}
	}
	for _, d := range a.down {
		if len(d) != 0 {
			t.Errorf("A's view: down nodes %v, want none (n2 is not A's)", d)
		}
	}
	if !sawDown {
		t.Errorf("B's view never showed n2 down: %v", b.down)
	}
}
