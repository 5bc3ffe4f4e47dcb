package nodesref

import (
	"reflect"
	"testing"
)

// allocEmpty applies the allocation rule to the empty platform.
func allocEmpty(nodes []Node, r Request) ([]NodeUse, bool) {
	return allocate(nodes, during(nodes, nil, 0, 1), r)
}

// TestUntypedGRESTakesTypesInOrder: a node of gpu:v100=2 and gpu:a100=1
// (given in that order: the kinds are ordered by (name, type), not as
// written). An untyped request of 2 takes a100 unit 0, then v100 unit 0;
// beside a typed v100 request of 1 (taken first, in the request's order)
// it takes a100 0 and v100 1.
func TestUntypedGRESTakesTypesInOrder(t *testing.T) {
	nodes := []Node{{Name: "g", Cores: 4, ThreadsPerCore: 1, GRES: map[string]int{"gpu:v100": 2, "gpu:a100": 1, "nvme": 1}}}
	r := tasks(1)
	r.GRESPerNode = []GRESReq{{Name: "gpu", Count: 2}}
	uses, ok := allocEmpty(nodes, r)
	want := []NodeUse{on(0, 1, []int{0}, 0, map[string][]int{"gpu:a100": {0}, "gpu:v100": {0}})}
	if !ok || !reflect.DeepEqual(uses, want) {
		t.Errorf("untyped: got %+v %v, want %+v", uses, ok, want)
	}
	r.GRESPerNode = []GRESReq{{Name: "gpu", Type: "v100", Count: 1}, {Name: "gpu", Count: 2}, {Name: "nvme", Count: 1}}
	uses, ok = allocEmpty(nodes, r)
	want = []NodeUse{on(0, 1, []int{0}, 0, map[string][]int{"gpu:a100": {0}, "gpu:v100": {0, 1}, "nvme": {0}})}
	if !ok || !reflect.DeepEqual(uses, want) {
		t.Errorf("typed then untyped: got %+v %v, want %+v", uses, ok, want)
	}
	r.GRESPerNode = []GRESReq{{Name: "gpu", Count: 4}}
	if uses, ok := allocEmpty(nodes, r); ok {
		t.Errorf("4 GPUs of 3 placed: %+v", uses)
	}
}

// TestThreadsAndMemoryPerCPU: a node of 2 cores x 2 threads and 4000 MB.
// A task of 1 CPU holds a whole core, 2 CPUs, so 1000 MB per CPU is 2000
// MB a task (memPerHeldCPU); a task of 3 CPUs holds 2 cores.
func TestThreadsAndMemoryPerCPU(t *testing.T) {
	if !memPerHeldCPU {
		t.Skip("written for the held-CPU reading")
	}
	nodes := []Node{{Name: "t", Cores: 2, ThreadsPerCore: 2, MemMB: 4000}}
	r := Request{Tasks: 2, CPUsPerTask: 1, MemPerCPUMB: 1000}
	uses, ok := allocEmpty(nodes, r)
	if want := []NodeUse{on(0, 2, []int{0, 1}, 4000, nil)}; !ok || !reflect.DeepEqual(uses, want) {
		t.Errorf("2 tasks: got %+v %v, want %+v", uses, ok, want)
	}
	r.MemPerCPUMB = 1001 // 2002 MB a task: only one fits the memory
	if uses, ok := allocEmpty(nodes, r); ok {
		t.Errorf("2 tasks of 2002 MB in 4000 MB placed: %+v", uses)
	}
	r = Request{Tasks: 1, CPUsPerTask: 3}
	uses, ok = allocEmpty(nodes, r)
	if want := []NodeUse{on(0, 1, []int{0, 1}, 0, nil)}; !ok || !reflect.DeepEqual(uses, want) {
		t.Errorf("3 CPUs: got %+v %v, want %+v", uses, ok, want)
	}
}

// TestWeightOrderAndShare: nodes a (weight 2), b (weight 1), c (weight 1)
// of 2, 1 and 4 cores. Candidates come in the order b, c, a. 5 tasks
// on any number of nodes: b takes 1, c 4. On exactly 2 nodes: b's share
// ceil(5/2) = 3 exceeds its 1 core, so c (share 3, takes 4: one is left
// for the second node) and a (1).
func TestWeightOrderAndShare(t *testing.T) {
	nodes := []Node{
		{Name: "a", Cores: 2, ThreadsPerCore: 1, Weight: 2},
		{Name: "b", Cores: 1, ThreadsPerCore: 1, Weight: 1},
		{Name: "c", Cores: 4, ThreadsPerCore: 1, Weight: 1},
	}
	uses, ok := allocEmpty(nodes, tasks(5))
	want := []NodeUse{on(1, 1, []int{0}, 0, nil), on(2, 4, []int{0, 1, 2, 3}, 0, nil)}
	if !ok || !reflect.DeepEqual(uses, want) {
		t.Errorf("any number: got %+v %v, want %+v", uses, ok, want)
	}
	uses, ok = allocEmpty(nodes, Request{Nodes: 2, Tasks: 5, CPUsPerTask: 1})
	want = []NodeUse{on(2, 4, []int{0, 1, 2, 3}, 0, nil), on(0, 1, []int{0}, 0, nil)}
	if !ok || !reflect.DeepEqual(uses, want) {
		t.Errorf("exactly 2: got %+v %v, want %+v", uses, ok, want)
	}
	// At most 1 node: c alone takes 4 < 5 tasks: no fit.
	if uses, ok := allocEmpty(nodes, Request{MaxNodes: 1, Tasks: 5, CPUsPerTask: 1}); ok {
		t.Errorf("5 tasks on 1 node placed: %+v", uses)
	}
}

// TestPerJobNeedsAUnitOnEveryNode: 3 GPUs per job on 2 nodes of which the
// first has none: the first is no candidate, so the job is on the second
// alone, which has 2: no fit.
func TestPerJobNeedsAUnitOnEveryNode(t *testing.T) {
	nodes := []Node{
		{Name: "c", Cores: 4, ThreadsPerCore: 1},
		{Name: "g", Cores: 4, ThreadsPerCore: 1, GRES: map[string]int{"gpu": 2}},
		{Name: "h", Cores: 4, ThreadsPerCore: 1, GRES: map[string]int{"gpu": 2}},
	}
	r := Request{Nodes: 2, Tasks: 2, CPUsPerTask: 1, GRESPerJob: []GRESReq{{Name: "gpu", Count: 3}}}
	uses, ok := allocEmpty(nodes, r)
	want := []NodeUse{on(1, 1, []int{0}, 0, gpu(0, 1)), on(2, 1, []int{0}, 0, gpu(0))}
	if !ok || !reflect.DeepEqual(uses, want) {
		t.Errorf("got %+v %v, want %+v", uses, ok, want)
	}
	r.GRESPerJob[0].Count = 5
	if uses, ok := allocEmpty(nodes, r); ok {
		t.Errorf("5 GPUs of 4 placed: %+v", uses)
	}
}

func TestConstraint(t *testing.T) {
	for _, c := range []struct {
		expr string
		feat []string
		want bool
	}{
		{"", nil, true},
		{"a", []string{"a"}, true},
		{"a", []string{"b"}, false},
		{"a&b", []string{"a"}, false},
		{"a&b", []string{"b", "a"}, true},
		{"a|b", []string{"b"}, true},
		{"(ib|opa)&amd", []string{"opa", "amd"}, true},
		{"(ib|opa)&amd", []string{"ib"}, false},
		{"x|(a&b)", []string{"a", "b"}, true},
		{"x|(a&b)|y", []string{"a"}, false},
	} {
		if got := parseConstraint(c.expr).matches(c.feat); got != c.want {
			t.Errorf("%q on %v: %v, want %v", c.expr, c.feat, got, c.want)
		}
	}
	for _, bad := range []string{"a|b&c", "(a", "a)", "&a", "a b", "a,b", "[a|b]", "ib*2", "()"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%q parsed", bad)
				}
			}()
			parseConstraint(bad)
		}()
	}
}
