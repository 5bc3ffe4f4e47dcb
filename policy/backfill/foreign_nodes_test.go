package backfill

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
	"github.com/schedlab/schedlab/policy"
)

// Foreign jobs on nodes (policy.NodeForeignLoad), driven by hand on one
// node of 4 cores (0-3) under EASY: a foreign job is planned as a
// running job of its own until its estimated end; an early release
// frees its cores at once; one past its end holds them for the instant
// only.
//
//	t=0: a foreign job holds cores 0-1 until 50. J1 (4 tasks, 10 s)
//	   cannot start: reserved at 50.
//	t=1: J2 (2 tasks, 60 s) would hold 2-3 past 50: it waits.
//	t=2: J3 (2 tasks, 40 s) ends at 42: backfilled on 2-3.
//	t=20: the foreign job ends early: J1 is reserved at 42 (J3's end).
//	t=42: J3 ends: J1 starts on 0-3.
//	t=52: J1 ends; a foreign job holds 0-1 until 55; J2 starts beside
//	   it on 2-3, until 112. At 60 the foreign job is past its end: J4
//	   (2 tasks, 1 s) cannot start, and is reserved just after 60 on
//	   0-1 (held for the instant only), not at 55 nor at J2's end.
func TestNodeForeignJobsHandWorked(t *testing.T) {
	ns := nodestest.Must(t, "n1:cores=4")
	b, err := NewNodePolicy(NodeConfig{Name: "easy", Nodes: ns, Depth: 1, Order: OrderFCFS})
	if err != nil {
		t.Fatal(err)
	}
	var at map[job.ID]float64
	b.SetOnReserve(func(_ float64, id job.ID, t float64) { at[id] = t })
	var plan policy.Plan
	pass := func(now float64) map[job.ID]string {
		t.Helper()
		at = map[job.ID]float64{}
		plan.Reset()
		b.Schedule(now, nil, &plan)
		if err := b.Err(); err != nil {
			t.Fatalf("t=%g: %v", now, err)
		}
		out := map[job.ID]string{}
		for _, s := range plan.Starts {
			var cores []string
			for _, c := range s.Alloc.Nodes[0].Cores {
				cores = append(cores, string(rune('0'+c)))
			}
			out[s.ID] = strings.Join(cores, ",")
		}
		return out
	}
	sub := func(now float64, id job.ID, tasks int, est float64) {
		b.Submit(now, job.Info{ID: id, Submit: now, Procs: tasks, Estimate: est, Req: &nodes.Request{Tasks: tasks, CPUsPerTask: 1}})
	}
	foreign := func(cores ...int) nodes.Allocation {
		return nodes.Allocation{Nodes: []nodes.NodeAlloc{{Node: 0, Tasks: len(cores), Cores: cores}}}
	}
	b.OccupyNodes(0, 100, foreign(0, 1), 50)
	sub(0, 1, 4, 10)
	if got := pass(0); len(got) != 0 || at[1] != 50 {
		t.Fatalf("t=0: starts %v, J1 reserved at %v, want none and 50", got, at)
	}
	sub(1, 2, 2, 60)
	if got := pass(1); len(got) != 0 {
		t.Fatalf("t=1: starts %v, want none", got)
	}
	sub(2, 3, 2, 40)
	if got := pass(2); got[3] != "2,3" || len(got) != 1 {
		t.Fatalf("t=2: starts %v, want J3 on 2,3", got)
	}
	b.ReleaseNodes(20, 999) // never told of: ignored
	b.ReleaseNodes(20, 100)
	if got := pass(20); len(got) != 0 || at[1] != 42 {
		t.Fatalf("t=20: starts %v, J1 reserved at %v, want none and 42", got, at)
	}
	b.Finish(42, 3)
	if got := pass(42); got[1] != "0,1,2,3" || len(got) != 1 {
		t.Fatalf("t=42: starts %v, want J1 on 0-3", got)
	}
	b.Finish(52, 1)
	b.OccupyNodes(52, 101, foreign(0, 1), 55)
	if got := pass(52); got[2] != "2,3" {
		t.Fatalf("t=52: starts %v, want J2 on 2,3", got)
	}
	sub(60, 4, 2, 1)
	if got := pass(60); len(got) != 0 || !(at[4] > 60 && at[4] < 61) {
		t.Fatalf("t=60: starts %v, J4 reserved at %v, want none and just after 60", got, at)
	}
	// A foreign job told twice is an error of the model's, said.
	b.OccupyNodes(60, 101, foreign(0), 70)
	if err := b.Err(); err == nil || !strings.Contains(err.Error(), "foreign job 101 occupies nodes twice") {
		t.Fatalf("twice: %v", err)
	}
}
