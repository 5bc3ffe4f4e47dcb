package nodes

import (
	"reflect"
	"strings"
	"testing"
)

func mustGroup(t testing.TB, spec string) NodeGroup {
	t.Helper()
	g, err := ParseGroup(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A small platform, worked by hand:
//
//	group 0: cpu[1-3], 2 sockets x 4 cores, 1 thread: 8 cores each
//	         nodes 0..2, cores 0-7, 8-15, 16-23
//	group 1: gpu[01-02], 16 cores x 2 threads, 2 gpu:a100 and 1 nvme each
//	         nodes 3..4, cores 24-39, 40-55; gpu:a100 units 0-1, 2-3; nvme 0, 1
//	group 2: big1, 64 cores, 4 gpu:h100 and 2 nvme
//	         node 5, cores 56-119; gpu:h100 0-3; nvme 2-3
func smallPlatform(t testing.TB) Nodes {
	t.Helper()
	ns, err := New([]NodeGroup{
		mustGroup(t, "cpu[1-3]:cores=4:sockets=2:mem=64G:features=ib,intel"),
		mustGroup(t, "gpu[01-02]:cores=16:threads=2:mem=256G:gres=gpu:a100=2,nvme=1:features=ib,amd,a100:weight=10"),
		mustGroup(t, "big1:cores=64:mem=2T:gres=gpu:h100=4,nvme=2:features=opa,amd:weight=100"),
	})
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

func TestGlobalIDs(t *testing.T) {
	ns := smallPlatform(t)
	if ns.Len() != 6 || ns.Groups() != 3 || ns.Cores() != 120 || ns.CPUs() != 24+64+64 {
		t.Fatalf("%d nodes, %d groups, %d cores, %d CPUs; want 6, 3, 120, 152", ns.Len(), ns.Groups(), ns.Cores(), ns.CPUs())
	}
	names := []string{"cpu1", "cpu2", "cpu3", "gpu01", "gpu02", "big1"}
	firstCore := []int{0, 8, 16, 24, 40, 56}
	groups := []int{0, 0, 0, 1, 1, 2}
	for id, name := range names {
		n := ns.Node(id)
		if n.ID != id || n.Name != name || n.FirstCore != firstCore[id] || n.Group != groups[id] || ns.Name(id) != name || ns.GroupOf(id) != groups[id] {
			t.Errorf("node %d = %+v, want %s, first core %d, group %d", id, n, name, firstCore[id], groups[id])
		}
		if got, ok := ns.Lookup(name); !ok || got != id {
			t.Errorf("Lookup(%s) = %d, %v", name, got, ok)
		}
		for c := n.FirstCore; c < n.FirstCore+n.Cores(); c++ {
			if ns.NodeOfCore(c) != id {
				t.Fatalf("NodeOfCore(%d) = %d, want %d", c, ns.NodeOfCore(c), id)
			}
		}
	}
	if _, ok := ns.Lookup("gpu1"); ok {
		t.Error("Lookup(gpu1) found a node: gpu01 is another name")
	}
	a100, h100, nvme := Kind{"gpu", "a100"}, Kind{"gpu", "h100"}, Kind{"nvme", ""}
	if k := ns.Kinds(); !reflect.DeepEqual(k, []Kind{a100, h100, nvme}) {
		t.Errorf("Kinds = %v", k)
	}
	for _, c := range []struct {
		id           int
		k            Kind
		first, count int
	}{
		{0, a100, 0, 0}, {3, a100, 0, 2}, {4, a100, 2, 2}, {5, a100, 0, 0},
		{5, h100, 0, 4}, {3, nvme, 0, 1}, {4, nvme, 1, 1}, {5, nvme, 2, 2},
	} {
		if f, n := ns.FirstGRES(c.id, c.k); f != c.first || n != c.count {
			t.Errorf("FirstGRES(%d, %s) = %d, %d; want %d, %d", c.id, c.k, f, n, c.first, c.count)
		}
	}
	for _, c := range []struct {
		k    Kind
		u    int
		node int
	}{
		{a100, 0, 3}, {a100, 1, 3}, {a100, 2, 4}, {a100, 3, 4}, {a100, 4, -1}, {a100, -1, -1},
		{h100, 3, 5}, {nvme, 0, 3}, {nvme, 1, 4}, {nvme, 2, 5}, {nvme, 3, 5}, {Kind{"gpu", ""}, 0, -1},
	} {
		if got := ns.NodeOfGRES(c.k, c.u); got != c.node {
			t.Errorf("NodeOfGRES(%s, %d) = %d, want %d", c.k, c.u, got, c.node)
		}
	}
	want := Totals{Nodes: 6, Cores: 120, CPUs: 152, MemMB: 3*64<<10 + 2*256<<10 + 2<<20,
		GRES: []GRES{{"gpu", "a100", 4}, {"gpu", "h100", 4}, {"nvme", "", 4}}}
	if got := ns.Totals(); !reflect.DeepEqual(got, want) {
		t.Errorf("Totals = %+v, want %+v", got, want)
	}
	if s := ns.String(); s != "6 nodes, 120 cores, 152 CPUs, 4 gpu:a100, 4 gpu:h100, 4 nvme" {
		t.Errorf("String = %q", s)
	}
	n := ns.Node(3)
	if n.GRESCount(a100) != 2 || n.GRESCount(h100) != 0 || !n.HasFeature("a100") || n.HasFeature("intel") || n.Weight != 10 || n.CPUs() != 32 {
		t.Errorf("node 3 = %+v", n)
	}
}

// A Nodes does not change when what built it or what it returned does.
func TestImmutable(t *testing.T) {
	g := mustGroup(t, "n[1-2]:cores=4:gres=gpu=1:features=a,b")
	ns, err := New([]NodeGroup{g})
	if err != nil {
		t.Fatal(err)
	}
	g.Names[0], g.Features[0], g.GRES[0].Count = "x", "z", 9
	n := ns.Node(0)
	n.Features()[0] = "z"
	n.GRES()[0].Count = 9
	ns.Group(0).Names[1] = "y"
	ns.Kinds()[0] = Kind{"q", ""}
	if n := ns.Node(0); n.Name != "n1" || !n.HasFeature("a") || n.GRESCount(Kind{"gpu", ""}) != 1 || ns.Name(1) != "n2" || ns.Kinds()[0].Name != "gpu" {
		t.Errorf("the platform changed: %+v", n)
	}
}

func TestZeroValue(t *testing.T) {
	var ns Nodes
	if ns.Len() != 0 || ns.Cores() != 0 || ns.CPUs() != 0 || len(ns.Kinds()) != 0 || ns.Matching(Constraint{}) != nil ||
		ns.String() != "0 nodes, 0 cores" || ns.NodeOfGRES(Kind{"gpu", ""}, 0) != -1 {
		t.Errorf("zero Nodes: %+v", ns.Totals())
	}
	if _, ok := ns.Lookup("n1"); ok {
		t.Error("zero Nodes has n1")
	}
}

func TestNewErrors(t *testing.T) {
	ok := mustGroup(t, "n[1-2]:cores=4")
	for _, c := range []struct {
		groups []NodeGroup
		want   string
	}{
		{nil, "no node groups"},
		{[]NodeGroup{ok, mustGroup(t, "m1,n2:cores=2")}, "node n2 is in group 0 and in group 1"},
		{[]NodeGroup{mustGroup(t, "n[1-2],n1:cores=2")}, "node n1 is given twice in group 0"},
		{[]NodeGroup{{Names: []string{"a"}, Sockets: 1, CoresPerSocket: 0, ThreadsPerCore: 1}}, "each must be >= 1"},
		{[]NodeGroup{{Sockets: 1, CoresPerSocket: 1, ThreadsPerCore: 1}}, "no nodes"},
		{[]NodeGroup{{Names: []string{"a b"}, Sockets: 1, CoresPerSocket: 1, ThreadsPerCore: 1}}, "may not appear"},
		{[]NodeGroup{{Names: []string{"a"}, Sockets: 1, CoresPerSocket: 1, ThreadsPerCore: 1, MemMB: -1}}, "want 0..1073741824"},
		{[]NodeGroup{{Names: []string{"a"}, Sockets: 1, CoresPerSocket: 1, ThreadsPerCore: 1, GRES: []GRES{{"nvme", "", 1}, {"gpu", "", 1}}}}, "not sorted"},
		{[]NodeGroup{{Names: []string{"a"}, Sockets: 1, CoresPerSocket: 1, ThreadsPerCore: 1, GRES: []GRES{{"gpu", "", 0}}}}, "count 0"},
		{[]NodeGroup{{Names: []string{"a"}, Sockets: 1, CoresPerSocket: 1, ThreadsPerCore: 1, GRES: []GRES{{"gpu", "", 1}, {"gpu", "a100", 1}}}}, "both with and without a type"},
		{[]NodeGroup{{Names: []string{"a"}, Sockets: 1, CoresPerSocket: 1, ThreadsPerCore: 1, Features: []string{"b", "a"}}}, "not sorted"},
		{[]NodeGroup{{Names: []string{"a"}, Sockets: 1 << 40, CoresPerSocket: 1 << 40, ThreadsPerCore: 1}}, "MaxCPUsPerNode"},
		// 2^18 nodes x 32 CPUs = 2^23 CPUs, beyond platform.MaxCPUs
		{[]NodeGroup{mustGroup(t, "n[1-262144]:cores=32")}, "beyond 4194304 CPUs (MaxCPUs)"},
		{[]NodeGroup{mustGroup(t, "n[1-262144]:cores=1"), mustGroup(t, "m1:cores=1")}, "group 1 takes the platform beyond 262144 nodes (MaxNodes)"},
		{[]NodeGroup{mustGroup(t, "n[1-8192]:cores=1:gres=gpu=1024")}, "beyond 4194304 GRES units (MaxGRESUnits)"},
	} {
		_, err := New(c.groups)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("New: %v, want %q", err, c.want)
		}
	}
}

// Hand-worked constraints against the features of smallPlatform's groups:
// cpu[1-3] {ib, intel}, gpu[01-02] {a100, amd, ib}, big1 {amd, opa}.
func TestConstraint(t *testing.T) {
	ns := smallPlatform(t)
	for _, c := range []struct {
		expr  string
		nodes []int
		canon string
	}{
		{"", []int{0, 1, 2, 3, 4, 5}, ""},
		{"ib", []int{0, 1, 2, 3, 4}, "ib"},
		{"amd", []int{3, 4, 5}, "amd"},
		{"ib&amd", []int{3, 4}, "ib&amd"},
		{"intel|opa", []int{0, 1, 2, 5}, "intel|opa"},
		{"ib&amd&a100", []int{3, 4}, "ib&amd&a100"},
		{"(ib|opa)&amd", []int{3, 4, 5}, "(ib|opa)&amd"},
		{"ib|(opa&amd)", []int{0, 1, 2, 3, 4, 5}, "ib|(opa&amd)"},
		{"(intel&opa)|(a100&amd)", []int{3, 4}, "(intel&opa)|(a100&amd)"},
		{"((ib))", []int{0, 1, 2, 3, 4}, "ib"},
		{"(ib&intel)&amd", nil, "(ib&intel)&amd"},
		{"nvidia", nil, "nvidia"},
	} {
		k, err := ParseConstraint(c.expr)
		if err != nil {
			t.Errorf("ParseConstraint(%q): %v", c.expr, err)
			continue
		}
		if got := ns.Matching(k); !reflect.DeepEqual(got, c.nodes) {
			t.Errorf("Matching(%q) = %v, want %v", c.expr, got, c.nodes)
		}
		for id := range ns.Len() {
			want := false
			for _, x := range c.nodes {
				want = want || x == id
			}
			if k.Matches(ns.Node(id)) != want {
				t.Errorf("%q matches node %d: %v, want %v", c.expr, id, !want, want)
			}
		}
		if k.String() != c.canon {
			t.Errorf("ParseConstraint(%q).String() = %q, want %q", c.expr, k.String(), c.canon)
		}
	}
}

func TestConstraintErrors(t *testing.T) {
	for _, c := range []struct {
		expr string
		col  int
		msg  string
	}{
		{"a|b&c", 4, "mixed without parentheses"},
		{"a&", 3, "ends early"},
		{"&a", 1, "with nothing before it"},
		{"a||b", 3, "with nothing before it"},
		{"(a|b", 1, "'(' without ')'"},
		{"a)", 2, "')' without '('"},
		{"()", 1, "empty parentheses"},
		{"[a|b]", 1, "matching OR"},
		{"a*2", 2, "feature counts"},
		{"a b", 2, "whitespace"},
		{"a,b", 2, "use '&' (and) or '|' (or)"},
		{"!a", 1, "may not appear"},
		{"(a)b", 4, "right after ')'"},
		{strings.Repeat("(", 40) + "a" + strings.Repeat(")", 40), 33, "MaxConstraintDepth"},
		{strings.Repeat("f", 65), 1, "MaxWordLen"},
		{strings.Repeat("a&", 3000) + "a", 1, "MaxConstraintLen"},
	} {
		_, err := ParseConstraint(c.expr)
		e, ok := err.(*Error)
		if !ok || e.Offset+1 != c.col || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("ParseConstraint(%q): %v, want column %d and %q", c.expr, err, c.col, c.msg)
		}
	}
}

// FuzzConstraint: what parses prints in a form that parses to the same
// print, and an error is an *Error within the text.
func FuzzConstraint(f *testing.F) {
	for _, s := range []string{"ib", "(ib|opa)&amd", "ib|(opa&amd)", "a|b&c", "[a|b]", "((a))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseConstraint(s)
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Offset < 0 || e.Offset > len(s) {
				t.Fatalf("ParseConstraint(%q): %v: want an *Error within the text", s, err)
			}
			return
		}
		c2, err := ParseConstraint(c.String())
		if err != nil || c2.String() != c.String() {
			t.Fatalf("ParseConstraint(%q).String() = %q reparses to %q, %v", s, c.String(), c2.String(), err)
		}
	})
}
