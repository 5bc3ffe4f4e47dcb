package experiment

import (
	"errors"
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload/partition"
)

// Partitions on a platform of nodes (docs/nodes.md, "Partitions on
// nodes"): a partition is "NAME:nodes=HOSTLIST[:limits]", a set of the
// platform's nodes with its own policy, routed and limited as on the
// pool of CPUs (docs/partitions.md); each partition's policy is the
// node policy built for a platform of its nodes alone.

// nodePart is what a partition of nodes adds to its partitionDef.
type nodePart struct {
	ids  []int        // the platform's node ids, ascending
	sub  *nodes.Nodes // the platform of its nodes (engine.PartitionNodes)
	fit  *fitSource   // fits: whether a job fits its nodes, all free
	text string       // its nodes as a hostlist (nodes.Compress)
}

// resolveNodeParts puts defs (parsed, routed) on the platform ns: each
// must be a partition of nodes, every node of it on the platform
// (partitions may share nodes: docs/nodes.md, "Overlapping
// partitions"). d.CPUs becomes the
// partition's global core ids (what summary.json says of it and what
// its utilization is over).
func resolveNodeParts(defs []partitionDef, texts []string, ns *nodes.Nodes) error {
	for k := range defs {
		d := &defs[k]
		if d.Nodes == nil {
			return fmt.Errorf("--partition %q: on a platform of nodes a partition is a set of nodes: want NAME:nodes=HOSTLIST[:...] (as gpu:nodes=gpu[01-04])", texts[k])
		}
		np := &nodePart{}
		for _, name := range d.Nodes {
			id, ok := ns.Lookup(name)
			if !ok {
				return fmt.Errorf("--partition %q: node %s is not on the platform (%s)", texts[k], name, clip(platformHostlist(ns)))
			}
			np.ids = append(np.ids, id)
		}
		slices.Sort(np.ids)
		var err error
		if np.sub, err = engine.PartitionNodes(ns, np.ids); err != nil {
			return fmt.Errorf("--partition %q: %v", texts[k], err)
		}
		np.fit = newFitSource(nil, np.sub)
		np.text, _ = nodes.Compress(d.Nodes)
		var cores platform.Runs
		for _, id := range np.ids {
			nd := ns.Node(id)
			cores = cores.AddRun(int32(nd.FirstCore), int32(nd.FirstCore+nd.Cores()-1))
		}
		d.CPUs = cores
		d.node = np
	}
	return nil
}

// platformHostlist is every node of ns as one hostlist.
func platformHostlist(ns *nodes.Nodes) string {
	names := make([]string, ns.Len())
	for i := range names {
		names[i] = ns.Name(i)
	}
	hl, _ := nodes.Compress(names)
	return hl
}

// nodeTooBig reports whether job j is too large for partition d of
// nodes: its request fits no set of the partition's nodes, all free,
// or asks for more CPUs than maxcpus.
func nodeTooBig(d *partitionDef, j *actual.Job) bool {
	if !d.node.fit.fits(j) {
		return true
	}
	return d.MaxCPUs > 0 && cpusOf(j) > d.MaxCPUs
}

// engineNodeParts is the engine's configuration of defs on nodes
// (policies unset).
func engineNodeParts(defs []partitionDef) []engine.NodePartition {
	ps := make([]engine.NodePartition, len(defs))
	for k, d := range defs {
		ps[k] = engine.NodePartition{Name: d.Name, Nodes: d.node.ids, Numbers: d.nums, Default: d.Default, Tier: d.Tier, Tiered: d.Tiered}
	}
	return ps
}

// buildNodeParts builds one node policy per partition of s.nodeParts,
// for a platform of its nodes (by counts, over its nodes' cores, when
// byCounts), sharing what the policies of one
// machine share (the multifactor usage).
func buildNodeParts(s clusterSpec, byCounts bool) ([]engine.NodePartition, error) {
	parts := slices.Clone(s.nodeParts)
	shared := policy.NewShared(s.ns.CPUs())
	for k := range parts {
		sub, err := engine.PartitionNodes(s.ns, parts[k].Nodes)
		if err != nil {
			return nil, err
		}
		plat, err := nodesMachine(sub)
		if err != nil {
			return nil, err
		}
		np, err := s.nodePolicy(sub, plat, shared, byCounts)
		if err != nil {
			for _, p := range parts[:k] {
				closePolicy(p.Policy)
			}
			return nil, err
		}
		parts[k].Policy = np
	}
	return parts, nil
}

// allowedNodes is, for --check, the nodes a job may hold: its
// partition's (nil without partitions).
func (p *partitionSource) allowedNodes(j *actual.Job) []int {
	k := p.index(j.Partition)
	if k < 0 || p.defs[k].node == nil {
		return nil
	}
	return p.defs[k].node.ids
}

// checkNodeParts checks the partitions' texts against the platform
// before the trace is read: on a pool of CPUs none may be of nodes; on
// nodes every one must be, with its nodes on the platform
// (resolveNodeParts). Routing by the trace's header is checked
// when the run opens the trace.
func (s *RunSpec) checkNodeParts(add func(setting string, err error)) {
	p := s.Platform
	if len(p.Partitions) == 0 || len(p.Partitions) > MaxPartitions {
		return // none, or too many: resolvePartitions says it
	}
	defs := make([]partitionDef, 0, len(p.Partitions))
	for _, t := range p.Partitions {
		spec, err := partition.Parse(t, platform.MaxCPUs)
		if err != nil {
			return // resolvePartitions says it, naming the text
		}
		if len(p.Nodes) == 0 && spec.Nodes != nil {
			add("--partition", fmt.Errorf("--partition %q: a partition of nodes (nodes=HOSTLIST) needs a platform of nodes (--nodes, or --slurm-conf FILE --slurm-nodes)", t))
			return
		}
		defs = append(defs, partitionDef{Spec: spec})
	}
	if len(p.Nodes) == 0 {
		return
	}
	ns, err := ParseNodes(p.Nodes)
	if err != nil {
		return // --nodes says it
	}
	add("--partition", resolveNodeParts(defs, p.Partitions, ns))
}

// newNodePartsRun is newNodeRun with partitions: one node policy per
// partition (buildNodeParts) under the model's router. The run's policy,
// as the outputs name it, is the first partition's (every partition's
// is the same policy).
func newNodePartsRun(s clusterSpec) (*clusterRun, error) {
	byCounts, err := s.byCounts()
	if err != nil {
		return nil, err
	}
	parts, err := buildNodeParts(s, byCounts)
	if err != nil {
		return nil, err
	}
	first := parts[0].Policy
	r := &clusterRun{npol: first, built: first, caps: policy.CapsOf(first), byCounts: byCounts}
	closeAll := func() {
		for _, p := range parts {
			closePolicy(p.Policy)
		}
	}
	if l := s.layers(); l != (layers{}) {
		closeAll()
		return nil, fmt.Errorf("policy %s on a platform of nodes: %s not built yet", first.Name(), l)
	}
	if s.carbon != nil {
		closeAll()
		return nil, fmt.Errorf("policy %s on a platform of nodes: the carbon-aware delay is not built yet", first.Name())
	}
	for _, pt := range parts {
		r.nodePartPols = append(r.nodePartPols, pt.Policy)
	}
	src := s.src
	if ps := newPartScreen(parts); ps != nil {
		r.scr = &screenedSource{src: src, pol: ps}
		src = r.scr
	}
	r.fit = newFitSource(src, s.ns)
	eng, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: s.ns, Partitions: parts, Source: r.fit, Listener: s.lis, Continue: s.cont, MaxWaiting: s.maxWaiting,
		Availability: s.navail, AllPartitions: s.qp.Traits.AllPartitions})
	if errors.Is(err, engine.ErrNoAvailabilityPlanner) {
		closeAll()
		return nil, err // said as for a run without partitions
	}
	if err != nil {
		closeAll()
		return nil, &PartitionError{err}
	}
	r.eng = eng
	return r, nil
}

// partScreen refuses at submission the jobs that the policy of their
// partition refuses (policy.Caps.Screen: the slurm policy's QOS limits,
// say), for a run over partitions of nodes: a job goes to the partition
// that takes its trace partition number, or to the default one when it
// has none (-1), as the engine routes it; a job no partition takes is
// let through (the runner's partition stage has dropped it before).
type partScreen struct {
	of  map[int32]int
	def int
	scr []policy.Screener // per partition (nil: its policy refuses none)
}

// newPartScreen is the screen of parts' policies, nil when none of them
// screens.
func newPartScreen(parts []engine.NodePartition) *partScreen {
	p := &partScreen{of: map[int32]int{}, def: -1, scr: make([]policy.Screener, len(parts))}
	any := false
	for k, pt := range parts {
		if sc := policy.CapsOf(pt.Policy).Screen; sc != nil {
			p.scr[k], any = sc, true
		}
		for _, n := range pt.Numbers {
			p.of[n] = k
		}
		if pt.Default {
			p.def = k
		}
	}
	if !any {
		return nil
	}
	return p
}

// Refuse implements policy.Screener.
func (p *partScreen) Refuse(j job.Info) string {
	k, ok := p.of[j.Partition]
	if !ok {
		if j.Partition >= 0 {
			return ""
		}
		k = p.def
	}
	if k < 0 || p.scr[k] == nil {
		return ""
	}
	return p.scr[k].Refuse(j)
}
