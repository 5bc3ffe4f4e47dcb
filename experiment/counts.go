package experiment

import (
	"fmt"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/counts"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/jobtable"
)

// The node planners (PolicySpec.NodePlanner, run --node-planner): how a
// run on a platform of nodes plans a policy of the backfill family
// (docs/nodes.md, "Two planners").
const (
	// PlannerAuto plans by counts when the run allows it
	// (plannableByCounts), else on nodes. "" is PlannerAuto.
	PlannerAuto = "auto"
	// PlannerCounts plans with the pool's policy over the platform's
	// cores (package policy/counts); a run that does not allow it is an
	// error saying why.
	PlannerCounts = "counts"
	// PlannerNodes plans on nodes (the policy's node version), always.
	PlannerNodes = "nodes"
)

// NodePlanners are the values of PolicySpec.NodePlanner.
var NodePlanners = []string{PlannerAuto, PlannerCounts, PlannerNodes}

// checkNodePlanner checks PolicySpec.NodePlanner: one of NodePlanners
// (or ""), and other than auto only on a platform of nodes.
func (s *RunSpec) checkNodePlanner(add func(setting string, err error)) {
	switch p := s.Policy.NodePlanner; p {
	case "", PlannerAuto:
	case PlannerCounts, PlannerNodes:
		if len(s.Platform.Nodes) == 0 {
			add("--node-planner", fmt.Errorf("--node-planner %s: the node planner is for a platform of nodes (--nodes)", p))
		}
	default:
		add("--node-planner", fmt.Errorf("--node-planner %q: want auto, counts or nodes", p))
	}
}

// plannableByCounts says whether the run s on a platform of nodes may
// be planned by counts, and if not why: its policy's pool version
// plans cores alone exactly (policy.Traits.ByCounts: the backfill
// family; not slurm, whose whole-node reservations need the nodes, nor
// external and python, whose decision process sees the nodes), and
// every job of its workload asks for cores alone (clusterSpec.coresAlone:
// an SWF trace, a job table without a request beyond that, a synthetic
// model without requests). The predicting layer and the carbon delay
// go around the planner as around the node version (they see jobs and
// starts, not nodes), so they do not stand in the way.
//
// Unavailable nodes (reservations, maintenance, failures on nodes)
// keep the node version: the pool's policy plans around unavailable
// CPUs by counts, not around named nodes.
func plannableByCounts(s *clusterSpec) (bool, string) {
	switch {
	case !s.qp.Traits.ByCounts:
		return false, fmt.Sprintf("policy %s plans on nodes only", s.qp.Name)
	case !s.coresAlone:
		return false, "some jobs of the workload ask for more than cores (tasks of one CPU, nothing else)"
	case s.avail != nil:
		return false, "some CPUs are unavailable"
	case s.navail != nil:
		// The pool's policy plans around unavailable CPUs by counts,
		// not around named nodes: the node version plans them.
		return false, "some nodes are unavailable (reservations, maintenance or failures)"
	}
	return true, ""
}

// byCounts decides, once, whether the run s on nodes is planned by
// counts: by PolicySpec.NodePlanner, and with auto (or "") by
// plannableByCounts. Counts asked for where it is not plannable is an
// error saying why.
func (s *clusterSpec) byCounts() (bool, error) {
	switch s.planner {
	case PlannerNodes:
		return false, nil
	case PlannerCounts:
		if ok, why := plannableByCounts(s); !ok {
			return false, &SettingError{Setting: "--node-planner", Err: fmt.Errorf("--node-planner counts: %s (docs/nodes.md)", why)}
		}
		return true, nil
	}
	ok, _ := plannableByCounts(s)
	return ok, nil
}

// countsPolicy builds the run's policy for a pool of the cores of ns
// (the platform, or a partition's nodes) and wraps it as a node
// scheduler of ns (counts.Scheduler). shared is what the policies of
// the platform share (nil: the policy is alone): its CPUs are the
// platform's, so the multifactor order's job size is a job's CPUs over
// the platform's CPUs, as on the node version.
func (s *clusterSpec) countsPolicy(ns *nodes.Nodes, shared *policy.Shared) (*counts.Scheduler, error) {
	plat, err := platform.Cluster(ns.Cores())
	if err != nil {
		return nil, err
	}
	if shared == nil {
		shared = policy.NewShared(ns.CPUs())
	}
	env := s.env
	env.Platform, env.Nodes, env.Shared = plat, nil, shared
	b, err := s.qp.BuildValues(env, s.opts)
	if err != nil {
		return nil, err
	}
	if b.Queue == nil {
		return nil, fmt.Errorf("policy %s has no version for a pool of CPUs to plan by counts", s.qp.Name)
	}
	return counts.New(b.Queue, ns)
}

// nodePolicy builds the run's node scheduler for ns: by counts when
// byCounts, else the policy's node version (env.Nodes).
func (s *clusterSpec) nodePolicy(ns *nodes.Nodes, plat platform.Platform, shared *policy.Shared, byCounts bool) (policy.NodeScheduler, error) {
	if byCounts {
		return s.countsPolicy(ns, shared)
	}
	env := s.env
	env.Platform, env.Nodes = plat, ns
	if shared != nil {
		env.Shared = shared
	}
	b, err := s.qp.BuildValues(env, s.opts)
	if err != nil {
		return nil, err
	}
	return b.Nodes, nil
}

// coresAlone says whether every job of the trace asks for cores alone
// on nodes: an SWF trace's do (SWF has no requests: an SWF job's
// memory field is its SWF record's, never a request); a job table is
// read through once for its rows' requests (jobtable.CoresAlone), and
// only when the run might plan by counts (a policy of the backfill
// family, the planner not forced to nodes).
func (a *traceAsm) coresAlone() (bool, error) {
	if !a.rd.HasRequests() {
		return true, nil
	}
	if !a.qp.Traits.ByCounts || a.s.Policy.NodePlanner == PlannerNodes {
		return false, nil
	}
	return jobtable.CoresAlone(a.rd.Name())
}

// explainOnNodes turns an explain of a run on nodes that is planned by
// counts into the explain of the same run on a pool of the nodes'
// cores: the same schedule (docs/nodes.md, "Two planners"), whose
// passes explain speaks of. note says so ("" on a pool of CPUs). A run
// the node version plans is refused, saying why.
func explainOnNodes(spec RunSpec) (RunSpec, string, error) {
	p := spec.Platform
	if len(p.Nodes) == 0 {
		return spec, "", nil
	}
	refuse := func(why string) (RunSpec, string, error) {
		return spec, "", &SettingError{Setting: "--nodes", Err: fmt.Errorf("explain on a platform of nodes takes a run planned by counts (docs/nodes.md); this one is not: %s", why)}
	}
	switch {
	case spec.Policy.NodePlanner == PlannerNodes:
		return refuse("--node-planner nodes")
	case len(p.Partitions) > 0:
		return refuse("partitions on nodes")
	case len(p.Avail.Reservations) > 0 || p.Avail.Events != "" || p.Avail.Failures != nil:
		return refuse("some nodes are unavailable (reservations, maintenance or failures)")
	}
	qp, err := registry.Lookup(registry.ModelCluster, registry.KindQueue, spec.Policy.Name)
	if err != nil {
		return spec, "", nil // explain refuses it in its own words
	}
	ns, err := ParseNodes(p.Nodes)
	if err != nil {
		return spec, "", &SettingError{Setting: "--nodes", Err: err}
	}
	if qp.Traits.ByCounts && spec.Policy.Options["order"] == "multifactor" && ns.CPUs() != ns.Cores() {
		return refuse("the multifactor order on nodes of several threads a core (its job size is over the CPUs, the pool's over the cores)")
	}
	rd, err := workload.OpenTraceNotify(spec.Workload.Trace, nil)
	if err != nil {
		return spec, "", err
	}
	alone, name := !rd.HasRequests(), rd.Name()
	rd.Close()
	if !alone && qp.Traits.ByCounts {
		if alone, err = jobtable.CoresAlone(name); err != nil {
			return spec, "", err
		}
	}
	if ok, why := plannableByCounts(&clusterSpec{qp: qp, coresAlone: alone}); !ok {
		return refuse(why)
	}
	spec.Platform.Nodes, spec.Platform.Procs = nil, ns.Cores()
	spec.Policy.NodePlanner = ""
	return spec, fmt.Sprintf("on %s, planned by counts: the passes speak of its %d cores as one pool, whose schedule is the run's", nodesText(ns), ns.Cores()), nil
}
