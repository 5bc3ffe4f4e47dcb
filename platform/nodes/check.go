package nodes

import (
	"fmt"
	"slices"
)

// CheckAlloc reports the first way allocation a does not satisfy
// request r on ns, ids-wise and count-wise (nil: it does). It is what a
// model checks of an allocation a policy built by hand before it takes
// it (State.Occupy then checks that its resources are free):
//
//   - node ids are of the platform and distinct; their number is within
//     max(Nodes, 1) .. MaxNodes (exactly Nodes when MaxNodes is 0 and
//     Nodes > 0; no bound when both are 0);
//   - the tasks sum to r.Tasks, at least one on each node;
//   - each node's cores are that node's, increasing (so distinct), and
//     exactly tasks x ceil(CPUsPerTask / threads per core), or all the
//     node's cores for an exclusive request;
//   - the memory held on a node is what the allocation rule charges
//     (docs/nodes.md): all the node's memory for an exclusive request,
//     else the memory per node, else the memory per CPU times the CPUs
//     its cores hold, else 0; always 0 on a node whose memory is not
//     modelled; never more than the node has;
//   - GRES: each kind at most once per node, its units that node's own
//     units of that kind, increasing; every kind held is one the request
//     asks for (a GRES of type "" asks for every type of its name); on
//     each node at least the count of each GRES per node; over all nodes,
//     beyond what the GRES per node of the same name take on each node,
//     at least the count of each GRES per job;
//   - every node satisfies the constraint;
//   - a.Exclusive is r.Exclusive.
//
// The error names the node (by name) and the resource. r must pass
// Check.
func (ns *Nodes) CheckAlloc(r Request, a Allocation) error {
	if a.Exclusive != r.Exclusive {
		return fmt.Errorf("the allocation's exclusive is %v, the request's %v", a.Exclusive, r.Exclusive)
	}
	minN, maxN := max(r.Nodes, 1), r.MaxNodes
	if maxN == 0 && r.Nodes > 0 {
		maxN = r.Nodes
	}
	switch n := len(a.Nodes); {
	case n < minN:
		return fmt.Errorf("%d node(s), the request needs at least %d", n, minN)
	case maxN > 0 && n > maxN:
		return fmt.Errorf("%d node(s), the request allows at most %d", n, maxN)
	}
	for i, na := range a.Nodes {
		if na.Node < 0 || na.Node >= ns.Len() {
			return fmt.Errorf("node id %d: the platform has nodes 0..%d", na.Node, ns.Len()-1)
		}
		if i < 16 {
			for _, prev := range a.Nodes[:i] {
				if prev.Node == na.Node {
					return fmt.Errorf("node %s: listed twice", ns.Name(na.Node))
				}
			}
		}
	}
	if len(a.Nodes) > 16 { // sorted ids beyond the quadratic check's reach
		ids := make([]int, len(a.Nodes))
		for i, na := range a.Nodes {
			ids[i] = na.Node
		}
		slices.Sort(ids)
		for i := 1; i < len(ids); i++ {
			if ids[i] == ids[i-1] {
				return fmt.Errorf("node %s: listed twice", ns.Name(ids[i]))
			}
		}
	}
	var c Constraint
	if r.Constraint != "" {
		var err error
		if c, err = ParseConstraint(r.Constraint); err != nil {
			return fmt.Errorf("constraint %q: %v", r.Constraint, err)
		}
	}
	tasks := 0
	for _, na := range a.Nodes {
		nd := ns.Node(na.Node)
		if err := ns.checkNode(r, c, nd, na); err != nil {
			return fmt.Errorf("node %s: %v", nd.Name, err)
		}
		tasks += na.Tasks
	}
	if tasks != r.Tasks {
		return fmt.Errorf("%d task(s) placed, the request has %d", tasks, r.Tasks)
	}
	for _, g := range r.GRESPerJob {
		got := 0
		for _, na := range a.Nodes {
			got += max(heldOf(na, g)-perNodeCount(r, g), 0)
		}
		if got < g.Count {
			return fmt.Errorf("gres per job %s: %d unit(s) beyond the gres per node, the request needs %d", g.Kind(), got, g.Count)
		}
	}
	return nil
}

// checkNode checks what a holds on one node (na, on node nd).
func (ns *Nodes) checkNode(r Request, c Constraint, nd Node, na NodeAlloc) error {
	if na.Tasks < 1 {
		return fmt.Errorf("%d task(s): every node of an allocation has at least one", na.Tasks)
	}
	if r.Constraint != "" && !c.Matches(nd) {
		return fmt.Errorf("features %v do not satisfy the constraint %q", nd.features, r.Constraint)
	}
	perTask := (r.CPUsPerTask + nd.ThreadsPerCore - 1) / nd.ThreadsPerCore
	want := na.Tasks * perTask
	if r.Exclusive {
		if perTask*na.Tasks > nd.Cores() {
			return fmt.Errorf("%d task(s) of %d core(s), the node has %d cores", na.Tasks, perTask, nd.Cores())
		}
		want = nd.Cores()
	}
	if len(na.Cores) != want {
		if r.Exclusive {
			return fmt.Errorf("%d core(s), an exclusive allocation holds all %d", len(na.Cores), want)
		}
		return fmt.Errorf("%d core(s) for %d task(s) of %d core(s) each (%d CPU(s) per task, %d thread(s) per core)",
			len(na.Cores), na.Tasks, perTask, r.CPUsPerTask, nd.ThreadsPerCore)
	}
	for i, core := range na.Cores {
		if core < nd.FirstCore || core >= nd.FirstCore+nd.Cores() {
			return fmt.Errorf("core %d is not the node's (it has cores %d..%d)", core, nd.FirstCore, nd.FirstCore+nd.Cores()-1)
		}
		if i > 0 && core <= na.Cores[i-1] {
			return fmt.Errorf("cores %d then %d: want distinct cores in increasing order", na.Cores[i-1], core)
		}
	}
	var mem int64
	if nd.MemMB > 0 {
		switch {
		case r.Exclusive:
			mem = nd.MemMB
		case r.MemPerNodeMB > 0:
			mem = r.MemPerNodeMB
		case r.MemPerCPUMB > 0:
			mem = r.MemPerCPUMB * int64(len(na.Cores)*nd.ThreadsPerCore)
		}
	}
	if nd.MemMB > 0 && mem > nd.MemMB {
		return fmt.Errorf("memory %d MB: the request takes it here, the node has %d MB", mem, nd.MemMB)
	}
	if na.MemMB != mem {
		switch {
		case nd.MemMB == 0:
			return fmt.Errorf("memory %d MB: the node's memory is not modelled, want 0", na.MemMB)
		case r.Exclusive:
			return fmt.Errorf("memory %d MB: an exclusive allocation holds all the node's %d MB", na.MemMB, mem)
		}
		return fmt.Errorf("memory %d MB: the request takes %d MB here", na.MemMB, mem)
	}
	for i, g := range na.GRES {
		for _, prev := range na.GRES[:i] {
			if prev.Kind == g.Kind {
				return fmt.Errorf("gres %s: listed twice", g.Kind)
			}
		}
		if !asks(r, g.Kind) {
			return fmt.Errorf("gres %s: the request asks for none", g.Kind)
		}
		if len(g.Units) == 0 {
			return fmt.Errorf("gres %s: no units listed", g.Kind)
		}
		first, count := ns.FirstGRES(nd.ID, g.Kind)
		for k, u := range g.Units {
			if u < first || u >= first+count {
				if count == 0 {
					return fmt.Errorf("gres %s unit %d: the node has no %s", g.Kind, u, g.Kind)
				}
				return fmt.Errorf("gres %s unit %d is not the node's (it has units %d..%d)", g.Kind, u, first, first+count-1)
			}
			if k > 0 && u <= g.Units[k-1] {
				return fmt.Errorf("gres %s units %d then %d: want distinct units in increasing order", g.Kind, g.Units[k-1], u)
			}
		}
	}
	for _, g := range r.GRESPerNode {
		if got := heldOf(na, g); got < g.Count {
			return fmt.Errorf("gres per node %s: %d unit(s), the request needs %d", g.Kind(), got, g.Count)
		}
	}
	return nil
}

// matches reports whether units of kind k serve g (g of type "": any
// type of its name).
func matches(g GRES, k Kind) bool {
	return k.Name == g.Name && (g.Type == "" || k.Type == g.Type)
}

// asks reports whether r asks for units of kind k.
func asks(r Request, k Kind) bool {
	for _, g := range r.GRESPerNode {
		if matches(g, k) {
			return true
		}
	}
	for _, g := range r.GRESPerJob {
		if matches(g, k) {
			return true
		}
	}
	return false
}

// heldOf is the units na holds that serve g.
func heldOf(na NodeAlloc, g GRES) int {
	n := 0
	for _, x := range na.GRES {
		if matches(g, x.Kind) {
			n += len(x.Units)
		}
	}
	return n
}

// CheckFree reports the first resource of a that is not free in s,
// naming the node and the resource (nil: State.Occupy takes a, for an
// allocation that passes CheckAlloc): a node held whole by an exclusive
// job, a node running a job under an exclusive allocation, a busy core
// or GRES unit, more memory than the node has free. It changes nothing.
func (s *State) CheckFree(a Allocation) error {
	for _, na := range a.Nodes {
		if na.Node < 0 || na.Node >= s.ns.Len() {
			return fmt.Errorf("node id %d: the platform has nodes 0..%d", na.Node, s.ns.Len()-1)
		}
		nd := s.ns.Node(na.Node)
		switch {
		case s.whole[na.Node]:
			return fmt.Errorf("node %s is not free: an exclusive job holds it whole", nd.Name)
		case a.Exclusive && s.jobs[na.Node] > 0:
			return fmt.Errorf("node %s is not free for an exclusive allocation: %d job(s) run on it", nd.Name, s.jobs[na.Node])
		}
		for _, c := range na.Cores {
			if c < nd.FirstCore || c >= nd.FirstCore+nd.Cores() {
				return fmt.Errorf("node %s: core %d is not the node's", nd.Name, c)
			}
			if s.coreUsed[c] {
				return fmt.Errorf("node %s: core %d is busy", nd.Name, c)
			}
		}
		if free := nd.MemMB - s.memUsed[na.Node]; nd.MemMB > 0 && na.MemMB > free {
			return fmt.Errorf("node %s: memory %d MB is not free (%d MB free)", nd.Name, na.MemMB, free)
		}
		for _, g := range na.GRES {
			k, ok := slices.BinarySearchFunc(s.ns.kinds, g.Kind, compareKind)
			if !ok {
				return fmt.Errorf("node %s: gres %s: the platform has none", nd.Name, g.Kind)
			}
			first, count := s.ns.FirstGRES(na.Node, g.Kind)
			for _, u := range g.Units {
				if u < first || u >= first+count {
					return fmt.Errorf("node %s: gres %s unit %d is not the node's", nd.Name, g.Kind, u)
				}
				if s.unitUsed[k][u] {
					return fmt.Errorf("node %s: gres %s unit %d is busy", nd.Name, g.Kind, u)
				}
			}
		}
	}
	return nil
}

// Jobs is the number of jobs holding resources on node id now.
func (s *State) Jobs(id int) int { return int(s.jobs[id]) }

// Whole reports whether an exclusive job holds node id now.
func (s *State) Whole(id int) bool { return s.whole[id] }
