package nodes

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/platform"
)

// MaxCPUs bounds the CPUs (hardware threads) of a node platform, all
// nodes together: platform.MaxCPUs, the bound of every platform.
const MaxCPUs = platform.MaxCPUs

// MaxGRESUnits bounds the GRES units of a node platform, all nodes and
// kinds together.
const MaxGRESUnits = 1 << 22

// Nodes is an immutable list of nodes built from node groups, with global
// ids: nodes are numbered 0..Len()-1 group after group, each group's in
// the order of its names; node n owns the contiguous core ids after node
// n-1's, and, for each GRES kind (name, type), the contiguous unit ids of
// that kind after those of node n-1 (a node without the kind owns none).
// Its zero value has no nodes.
type Nodes struct {
	groups    []NodeGroup
	firstNode []int // per group, and the total at the end
	firstCore []int // per group, and the total at the end
	names     []string
	byName    map[string]int
	kinds     []Kind        // every kind of the platform, sorted
	totals    []int         // units of each kind
	gresFirst [][]gresStart // per group, one per GRES of the group
	cpus      int
	mem       int64
}

type gresStart struct {
	kind  Kind
	first int // the id of the group's first unit of kind
}

// New checks the groups and builds the nodes: names valid and distinct
// across the platform, sizes within the limits (MaxNodes, MaxCPUs,
// MaxCPUsPerNode, MaxMemMB, MaxGRESPerNode, MaxGRESUnits), GRES and
// features sorted and each once (as ParseGroup gives them). The sizes are
// checked before the nodes are allocated. The groups are copied.
func New(groups []NodeGroup) (Nodes, error) {
	if len(groups) == 0 {
		return Nodes{}, fmt.Errorf("nodes: no node groups")
	}
	n, cpus, units := 0, 0, 0
	var mem int64
	for i, g := range groups {
		if err := checkGroup(g); err != nil {
			return Nodes{}, fmt.Errorf("nodes: group %d: %v", i, err)
		}
		k := len(g.Names)
		if n += k; n > MaxNodes {
			return Nodes{}, fmt.Errorf("nodes: group %d takes the platform beyond %d nodes (MaxNodes)", i, MaxNodes)
		}
		if cpus += k * g.CPUs(); cpus > MaxCPUs {
			return Nodes{}, fmt.Errorf("nodes: group %d takes the platform beyond %d CPUs (MaxCPUs)", i, MaxCPUs)
		}
		for _, r := range g.GRES {
			if units += k * r.Count; units > MaxGRESUnits {
				return Nodes{}, fmt.Errorf("nodes: group %d takes the platform beyond %d GRES units (MaxGRESUnits)", i, MaxGRESUnits)
			}
		}
		mem += int64(k) * g.MemMB // at most 2^18 x 2^30
	}
	ns := Nodes{
		groups:    make([]NodeGroup, len(groups)),
		firstNode: make([]int, len(groups)+1),
		firstCore: make([]int, len(groups)+1),
		names:     make([]string, 0, n),
		byName:    make(map[string]int, n),
		gresFirst: make([][]gresStart, len(groups)),
		cpus:      cpus,
		mem:       mem,
	}
	total := map[Kind]int{}
	for i, g := range groups {
		g.Names = slices.Clone(g.Names)
		g.GRES = slices.Clone(g.GRES)
		g.Features = slices.Clone(g.Features)
		ns.groups[i] = g
		for _, name := range g.Names {
			if j, dup := ns.byName[name]; dup {
				if g := ns.groupOf(j, i); g != i {
					return Nodes{}, fmt.Errorf("nodes: node %s is in group %d and in group %d", name, g, i)
				}
				return Nodes{}, fmt.Errorf("nodes: node %s is given twice in group %d", name, i)
			}
			ns.byName[name] = len(ns.names)
			ns.names = append(ns.names, name)
		}
		ns.firstNode[i+1] = len(ns.names)
		ns.firstCore[i+1] = ns.firstCore[i] + len(g.Names)*g.Cores()
		for _, r := range g.GRES {
			ns.gresFirst[i] = append(ns.gresFirst[i], gresStart{r.Kind(), total[r.Kind()]})
			total[r.Kind()] += len(g.Names) * r.Count
		}
	}
	for k := range total {
		ns.kinds = append(ns.kinds, k)
	}
	slices.SortFunc(ns.kinds, compareKind)
	for _, k := range ns.kinds {
		ns.totals = append(ns.totals, total[k])
	}
	return ns, nil
}

// groupOf is the group of node j, among groups 0..upto.
func (ns *Nodes) groupOf(j, upto int) int {
	for g := 0; g < upto; g++ {
		if j < ns.firstNode[g+1] {
			return g
		}
	}
	return upto
}

// checkGroup checks a group made by hand as ParseGroup checks a spec.
func checkGroup(g NodeGroup) error {
	switch {
	case len(g.Names) == 0:
		return fmt.Errorf("no nodes")
	case len(g.Names) > MaxNodes:
		return fmt.Errorf("%d nodes, more than %d (MaxNodes)", len(g.Names), MaxNodes)
	case g.Sockets < 1 || g.CoresPerSocket < 1 || g.ThreadsPerCore < 1:
		return fmt.Errorf("%d sockets x %d cores x %d threads: each must be >= 1", g.Sockets, g.CoresPerSocket, g.ThreadsPerCore)
	case g.Sockets > MaxCPUsPerNode || g.CoresPerSocket > MaxCPUsPerNode || g.ThreadsPerCore > MaxCPUsPerNode ||
		g.Sockets*g.CoresPerSocket*g.ThreadsPerCore > MaxCPUsPerNode:
		return fmt.Errorf("more than %d CPUs a node (MaxCPUsPerNode)", MaxCPUsPerNode)
	case g.MemMB < 0 || g.MemMB > MaxMemMB:
		return fmt.Errorf("memory %d MB: want 0..%d (MaxMemMB)", g.MemMB, MaxMemMB)
	case len(g.GRES) > MaxGRESKinds:
		return fmt.Errorf("%d GRES kinds, more than %d (MaxGRESKinds)", len(g.GRES), MaxGRESKinds)
	case len(g.Features) > MaxFeatures:
		return fmt.Errorf("%d features, more than %d (MaxFeatures)", len(g.Features), MaxFeatures)
	}
	for _, name := range g.Names {
		if msg := checkName(name); msg != "" {
			return fmt.Errorf("%s", msg)
		}
	}
	units := 0
	f := &located{key: "gres"}
	for i, r := range g.GRES {
		if err := word(f, "GRES name", r.Name, 0); err != nil {
			return err
		}
		if r.Type != "" {
			if err := word(f, "GRES type", r.Type, 0); err != nil {
				return err
			}
		}
		if r.Count < 1 || r.Count > MaxGRESPerNode {
			return fmt.Errorf("GRES %s: count %d, want 1..%d", r.Kind(), r.Count, MaxGRESPerNode)
		}
		if units += r.Count; units > MaxGRESPerNode {
			return fmt.Errorf("more than %d GRES units a node (MaxGRESPerNode)", MaxGRESPerNode)
		}
		if i > 0 && compareKind(g.GRES[i-1].Kind(), r.Kind()) >= 0 {
			return fmt.Errorf("GRES not sorted by (name, type) or given twice: %s after %s", r.Kind(), g.GRES[i-1].Kind())
		}
		if i > 0 && g.GRES[i-1].Name == r.Name && (g.GRES[i-1].Type == "") != (r.Type == "") {
			return fmt.Errorf("GRES %s given both with and without a type", r.Name)
		}
	}
	f.key = "features"
	for i, x := range g.Features {
		if err := word(f, "feature", x, 0); err != nil {
			return err
		}
		if i > 0 && g.Features[i-1] >= x {
			return fmt.Errorf("features not sorted or given twice: %q after %q", x, g.Features[i-1])
		}
	}
	return nil
}

// Node is one node of a Nodes, a value: changing it changes nothing in
// the platform.
type Node struct {
	ID    int
	Name  string
	Group int // the index of its group in the list given to New
	// Sockets, CoresPerSocket, ThreadsPerCore as in NodeGroup.
	Sockets, CoresPerSocket, ThreadsPerCore int
	MemMB                                   int64
	Weight                                  uint32
	// FirstCore is the global id of its first core; it owns
	// FirstCore..FirstCore+Cores()-1.
	FirstCore int
	gres      []GRES
	features  []string
}

// Cores is the node's cores: Sockets x CoresPerSocket.
func (n Node) Cores() int { return n.Sockets * n.CoresPerSocket }

// CPUs is the node's CPUs (hardware threads): Cores x ThreadsPerCore.
func (n Node) CPUs() int { return n.Cores() * n.ThreadsPerCore }

// GRES is a copy of the node's GRES, sorted by (name, type).
func (n Node) GRES() []GRES { return slices.Clone(n.gres) }

// GRESCount is the node's units of kind k (0 if it has none).
func (n Node) GRESCount(k Kind) int {
	i, ok := slices.BinarySearchFunc(n.gres, k, func(g GRES, k Kind) int { return compareKind(g.Kind(), k) })
	if !ok {
		return 0
	}
	return n.gres[i].Count
}

// Features is a copy of the node's features, sorted.
func (n Node) Features() []string { return slices.Clone(n.features) }

// HasFeature reports whether the node has feature f.
func (n Node) HasFeature(f string) bool {
	_, ok := slices.BinarySearch(n.features, f)
	return ok
}

// Len is the number of nodes.
func (ns Nodes) Len() int { return len(ns.names) }

// Groups is the number of groups.
func (ns Nodes) Groups() int { return len(ns.groups) }

// Group returns a copy of group g as built.
func (ns Nodes) Group(g int) NodeGroup {
	x := ns.groups[g]
	x.Names = slices.Clone(x.Names)
	x.GRES = slices.Clone(x.GRES)
	x.Features = slices.Clone(x.Features)
	return x
}

// GroupOf is the group of node id.
func (ns Nodes) GroupOf(id int) int {
	return sort.Search(len(ns.groups), func(g int) bool { return ns.firstNode[g+1] > id })
}

// Node returns node id (0 <= id < Len()).
func (ns Nodes) Node(id int) Node {
	g := ns.GroupOf(id)
	x := ns.groups[g]
	return Node{
		ID: id, Name: ns.names[id], Group: g,
		Sockets: x.Sockets, CoresPerSocket: x.CoresPerSocket, ThreadsPerCore: x.ThreadsPerCore,
		MemMB: x.MemMB, Weight: x.Weight,
		FirstCore: ns.firstCore[g] + (id-ns.firstNode[g])*x.Cores(),
		gres:      x.GRES, features: x.Features,
	}
}

// Lookup returns the id of the node named name.
func (ns Nodes) Lookup(name string) (int, bool) {
	id, ok := ns.byName[name]
	return id, ok
}

// Name is the name of node id.
func (ns Nodes) Name(id int) string { return ns.names[id] }

// Cores is the number of cores, all nodes together; core ids are
// 0..Cores()-1.
func (ns Nodes) Cores() int {
	if len(ns.firstCore) == 0 {
		return 0 // the zero value
	}
	return ns.firstCore[len(ns.groups)]
}

// CPUs is the number of CPUs (hardware threads), all nodes together.
func (ns Nodes) CPUs() int { return ns.cpus }

// MemMB is the memory of all nodes together, in MB.
func (ns Nodes) MemMB() int64 { return ns.mem }

// NodeOfCore returns the node that owns core id c (0 <= c < Cores()).
func (ns Nodes) NodeOfCore(c int) int {
	g := sort.Search(len(ns.groups), func(g int) bool { return ns.firstCore[g+1] > c })
	return ns.firstNode[g] + (c-ns.firstCore[g])/ns.groups[g].Cores()
}

// Kinds returns the GRES kinds of the platform, sorted by (name, type).
func (ns Nodes) Kinds() []Kind { return slices.Clone(ns.kinds) }

// GRESTotal is the platform's units of kind k; unit ids of k are
// 0..GRESTotal(k)-1.
func (ns Nodes) GRESTotal(k Kind) int {
	i, ok := slices.BinarySearchFunc(ns.kinds, k, compareKind)
	if !ok {
		return 0
	}
	return ns.totals[i]
}

// FirstGRES returns the id of node id's first unit of kind k and its
// count: it owns first..first+count-1 (count 0: it has none).
func (ns Nodes) FirstGRES(id int, k Kind) (first, count int) {
	g := ns.GroupOf(id)
	for i, s := range ns.gresFirst[g] {
		if s.kind == k {
			c := ns.groups[g].GRES[i].Count
			return s.first + (id-ns.firstNode[g])*c, c
		}
	}
	return 0, 0
}

// NodeOfGRES returns the node that owns unit u of kind k, or -1 when u
// is not a unit of k.
func (ns Nodes) NodeOfGRES(k Kind, u int) int {
	if u < 0 || u >= ns.GRESTotal(k) {
		return -1
	}
	for g := range ns.groups {
		for i, s := range ns.gresFirst[g] {
			if s.kind != k {
				continue
			}
			c := ns.groups[g].GRES[i].Count
			if n := len(ns.groups[g].Names); u < s.first+n*c {
				return ns.firstNode[g] + (u-s.first)/c
			}
		}
	}
	return -1
}

// Totals are the counts of each resource of a platform.
type Totals struct {
	Nodes, Cores, CPUs int
	MemMB              int64
	GRES               []GRES // per kind, sorted by (name, type): Count the platform's units
}

// Totals returns the platform's counts per resource type.
func (ns Nodes) Totals() Totals {
	t := Totals{Nodes: ns.Len(), Cores: ns.Cores(), CPUs: ns.cpus, MemMB: ns.mem}
	for i, k := range ns.kinds {
		t.GRES = append(t.GRES, GRES{Name: k.Name, Type: k.Type, Count: ns.totals[i]})
	}
	return t
}

// Matching returns the ids of the nodes whose features satisfy c, in id
// order.
func (ns Nodes) Matching(c Constraint) []int {
	var out []int
	for g, x := range ns.groups {
		if c.Eval(x.Features) {
			for id := ns.firstNode[g]; id < ns.firstNode[g+1]; id++ {
				out = append(out, id)
			}
		}
	}
	return out
}

// String describes the platform compactly, e.g. "6 nodes, 120 cores,
// 152 CPUs, 4 gpu:a100, 4 nvme" (CPUs only when threads make them more
// than the cores).
func (ns Nodes) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d nodes, %d cores", ns.Len(), ns.Cores())
	if ns.cpus != ns.Cores() {
		fmt.Fprintf(&b, ", %d CPUs", ns.cpus)
	}
	for i, k := range ns.kinds {
		fmt.Fprintf(&b, ", %d %s", ns.totals[i], k)
	}
	return b.String()
}

// WholeAlloc is the exclusive allocation of every core, the memory and
// every GRES unit of node id: what a node that is unavailable (in a
// window, or down) holds, so that no job can take any of it.
func (ns *Nodes) WholeAlloc(id int) Allocation {
	nd := ns.Node(id)
	na := NodeAlloc{Node: id, Tasks: 1, MemMB: nd.MemMB, Cores: make([]int, nd.Cores())}
	for i := range na.Cores {
		na.Cores[i] = nd.FirstCore + i
	}
	for _, k := range ns.kinds {
		first, count := ns.FirstGRES(id, k)
		if count == 0 {
			continue
		}
		u := GRESUnits{Kind: k, Units: make([]int, count)}
		for i := range u.Units {
			u.Units[i] = first + i
		}
		na.GRES = append(na.GRES, u)
	}
	return Allocation{Nodes: []NodeAlloc{na}, Exclusive: true}
}
