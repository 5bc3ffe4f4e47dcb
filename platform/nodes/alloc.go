package nodes

import (
	"cmp"
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
	order     []int  // node ids by (weight, id)
	coreUsed  []bool // per global core
	freeCores []int  // per node
	memUsed   []int64
	jobs      []int32  // per node
	whole     []bool   // per node: held by an exclusive job
	unitUsed  [][]bool // per kind (ns.kinds order), per unit
	freeUnits [][]int  // per node, per kind
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
		order:     make([]int, ns.Len()),
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
	for id := range s.order {
		s.order[id] = id
		nd := ns.Node(id)
		s.freeCores[id] = nd.Cores()
		s.freeUnits[id] = make([]int, len(ns.kinds))
		for k, kind := range ns.kinds {
			s.freeUnits[id][k] = nd.GRESCount(kind)
		}
	}
	slices.SortStableFunc(s.order, func(a, b int) int { return cmp.Compare(ns.Node(a).Weight, ns.Node(b).Weight) })
	return s
}

// kindsOf returns the indexes (in ns.kinds) of the kinds a GRES asks
// for: its own kind, or every type of its name when its type is "".
func (s *State) kindsOf(g GRES) []int {
	var out []int
	for i, k := range s.ns.kinds {
		if k.Name == g.Name && (g.Type == "" || k.Type == g.Type) {
			out = append(out, i)
		}
	}
	return out
}

// freeOf is node id's free units of g (any type when g's is "").
func (s *State) freeOf(id int, g GRES) int {
	n := 0
	for _, k := range s.kindsOf(g) {
		n += s.freeUnits[id][k]
	}
	return n
}

// capacity is the tasks of r node id can hold now (0: not a candidate).
func (s *State) capacity(id int, r Request, c Constraint, coresPerTask int) int {
	nd := s.ns.Node(id)
	if s.whole[id] || (r.Exclusive && s.jobs[id] > 0) || (r.Constraint != "" && !c.Matches(nd)) {
		return 0
	}
	freeMem := nd.MemMB - s.memUsed[id]
	if r.MemPerNodeMB > 0 && nd.MemMB > 0 && freeMem < r.MemPerNodeMB {
		return 0
	}
	for _, g := range r.GRESPerNode {
		if s.freeOf(id, g) < g.Count {
			return 0
		}
	}
	for _, g := range r.GRESPerJob {
		if s.freeOf(id, g) < 1 {
			return 0
		}
	}
	fit := s.freeCores[id] / coresPerTask
	if r.MemPerCPUMB > 0 && nd.MemMB > 0 {
		fit = min(fit, int(freeMem/(r.MemPerCPUMB*int64(coresPerTask*nd.ThreadsPerCore))))
	}
	return fit
}

// Alloc takes the resources of r by the selection rule and returns them,
// or reports false and takes nothing when r does not fit now. r must
// pass Check.
func (s *State) Alloc(r Request) (Allocation, bool) {
	var c Constraint
	if r.Constraint != "" {
		var err error
		if c, err = ParseConstraint(r.Constraint); err != nil {
			return Allocation{}, false
		}
	}
	minN, maxN := max(r.Nodes, 1), r.MaxNodes
	if maxN == 0 && r.Nodes > 0 {
		maxN = r.Nodes
	}
	type pick struct{ id, tasks, coresPerTask int }
	var picks []pick
	remaining := r.Tasks
	for _, id := range s.order {
		if remaining == 0 && len(picks) >= minN {
			break
		}
		if maxN > 0 && len(picks) == maxN {
			break
		}
		if s.freeCores[id] == 0 {
			continue // can take no task (a node held whole has none free): skipped cheaply
		}
		cpt := (r.CPUsPerTask + s.ns.Node(id).ThreadsPerCore - 1) / s.ns.Node(id).ThreadsPerCore
		fit := s.capacity(id, r, c, cpt)
		share := 1
		if maxN > 0 {
			share = (remaining + maxN - len(picks) - 1) / (maxN - len(picks))
		}
		if fit < max(share, 1) {
			continue
		}
		t := min(fit, remaining-max(minN-len(picks)-1, 0))
		picks = append(picks, pick{id, t, cpt})
		remaining -= t
	}
	if remaining > 0 || len(picks) < minN {
		return Allocation{}, false
	}
	// The GRES per job, from the chosen nodes in their order.
	perJob := make([][]int, len(picks)) // per pick, units of each per-job GRES
	for gi, g := range r.GRESPerJob {
		need := g.Count
		for pi, p := range picks {
			take := min(need, s.freeOf(p.id, g)-perNodeCount(r, g))
			if perJob[pi] == nil {
				perJob[pi] = make([]int, len(r.GRESPerJob))
			}
			if take > 0 {
				perJob[pi][gi] = take
				need -= take
			}
		}
		if need > 0 {
			return Allocation{}, false
		}
	}
	a := Allocation{Exclusive: r.Exclusive}
	for pi, p := range picks {
		a.Nodes = append(a.Nodes, s.take(p.id, p.tasks, p.coresPerTask, r, perJob[pi]))
	}
	return a, true
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

// take holds tasks of r on node id (perJob: units of each GRES per job
// to take there, nil for none) and returns what it holds.
func (s *State) take(id, tasks, coresPerTask int, r Request, perJob []int) NodeAlloc {
	nd := s.ns.Node(id)
	want := tasks * coresPerTask
	if r.Exclusive {
		want = s.freeCores[id]
	}
	na := NodeAlloc{Node: id, Tasks: tasks, Cores: make([]int, 0, want)}
	for c := nd.FirstCore; c < nd.FirstCore+nd.Cores() && len(na.Cores) < want; c++ {
		if !s.coreUsed[c] {
			s.coreUsed[c] = true
			na.Cores = append(na.Cores, c)
		}
	}
	s.freeCores[id] -= len(na.Cores)
	if nd.MemMB > 0 {
		switch {
		case r.Exclusive:
			na.MemMB = nd.MemMB - s.memUsed[id]
		case r.MemPerNodeMB > 0:
			na.MemMB = r.MemPerNodeMB
		case r.MemPerCPUMB > 0:
			na.MemMB = r.MemPerCPUMB * int64(len(na.Cores)*nd.ThreadsPerCore)
		}
	}
	s.memUsed[id] += na.MemMB
	takeUnits := func(g GRES, n int) {
		for _, k := range s.kindsOf(g) {
			first, count := s.ns.FirstGRES(id, s.ns.kinds[k])
			var units []int
			for u := first; u < first+count && n > 0; u++ {
				if !s.unitUsed[k][u] {
					s.unitUsed[k][u] = true
					units = append(units, u)
					n--
				}
			}
			if len(units) > 0 {
				s.freeUnits[id][k] -= len(units)
				na.GRES = mergeUnits(na.GRES, s.ns.kinds[k], units)
			}
		}
	}
	for _, g := range r.GRESPerNode {
		takeUnits(g, g.Count)
	}
	for gi, g := range r.GRESPerJob {
		if perJob != nil && perJob[gi] > 0 {
			takeUnits(g, perJob[gi])
		}
	}
	s.jobs[id]++
	s.whole[id] = r.Exclusive
	return na
}

// mergeUnits adds units of k to gs, keeping gs sorted by kind and each
// kind's units increasing.
func mergeUnits(gs []GRESUnits, k Kind, units []int) []GRESUnits {
	i, ok := slices.BinarySearchFunc(gs, k, func(g GRESUnits, k Kind) int { return compareKind(g.Kind, k) })
	if !ok {
		return slices.Insert(gs, i, GRESUnits{Kind: k, Units: units})
	}
	gs[i].Units = append(gs[i].Units, units...)
	slices.Sort(gs[i].Units)
	return gs
}

// Release gives back what a took (an allocation of this state, taken
// and not yet released).
func (s *State) Release(a Allocation) {
	for _, na := range a.Nodes {
		for _, c := range na.Cores {
			s.coreUsed[c] = false
		}
		s.freeCores[na.Node] += len(na.Cores)
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
