package nodes

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// consState is a State of eight nodes n1..n8 of four cores on which the
// cores of busy are held (busy[i] cores of node i, by one-core tasks of
// one node each), its selector following rule.
func consState(t *testing.T, rule SelectRule, busy []int, specs ...string) *State {
	t.Helper()
	if specs == nil {
		specs = []string{"n[1-8]:cores=4"}
	}
	s := NewState(twoNodes(t, specs...))
	s.Selector().SetRule(rule)
	for id, b := range busy {
		for range b {
			sel := Selection{k: s.Selector().K, Picks: []Pick{{Node: id, Tasks: 1, Cores: 1}}}
			sel.units = make([]int, sel.k)
			s.Assign(&sel)
		}
	}
	return s
}

// The cases worked out by hand, each under both rules (ids from 0: n1 is
// node 0).
//
//   - The real Slurm's job 4 (TestSlurmPolicyNodesForReal): -N 3 -n 3
//     with n1, n2, n4 full, n3 with 2 cores free, n5-n8 with 3. The
//     candidates fall into the runs {n3} (2 tasks) and {n5..n8} (12);
//     {n3} cannot hold 3 tasks on 3 nodes, {n5..n8} can: it is taken,
//     its nodes in order, one task each: n5, n6, n7 (Slurm 22.05 put the
//     job on n[5-7]). First fit takes n3, n5, n6.
//   - One task, n1 with 4 free, n2 full, n3 with 1: runs {n1} (4) and
//     {n3} (1), both hold it; the tightest is {n3}. First fit: n1.
//   - Two tasks on one node, n1..n3 with 3, 1, 2 free (n4..n8 full): one
//     run of 6; one node more is needed, so the node holding the 2
//     tasks most tightly, n3 (2). First fit: n1.
//   - Three tasks, n1 weight 1 with 2 free, n2 weight 5 with 4: the runs
//     {n1} and {n2} split at the weight; the lower weight is taken
//     first though it cannot hold all (2 tasks), then {n2} (1 task).
//     First fit (weight, id): the same.
//   - -N 2 -n 6 with n1..n3 free 1, 4, 2 (one run of 7): n1 takes 1 task
//     (leaving one for the second node), then only one node is allowed
//     and neither n2 (4) nor n3 (2) holds the other 5: Slurm's greedy
//     pass finds no nodes, though n2 + n3 would hold it, and the
//     first-fit rule decides: its share rule skips n1 (below 3) and
//     takes n2 (4) and n3 (2).
func TestConsTRESByHand(t *testing.T) {
	full := func(free ...int) []int {
		busy := make([]int, 8)
		for i := range busy {
			busy[i] = 4
			if i < len(free) {
				busy[i] = 4 - free[i]
			}
		}
		return busy
	}
	for _, c := range []struct {
		name      string
		specs     []string
		busy      []int
		r         Request
		cons, ff  []int // nodes taken (nil: no fit)
		consTasks []int
	}{
		{"slurm job 4", nil, full(0, 0, 2, 0, 3, 3, 3, 3), Request{Nodes: 3, Tasks: 3, CPUsPerTask: 1}, []int{4, 5, 6}, []int{2, 4, 5}, []int{1, 1, 1}},
		{"tightest run", nil, full(4, 0, 1), Request{Tasks: 1, CPUsPerTask: 1}, []int{2}, []int{0}, []int{1}},
		{"tightest node", nil, full(3, 1, 2), Request{Nodes: 1, Tasks: 2, CPUsPerTask: 1}, []int{2}, []int{0}, []int{2}},
		{"weight first", []string{"n1:cores=4:weight=1", "n2:cores=4:weight=5"}, []int{2, 0}, Request{Tasks: 3, CPUsPerTask: 1}, []int{0, 1}, []int{0, 1}, []int{2, 1}},
		{"greedy", nil, full(1, 4, 2), Request{Nodes: 2, Tasks: 6, CPUsPerTask: 1}, []int{1, 2}, []int{1, 2}, []int{4, 2}},
	} {
		for _, rule := range []SelectRule{ConsTRES, FirstFit} {
			s := consState(t, rule, c.busy, c.specs...)
			sel := s.Selector()
			p, err := sel.Prepare(c.r)
			if err != nil {
				t.Fatal(err)
			}
			var out Selection
			ok := sel.Select(s, p, &out)
			var got, tasks []int
			for _, pk := range out.Picks {
				got, tasks = append(got, pk.Node), append(tasks, pk.Tasks)
			}
			want := c.ff
			if rule == ConsTRES {
				want = c.cons
			}
			switch {
			case !ok && want != nil:
				t.Errorf("%s, %s: no fit, want nodes %v", c.name, rule, want)
			case ok && want == nil:
				t.Errorf("%s, %s: nodes %v, want no fit", c.name, rule, got)
			case ok && !slices.Equal(got, want):
				t.Errorf("%s, %s: nodes %v, want %v", c.name, rule, got, want)
			case ok && rule == ConsTRES && !slices.Equal(tasks, c.consTasks):
				t.Errorf("%s, %s: tasks %v, want %v", c.name, rule, tasks, c.consTasks)
			}
		}
	}
}

// Every selection the ConsTRES rule makes is a valid allocation of its
// request on what is free (CheckAlloc, CheckFree), on random platforms
// and requests over random loads; it places every request first fit
// places (where Slurm's greedy pass finds nothing, first fit decides);
// and without a node bound or GRES per job Slurm's pass places a
// request exactly when first fit does (both then fit when the
// candidates hold the tasks). With a node bound either may find nodes
// where the other does not: first fit's share rule passes over a node
// that cannot hold an even share, Slurm's pass over nodes that cannot
// hold the rest.
func TestConsTRESValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 40))
	fits, parted := 0, 0
	for round := range 300 {
		specs := []string{"n[1-6]:cores=4:mem=1000M", "g[1-3]:cores=8:mem=2000M:gres=gpu:a100=2:weight=2", "m[1-2]:cores=2:mem=500M:features=big"}
		if round%2 == 1 {
			specs = []string{"n[1-12]:cores=4:mem=1000M"}
		}
		ns := twoNodes(t, specs...)
		s := NewState(ns) // loaded by first fit
		for range rng.IntN(12) {
			s.Alloc(Request{Tasks: 1 + rng.IntN(6), CPUsPerTask: 1, MemPerCPUMB: int64(rng.IntN(3) * 100)})
		}
		ff, cons := s.Selector(), NewSelector(ns)
		cons.SetRule(ConsTRES)
		for range 20 {
			r := Request{Tasks: 1 + rng.IntN(10), CPUsPerTask: 1 + rng.IntN(2)}
			switch rng.IntN(5) {
			case 0:
				r.Nodes = 1 + rng.IntN(min(r.Tasks, 4))
			case 1:
				r.Nodes = 1 + rng.IntN(min(r.Tasks, 3))
				r.MaxNodes = min(r.Nodes+rng.IntN(3), r.Tasks)
			case 2:
				r.MemPerNodeMB = int64(100 * rng.IntN(12))
			case 3:
				r.GRESPerJob = []GRES{{"gpu", "", 1 + rng.IntN(3)}}
			case 4:
				r.Exclusive = rng.IntN(2) == 0
			}
			if r.MaxNodes <= r.Nodes {
				r.MaxNodes = 0
			}
			if err := r.Check(); err != nil {
				continue
			}
			p, err := cons.Prepare(r)
			if err != nil {
				t.Fatal(err)
			}
			var out, ffOut Selection
			ok := cons.Select(s, p, &out)
			ffOK := ff.Select(s, p, &ffOut)
			if ffOK && !ok {
				t.Fatalf("round %d: %v: first fit places it, ConsTRES does not", round, r)
			}
			var scratch Selection
			pass := cons.pickConsTRES(s, p, &scratch) == 0 && len(scratch.Picks) >= p.minN
			if r.Nodes == 0 && r.MaxNodes == 0 && len(r.GRESPerJob) == 0 && pass != ffOK {
				t.Fatalf("round %d: %v: without a node bound, Slurm's pass places it %v, first fit %v", round, r, pass, ffOK)
			}
			if ok && !pass {
				parted++
			}
			if !ok {
				continue
			}
			fits++
			a := s.Assign(&out)
			if err := ns.CheckAlloc(r, a); err != nil {
				t.Fatalf("round %d: %v: %v", round, r, err)
			}
			s.Release(a)
			if err := s.CheckFree(a); err != nil {
				t.Fatalf("round %d: %v: %v on what is free", round, r, err)
			}
		}
	}
	if fits < 2000 {
		t.Errorf("only %d selections fitted: the test tries little", fits)
	}
	t.Logf("%d ConsTRES selections checked; in %d Slurm's greedy pass found nothing and first fit decided", fits, parted)
}
