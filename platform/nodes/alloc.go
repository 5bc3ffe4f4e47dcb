package nodes

import (
	"slices"
)

// State is the use of a Nodes' resources at one instant: which cores and
// GRES units are held, the memory held on each node, the jobs on each
// node and whether one holds it whole. Alloc takes what a request needs
// by the selection rule below; Release gives an allocation back. The
// zero value is not usable: build it with NewState.
//
// The selection rule (docs/nodes.md, "Allocation"):
//
//   - A node is a candidate when it satisfies the request's constraint;
//     is not held whole by another job (and, for an exclusive request,
//     runs no job); has the memory per node asked, and of each GRES per
//     node the count asked, free; has at least one free unit of each
//     GRES per job; and can take at least one task: a task of c CPUs
//     takes ceil(c / threads per core) whole cores (Slurm's CR_Core),
//     and with memory per CPU the memory of those cores' CPUs.
//   - Candidates are taken in the order of (weight, node id): lowest
//     weight first, then the first node of the platform (first fit).
//   - A candidate is taken when it can hold its share of the tasks
//     still to place, ceil(remaining / nodes still allowed) (with no
//     upper bound on nodes, one task), and is given as many tasks as it
//     can hold (block distribution) but no more than leaves one task for
//     each node still needed to reach the least number of nodes.
//   - The request fits when every task is placed on at least Nodes and
//     at most MaxNodes nodes and the GRES per job are then found on the
//     chosen nodes, in their order; otherwise nothing is taken.
//   - On each node a job takes the lowest free core ids and GRES unit
//     ids (a GRES of type "" takes units of its name's types in (name,
//     type) order). An exclusive job holds every core and all the memory
//     of its nodes; its GRES are those it asked for.
type State struct {
	ns        *Nodes
	coreUsed  []bool // per global core
	freeCores []int  // per node
	memUsed   []int64
	jobs      []int32  // per node
	whole     []bool   // per node: held by an exclusive job
	unitUsed  [][]bool // per kind (ns.kinds order), per unit
	freeUnits [][]int  // per node, per kind
	sel       *Selector
	open      openSet // with sel: the nodes with a free core
}

// NodeAlloc is what an allocation holds on one node.
type NodeAlloc struct {
	Node  int   // node id
	Tasks int   // tasks placed there
	Cores []int // global core ids, increasing
	MemMB int64 // memory held there (0 where memory is not modelled or not asked)
	GRES  []GRESUnits
}

// GRESUnits are units of one kind held on a node: global unit ids of
// Kind, increasing.
type GRESUnits struct {
	Kind  Kind
	Units []int
}

// Allocation is what Alloc took, node by node in the order taken.
type Allocation struct {
	Nodes     []NodeAlloc
	Exclusive bool
}

// Clone is a deep copy of a (its own node, core and unit slices).
func (a Allocation) Clone() Allocation {
	out := Allocation{Nodes: make([]NodeAlloc, len(a.Nodes)), Exclusive: a.Exclusive}
	for i, na := range a.Nodes {
		na.Cores = slices.Clone(na.Cores)
		if na.GRES != nil {
			gs := make([]GRESUnits, len(na.GRES))
			for x, u := range na.GRES {
				gs[x] = GRESUnits{Kind: u.Kind, Units: slices.Clone(u.Units)}
			}
			na.GRES = gs
		}
		out.Nodes[i] = na
	}
	return out
}

// CPUs is the CPUs held: the cores' hardware threads.
func (a Allocation) CPUs(ns *Nodes) int {
	n := 0
	for _, na := range a.Nodes {
		n += len(na.Cores) * ns.Node(na.Node).ThreadsPerCore
	}
	return n
}

// NewState returns the state of ns with nothing held. ns must not
// change while the state is used.
func NewState(ns *Nodes) *State {
	s := &State{
		ns:        ns,
		coreUsed:  make([]bool, ns.Cores()),
		freeCores: make([]int, ns.Len()),
		memUsed:   make([]int64, ns.Len()),
		jobs:      make([]int32, ns.Len()),
		whole:     make([]bool, ns.Len()),
		unitUsed:  make([][]bool, len(ns.kinds)),
		freeUnits: make([][]int, ns.Len()),
	}
	for k := range ns.kinds {
		s.unitUsed[k] = make([]bool, ns.totals[k])
	}
	for id := 0; id < ns.Len(); id++ {
		nd := ns.Node(id)
		s.freeCores[id] = nd.Cores()
		s.freeUnits[id] = make([]int, len(ns.kinds))
		for k, kind := range ns.kinds {
			s.freeUnits[id][k] = nd.GRESCount(kind)
		}
	}
	return s
}

// FreeOn implements FreeSource: node n's free amounts now.
func (s *State) FreeOn(n int, f *NodeFree) {
	f.Cores = s.freeCores[n]
	f.MemMB = s.Selector().mem[n] - s.memUsed[n]
	copy(f.Units, s.freeUnits[n])
	f.Jobs = s.jobs[n] > 0
	f.Whole = s.whole[n]
}

// Selector is the state's selector (the selection rule on its
// platform), made at the first use.
func (s *State) Selector() *Selector {
	if s.sel == nil {
		s.sel = NewSelector(s.ns)
		s.open = newOpenSet(s.ns.Len())
		for id, c := range s.freeCores {
			s.open.set(s.sel.pos[id], c > 0)
		}
	}
	return s.sel
}

func (s *State) openNodes() *openSet {
	if s.sel == nil {
		return nil
	}
	return &s.open
}

// freed keeps the open set of node id (after a change of its free
// cores).
func (s *State) freed(id int) {
	if s.sel != nil {
		s.open.set(s.sel.pos[id], s.freeCores[id] > 0)
	}
}

// Select applies the selection rule to what is free now (Alloc without
// taking anything).
func (s *State) Select(p *Prepared, out *Selection) bool { return s.Selector().Select(s, p, out) }

// Alloc takes the resources of r by the selection rule and returns them,
// or reports false and takes nothing when r does not fit now. r must
// pass Check.
func (s *State) Alloc(r Request) (Allocation, bool) {
	sel := s.Selector()
	p, err := sel.Prepare(r)
	if err != nil {
		return Allocation{}, false
	}
	var out Selection
	if !sel.Select(s, p, &out) {
		return Allocation{}, false
	}
	return s.Assign(&out), true
}

// AllocInto is Select and AssignInto of p (prepared by this state's
// selector) on what is free now: it takes p's resources by the
// selection rule into a (its storage reused: a must not be held), with
// sel as the selection's scratch, or reports false and takes nothing.
//
// A request of cores alone (tasks of one core on every node, nothing
// else asked: Prepared.coresOnly) under the first-fit rule takes a
// shorter way to the same allocation: the rule then gives each node with
// a free core, in (weight, id) order, as many tasks as it has free
// cores until every task is placed (a node held whole has none free),
// so only the free cores are read (TestAllocIntoCoresAlone checks it
// against Select and AssignInto).
func (s *State) AllocInto(p *Prepared, sel *Selection, a *Allocation) bool {
	sl := s.Selector()
	if !p.coresOnly || sl.rule != FirstFit {
		if !sl.Select(s, p, sel) {
			return false
		}
		s.AssignInto(sel, a)
		return true
	}
	need, n := p.R.Tasks, 0
	for at := s.open.next(0); need > 0 && at < len(sl.order); at = s.open.next(at + 1) {
		if id := sl.order[at]; !s.whole[id] {
			need -= s.freeCores[id]
			n++
		}
	}
	if need > 0 {
		return false
	}
	if cap(a.Nodes) < n {
		a.Nodes = append(a.Nodes[:cap(a.Nodes)], make([]NodeAlloc, n-cap(a.Nodes))...)
	}
	a.Nodes, a.Exclusive = a.Nodes[:n], false
	left := p.R.Tasks
	for i, at := 0, s.open.next(0); i < n; at = s.open.next(at + 1) {
		id := int(sl.order[at])
		if s.whole[id] {
			continue
		}
		t := min(s.freeCores[id], left)
		s.take(Pick{Node: id, Tasks: t, Cores: t}, nil, false, &a.Nodes[i])
		left -= t
		i++
	}
	return true
}

// perNodeCount is what r's GRES per node already take of g's kind on a
// node (a per-job GRES and a per-node one of the same name share units).
func perNodeCount(r Request, g GRES) int {
	n := 0
	for _, x := range r.GRESPerNode {
		if x.Name == g.Name && (g.Type == "" || x.Type == "" || x.Type == g.Type) {
			n += x.Count
		}
	}
	return n
}

// Assign takes what sel (a selection on this state's free amounts, as
// Select gives it) counts and names the ids (rule 5): on each node the
// lowest free core ids and the lowest free unit ids of each kind.
func (s *State) Assign(sel *Selection) Allocation {
	a := Allocation{Nodes: make([]NodeAlloc, 0, len(sel.Picks))}
	s.AssignInto(sel, &a)
	return a
}

// AssignInto is Assign into a, reusing its storage (its nodes' entries
// and their slices of ids): a must not be held (released, or never
// taken).
func (s *State) AssignInto(sel *Selection, a *Allocation) {
	a.Exclusive = sel.Exclusive
	n := len(sel.Picks)
	if cap(a.Nodes) < n {
		a.Nodes = append(a.Nodes[:cap(a.Nodes)], make([]NodeAlloc, n-cap(a.Nodes))...)
	}
	a.Nodes = a.Nodes[:n]
	for pi, pk := range sel.Picks {
		s.take(pk, sel.Units(pi), sel.Exclusive, &a.Nodes[pi])
	}
}

// take holds pk's amounts on its node (units: per kind) and writes what
// it holds to na (reusing its slices).
func (s *State) take(pk Pick, units []int, exclusive bool, na *NodeAlloc) {
	id := pk.Node
	sl := s.Selector()
	first, last := int(sl.first[id]), int(sl.first[id])+int(sl.cores[id])
	cores := na.Cores[:0]
	if cores == nil || cap(cores) < pk.Cores {
		cores = make([]int, 0, pk.Cores)
	}
	for c := first; c < last && len(cores) < pk.Cores; c++ {
		if !s.coreUsed[c] {
			s.coreUsed[c] = true
			cores = append(cores, c)
		}
	}
	gres := na.GRES[:0]
	*na = NodeAlloc{Node: id, Tasks: pk.Tasks, Cores: cores, MemMB: pk.MemMB}
	s.freeCores[id] -= len(cores)
	s.freed(id)
	s.memUsed[id] += na.MemMB
	for k, n := range units {
		if n == 0 {
			continue
		}
		first, count := s.ns.FirstGRES(id, s.ns.kinds[k])
		var got []int
		if len(gres) < cap(gres) {
			got = gres[:len(gres)+1][len(gres)].Units[:0]
		}
		for u := first; u < first+count && len(got) < n; u++ {
			if !s.unitUsed[k][u] {
				s.unitUsed[k][u] = true
				got = append(got, u)
			}
		}
		if len(got) > 0 {
			s.freeUnits[id][k] -= len(got)
			gres = append(gres, GRESUnits{Kind: s.ns.kinds[k], Units: got})
		}
	}
	if len(gres) > 0 {
		na.GRES = gres
	}
	s.jobs[id]++
	s.whole[id] = exclusive
}

// Release gives back what a took (an allocation of this state, taken
// and not yet released).
func (s *State) Release(a Allocation) {
	for _, na := range a.Nodes {
		for _, c := range na.Cores {
			s.coreUsed[c] = false
		}
		s.freeCores[na.Node] += len(na.Cores)
		s.freed(na.Node)
		s.memUsed[na.Node] -= na.MemMB
		for _, g := range na.GRES {
			k, _ := slices.BinarySearchFunc(s.ns.kinds, g.Kind, compareKind)
			for _, u := range g.Units {
				s.unitUsed[k][u] = false
			}
			s.freeUnits[na.Node][k] += len(g.Units)
		}
		s.jobs[na.Node]--
		if a.Exclusive {
			s.whole[na.Node] = false
		}
	}
}

// FreeCores is node id's free cores now.
func (s *State) FreeCores(id int) int { return s.freeCores[id] }

// FreeMemMB is node id's free memory now (MB; 0 on a node without
// memory modelled).
func (s *State) FreeMemMB(id int) int64 { return s.ns.Node(id).MemMB - s.memUsed[id] }

// FreeGRES is node id's free units of kind k now.
func (s *State) FreeGRES(id int, k Kind) int {
	i, ok := slices.BinarySearchFunc(s.ns.kinds, k, compareKind)
	if !ok {
		return 0
	}
	return s.freeUnits[id][i]
}

// Fits reports whether r could ever start on ns: whether it fits on
// the empty platform.
func Fits(ns *Nodes, r Request) bool {
	_, ok := NewState(ns).Alloc(r)
	return ok
}
