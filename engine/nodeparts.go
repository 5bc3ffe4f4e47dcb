package engine

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
)

// NodePartition is a named set of nodes of a platform of nodes with a
// policy of its own (docs/nodes.md, "Partitions on nodes"): the node
// form of Partition. A job routed to it runs on its nodes only; its
// policy sees its jobs only and a platform of its nodes only
// (PartitionNodes), in that platform's own ids, which the model maps to
// the platform's global node, core and GRES unit ids.
type NodePartition struct {
	Name string
	// Nodes are global node ids of the platform (distinct; any order:
	// the partition's platform takes them in id order).
	Nodes []int
	// Numbers and Default route jobs as Partition's do: the trace's
	// partition numbers (job.Info.Partition) taken here, and whether
	// the partition takes the jobs of unknown partition (-1).
	Numbers []int32
	Default bool
	// Tier is Slurm's PriorityTier, Tiered whether it is given. When any
	// partition of a run is Tiered, the partitions pass at an instant by
	// Tier, highest first (untiered ones as tier 0), and those of one
	// tier in the order of their oldest waiting job (earliest submission,
	// then smallest id; one with none after those with some), then in
	// the list's order: Slurm's one queue, sorted by tier, then priority,
	// which priority/basic makes the submission order. Without tiers
	// they pass in the list's order.
	Tier   int
	Tiered bool
	// Policy decides over this partition alone (one instance per
	// partition), built for PartitionNodes(platform, Nodes): the
	// allocations it names are in that platform's ids; one it leaves to
	// the model (Start.Alloc nil) is made by the selection rule over the
	// partition's nodes alone.
	Policy policy.NodeScheduler
}

// ErrNoNodeForeignLoad: a partition of nodes shares nodes with
// another, and its policy cannot plan around the other partitions' jobs
// on them (it does not implement policy.NodeForeignLoad).
var ErrNoNodeForeignLoad = errors.New("its policy does not plan around the jobs of other partitions on shared nodes (policy.NodeForeignLoad)")

// PartitionNodes is the platform a partition of nodes ids of ns sees:
// those nodes alone, in ns's id order, each group of ns that has some of
// them cut to them (same cores, memory, GRES, features and weight), so
// that the selection rule orders them as on ns. Node i of the result is
// the i-th smallest of ids.
func PartitionNodes(ns *nodes.Nodes, ids []int) (*nodes.Nodes, error) {
	if len(ids) == 0 {
		return nil, errors.New("no nodes")
	}
	sorted := slices.Clone(ids)
	slices.Sort(sorted)
	var groups []nodes.NodeGroup
	last := -1
	for i, id := range sorted {
		if id < 0 || id >= ns.Len() {
			return nil, fmt.Errorf("node id %d: the platform has %d nodes", id, ns.Len())
		}
		if i > 0 && sorted[i-1] == id {
			return nil, fmt.Errorf("node %s given twice", ns.Name(id))
		}
		g := ns.GroupOf(id)
		if g != last {
			grp := ns.Group(g)
			grp.Names = nil
			groups = append(groups, grp)
			last = g
		}
		groups[len(groups)-1].Names = append(groups[len(groups)-1].Names, ns.Name(id))
	}
	sub, err := nodes.New(groups)
	if err != nil {
		return nil, err
	}
	return &sub, nil
}

// nodeParts routes the jobs of a NodeCluster to its partitions: it is
// the policy the model calls (cfg.Policy), passing Submit and Finish to
// the partition's policy and running the partitions' passes, in the
// order of the configuration, with the starts' allocations mapped to
// the platform's ids (see Schedule).
//
// Partitions may share nodes (overlapping partitions, docs/nodes.md):
// each partition's state then holds what every job holds on its nodes,
// its own and the others' (foreign jobs, cut to its nodes), so that its
// view and the checks of its starts are the truth of its nodes; its
// policy is told of each foreign job (policy.NodeForeignLoad).
type nodeParts struct {
	c    *NodeCluster
	list []NodePartition
	subs []*partNodes
	routes
	sub policy.Plan
	// where is the partition of every waiting or running job; local the
	// allocation of every running job in its partition's ids.
	where map[job.ID]int
	local map[job.ID]nodes.Allocation
	due   []bool
	wake  []float64
	caps  []policy.Caps
	err   error

	// Overlapping partitions (false, nil without): memb[node] are the
	// partitions holding a node held by more than one (nil: one);
	// cuts[id] what running job id holds on the nodes of each other
	// partition, in its ids (the foreign job it is to them).
	overlap bool
	memb    [][]int32
	cuts    map[job.ID][]foreignCut

	// refusingPolicy names the first partition's policy that could not
	// plan around the unavailable nodes (PlanNodeAvailability).
	refusingPolicy string

	// With tiers (NodePartition.Tiered): waits[k] partition k's waiting
	// jobs by (submission, id), waiting the jobs not started or rejected
	// yet (waits are trimmed lazily), order the order of a round.
	tiered  bool
	waits   [][]waitKey
	waiting map[job.ID]bool
	order   []int
}

// waitKey is a waiting job in Slurm's order under priority/basic.
type waitKey struct {
	submit float64
	id     job.ID
}

func (a waitKey) before(b waitKey) bool {
	return a.submit < b.submit || a.submit == b.submit && a.id < b.id
}

// foreignCut is what a job holds on the nodes of partition k, which is
// not its own, in k's ids.
type foreignCut struct {
	k int
	a nodes.Allocation
}

// partNodes is one partition's platform and what runs on it.
type partNodes struct {
	ns    *nodes.Nodes
	state *nodes.State // what its running jobs hold (its ids), and foreign jobs on its nodes
	empty *nodes.State // always empty: admission
	gid   []int        // its node i is the platform's node gid[i]
	lid   []int32      // the platform's node n is its node lid[n] (-1: not its)
	// whole[i] holds its node i whole (unavailable nodes: built on the
	// first use); blocked[i] whether its state holds it so.
	whole   []nodes.Allocation
	blocked []bool
	kinds   []nodes.Kind // ns.Kinds()
	// procsFit caches whether a job of p processors (no Req) fits it.
	procsFit fitMemo
}

// initNodeParts checks ps for c's platform and makes c's policy the
// router.
func (c *NodeCluster) initNodeParts(ps []NodePartition) error {
	if c.cfg.Policy != nil {
		return errors.New("engine: with partitions, each partition has its policy (NodeClusterConfig.Policy must be nil)")
	}
	p := &nodeParts{c: c, list: ps, routes: newRoutes(), where: map[job.ID]int{}, local: map[job.ID]nodes.Allocation{}}
	holders := make([]int32, c.ns.Len()) // partitions holding each node
	for k, pt := range ps {
		if pt.Policy == nil {
			return fmt.Errorf("partition %s: no policy", pt.Name)
		}
		if len(pt.Nodes) == 0 {
			return fmt.Errorf("partition %s: no nodes", pt.Name)
		}
		seen := map[int]bool{}
		for _, id := range pt.Nodes {
			if id < 0 || id >= c.ns.Len() {
				return fmt.Errorf("partition %s: node id %d: the platform has %d nodes", pt.Name, id, c.ns.Len())
			}
			if seen[id] {
				return fmt.Errorf("partition %s: node %s given twice", pt.Name, c.ns.Name(id))
			}
			seen[id] = true
			if holders[id]++; holders[id] > 1 {
				p.overlap = true
			}
		}
		sub, err := PartitionNodes(c.ns, pt.Nodes)
		if err != nil {
			return fmt.Errorf("partition %s: %w", pt.Name, err)
		}
		gid := slices.Clone(pt.Nodes)
		slices.Sort(gid)
		lid := make([]int32, c.ns.Len())
		for i := range lid {
			lid[i] = -1
		}
		for i, g := range gid {
			lid[g] = int32(i)
		}
		p.subs = append(p.subs, &partNodes{ns: sub, state: nodes.NewState(sub), empty: nodes.NewState(sub), gid: gid, lid: lid, kinds: sub.Kinds()})
		p.caps = append(p.caps, policy.CapsOf(pt.Policy))
		p.due = append(p.due, false)
		p.wake = append(p.wake, 0)
		if err := p.add(k, pt.Numbers, pt.Default, func(o int) string { return ps[o].Name }); err != nil {
			return err
		}
	}
	if len(ps) == 0 {
		return errors.New("engine: an empty list of partitions")
	}
	for k := range ps {
		p.order = append(p.order, k)
		if ps[k].Tiered {
			p.tiered = true
		}
	}
	if p.tiered {
		p.waits, p.waiting = make([][]waitKey, len(ps)), map[job.ID]bool{}
	}
	if p.overlap {
		if err := p.initOverlap(holders); err != nil {
			return err
		}
	}
	c.np = p
	c.cfg.Policy = p
	return nil
}

// admit refuses a job that has no partition or fits no set of its
// partition's nodes: the runner drops such jobs before
// (docs/nodes.md), so this is a broken source.
func (p *nodeParts) admit(j *actual.Job, r nodes.Request) error {
	k := p.index(j.Partition)
	if k < 0 {
		return fmt.Errorf("job %d: partition %d is none of the run's partitions", j.ID, j.Partition)
	}
	s := p.subs[k]
	ok, known := false, false
	if j.Req == nil {
		ok, known = s.procsFit.get(j.Procs)
	}
	if !known {
		var a nodes.Allocation
		if a, ok = s.empty.Alloc(r); ok {
			s.empty.Release(a)
		}
		if j.Req == nil {
			s.procsFit.set(j.Procs, ok)
		}
	}
	if !ok {
		return fmt.Errorf("job %d: request %s fits no set of the nodes of partition %s (%s), not even with every node free", j.ID, r, p.list[k].Name, s.ns)
	}
	return nil
}

func (p *nodeParts) Name() string { return p.list[0].Policy.Name() }

// Caps implements policy.Layer: the router can fail (a partition's
// policy that failed, or a start that does not fit its partition), and
// has no other capability.
func (p *nodeParts) Caps() policy.Caps { return policy.Caps{Fail: p} }

// Err implements policy.Failer.
func (p *nodeParts) Err() error { return p.err }

func (p *nodeParts) Submit(now float64, j job.Info) {
	k := p.index(j.Partition)
	p.where[j.ID] = k
	p.due[k] = true
	if p.tiered {
		w, x := p.waits[k], waitKey{j.Submit, j.ID}
		i := len(w)
		for i > 0 && x.before(w[i-1]) {
			i--
		}
		p.waits[k] = slices.Insert(w, i, x)
		p.waiting[j.ID] = true
	}
	p.list[k].Policy.Submit(now, j)
}

// sortOrder puts p.order in the order of a round with tiers: Tier
// highest first, then the partition's oldest waiting job (one with none
// last), then the list's order.
func (p *nodeParts) sortOrder() {
	front := func(k int) (waitKey, bool) {
		w := p.waits[k]
		for len(w) > 0 && !p.waiting[w[0].id] {
			w = w[1:]
		}
		p.waits[k] = w
		if len(w) == 0 {
			return waitKey{}, false
		}
		return w[0], true
	}
	type key struct {
		tier int
		w    waitKey
		has  bool
	}
	keys := make([]key, len(p.list))
	for k := range p.list {
		keys[k].tier = p.list[k].Tier
		keys[k].w, keys[k].has = front(k)
	}
	slices.SortStableFunc(p.order, func(a, b int) int {
		x, y := keys[a], keys[b]
		switch {
		case x.tier != y.tier:
			return cmp.Compare(y.tier, x.tier)
		case x.has != y.has:
			if x.has {
				return -1
			}
			return 1
		case x.has && x.w != y.w:
			if x.w.before(y.w) {
				return -1
			}
			return 1
		}
		return cmp.Compare(a, b)
	})
}

func (p *nodeParts) Finish(now float64, id job.ID) {
	k := p.where[id]
	delete(p.where, id)
	if a, ok := p.local[id]; ok {
		p.subs[k].state.Release(a)
		delete(p.local, id)
	}
	p.due[k] = true
	if p.c.cfg.AllPartitions {
		for o := range p.due {
			p.due[o] = true
		}
	}
	p.list[k].Policy.Finish(now, id)
	if p.overlap {
		for _, f := range p.cuts[id] {
			p.subs[f.k].state.Release(f.a)
			p.due[f.k] = true
			p.caps[f.k].NodeForeign.ReleaseNodes(now, id)
		}
		delete(p.cuts, id)
	}
}

// initOverlap checks that every partition sharing nodes has a policy
// that sees foreign jobs (policy.NodeForeignLoad), and maps the shared
// nodes to their partitions; holders counts the partitions of each
// node.
func (p *nodeParts) initOverlap(holders []int32) error {
	p.memb = make([][]int32, p.c.ns.Len())
	p.cuts = map[job.ID][]foreignCut{}
	for k, s := range p.subs {
		for _, g := range s.gid {
			if holders[g] > 1 {
				p.memb[g] = append(p.memb[g], int32(k))
			}
		}
	}
	for k, pt := range p.list {
		for _, g := range p.subs[k].gid {
			if holders[g] < 2 || p.caps[k].NodeForeign != nil {
				continue
			}
			other := p.memb[g][0]
			if int(other) == k {
				other = p.memb[g][1]
			}
			return fmt.Errorf("partitions %s and %s share node %s, and policy %s cannot run there: %w",
				p.list[other].Name, pt.Name, p.c.ns.Name(g), pt.Policy.Name(), ErrNoNodeForeignLoad)
		}
	}
	return nil
}

// Schedule runs a pass of every partition in which a job arrived or
// ended at this instant, or whose wake-up time has come, in the order of
// the partitions, and hands the model their starts with allocations in
// the platform's ids. A start that is wrong within its partition (not
// its job, an allocation that does not satisfy the request on the
// partition's nodes or is not free there) stops the run (Err).
//
// Disjoint partitions share no node, so no pass changes what another
// sees, and a partition passes exactly when it would as a cluster of
// its own. With overlapping partitions a job also counts for every
// other partition holding one of its nodes: its start or end makes that
// partition due as well (policy.NodeForeignLoad: OccupyNodes, then
// ReleaseNodes). A pass's starts are placed as soon as it returns, so
// the partitions after it see them; a partition passed earlier at this
// instant that shares their nodes is due again, and the rounds repeat,
// in the same order (with tiers, sorted again at each round:
// NodePartition.Tier), until no partition is due. Each round after the
// first follows a start, so the rounds end.
func (p *nodeParts) Schedule(now float64, _ policy.NodeView, plan *policy.Plan) {
	for {
		passed := false
		if p.tiered {
			p.sortOrder()
		}
		for _, k := range p.order {
			if w := p.wake[k]; !p.due[k] && !(w > 0 && w <= now) {
				continue
			}
			passed = true
			if !p.pass(now, k, plan) {
				return
			}
		}
		if !passed || !p.overlap {
			break
		}
	}
	wake := math.Inf(1)
	for _, w := range p.wake {
		if w > now {
			wake = min(wake, w)
		}
	}
	if !math.IsInf(wake, 1) {
		plan.Wake = wake
	}
}

// pass is one pass of partition k: its starts placed and appended to
// plan (with overlapping partitions, told to the other partitions on
// their nodes), its rejects and its wake-up recorded. It reports false
// when the run must stop (p.err).
func (p *nodeParts) pass(now float64, k int, plan *policy.Plan) bool {
	p.due[k], p.wake[k] = false, 0
	p.sub.Reset()
	pol := p.list[k].Policy
	pol.Schedule(now, partNodeView{p.subs[k], p}, &p.sub)
	if f := p.caps[k].Fail; f != nil {
		if err := f.Err(); err != nil {
			p.err = err
			return false
		}
	}
	for i := range p.sub.Starts {
		d := p.sub.Starts[i]
		g, err := p.place(k, &d)
		if err == nil && p.overlap {
			err = p.occupyForeign(now, k, d.ID, g)
		}
		if err != nil {
			p.err = fmt.Errorf("policy %s at t=%g: partition %s: start job %d: %v", pol.Name(), now, p.list[k].Name, d.ID, err)
			return false
		}
		d.Alloc = g
		plan.Starts = append(plan.Starts, d)
		if p.tiered {
			delete(p.waiting, d.ID)
		}
	}
	// A partition's policy preempts its own jobs (it knows no other's):
	// the model tells the router Finish (and Submit, requeued), which
	// routes them to it.
	for _, d := range p.sub.Preempts {
		if p.where[d.ID] != k {
			p.err = fmt.Errorf("policy %s at t=%g: partition %s: preempt job %d: not a job of the partition", pol.Name(), now, p.list[k].Name, d.ID)
			return false
		}
		plan.Preempts = append(plan.Preempts, d)
	}
	for _, id := range p.sub.Rejects {
		if p.tiered {
			delete(p.waiting, id)
		}
		delete(p.where, id) // the model checks that it waits
		plan.Rejects = append(plan.Rejects, id)
	}
	if w := p.sub.Wake; w > now {
		p.wake[k] = w
	}
	return true
}

// occupyForeign tells every partition other than k holding a node of
// g (the platform's allocation of job id, of k, started now) what the
// job holds on its nodes: taken in its state, told to its policy, the
// partition due.
func (p *nodeParts) occupyForeign(now float64, k int, id job.ID, g *nodes.Allocation) error {
	var end float64
	for _, na := range g.Nodes {
		for _, o := range p.memb[na.Node] {
			if int(o) == k || slices.ContainsFunc(p.cuts[id], func(f foreignCut) bool { return f.k == int(o) }) {
				continue
			}
			s := p.subs[o]
			a := s.cut(p.c.ns, *g)
			if !s.state.Occupy(a) {
				return fmt.Errorf("what it holds on the nodes of partition %s is not free there (%v)", p.list[o].Name, s.state.CheckFree(a))
			}
			if len(p.cuts[id]) == 0 {
				i, _ := p.c.present.Get(id)
				j := &p.c.slots.at(i).job
				end = now + p.c.mach.Duration(j.Estimate, j.BMEst)
			}
			p.cuts[id] = append(p.cuts[id], foreignCut{int(o), a})
			p.due[o] = true
			p.caps[o].NodeForeign.OccupyNodes(now, id, a, end)
		}
	}
	return nil
}

// cut is the part of g (an allocation in the ids of the platform ns) on
// the partition's nodes, in its ids: the inverse of global.
func (s *partNodes) cut(ns *nodes.Nodes, g nodes.Allocation) nodes.Allocation {
	a := nodes.Allocation{Exclusive: g.Exclusive}
	for _, na := range g.Nodes {
		id := int(s.lid[na.Node])
		if id < 0 {
			continue
		}
		off := ns.Node(na.Node).FirstCore - s.ns.Node(id).FirstCore
		out := nodes.NodeAlloc{Node: id, Tasks: na.Tasks, MemMB: na.MemMB, Cores: make([]int, len(na.Cores))}
		for x, core := range na.Cores {
			out.Cores[x] = core - off
		}
		if na.GRES != nil {
			out.GRES = make([]nodes.GRESUnits, len(na.GRES))
			for x, u := range na.GRES {
				gf, _ := ns.FirstGRES(na.Node, u.Kind)
				lf, _ := s.ns.FirstGRES(id, u.Kind)
				units := make([]int, len(u.Units))
				for y, unit := range u.Units {
					units[y] = unit - gf + lf
				}
				out.GRES[x] = nodes.GRESUnits{Kind: u.Kind, Units: units}
			}
		}
		a.Nodes = append(a.Nodes, out)
	}
	return a
}

// place checks start d of partition k within the partition, takes its
// resources there and returns its allocation in the platform's ids.
func (p *nodeParts) place(k int, d *policy.Start) (*nodes.Allocation, error) {
	c, s := p.c, p.subs[k]
	i, ok := c.present.Get(d.ID)
	if !ok || c.slots.at(i).machine >= 0 {
		return nil, errors.New("the job is not waiting")
	}
	j := &c.slots.at(i).job
	if o := p.index(j.Partition); o != k {
		return nil, fmt.Errorf("the job is of partition %s", p.list[o].Name)
	}
	if _, started := p.local[d.ID]; started {
		return nil, errors.New("the job is started twice")
	}
	r := requestOf(j)
	var a nodes.Allocation
	if d.Alloc != nil {
		if err := s.ns.CheckAlloc(r, *d.Alloc); err != nil {
			return nil, fmt.Errorf("the allocation does not satisfy the request %s on the partition's nodes: %v", r, err)
		}
		if !s.state.Occupy(*d.Alloc) {
			err := s.state.CheckFree(*d.Alloc)
			if err == nil {
				err = errors.New("its resources are not free")
			}
			return nil, err
		}
		a = d.Alloc.Clone() // the policy may reuse its storage
	} else if av := c.av; av != nil && len(av.windows) > 0 {
		end := c.now + c.mach.Duration(j.Estimate, j.BMEst)
		if a, ok = s.allocClear(av, r, end); !ok {
			return nil, fmt.Errorf("the request %s does not fit the partition's nodes now, clear of reservations until its estimated end t=%g", r, end)
		}
	} else if a, ok = s.state.Alloc(r); !ok {
		return nil, fmt.Errorf("the request %s does not fit the partition's nodes now", r)
	}
	p.local[d.ID] = a
	return s.global(c.ns, a), nil
}

// global is a (an allocation in the partition's ids) in the ids of the
// platform ns: its node i is ns's gid[i], a core the same core of that
// node, a GRES unit the same unit of its kind on that node.
func (s *partNodes) global(ns *nodes.Nodes, a nodes.Allocation) *nodes.Allocation {
	g := &nodes.Allocation{Nodes: make([]nodes.NodeAlloc, len(a.Nodes)), Exclusive: a.Exclusive}
	for i, na := range a.Nodes {
		id := s.gid[na.Node]
		off := ns.Node(id).FirstCore - s.ns.Node(na.Node).FirstCore
		out := nodes.NodeAlloc{Node: id, Tasks: na.Tasks, MemMB: na.MemMB, Cores: make([]int, len(na.Cores))}
		for x, core := range na.Cores {
			out.Cores[x] = core + off
		}
		if na.GRES != nil {
			out.GRES = make([]nodes.GRESUnits, len(na.GRES))
			for x, u := range na.GRES {
				lf, _ := s.ns.FirstGRES(na.Node, u.Kind)
				gf, _ := ns.FirstGRES(id, u.Kind)
				units := make([]int, len(u.Units))
				for y, unit := range u.Units {
					units[y] = unit - lf + gf
				}
				out.GRES[x] = nodes.GRESUnits{Kind: u.Kind, Units: units}
			}
		}
		g.Nodes[i] = out
	}
	return g
}

// partNodeView is a partition's policy's view: its nodes alone, in its
// platform's ids.
type partNodeView struct {
	s *partNodes
	p *nodeParts
}

func (v partNodeView) Nodes() *nodes.Nodes               { return v.s.ns }
func (v partNodeView) FreeCores(id int) int              { return v.s.state.FreeCores(id) }
func (v partNodeView) FreeMemMB(id int) int64            { return v.s.state.FreeMemMB(id) }
func (v partNodeView) FreeGRES(id int, k nodes.Kind) int { return v.s.state.FreeGRES(id, k) }
func (v partNodeView) Jobs(id int) int                   { return v.s.state.Jobs(id) }
func (v partNodeView) Whole(id int) bool                 { return v.s.state.Whole(id) }
