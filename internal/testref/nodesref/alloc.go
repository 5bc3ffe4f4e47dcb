package nodesref

import (
	"maps"
	"slices"
)

// Readings of docs/nodes.md where its text allows more than one. Each is
// the most literal reading; the package doc lists the alternatives.
const (
	// memPerHeldCPU: with memory per CPU, a task needs MemPerCPUMB for
	// every CPU it holds (whole cores x threads per core, the "per CPU
	// held on the node" of "Requests"), not only for the CPUs it asked.
	memPerHeldCPU = true
	// perJobFreeBeforePerNode: the candidate test "has at least one free
	// unit of each GRES per job" counts the node's free units before the
	// job's own GRES per node are taken from them.
	perJobFreeBeforePerNode = true
)

// coresPerTask is the whole cores a task of r takes on n:
// ceil(CPUsPerTask / threads per core).
func coresPerTask(n Node, r Request) int {
	return (r.CPUsPerTask + n.ThreadsPerCore - 1) / n.ThreadsPerCore
}

// memPerTask is the memory one task of r needs on n with memory per CPU.
func memPerTask(n Node, r Request) int64 {
	if memPerHeldCPU {
		return r.MemPerCPUMB * int64(coresPerTask(n, r)*n.ThreadsPerCore)
	}
	return r.MemPerCPUMB * int64(r.CPUsPerTask)
}

// copyUnits copies a node's per-kind held flags.
func copyUnits(u map[string][]bool) map[string][]bool {
	c := make(map[string][]bool, len(u))
	for k, v := range u {
		c[k] = slices.Clone(v)
	}
	return c
}

// takeUnits takes up to want of the lowest free units of the kinds of n
// that (name, typ) can use, kind after kind, marking them held in units and
// adding them to got. It returns how many it took.
func takeUnits(n Node, units map[string][]bool, g GRESReq, want int, got map[string][]int) int {
	took := 0
	for _, k := range kinds(n, g.Name, g.Type) {
		for id, held := range units[k] {
			if took == want {
				return took
			}
			if !held {
				units[k][id] = true
				got[k] = append(got[k], id)
				took++
			}
		}
	}
	return took
}

// freeUnits counts the free units of the kinds of n that g can use.
func freeUnits(n Node, units map[string][]bool, g GRESReq) int {
	c := 0
	for _, k := range kinds(n, g.Name, g.Type) {
		for _, held := range units[k] {
			if !held {
				c++
			}
		}
	}
	return c
}

// cand is a candidate node: how many tasks it can take, and its state
// once the GRES per node are taken (units, gres).
type cand struct {
	node     int
	capacity int
	units    map[string][]bool
	gres     map[string][]int
}

// candidate applies step 1 of the rule (docs/nodes.md, "Allocation") to
// node i: ok is false when it is not a candidate.
func candidate(nodes []Node, fs []nodeFree, i int, r Request, c constraint) (cand, bool) {
	n, f := nodes[i], fs[i]
	if !c.matches(n.Features) || f.whole || (r.Exclusive && f.busy) {
		return cand{}, false
	}
	modelled := n.MemMB > 0
	freeMem := n.MemMB - f.memHeld
	if modelled && r.MemPerNodeMB > freeMem {
		return cand{}, false
	}
	units := copyUnits(f.unit)
	gres := map[string][]int{}
	for _, g := range r.GRESPerNode {
		if takeUnits(n, units, g, g.Count, gres) < g.Count {
			return cand{}, false
		}
	}
	perJobUnits := units
	if perJobFreeBeforePerNode {
		perJobUnits = f.unit
	}
	for _, g := range r.GRESPerJob {
		if freeUnits(n, perJobUnits, g) < 1 {
			return cand{}, false
		}
	}
	capacity := f.freeCores() / coresPerTask(n, r)
	if m := memPerTask(n, r); modelled && m > 0 {
		capacity = min(capacity, int(freeMem/m))
	}
	if capacity < 1 {
		return cand{}, false
	}
	return cand{node: i, capacity: capacity, units: units, gres: gres}, true
}

// allocate is the allocation rule of docs/nodes.md ("Allocation") applied
// to the free state fs: the nodes taken, in the order taken, or ok false
// when r does not fit.
func allocate(nodes []Node, fs []nodeFree, r Request) (uses []NodeUse, ok bool) {
	c := parseConstraint(r.Constraint)
	// 2. Order: (weight, node id).
	order := make([]int, len(nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return int(int64(nodes[a].Weight) - int64(nodes[b].Weight))
	})
	// 3. Tasks. An upper bound exists unless Nodes and MaxNodes are both 0;
	// MaxNodes 0 with Nodes > 0 is exactly Nodes.
	maxN := r.MaxNodes
	if maxN == 0 {
		maxN = r.Nodes
	}
	remaining := r.Tasks
	var taken []cand
	for _, i := range order {
		if remaining == 0 || (maxN > 0 && len(taken) == maxN) {
			break
		}
		cd, ok := candidate(nodes, fs, i, r, c)
		if !ok {
			continue
		}
		if maxN > 0 {
			allowed := maxN - len(taken)
			if share := (remaining + allowed - 1) / allowed; cd.capacity < share {
				continue
			}
		}
		// As many tasks as it can hold, leaving one for each node still
		// needed (after this one) to reach Nodes.
		stillNeeded := max(0, r.Nodes-len(taken)-1)
		give := min(cd.capacity, remaining-stillNeeded)
		cd.capacity = give
		remaining -= give
		taken = append(taken, cd)
	}
	if remaining > 0 || len(taken) < r.Nodes {
		return nil, false
	}
	// 4. GRES per job, from the chosen nodes in their order, beyond their
	// GRES per node.
	for _, g := range r.GRESPerJob {
		want := g.Count
		for k := range taken {
			want -= takeUnits(nodes[taken[k].node], taken[k].units, g, want, taken[k].gres)
		}
		if want > 0 {
			return nil, false
		}
	}
	// 5. Ids.
	for _, cd := range taken {
		uses = append(uses, use(nodes[cd.node], fs[cd.node], r, cd))
	}
	return uses, true
}

// use is what a job of r holds on a taken node: the lowest free cores for
// its tasks (every core when exclusive), its memory (all of it when
// exclusive) and its units.
func use(n Node, f nodeFree, r Request, cd cand) NodeUse {
	u := NodeUse{Node: cd.node, Tasks: cd.capacity}
	want := cd.capacity * coresPerTask(n, r)
	for id, held := range f.core {
		if r.Exclusive || (!held && len(u.Cores) < want) {
			u.Cores = append(u.Cores, id)
		}
	}
	switch {
	case n.MemMB == 0: // not modelled: nothing recorded
	case r.Exclusive:
		u.MemMB = n.MemMB
	case r.MemPerNodeMB > 0:
		u.MemMB = r.MemPerNodeMB
	default:
		u.MemMB = int64(cd.capacity) * memPerTask(n, r)
	}
	if len(cd.gres) > 0 {
		u.GRES = maps.Clone(cd.gres)
		for k := range u.GRES {
			slices.Sort(u.GRES[k])
		}
	}
	return u
}
