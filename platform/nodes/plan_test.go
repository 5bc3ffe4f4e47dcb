package nodes

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/validate"
)

// EASY on nodes, by hand, on 2 nodes x 4 cores x 2 GPUs: J1 holds n1's
// cores 0-2 until 10, J2 all of n2's cores until 20. The head J3 (2
// tasks on 1 node, 2 GPUs per node, estimate 30) fits nowhere now; at 10
// n1 is free: its reservation is n1's cores 0-1 and GPUs 0-1 over
// [10, 40). A 1-CPU job of estimate 50 backfills now on n1's core 3
// (not in the reservation, although it runs past the shadow time 10); a
// job of 1 CPU and 1 GPU of estimate 50 does not (n1's GPUs are
// reserved from 10, n2 has no core), but with estimate 5 it does (it
// ends before the shadow time).
func TestPlanEASYOnNodes(t *testing.T) {
	ns := twoNodes(t)
	p := NewPlan(ns)
	s := NewState(ns)
	j1 := mustAlloc(t, s, Request{Tasks: 3, CPUsPerTask: 1})
	j2 := mustAlloc(t, s, Request{Nodes: 1, Tasks: 4, CPUsPerTask: 1})
	if !slices.Equal(where(j1), []int{0}) || !slices.Equal(where(j2), []int{1}) {
		t.Fatalf("setup: J1 on %v, J2 on %v", where(j1), where(j2))
	}
	p.Add(1, 0, 10, j1)
	p.Add(2, 0, 20, j2)
	j3 := Request{Nodes: 1, Tasks: 2, CPUsPerTask: 1, GRESPerNode: []GRES{{"gpu", "", 2}}}
	at, res, ok := p.Earliest(j3, 0, 30)
	if !ok || at != 10 || !slices.Equal(where(res), []int{0}) || !slices.Equal(res.Nodes[0].Cores, []int{0, 1}) || !slices.Equal(res.Nodes[0].GRES[0].Units, []int{0, 1}) {
		t.Fatalf("J3's reservation: at %v on %+v (%v), want 10 on n1 cores 0 1, gpus 0 1", at, res.Nodes, ok)
	}
	p.Add(3, at, at+30, res)
	cpu := Request{Tasks: 1, CPUsPerTask: 1}
	a, ok := p.During(0, 50).Alloc(cpu)
	if !ok || !slices.Equal(a.Nodes[0].Cores, []int{3}) {
		t.Fatalf("1 CPU for 50 s: %+v %v, want n1 core 3 now", a.Nodes, ok)
	}
	gpu := Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []GRES{{"gpu", "", 1}}}
	if _, ok := p.During(0, 50).Alloc(gpu); ok {
		t.Fatal("1 CPU + 1 GPU for 50 s starts now, on the reserved GPUs")
	}
	b, ok := p.During(0, 5).Alloc(gpu)
	if !ok || where(b)[0] != 0 || b.Nodes[0].GRES[0].Units[0] != 0 {
		t.Fatalf("1 CPU + 1 GPU for 5 s: %+v %v, want n1 with GPU 0 now", b.Nodes, ok)
	}
	if !Overlaps(res, b) || Overlaps(res, a) {
		t.Fatal("Overlaps: the 5 s GPU job shares GPU 0 with the reservation, the CPU job nothing")
	}
}

// Conservative on nodes, by hand: on one node of 4 cores, J1 (4 cores,
// 10 s) runs; J2 (2 cores, 10 s) is planned at 10 on cores 0-1; J3 (4
// cores, 5 s) at 20 (after J2: at 10 only 2 cores are free over
// [10, 15)); J4 (2 cores, 10 s) at 10 beside J2 on cores 2-3; J5 (1 core,
// 100 s) at 25, after J3.
func TestPlanConservativeOnNodes(t *testing.T) {
	ns := twoNodes(t, "n1:cores=4")
	p := NewPlan(ns)
	plan := func(id int64, tasks int, d float64, want float64, cores []int) {
		t.Helper()
		at, a, ok := p.Earliest(Request{Tasks: tasks, CPUsPerTask: 1}, 0, d)
		if !ok || at != want || !slices.Equal(a.Nodes[0].Cores, cores) {
			t.Fatalf("J%d: at %v cores %v (%v), want %v cores %v", id, at, a.Nodes, ok, want, cores)
		}
		p.Add(id, at, at+d, a)
	}
	plan(1, 4, 10, 0, []int{0, 1, 2, 3})
	plan(2, 2, 10, 10, []int{0, 1})
	plan(3, 4, 5, 20, []int{0, 1, 2, 3})
	plan(4, 2, 10, 10, []int{2, 3})
	plan(5, 1, 100, 25, []int{0})
}

// Memory over an interval is the peak held at one instant: two 600 MB
// holds one after the other on a 1000 MB node leave 400 MB over an
// interval covering both, not -200.
func TestPlanMemoryPeak(t *testing.T) {
	ns := twoNodes(t, "n1:cores=4:mem=1000M")
	p := NewPlan(ns)
	r := Request{Tasks: 1, CPUsPerTask: 1, MemPerNodeMB: 600}
	a := mustAlloc(t, NewState(ns), r)
	p.Add(1, 0, 10, a)
	at, b, ok := p.Earliest(r, 0, 10)
	if !ok || at != 10 {
		t.Fatalf("second 600 MB job at %v (%v), want 10", at, ok)
	}
	p.Add(2, at, at+10, b)
	if got := p.During(0, 20).FreeMemMB(0); got != 400 {
		t.Fatalf("free memory over [0, 20): %d MB, want 400", got)
	}
	if _, ok := p.During(5, 15).Alloc(Request{Tasks: 1, CPUsPerTask: 1, MemPerNodeMB: 400}); !ok {
		t.Fatal("400 MB does not fit beside one 600 MB hold at a time")
	}
}

// Conservative backfilling of random requests on random platforms
// through Plan, each job running exactly its estimate from its planned
// start: the independent checker accepts every schedule, and no job
// starts before its submission.
func TestPlanConservativeAgainstChecker(t *testing.T) {
	runs := 200
	if testing.Short() {
		runs = 40
	}
	for seed := 0; seed < runs; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		ns := randomPlatform(t, r)
		p := NewPlan(ns)
		var recs []validate.NodeRec
		for i := 0; i < 30; i++ {
			q := randomRequest(r)
			if !Fits(ns, q) {
				continue
			}
			submit, d := float64(i), float64(1+r.IntN(20))
			at, a, ok := p.Earliest(q, submit, d)
			if !ok || at < submit {
				t.Fatalf("seed %d job %d: at %v (%v), submitted %v", seed, i, at, ok, submit)
			}
			p.Add(int64(i), at, at+d, a)
			recs = append(recs, toRec(ns, int64(i), at, at+d, q, a))
		}
		if err := validate.CheckNodes(capsOf(ns), recs); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
}
