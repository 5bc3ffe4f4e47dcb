package nodes

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// twoNodes is the platform: 2 nodes x 4 cores x 2 GPUs, 1000 MB
// each; n1 has feature a, n2 feature b; n2 weighs less when weighted.
func twoNodes(t *testing.T, specs ...string) *Nodes {
	t.Helper()
	if specs == nil {
		specs = []string{"n1:cores=4:mem=1000M:gres=gpu=2:features=a", "n2:cores=4:mem=1000M:gres=gpu=2:features=b"}
	}
	var gs []NodeGroup
	for _, s := range specs {
		g, err := ParseGroup(s)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	ns, err := New(gs)
	if err != nil {
		t.Fatal(err)
	}
	return &ns
}

func mustAlloc(t *testing.T, s *State, r Request) Allocation {
	t.Helper()
	if err := r.Check(); err != nil {
		t.Fatal(err)
	}
	a, ok := s.Alloc(r)
	if !ok {
		t.Fatalf("%v does not fit", r)
	}
	return a
}

func where(a Allocation) []int {
	var ids []int
	for _, na := range a.Nodes {
		ids = append(ids, na.Node)
	}
	return ids
}

// A GPU job waits for GPUs while cores are free, and a CPU job fits
// beside it.
func TestAllocGPUWaitsCPUFits(t *testing.T) {
	ns := twoNodes(t)
	s := NewState(ns)
	gpu2 := Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []GRES{{"gpu", "", 2}}}
	a := mustAlloc(t, s, gpu2)
	b := mustAlloc(t, s, gpu2)
	if !slices.Equal(where(a), []int{0}) || !slices.Equal(where(b), []int{1}) {
		t.Fatalf("GPU jobs on %v and %v, want [0] and [1]", where(a), where(b))
	}
	if got := a.Nodes[0].GRES; len(got) != 1 || !slices.Equal(got[0].Units, []int{0, 1}) {
		t.Fatalf("first GPU job's units %v, want gpu 0 1", got)
	}
	if got := b.Nodes[0].GRES[0].Units; !slices.Equal(got, []int{2, 3}) {
		t.Fatalf("second GPU job's units %v, want gpu 2 3 (n2's)", got)
	}
	if s.FreeCores(0) != 3 || s.FreeCores(1) != 3 {
		t.Fatalf("free cores %d %d, want 3 3", s.FreeCores(0), s.FreeCores(1))
	}
	if _, ok := s.Alloc(Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []GRES{{"gpu", "", 1}}}); ok {
		t.Fatal("a 1-GPU job fits with every GPU held")
	}
	cpu := mustAlloc(t, s, Request{Tasks: 3, CPUsPerTask: 1})
	if !slices.Equal(where(cpu), []int{0}) || !slices.Equal(cpu.Nodes[0].Cores, []int{1, 2, 3}) {
		t.Fatalf("CPU job on %v cores %v, want n1 cores 1 2 3", where(cpu), cpu.Nodes[0].Cores)
	}
	s.Release(a)
	if s.FreeGRES(0, Kind{"gpu", ""}) != 2 || s.FreeCores(0) != 1 {
		t.Fatalf("after release: n1 gpus %d cores %d, want 2 1", s.FreeGRES(0, Kind{"gpu", ""}), s.FreeCores(0))
	}
	again := mustAlloc(t, s, Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []GRES{{"gpu", "", 1}}})
	if !slices.Equal(where(again), []int{0}) || !slices.Equal(again.Nodes[0].Cores, []int{0}) {
		t.Fatalf("after release, on %v cores %v, want n1 core 0", where(again), again.Nodes[0].Cores)
	}
}

// Memory bounds the jobs of a node: 600 MB per node twice on 1000 MB
// nodes goes to both nodes, a third does not fit; per CPU, 300 MB x 4
// CPUs does not fit on one node's 1000 MB, so 3 tasks go to n1, 1 to n2.
func TestAllocMemory(t *testing.T) {
	s := NewState(twoNodes(t))
	r := Request{Tasks: 1, CPUsPerTask: 1, MemPerNodeMB: 600}
	a, b := mustAlloc(t, s, r), mustAlloc(t, s, r)
	if where(a)[0] != 0 || where(b)[0] != 1 {
		t.Fatalf("on %v %v, want n1 then n2", where(a), where(b))
	}
	if _, ok := s.Alloc(r); ok {
		t.Fatal("a third 600 MB job fits in 2 x 400 MB")
	}
	s2 := NewState(twoNodes(t))
	c := mustAlloc(t, s2, Request{Tasks: 4, CPUsPerTask: 1, MemPerCPUMB: 300})
	if len(c.Nodes) != 2 || c.Nodes[0].Tasks != 3 || c.Nodes[1].Tasks != 1 || c.Nodes[0].MemMB != 900 || c.Nodes[1].MemMB != 300 {
		t.Fatalf("per-CPU memory: %+v, want 3 tasks 900 MB on n1, 1 task 300 MB on n2", c.Nodes)
	}
}

// An exclusive job takes a node with no job on it, whole.
func TestAllocExclusive(t *testing.T) {
	s := NewState(twoNodes(t))
	mustAlloc(t, s, Request{Tasks: 1, CPUsPerTask: 1})
	x := mustAlloc(t, s, Request{Tasks: 1, CPUsPerTask: 1, Exclusive: true})
	if !slices.Equal(where(x), []int{1}) || len(x.Nodes[0].Cores) != 4 || x.Nodes[0].MemMB != 1000 || x.CPUs(s.ns) != 4 {
		t.Fatalf("exclusive: %+v, want n2 whole (4 cores, 1000 MB)", x.Nodes)
	}
	if _, ok := s.Alloc(Request{Tasks: 1, CPUsPerTask: 1, Exclusive: true}); ok {
		t.Fatal("a second exclusive job fits beside a job on n1")
	}
	one := mustAlloc(t, s, Request{Tasks: 1, CPUsPerTask: 1})
	if where(one)[0] != 0 {
		t.Fatalf("a shared job on %v while n2 is held whole", where(one))
	}
	s.Release(x)
	if _, ok := s.Alloc(Request{Tasks: 4, CPUsPerTask: 1}); !ok {
		t.Fatal("n2 not free after its exclusive job")
	}
}

// A constraint picks the nodes with the feature; weights order the
// candidates.
func TestAllocConstraintAndWeight(t *testing.T) {
	s := NewState(twoNodes(t))
	b := mustAlloc(t, s, Request{Tasks: 1, CPUsPerTask: 1, Constraint: "b"})
	if where(b)[0] != 1 {
		t.Fatalf("constraint b on %v, want n2", where(b))
	}
	if _, ok := s.Alloc(Request{Tasks: 1, CPUsPerTask: 1, Constraint: "a&b"}); ok {
		t.Fatal("a&b fits where no node has both")
	}
	either := mustAlloc(t, s, Request{Tasks: 1, CPUsPerTask: 1, Constraint: "c|a"})
	if where(either)[0] != 0 {
		t.Fatalf("c|a on %v, want n1", where(either))
	}
	w := NewState(twoNodes(t, "n1:cores=4:weight=5", "n2:cores=4:weight=1"))
	if got := where(mustAlloc(t, w, Request{Tasks: 1, CPUsPerTask: 1})); got[0] != 1 {
		t.Fatalf("weights 5, 1: on %v, want n2 (the lighter)", got)
	}
}

// A 2-node job puts a task on each node; 6 tasks on 4-core nodes fill n1
// and put 2 on n2 (block); nodes=1 with 6 tasks does not fit; nodes 1-2
// with 6 tasks takes both.
func TestAllocNodes(t *testing.T) {
	s := NewState(twoNodes(t))
	two := mustAlloc(t, s, Request{Nodes: 2, Tasks: 2, CPUsPerTask: 1})
	if len(two.Nodes) != 2 || two.Nodes[0].Tasks != 1 || two.Nodes[1].Tasks != 1 {
		t.Fatalf("2 nodes: %+v", two.Nodes)
	}
	s.Release(two)
	six := mustAlloc(t, s, Request{Tasks: 6, CPUsPerTask: 1})
	if len(six.Nodes) != 2 || six.Nodes[0].Tasks != 4 || six.Nodes[1].Tasks != 2 {
		t.Fatalf("6 tasks: %+v, want 4 on n1, 2 on n2", six.Nodes)
	}
	s.Release(six)
	if _, ok := s.Alloc(Request{Nodes: 1, Tasks: 6, CPUsPerTask: 1}); ok {
		t.Fatal("6 tasks fit on 1 node of 4 cores")
	}
	r := mustAlloc(t, s, Request{Nodes: 1, MaxNodes: 2, Tasks: 6, CPUsPerTask: 1})
	if len(r.Nodes) != 2 {
		t.Fatalf("nodes 1-2: %+v", r.Nodes)
	}
	// 2 tasks of 3 CPUs: one per node (a task's CPUs on one node).
	s.Release(r)
	t3 := mustAlloc(t, s, Request{Tasks: 2, CPUsPerTask: 3})
	if len(t3.Nodes) != 2 || len(t3.Nodes[0].Cores) != 3 || len(t3.Nodes[1].Cores) != 3 {
		t.Fatalf("2 x 3 CPUs: %+v", t3.Nodes)
	}
}

// With 2 threads per core a task of 1 CPU takes a whole core (2 CPUs)
// and a task of 3 CPUs two cores.
func TestAllocThreads(t *testing.T) {
	s := NewState(twoNodes(t, "n1:cores=2:threads=2"))
	a := mustAlloc(t, s, Request{Tasks: 1, CPUsPerTask: 1})
	if len(a.Nodes[0].Cores) != 1 || a.CPUs(s.ns) != 2 {
		t.Fatalf("1 CPU: %+v, want 1 core (2 CPUs)", a.Nodes)
	}
	if _, ok := s.Alloc(Request{Tasks: 1, CPUsPerTask: 3}); ok {
		t.Fatal("3 CPUs fit on the one core left")
	}
	s.Release(a)
	b := mustAlloc(t, s, Request{Tasks: 1, CPUsPerTask: 3})
	if len(b.Nodes[0].Cores) != 2 {
		t.Fatalf("3 CPUs: %+v, want 2 cores", b.Nodes)
	}
}

// GPUs per job spread over the chosen nodes; typed requests take their
// type only, untyped ones any type.
func TestAllocGRESPerJobAndTypes(t *testing.T) {
	s := NewState(twoNodes(t))
	j := mustAlloc(t, s, Request{Nodes: 2, Tasks: 2, CPUsPerTask: 1, GRESPerJob: []GRES{{"gpu", "", 3}}})
	if len(j.Nodes) != 2 || len(j.Nodes[0].GRES[0].Units) != 2 || len(j.Nodes[1].GRES[0].Units) != 1 {
		t.Fatalf("gpus=3 on 2 nodes: %+v", j.Nodes)
	}
	typed := NewState(twoNodes(t, "n1:cores=4:gres=gpu:v100=2", "n2:cores=4:gres=gpu:a100=2"))
	a := mustAlloc(t, typed, Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []GRES{{"gpu", "a100", 1}}})
	if where(a)[0] != 1 || a.Nodes[0].GRES[0].Kind != (Kind{"gpu", "a100"}) || a.Nodes[0].GRES[0].Units[0] != 0 {
		t.Fatalf("gpu:a100: %+v, want n2's a100 unit 0", a.Nodes)
	}
	any := mustAlloc(t, typed, Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []GRES{{"gpu", "", 2}}})
	if where(any)[0] != 0 || any.Nodes[0].GRES[0].Kind != (Kind{"gpu", "v100"}) {
		t.Fatalf("gpu (any type) x2: %+v, want n1's two v100", any.Nodes)
	}
	if Fits(twoNodes(t), Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []GRES{{"gpu", "", 3}}}) {
		t.Fatal("3 GPUs per node fit on nodes of 2")
	}
}

// TestAllocIntoCoresAlone checks State.AllocInto's way for requests of
// cores alone against Select and AssignInto: two states of one random
// platform take the same random mix of requests (of cores alone, most
// of them, beside random multi-resource and exclusive ones, so that
// nodes are partly held, held whole or full) and give them back in a
// random order; at every step both must agree on whether the request
// fits and, when it does, on every node, core, memory and unit taken.
func TestAllocIntoCoresAlone(t *testing.T) {
	fast, other := 0, 0
	for seed := range 60 {
		r := rand.New(rand.NewPCG(uint64(seed), 23))
		ns := randomPlatform(t, r)
		a, b := NewState(ns), NewState(ns)
		sa, sb := a.Selector(), b.Selector()
		var held []Allocation
		for step := range 200 {
			if len(held) > 0 && r.IntN(3) == 0 {
				k := r.IntN(len(held))
				a.Release(held[k])
				b.Release(held[k])
				held = append(held[:k], held[k+1:]...)
				continue
			}
			q := Request{Tasks: 1 + r.IntN(12), CPUsPerTask: 1}
			if r.IntN(4) == 0 {
				q = randomRequest(r)
			}
			if q.Check() != nil {
				continue
			}
			pa, err := sa.Prepare(q)
			if err != nil {
				t.Fatal(err)
			}
			pb, _ := sb.Prepare(q)
			if pa.coresOnly {
				fast++
			} else {
				other++
			}
			var sel Selection
			var got Allocation
			okA := a.AllocInto(pa, &sel, &got)
			var selB Selection
			okB := sb.Select(b, pb, &selB)
			if okA != okB {
				t.Fatalf("seed %d step %d: %v: AllocInto fits %v, Select %v", seed, step, q, okA, okB)
			}
			if !okA {
				continue
			}
			want := b.Assign(&selB)
			if !reflect.DeepEqual(normal(got), normal(want)) {
				t.Fatalf("seed %d step %d: %v:\n AllocInto %+v\n Select    %+v", seed, step, q, got, want)
			}
			held = append(held, want)
		}
	}
	if fast < 1000 || other < 100 {
		t.Fatalf("too few requests of each kind: %d of cores alone, %d others", fast, other)
	}
}

// normal is a with empty slices as nil (storage reuse may leave either).
func normal(a Allocation) Allocation {
	out := a.Clone()
	for i := range out.Nodes {
		if len(out.Nodes[i].GRES) == 0 {
			out.Nodes[i].GRES = nil
		}
		if len(out.Nodes[i].Cores) == 0 {
			out.Nodes[i].Cores = nil
		}
	}
	return out
}
