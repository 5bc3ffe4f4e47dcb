package nodes

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/validate"
)

// cloneAlloc is a deep copy of a.
func cloneAlloc(a Allocation) Allocation {
	b := Allocation{Exclusive: a.Exclusive, Nodes: make([]NodeAlloc, len(a.Nodes))}
	for i, na := range a.Nodes {
		na.Cores = append([]int(nil), na.Cores...)
		gs := make([]GRESUnits, len(na.GRES))
		for k, g := range na.GRES {
			gs[k] = GRESUnits{Kind: g.Kind, Units: append([]int(nil), g.Units...)}
		}
		na.GRES = gs
		b.Nodes[i] = na
	}
	return b
}

// Random platforms and requests, allocated and released at random: every
// allocation State.Alloc gives passes CheckAlloc; while it is held
// CheckFree refuses it and Occupy fails; once released CheckFree accepts it
// and Occupy takes it again.
func TestCheckAllocAcceptsAlloc(t *testing.T) {
	runs := 200
	if testing.Short() {
		runs = 40
	}
	checked := 0
	for seed := 0; seed < runs; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		ns := randomPlatform(t, r)
		s := NewState(ns)
		var held []Allocation
		for step := 0; step < 60; step++ {
			if len(held) > 0 && r.IntN(3) == 0 {
				k := r.IntN(len(held))
				s.Release(held[k])
				if err := s.CheckFree(held[k]); err != nil {
					t.Fatalf("seed %d: released allocation %+v: %v", seed, held[k], err)
				}
				if !s.Occupy(held[k]) {
					t.Fatalf("seed %d: released allocation %+v not taken again", seed, held[k])
				}
				if err := s.CheckFree(held[k]); err == nil {
					t.Fatalf("seed %d: held allocation %+v said free", seed, held[k])
				}
				s.Release(held[k])
				held = append(held[:k], held[k+1:]...)
				continue
			}
			q := randomRequest(r)
			if q.Check() != nil {
				continue
			}
			a, ok := s.Alloc(q)
			if !ok {
				continue
			}
			checked++
			if err := ns.CheckAlloc(q, a); err != nil {
				t.Fatalf("seed %d: request %s, allocation %+v: %v", seed, q, a, err)
			}
			if err := s.CheckFree(a); err == nil {
				t.Fatalf("seed %d: held allocation %+v said free", seed, a)
			}
			held = append(held, a)
		}
	}
	if checked < runs*10 {
		t.Fatalf("only %d allocations checked", checked)
	}
}

// Random mutations of good allocations (node ids, tasks, cores, memory,
// GRES units, the exclusive flag, nodes dropped or repeated): CheckAlloc
// never panics, and what it accepts the independent checker accepts too
// and an empty state takes (Occupy).
func TestCheckAllocMutations(t *testing.T) {
	runs := 300
	if testing.Short() {
		runs = 60
	}
	accepted, refused := 0, 0
	for seed := 0; seed < runs; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 13))
		ns := randomPlatform(t, r)
		for range 20 {
			q := randomRequest(r)
			if q.Check() != nil {
				continue
			}
			good, ok := NewState(ns).Alloc(q)
			if !ok {
				continue
			}
			a := cloneAlloc(good)
			some := func(n int) int { return r.IntN(n+6) - 3 }
			k := r.IntN(len(a.Nodes))
			na := &a.Nodes[k]
			switch r.IntN(9) {
			case 0:
				na.Node = some(ns.Len())
			case 1:
				na.Tasks = some(q.Tasks)
			case 2:
				if len(na.Cores) > 0 {
					na.Cores[r.IntN(len(na.Cores))] = some(ns.Cores())
				}
			case 3:
				na.Cores = append(na.Cores, some(ns.Cores()))
			case 4:
				na.MemMB = int64(some(5000))
			case 5:
				if len(na.GRES) > 0 && len(na.GRES[0].Units) > 0 {
					na.GRES[0].Units[0] = some(8)
				} else if ks := ns.Kinds(); len(ks) > 0 {
					na.GRES = append(na.GRES, GRESUnits{ks[r.IntN(len(ks))], []int{some(8)}})
				}
			case 6:
				a.Exclusive = !a.Exclusive
			case 7:
				a.Nodes = append(a.Nodes[:k], a.Nodes[k+1:]...)
			case 8:
				a.Nodes = append(a.Nodes, a.Nodes[k])
			}
			if ns.CheckAlloc(q, a) != nil {
				refused++
				continue
			}
			accepted++
			rec := toRec(ns, 1, 0, 1, q, a)
			if err := validate.CheckNodes(capsOf(ns), []validate.NodeRec{rec}); err != nil {
				t.Fatalf("seed %d: request %s: CheckAlloc accepts %+v, the checker: %v", seed, q, a, err)
			}
			if s := NewState(ns); s.CheckFree(a) != nil || !s.Occupy(a) {
				t.Fatalf("seed %d: request %s: CheckAlloc accepts %+v, an empty state does not take it: %v", seed, q, a, s.CheckFree(a))
			}
		}
	}
	if accepted < 100 || refused < 1000 {
		t.Fatalf("%d accepted, %d refused: the mutations test little", accepted, refused)
	}
}

// One hand-made bad allocation per rule, each from the good allocation
// of a request worked out by hand.
func TestCheckAllocRefuses(t *testing.T) {
	ns := twoNodes(t, "a[1-2]:cores=4:threads=2:mem=1000M:gres=gpu:x=2,nvme=1:features=f",
		"b1:cores=2:gres=gpu:y=1:features=g")
	// a1: node 0, cores 0-3, gpu:x 0-1, nvme 0; a2: node 1, cores 4-7,
	// gpu:x 2-3, nvme 1; b1: node 2, cores 8-9, gpu:y 0.
	q := Request{Nodes: 2, Tasks: 4, CPUsPerTask: 2, MemPerCPUMB: 100, GRESPerNode: []GRES{{"gpu", "x", 1}}}
	good, ok := NewState(ns).Alloc(q)
	if !ok {
		t.Fatal("the request does not fit")
	}
	// Worked out: the share of a1 is ceil(4/2) = 2, it holds 4 tasks of one
	// core (2 CPUs: a core of 2 threads) but leaves one for a2: 3 tasks,
	// cores 0-2, 3 x 2 x 100 MB; a2: 1 task, core 4, 200 MB.
	want := Allocation{Nodes: []NodeAlloc{
		{Node: 0, Tasks: 3, Cores: []int{0, 1, 2}, MemMB: 600, GRES: []GRESUnits{{Kind{"gpu", "x"}, []int{0}}}},
		{Node: 1, Tasks: 1, Cores: []int{4}, MemMB: 200, GRES: []GRESUnits{{Kind{"gpu", "x"}, []int{2}}}},
	}}
	if !reflect.DeepEqual(good, want) {
		t.Fatalf("allocation %+v, want %+v", good, want)
	}
	if err := ns.CheckAlloc(q, good); err != nil {
		t.Fatal(err)
	}
	excl := Request{Tasks: 1, CPUsPerTask: 1, Exclusive: true}
	exclGood, _ := NewState(ns).Alloc(excl) // a1 whole: cores 0-3, 1000 MB
	perJob := Request{Tasks: 2, CPUsPerTask: 1, GRESPerJob: []GRES{{"gpu", "", 3}}, Nodes: 2}
	perJobGood, ok := NewState(ns).Alloc(perJob)
	if !ok {
		t.Fatal("the per-job request does not fit")
	}
	cons := Request{Tasks: 1, CPUsPerTask: 1, Constraint: "g"}
	consGood, _ := NewState(ns).Alloc(cons) // b1
	for _, c := range []struct {
		name string
		q    Request
		base Allocation
		bad  func(a *Allocation)
		want string
	}{
		{"node id", q, good, func(a *Allocation) { a.Nodes[1].Node = 7 }, "node id 7"},
		{"node twice", q, good, func(a *Allocation) { a.Nodes[1].Node = 0 }, "node a1: listed twice"},
		{"too few nodes", q, good, func(a *Allocation) { a.Nodes = a.Nodes[:1]; a.Nodes[0].Tasks = 4 }, "1 node(s), the request needs at least 2"},
		{"too many nodes", Request{Tasks: 2, CPUsPerTask: 1, Nodes: 1, MaxNodes: 1}, Allocation{Nodes: []NodeAlloc{
			{Node: 0, Tasks: 1, Cores: []int{0}}, {Node: 1, Tasks: 1, Cores: []int{4}}}}, nil, "2 node(s), the request allows at most 1"},
		{"task sum", q, good, func(a *Allocation) { a.Nodes[0].Tasks, a.Nodes[0].Cores, a.Nodes[0].MemMB = 2, []int{0, 1}, 400 }, "3 task(s) placed, the request has 4"},
		{"node without task", q, good, func(a *Allocation) { a.Nodes[1].Tasks = 0 }, "node a2: 0 task(s)"},
		{"core count", q, good, func(a *Allocation) { a.Nodes[0].Cores = []int{0, 1} }, "node a1: 2 core(s) for 3 task(s)"},
		{"core of another node", q, good, func(a *Allocation) { a.Nodes[1].Cores = []int{3} }, "node a2: core 3 is not the node's"},
		{"cores not increasing", q, good, func(a *Allocation) { a.Nodes[0].Cores = []int{0, 2, 1} }, "node a1: cores 2 then 1"},
		{"core twice", q, good, func(a *Allocation) { a.Nodes[0].Cores = []int{0, 1, 1} }, "node a1: cores 1 then 1"},
		{"memory per cpu", q, good, func(a *Allocation) { a.Nodes[0].MemMB = 300 }, "node a1: memory 300 MB: the request takes 600 MB"},
		{"memory per node", Request{Tasks: 1, CPUsPerTask: 1, MemPerNodeMB: 500}, Allocation{Nodes: []NodeAlloc{{Node: 1, Tasks: 1, Cores: []int{4}, MemMB: 400}}}, nil, "node a2: memory 400 MB: the request takes 500 MB"},
		{"memory beyond the node", Request{Tasks: 1, CPUsPerTask: 1, MemPerNodeMB: 1500}, Allocation{Nodes: []NodeAlloc{{Node: 1, Tasks: 1, Cores: []int{4}, MemMB: 1500}}}, nil, "node a2: memory 1500 MB: the request takes it here, the node has 1000 MB"},
		{"memory not modelled", cons, consGood, func(a *Allocation) { a.Nodes[0].MemMB = 10 }, "node b1: memory 10 MB: the node's memory is not modelled"},
		{"memory not asked", Request{Tasks: 1, CPUsPerTask: 1}, Allocation{Nodes: []NodeAlloc{{Node: 0, Tasks: 1, Cores: []int{0}, MemMB: 1}}}, nil, "node a1: memory 1 MB: the request takes 0 MB"},
		{"exclusive memory", excl, exclGood, func(a *Allocation) { a.Nodes[0].MemMB = 500 }, "node a1: memory 500 MB: an exclusive allocation holds all the node's 1000 MB"},
		{"exclusive cores", excl, exclGood, func(a *Allocation) { a.Nodes[0].Cores = []int{0} }, "node a1: 1 core(s), an exclusive allocation holds all 4"},
		{"exclusive flag", excl, exclGood, func(a *Allocation) { a.Exclusive = false }, "exclusive is false, the request's true"},
		{"gres per node count", q, good, func(a *Allocation) { a.Nodes[1].GRES = nil }, "node a2: gres per node gpu:x: 0 unit(s), the request needs 1"},
		{"gres unit of another node", q, good, func(a *Allocation) { a.Nodes[1].GRES[0].Units = []int{1} }, "node a2: gres gpu:x unit 1 is not the node's (it has units 2..3)"},
		{"gres kind not asked", q, good, func(a *Allocation) {
			a.Nodes[0].GRES = append(a.Nodes[0].GRES, GRESUnits{Kind{"nvme", ""}, []int{0}})
		}, "node a1: gres nvme: the request asks for none"},
		{"gres kind of another node", Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []GRES{{"gpu", "", 1}}}, Allocation{Nodes: []NodeAlloc{{Node: 2, Tasks: 1, Cores: []int{8}, GRES: []GRESUnits{{Kind{"gpu", "x"}, []int{0}}}}}}, nil, "node b1: gres gpu:x unit 0: the node has no gpu:x"},
		{"gres units twice", q, good, func(a *Allocation) { a.Nodes[0].GRES[0].Units = []int{0, 0} }, "node a1: gres gpu:x units 0 then 0"},
		{"gres kind twice", q, good, func(a *Allocation) {
			a.Nodes[0].GRES = append(a.Nodes[0].GRES, GRESUnits{Kind{"gpu", "x"}, []int{1}})
		}, "node a1: gres gpu:x: listed twice"},
		{"gres per job", perJob, perJobGood, func(a *Allocation) { a.Nodes[0].GRES[0].Units = a.Nodes[0].GRES[0].Units[:1] }, "gres per job gpu: 2 unit(s) beyond the gres per node, the request needs 3"},
		{"constraint", cons, consGood, func(a *Allocation) { a.Nodes[0].Node, a.Nodes[0].Cores = 0, []int{0} }, `node a1: features [f] do not satisfy the constraint "g"`},
	} {
		a := cloneAlloc(c.base)
		if c.bad != nil {
			c.bad(&a)
		}
		err := ns.CheckAlloc(c.q, a)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
		if c.bad != nil {
			if err := ns.CheckAlloc(c.q, c.base); err != nil {
				t.Errorf("%s: the good allocation: %v", c.name, err)
			}
		}
	}
}

// CheckFree names the node and the resource that is not free.
func TestCheckFree(t *testing.T) {
	ns := twoNodes(t, "a[1-2]:cores=4:mem=1000M:gres=gpu=2")
	s := NewState(ns)
	held, _ := s.Alloc(Request{Tasks: 2, CPUsPerTask: 1, MemPerNodeMB: 800, GRESPerNode: []GRES{{"gpu", "", 1}}}) // a1: cores 0-1, gpu 0
	whole, _ := s.Alloc(Request{Tasks: 1, CPUsPerTask: 1, Exclusive: true})                                       // a2
	_ = held
	for _, c := range []struct {
		a    Allocation
		want string
	}{
		{Allocation{Nodes: []NodeAlloc{{Node: 0, Tasks: 1, Cores: []int{1}}}}, "node a1: core 1 is busy"},
		{Allocation{Nodes: []NodeAlloc{{Node: 0, Tasks: 1, Cores: []int{2}, GRES: []GRESUnits{{Kind{"gpu", ""}, []int{0}}}}}}, "node a1: gres gpu unit 0 is busy"},
		{Allocation{Nodes: []NodeAlloc{{Node: 0, Tasks: 1, Cores: []int{2}, MemMB: 300}}}, "node a1: memory 300 MB is not free (200 MB free)"},
		{Allocation{Nodes: []NodeAlloc{{Node: 1, Tasks: 1, Cores: []int{5}}}}, "node a2 is not free: an exclusive job holds it whole"},
		{Allocation{Exclusive: true, Nodes: []NodeAlloc{{Node: 0, Tasks: 1, Cores: []int{2, 3}}}}, "node a1 is not free for an exclusive allocation: 1 job(s) run on it"},
	} {
		if err := s.CheckFree(c.a); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.a, err, c.want)
		}
		if s.Occupy(c.a) {
			t.Errorf("%+v: Occupy took it", c.a)
		}
	}
	if err := s.CheckFree(Allocation{Nodes: []NodeAlloc{{Node: 0, Tasks: 1, Cores: []int{2}, MemMB: 200, GRES: []GRESUnits{{Kind{"gpu", ""}, []int{1}}}}}}); err != nil {
		t.Errorf("free resources: %v", err)
	}
	if s.Jobs(0) != 1 || s.Jobs(1) != 1 || s.Whole(0) || !s.Whole(1) {
		t.Errorf("Jobs %d %d, Whole %v %v: want 1 1 false true", s.Jobs(0), s.Jobs(1), s.Whole(0), s.Whole(1))
	}
	s.Release(whole)
	if s.Jobs(1) != 0 || s.Whole(1) {
		t.Errorf("after release: Jobs %d Whole %v", s.Jobs(1), s.Whole(1))
	}
}
