package experiment

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/nodecheck"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/carbon"
	"github.com/schedlab/schedlab/policy/predict"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
)

// MaxNodeGroups bounds the node groups of a platform of nodes
// (PlatformSpec.Nodes): each is parsed and checked before the platform
// is built (the nodes, cores and GRES units are bounded by package
// nodes: nodes.MaxNodes, nodes.MaxCPUs, nodes.MaxGRESUnits).
const MaxNodeGroups = 4096

// ParseNodes builds the platform of nodes of PlatformSpec.Nodes: each
// text a node group (nodes.ParseGroup). An error names the group by its
// position and text, and the column within it.
func ParseNodes(specs []string) (*nodes.Nodes, error) {
	if len(specs) == 0 {
		return nil, errors.New("no node group")
	}
	if len(specs) > MaxNodeGroups {
		return nil, fmt.Errorf("%d node groups: at most %d (MaxNodeGroups)", len(specs), MaxNodeGroups)
	}
	groups := make([]nodes.NodeGroup, len(specs))
	for i, s := range specs {
		g, err := nodes.ParseGroup(s)
		if err != nil {
			return nil, fmt.Errorf("node group %d %q: %w", i+1, clip(s), err)
		}
		groups[i] = g
	}
	ns, err := nodes.New(groups)
	if err != nil {
		return nil, err
	}
	return &ns, nil
}

// clip shortens a text for a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}

// checkNodes reports what does not go with a platform of nodes (p.Nodes
// set), each with its setting.
func (s *RunSpec) checkNodes(add func(setting string, err error)) {
	p, o := s.Platform, s.Outputs
	s.checkNodeParts(add)
	if len(p.Nodes) == 0 {
		return
	}
	if _, err := ParseNodes(p.Nodes); err != nil {
		add("--nodes", fmt.Errorf("--nodes: %w", err))
	}
	for _, c := range []struct {
		on      bool
		setting string
		why     string
	}{
		{p.Procs > 0, "--procs", "--procs and --nodes: on nodes the machine is the nodes' cores; give one of them"},
		{p.Clamp, "--clamp", "--clamp is for a pool of CPUs; on nodes a job that fits no node is refused and counted"},
		{o.Threads, "--threads", "policies that schedule threads do not run on a platform of nodes"},
	} {
		if c.on {
			add(c.setting, errors.New(c.why))
		}
	}
}

// pickNodes makes the trace run's platform of nodes (a.ns) and the
// machine the kernel and the metrics see: one machine of the nodes'
// cores (a job's ids are its cores).
func (a *traceAsm) pickNodes() error {
	ns, err := ParseNodes(a.s.Platform.Nodes)
	if err != nil {
		return &SettingError{Setting: "--nodes", Err: err}
	}
	a.ns = ns
	return nil
}

// fitSource drops, and counts, the jobs whose request fits no node of
// the platform even when it is empty (as the pool of CPUs rejects a job
// larger than the machine), so that the model never sees them.
type fitSource struct {
	src     workload.Source
	ns      *nodes.Nodes
	cores   int          // the platform's cores: a job of tasks of one CPU fits when it asks no more
	empty   *nodes.State // the empty platform, given back after each try
	refused int64
}

func newFitSource(src workload.Source, ns *nodes.Nodes) *fitSource {
	return &fitSource{src: src, ns: ns, cores: ns.Cores(), empty: nodes.NewState(ns)}
}

// fits reports whether j's request fits the empty platform. A job of P
// processors asks for P tasks of one CPU on any number of nodes, and a
// task of one CPU takes one whole core: it fits when P is at most the
// cores.
func (f *fitSource) fits(j *actual.Job) bool {
	if j.Req == nil {
		return j.Procs >= 1 && j.Procs <= f.cores
	}
	if j.Req.Check() != nil {
		return false
	}
	a, ok := f.empty.Alloc(*j.Req)
	if ok {
		f.empty.Release(a)
	}
	return ok
}

func (f *fitSource) Next() (actual.Job, error) {
	for {
		j, err := f.src.Next()
		if err != nil || f.fits(&j) {
			return j, err
		}
		f.refused++
	}
}

// NextInto is Next into *j (engine.IntoSource: the kernel reads each
// job straight into its slot), reading in place when the source can.
func (f *fitSource) NextInto(j *actual.Job) error {
	in, ok := f.src.(engine.IntoSource)
	if !ok {
		var err error
		*j, err = f.Next()
		return err
	}
	for {
		if err := in.NextInto(j); err != nil || f.fits(j) {
			return err
		}
		f.refused++
	}
}

// nodeCheck keeps, for --check on nodes, each finished job's request and
// what it held, for the independent checker (validate.CheckNodes): at
// most MaxCheckJobs.
type nodeCheck struct {
	engine.NopListener
	ns        *nodes.Nodes
	recs      []validate.NodeRec
	err       error
	submitted int64
	bad       []string // jobs started before their submission
	// allowed, with partitions, gives the nodes a job may hold.
	allowed func(*actual.Job) []int
	// With unavailable nodes (nodeavail.go): the attempts cut short and
	// requeued, the spans of unavailable nodes, and whether any came.
	tries []validate.NodeRec
	spans []validate.NodeSpan
	avail bool
}

func (c *nodeCheck) JobSubmitted(now float64, j *actual.Job) { c.submitted++ }

func (c *nodeCheck) JobFinished(now float64, r *engine.Record) {
	if c.err != nil {
		return
	}
	if r.Start < r.Job.Submit && len(c.bad) < 10 {
		c.bad = append(c.bad, fmt.Sprintf("job %d starts at %g, before its submission at %g", r.Job.ID, r.Start, r.Job.Submit))
	}
	if len(c.recs) >= MaxCheckJobs {
		c.err = fmt.Errorf("--check holds every job in memory and is limited to %d jobs; this trace has more (run it without --check)", MaxCheckJobs)
		return
	}
	c.recs = append(c.recs, c.rec(r))
}

// rec is the checker's record of r.
func (c *nodeCheck) rec(r *engine.Record) validate.NodeRec {
	q := nodes.FromProcs(r.Job.Procs)
	if r.Job.Req != nil {
		q = *r.Job.Req
	}
	nr := nodecheck.Rec(c.ns, int64(r.Job.ID), r.Start, r.End, q, r.Alloc)
	if c.allowed != nil {
		nr.Allowed = c.allowed(r.Job)
	}
	return nr
}

func (c *nodeCheck) JobKilled(now float64, r *engine.Record) { c.JobFinished(now, r) }

// check runs the checker over what was kept.
func (c *nodeCheck) check() error {
	if c.err != nil {
		return c.err
	}
	if len(c.bad) > 0 {
		return fmt.Errorf("check: the schedule on nodes is invalid: %s", strings.Join(c.bad, "; "))
	}
	if int64(len(c.recs)) != c.submitted {
		return fmt.Errorf("check: the schedule on nodes is invalid: %d job(s) submitted, %d ended", c.submitted, len(c.recs))
	}
	// Every attempt holds what it held: the requeued ones too (each over
	// [its start, its interruption)).
	all := c.recs
	if len(c.tries) > 0 {
		all = append(append([]validate.NodeRec(nil), c.recs...), c.tries...)
	}
	if err := validate.CheckNodes(nodecheck.Caps(c.ns), all); err != nil {
		return fmt.Errorf("check: the schedule on nodes is invalid: %w", err)
	}
	return c.checkUnavailable(all)
}

// newNodeRun assembles a run on a platform of nodes (s.ns): the
// policy's node scheduler (the registry refuses a policy that has none;
// by counts when s.byCounts says so),
// inside the predicting layer (predict.NodePredictor) and the
// carbon-aware delay (carbon.NodeDelay) when asked for,
// the jobs that fit no node dropped and counted, the recording for
// --check, and engine.NodeCluster.
func newNodeRun(s clusterSpec) (*clusterRun, error) {
	if s.nodeParts != nil {
		return newNodePartsRun(s)
	}
	byCounts, err := s.byCounts()
	if err != nil {
		return nil, err
	}
	np, err := s.nodePolicy(s.ns, s.plat, nil, byCounts)
	if err != nil {
		return nil, err
	}
	r := &clusterRun{npol: np, built: np, caps: policy.CapsOf(np), byCounts: byCounts}
	if l := s.layers(); l.parts || l.threads || l.avail {
		closePolicy(np)
		l.predict = false
		return nil, fmt.Errorf("policy %s on a platform of nodes: %s not built yet", np.Name(), l)
	}
	if s.predict != nil { // EASY++'s predictions, as on a pool of CPUs
		pred := predict.NewNodes(r.npol, *s.predict)
		r.preds, r.npol, r.built, r.caps = []predictCounts{pred}, pred, pred, policy.CapsOf(pred)
	}
	if c := s.carbon; c != nil { // the carbon-aware delay: outermost
		d := carbon.NewNodes(r.npol, c.sig, c.p)
		r.delay, r.npol, r.built, r.caps = d, d, d, policy.CapsOf(d)
	}
	var src workload.Source = s.src
	if r.caps.Screen != nil {
		r.scr = &screenedSource{src: src, pol: r.caps.Screen}
		src = r.scr
	}
	r.fit = newFitSource(src, s.ns)
	src = r.fit
	eng, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: s.ns, Policy: r.npol, Source: src, Listener: s.lis, Continue: s.cont, MaxWaiting: s.maxWaiting,
		Availability: s.navail})
	if err != nil {
		closePolicy(r.built)
		return nil, err
	}
	r.eng = eng
	return r, nil
}

// nodesMachine is the machine the kernel and the metrics see on a
// platform of nodes: one machine of its cores.
func nodesMachine(ns *nodes.Nodes) (platform.Platform, error) { return platform.Cluster(ns.Cores()) }

// nodesText describes a platform of nodes in a line: nodes, cores, CPUs,
// memory and each GRES kind's units.
func nodesText(ns *nodes.Nodes) string {
	t := fmt.Sprintf("%d nodes, %d cores, %d CPUs", ns.Len(), ns.Cores(), ns.CPUs())
	if m := ns.MemMB(); m > 0 {
		t += fmt.Sprintf(", %d MB", m)
	}
	for _, k := range ns.Kinds() {
		t += fmt.Sprintf(", %d %s", ns.GRESTotal(k), k)
	}
	return t
}
