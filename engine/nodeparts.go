package engine

import (
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
	// Policy decides over this partition alone (one instance per
	// partition), built for PartitionNodes(platform, Nodes): the
	// allocations it names are in that platform's ids; one it leaves to
	// the model (Start.Alloc nil) is made by the selection rule over the
	// partition's nodes alone.
	Policy policy.NodeScheduler
}

// ErrNodeOverlap: two partitions on a platform of nodes share a node,
// which is not built yet (the node policies do not see the jobs of
// other partitions: policy.ForeignLoad is the pool's).
var ErrNodeOverlap = errors.New("overlapping partitions on a platform of nodes are not built yet: give each node to one partition (docs/nodes.md)")

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
// the partition's policy and running one pass per partition, in the
// order of the configuration, with the starts' allocations mapped to
// the platform's ids. The partitions share no node, so no pass changes
// what another sees, and a partition passes exactly when it would as a
// cluster of its own: when a job of its own arrived or ended, or at the
// wake-up it asked for (Partition's rule).
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
}

// partNodes is one partition's platform and what runs on it.
type partNodes struct {
	ns    *nodes.Nodes
	state *nodes.State // what its running jobs hold (its ids)
	empty *nodes.State // always empty: admission
	gid   []int        // its node i is the platform's node gid[i]
	kinds []nodes.Kind // ns.Kinds()
	// procsFit caches whether a job of p processors (no Req) fits it.
	procsFit map[int]bool
}

// initNodeParts checks ps for c's platform and makes c's policy the
// router.
func (c *NodeCluster) initNodeParts(ps []NodePartition) error {
	if c.cfg.Policy != nil {
		return errors.New("engine: with partitions, each partition has its policy (NodeClusterConfig.Policy must be nil)")
	}
	p := &nodeParts{c: c, list: ps, routes: newRoutes(), where: map[job.ID]int{}, local: map[job.ID]nodes.Allocation{}}
	holder := make([]int, c.ns.Len()) // partition+1 holding each node
	for k, pt := range ps {
		if pt.Policy == nil {
			return fmt.Errorf("partition %s: no policy", pt.Name)
		}
		if len(pt.Nodes) == 0 {
			return fmt.Errorf("partition %s: no nodes", pt.Name)
		}
		for _, id := range pt.Nodes {
			if id < 0 || id >= c.ns.Len() {
				return fmt.Errorf("partition %s: node id %d: the platform has %d nodes", pt.Name, id, c.ns.Len())
			}
			if o := holder[id] - 1; o >= 0 {
				if o == k {
					return fmt.Errorf("partition %s: node %s given twice", pt.Name, c.ns.Name(id))
				}
				return fmt.Errorf("partitions %s and %s share node %s: %w", ps[o].Name, pt.Name, c.ns.Name(id), ErrNodeOverlap)
			}
			holder[id] = k + 1
		}
		sub, err := PartitionNodes(c.ns, pt.Nodes)
		if err != nil {
			return fmt.Errorf("partition %s: %w", pt.Name, err)
		}
		gid := slices.Clone(pt.Nodes)
		slices.Sort(gid)
		p.subs = append(p.subs, &partNodes{ns: sub, state: nodes.NewState(sub), empty: nodes.NewState(sub), gid: gid, kinds: sub.Kinds(), procsFit: map[int]bool{}})
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
		ok, known = s.procsFit[j.Procs]
	}
	if !known {
		var a nodes.Allocation
		if a, ok = s.empty.Alloc(r); ok {
			s.empty.Release(a)
		}
		if j.Req == nil {
			s.procsFit[j.Procs] = ok
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
	p.list[k].Policy.Submit(now, j)
}

func (p *nodeParts) Finish(now float64, id job.ID) {
	k := p.where[id]
	delete(p.where, id)
	if a, ok := p.local[id]; ok {
		p.subs[k].state.Release(a)
		delete(p.local, id)
	}
	p.due[k] = true
	p.list[k].Policy.Finish(now, id)
}

// Schedule runs a pass of every partition in which a job arrived or
// ended at this instant, or whose wake-up time has come, in the order of
// the partitions, and hands the model their starts with allocations in
// the platform's ids. A start that is wrong within its partition (not
// its job, an allocation that does not satisfy the request on the
// partition's nodes or is not free there) stops the run (Err).
func (p *nodeParts) Schedule(now float64, _ policy.NodeView, plan *policy.Plan) {
	for k := range p.list {
		if w := p.wake[k]; !p.due[k] && !(w > 0 && w <= now) {
			continue
		}
		p.due[k], p.wake[k] = false, 0
		p.sub.Reset()
		pol := p.list[k].Policy
		pol.Schedule(now, partNodeView{p.subs[k]}, &p.sub)
		if f := p.caps[k].Fail; f != nil {
			if err := f.Err(); err != nil {
				p.err = err
				return
			}
		}
		for i := range p.sub.Starts {
			d := p.sub.Starts[i]
			g, err := p.place(k, &d)
			if err != nil {
				p.err = fmt.Errorf("policy %s at t=%g: partition %s: start job %d: %v", pol.Name(), now, p.list[k].Name, d.ID, err)
				return
			}
			d.Alloc = g
			plan.Starts = append(plan.Starts, d)
		}
		for _, id := range p.sub.Rejects {
			delete(p.where, id) // the model checks that it waits
			plan.Rejects = append(plan.Rejects, id)
		}
		if w := p.sub.Wake; w > now {
			p.wake[k] = w
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
		a = cloneAlloc(*d.Alloc) // the policy may reuse its storage
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

// cloneAlloc is a deep copy of a.
func cloneAlloc(a nodes.Allocation) nodes.Allocation {
	out := nodes.Allocation{Nodes: make([]nodes.NodeAlloc, len(a.Nodes)), Exclusive: a.Exclusive}
	for i, na := range a.Nodes {
		na.Cores = slices.Clone(na.Cores)
		if na.GRES != nil {
			gs := make([]nodes.GRESUnits, len(na.GRES))
			for x, u := range na.GRES {
				gs[x] = nodes.GRESUnits{Kind: u.Kind, Units: slices.Clone(u.Units)}
			}
			na.GRES = gs
		}
		out.Nodes[i] = na
	}
	return out
}

// partNodeView is a partition's policy's view: its nodes alone, in its
// platform's ids.
type partNodeView struct{ s *partNodes }

func (v partNodeView) Nodes() *nodes.Nodes               { return v.s.ns }
func (v partNodeView) FreeCores(id int) int              { return v.s.state.FreeCores(id) }
func (v partNodeView) FreeMemMB(id int) int64            { return v.s.state.FreeMemMB(id) }
func (v partNodeView) FreeGRES(id int, k nodes.Kind) int { return v.s.state.FreeGRES(id, k) }
func (v partNodeView) Jobs(id int) int                   { return v.s.state.Jobs(id) }
func (v partNodeView) Whole(id int) bool                 { return v.s.state.Whole(id) }
