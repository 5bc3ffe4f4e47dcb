package experiment

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/capping"
	"github.com/schedlab/schedlab/policy/carbon"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/policy/predict"
	"github.com/schedlab/schedlab/policy/sleep"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/threads"
	"github.com/schedlab/schedlab/workload"
)

// clusterSpec is one run of a central-queue policy on one cluster (or
// the machines of a platform), as the runners of traces (RunTrace) and
// synthetic jobs (the cluster model of a sweep) describe it to
// newClusterRun, the one place that assembles
// such a run.
type clusterSpec struct {
	plat platform.Platform
	// ns, when set, is a platform of nodes (plat is then one machine of
	// its cores): newNodeRun assembles the run.
	ns   *nodes.Nodes
	qp   registry.Entry
	opts option.Values // checked by qp.Check
	env  policy.Env    // Platform is set from plat
	src  workload.Source
	// lis hears the jobs; threadLis, with a policy that schedules
	// threads, hears the threads themselves (threads.csv).
	lis       engine.Listener
	threadLis []engine.Listener
	// jobs and threads, when set, wrap the source of jobs (after the
	// screening) and of threads (after the split), e.g. to record what
	// the kernel is given for --check.
	jobs, threads func(workload.Source) workload.Source
	cont          bool // jobs run past their request (default: killed)
	// predict, when set, puts a predicting layer (EASY++'s
	// system-generated runtime predictions) between the jobs and the
	// policy.
	predict    *predict.Params
	maxWaiting int64 // engine.ClusterConfig.MaxWaiting (0: the engine's default)
	avail      *engine.Availability
	navail     *engine.NodeAvailability // unavailable nodes, on a platform of nodes (ns)
	// parts, when set, splits the machine into partitions (their
	// policies unset: newClusterRun builds one per partition).
	parts []engine.Partition
	// nodeParts, on a platform of nodes (ns), splits the nodes into
	// partitions (their policies unset: newNodeRun builds one per
	// partition, buildNodeParts).
	nodeParts []engine.NodePartition
	// carbon, when set, puts the carbon-aware delay layer (policy/carbon)
	// around the policy, outside the predicting layer.
	carbon *carbonSpec
	// sleep, when set, puts the idle sleeper (policy/sleep) around the
	// policy, inside the carbon delay; switching is the engine's
	// switching times it needs.
	sleep     *sleep.Params
	switching *engine.Switching
	// cap, when set, puts the capping layer (policy/capping) around the
	// policy, outside the sleeper and inside the carbon delay, and gives
	// the kernel the cap.
	cap *capSpec
	// coresAlone, on a platform of nodes, says that every job of the
	// workload asks for cores alone (nodes.CoresAlone); planner is
	// PolicySpec.NodePlanner. Together they decide whether the run is
	// planned by counts (clusterSpec.byCounts).
	coresAlone bool
	planner    string
}

// clusterRun is an assembled run: the policy, the engine, and what the
// assembly put between them.
type clusterRun struct {
	// pol is the policy on a pool of CPUs; npol, on a platform of nodes
	// (clusterSpec.ns), the node scheduler (then pol is nil). built is
	// whichever is set.
	pol   policy.QueueScheduler
	npol  policy.NodeScheduler
	built namedPolicy
	// caps is what pol can do (policy.CapsOf, once): with its layers
	// (the predictor) as layeredCaps says; with partitions, the first
	// partition's policy's, as every partition's.
	caps policy.Caps
	// partPols are, with partitions, each partition's policy (with its
	// layers), in the partitions' order.
	partPols []policy.QueueScheduler
	// nodePartPols are, with partitions of nodes, each partition's node
	// policy, in the partitions' order.
	nodePartPols []policy.NodeScheduler
	eng          simulation
	// scr counts the jobs the policy refused at submission (nil unless
	// the policy can screen, policy.Caps.Screen).
	scr *screenedSource
	// fit, on a platform of nodes, counts the jobs that fit no node.
	fit *fitSource
	// fold hands the listeners jobs made of their threads (nil unless
	// the policy has the Threads trait).
	fold *threads.Fold
	// preds are the predicting layers (none without clusterSpec.predict;
	// one per partition, sharing the users' histories, with partitions;
	// on nodes a predict.NodePredictor).
	preds []predictCounts
	// delay is the carbon-aware delay layer (clusterSpec.carbon; nil:
	// none; on nodes a carbon.NodeDelay).
	delay delayCounts
	// sleep is the idle sleeper's settings (nil: none).
	sleep *sleep.Params
	// capper is the capping layer and capSpec its cap (nil: none).
	capper  *capping.Capper
	capSpec *capSpec
	// stages are the clusterStages applied, in their order.
	stages []clusterStage
	// byCounts, on a platform of nodes, says that the run is planned by
	// counts (package policy/counts).
	byCounts bool
}

// predictCounts is what a run reports of a predicting layer
// (predict.Predictor, predict.NodePredictor).
type predictCounts interface {
	Predicted() int64
	Corrected() int64
	Corrections() int64
}

// delayCounts is what a run reports of a carbon-aware delay layer
// (carbon.Delay, carbon.NodeDelay).
type delayCounts interface {
	Params() carbon.Params
	Deferred() int64
	HeldSeconds() float64
}

// namedPolicy is a built policy, a queue policy or a node scheduler,
// as the runners name, watch and close it.
type namedPolicy interface{ Name() string }

// simulation is the assembled model: engine.Cluster, engine.NodeCluster.
type simulation interface {
	Run() error
	Stop()
	Stats() engine.Stats
	Caps() policy.Caps
}

// predictions sums what the predicting layers did: jobs predicted, jobs
// corrected, corrections.
func (r *clusterRun) predictions() (predicted, corrected, corrections int64) {
	for _, p := range r.preds {
		predicted += p.Predicted()
		corrected += p.Corrected()
		corrections += p.Corrections()
	}
	return predicted, corrected, corrections
}

// newClusterRun builds the policy through the registry and the engine
// around it: checkCombination decides, from what the policy can do,
// whether the layers the spec asks for go with it; a screening policy's
// refusals are dropped and counted before the model sees them; a policy
// with the Threads trait gets each job as one-CPU threads and the
// listeners get the jobs back (package threads).
func newClusterRun(s clusterSpec) (*clusterRun, error) {
	if s.ns != nil {
		return newNodeRun(s)
	}
	env := s.env
	env.Platform = s.plat
	b, err := s.qp.BuildValues(env, s.opts)
	if err != nil {
		return nil, err
	}
	r := &clusterRun{pol: b.Queue, built: b.Queue, caps: policy.CapsOf(b.Queue)}
	if err := checkCombination(b.Queue.Name(), r.caps, s.layers()); err != nil {
		closePolicy(b.Queue)
		return nil, err
	}
	if s.parts != nil {
		return r.partitioned(s)
	}
	if s.predict != nil {
		pred := predict.New(r.pol, *s.predict)
		r.preds, r.pol, r.built, r.caps = []predictCounts{pred}, pred, pred, policy.CapsOf(pred)
	}
	if s.sleep != nil { // the idle sleeper: around the predictor, inside the delay
		sl := sleep.New(r.pol, *s.sleep)
		r.sleep, r.pol, r.built, r.caps = s.sleep, sl, sl, policy.CapsOf(sl)
	}
	var engCap *engine.PowerCap
	if c := s.cap; c != nil { // the capping layer: around the sleeper, inside the delay
		cp, err := capping.New(r.pol, c.eng.Times, c.eng.Watts, c.eng.Model, s.plat)
		if err != nil {
			closePolicy(b.Queue)
			return nil, &SettingError{Setting: "--power-cap", Err: fmt.Errorf("--power-cap %q: %w", c.cap, err)}
		}
		r.capper, r.capSpec, r.pol, r.built, r.caps = cp, c, cp, cp, policy.CapsOf(cp)
		engCap = c.eng
	}
	if c := s.carbon; c != nil { // the carbon-aware delay: outermost
		d := carbon.New(r.pol, c.sig, c.p)
		r.delay, r.pol, r.built, r.caps = d, d, d, policy.CapsOf(d)
	}
	src := s.src
	for _, st := range clusterStages {
		if st.applies(&s, r) {
			src = st.wrap(&s, r, src)
			r.stages = append(r.stages, st)
		}
	}
	klis := s.lis
	if s.qp.Traits.Threads {
		r.fold = threads.NewFold(s.lis)
		klis = append(engine.Tee{r.fold}, s.threadLis...)
	}
	eng, err := engine.NewCluster(engine.ClusterConfig{Platform: s.plat, Policy: r.pol, Source: src, Listener: klis, Continue: s.cont, MaxWaiting: s.maxWaiting, Availability: s.avail, Switching: s.switching, Cap: engCap})
	if err != nil {
		return nil, err
	}
	r.eng = eng
	return r, nil
}

// clusterStage is one wrapper of the source of a central-queue run that
// newClusterRun adds after the runner's own (a trace run's
// traceStages), once the policy is built.
type clusterStage struct {
	name    string
	applies func(s *clusterSpec, r *clusterRun) bool
	wrap    func(s *clusterSpec, r *clusterRun, src workload.Source) workload.Source
	// report, when set, writes what the stage did into a trace run's
	// run info (summary.json).
	report func(r *clusterRun, info *RunInfo)
}

// clusterStages are the wrappers newClusterRun puts around the runner's
// source, innermost first (without partitions: a run over partitions
// takes only the recording for --check, clusterSpec.jobs).
var clusterStages = []clusterStage{
	{name: "screen", // a screening policy's refusals (policy.Caps.Screen), dropped and counted
		applies: func(_ *clusterSpec, r *clusterRun) bool { return r.caps.Screen != nil },
		wrap: func(_ *clusterSpec, r *clusterRun, src workload.Source) workload.Source {
			r.scr = &screenedSource{src: src, pol: r.caps.Screen}
			return r.scr
		},
		report: reportScreen},
	{name: "record", // clusterSpec.jobs: e.g. the jobs for --check
		applies: func(s *clusterSpec, _ *clusterRun) bool { return s.jobs != nil },
		wrap:    func(s *clusterSpec, _ *clusterRun, src workload.Source) workload.Source { return s.jobs(src) }},
	{name: "thread split", // each job as one-CPU threads (the Threads trait)
		applies: func(s *clusterSpec, _ *clusterRun) bool { return s.qp.Traits.Threads },
		wrap:    func(_ *clusterSpec, _ *clusterRun, src workload.Source) workload.Source { return threads.Split(src) }},
	{name: "record threads", // clusterSpec.threads: the threads for --check
		applies: func(s *clusterSpec, _ *clusterRun) bool { return s.qp.Traits.Threads && s.threads != nil },
		wrap:    func(s *clusterSpec, _ *clusterRun, src workload.Source) workload.Source { return s.threads(src) }},
}

// reportScreen writes the jobs a screening policy refused, and a ranking
// policy's rank and head, into the run info.
func reportScreen(r *clusterRun, info *RunInfo) {
	info.Refused = r.refused()
	if sr := r.caps.Summary; sr != nil {
		info.Rank, info.Head = sr.RankHead()
		info.RefusalNote = sr.RefusalNote()
	}
}

// report writes what the applied cluster stages did into info, in their
// order.
func (r *clusterRun) report(info *RunInfo) {
	for _, st := range r.stages {
		if st.report != nil {
			st.report(r, info)
		}
	}
}

// refused is the number of jobs the policy refused at submission.
func (r *clusterRun) refused() int64 {
	if r.scr == nil {
		return 0
	}
	return r.scr.refused
}

// threadUtilization corrects a run's utilization for a policy that
// schedules threads: a job's threads need not run side by side, so
// utilization is the threads' CPU time over procs x the span, not procs
// x (last end - first start) per job. It also reports a fold error.
func (r *clusterRun) threadUtilization(res *metrics.Result, procs int) error {
	if r.fold == nil {
		return nil
	}
	return r.fold.Correct(res, procs)
}

// partitioned assembles a run over partitions: one policy per
// partition, built for a machine of the partition's CPUs.
func (r *clusterRun) partitioned(s clusterSpec) (*clusterRun, error) {
	parts := slices.Clone(s.parts)
	var hist *predict.Histories
	if s.predict != nil {
		hist = predict.NewHistories()
	}
	shared := policy.NewShared(s.plat.CPUs())
	for k := range parts {
		sub, err := platform.Cluster(parts[k].CPUs.Count())
		if err != nil {
			return nil, err
		}
		env := s.env
		env.Platform, env.Shared = sub, shared
		b, err := s.qp.BuildValues(env, s.opts)
		if err != nil {
			return nil, err
		}
		parts[k].Policy = b.Queue
		if hist != nil {
			pred := predict.NewShared(b.Queue, *s.predict, hist)
			r.preds = append(r.preds, pred)
			parts[k].Policy = pred
		}
	}
	for k := range parts {
		r.partPols = append(r.partPols, parts[k].Policy)
	}
	src := s.src
	if s.jobs != nil {
		src = s.jobs(src)
	}
	eng, err := engine.NewCluster(engine.ClusterConfig{Platform: s.plat, Source: src, Listener: s.lis, Continue: s.cont, MaxWaiting: s.maxWaiting, Partitions: parts, Availability: s.avail})
	if errors.Is(err, engine.ErrNoAvailabilityPlanner) {
		return nil, err // the caller says it as for a run without partitions
	}
	if errors.Is(err, engine.ErrNoForeignLoad) {
		return nil, &PartitionError{fmt.Errorf("%w (docs/partitions.md)", err)}
	}
	if err != nil {
		return nil, &PartitionError{err} // the partitions' configuration
	}
	r.eng = eng
	return r, nil
}

// layers are what an assembly puts around a built policy, or under it:
// the layers of a clusterSpec.
type layers struct {
	predict bool // the predicting layer (policy/predict, --estimate predict)
	parts   bool // partitions: one policy per partition under the model's router
	threads bool // the thread split (the policy's Threads trait)
	avail   bool // unavailable CPUs: windows or failures
	cap     bool // the power cap's layer (policy/capping): its windows of CPUs
}

func (l layers) String() string {
	var out []string
	for _, x := range []struct {
		on   bool
		name string
	}{{l.predict, "predict"}, {l.parts, "partitions"}, {l.threads, "threads"}, {l.avail, "avail"}, {l.cap, "cap"}} {
		if x.on {
			out = append(out, x.name)
		}
	}
	if out == nil {
		return "none"
	}
	return strings.Join(out, "+")
}

// layers is the spec's.
func (s *clusterSpec) layers() layers {
	return layers{predict: s.predict != nil, parts: s.parts != nil, threads: s.qp.Traits.Threads, avail: s.avail != nil, cap: s.cap != nil}
}

// combination is one row of the table of combinations: with the layers
// for which when holds, a policy whose capabilities (its own, or what
// its layers leave of them: layeredCaps) make refuse true is refused
// with the error of why, which names the policy and the option.
type combination struct {
	when   func(l layers) bool
	refuse func(own, layered policy.CapSet) bool
	why    func(name string) error
}

// combinations is the one table of what goes with what, in the order
// the rows are tried; a combination no row refuses runs. The model
// checks once more what it alone can see (overlapping partitions need
// policy.Caps.Foreign: engine.ErrNoForeignLoad names the partitions).
// A trace run asks the table for partitions of threads before it reads
// the trace (partitionDefs, which also refuses partitions under a policy
// of several machines and overlapping partitions with unavailable
// CPUs); the trace and scenario runners refuse unavailable CPUs with
// --estimate predict before they build anything, in the words of the
// row here.
var combinations = []combination{
	{ // a refusal would have to be made by the partition of the job
		when:   func(l layers) bool { return l.parts },
		refuse: func(own, _ policy.CapSet) bool { return own&policy.CapScreen != 0 },
		why: func(name string) error {
			return &PartitionError{fmt.Errorf("partitions do not go with policy %s yet (it refuses jobs at submission)", name)}
		}},
	{ // an external decision process: one per partition is not supported
		when:   func(l layers) bool { return l.parts },
		refuse: func(own, _ policy.CapSet) bool { return own&policy.CapFail != 0 },
		why: func(name string) error {
			return &PartitionError{fmt.Errorf("partitions do not go with policy %s yet (one decision process per partition)", name)}
		}},
	{ // the predictor would pass foreign jobs to nobody
		when:   func(l layers) bool { return l.parts && l.predict },
		refuse: func(own, _ policy.CapSet) bool { return own&policy.CapForeign == 0 },
		why: func(name string) error {
			return &PartitionError{fmt.Errorf("partitions with --estimate predict need a policy that plans around the jobs of other partitions (policy.ForeignLoad); %s does not", name)}
		}},
	{
		when:   func(l layers) bool { return l.parts && l.threads },
		refuse: func(_, _ policy.CapSet) bool { return true },
		why: func(name string) error {
			return &PartitionError{fmt.Errorf("partitions do not go with policy %s (jobs as threads) yet (docs/partitions.md)", name)}
		}},
	{ // the model keeps jobs off reserved CPUs by the estimates the policy plans with
		when:   func(l layers) bool { return l.avail && l.predict },
		refuse: func(_, _ policy.CapSet) bool { return true },
		why: func(string) error {
			return errors.New("unavailable CPUs (reservations, failures) do not go with estimate predict: the model keeps jobs off reserved CPUs by the estimates the policy plans with")
		}},
	{
		when:   func(l layers) bool { return l.avail },
		refuse: func(_, layered policy.CapSet) bool { return layered&policy.CapAvail == 0 },
		why: func(name string) error {
			return fmt.Errorf("policy %s %w: use fcfs, easy, conservative or backfill", name, engine.ErrNoAvailabilityPlanner)
		}},
	{ // the capping layer hands the policy the cap as windows of CPUs
		when:   func(l layers) bool { return l.cap },
		refuse: func(_, layered policy.CapSet) bool { return layered&policy.CapAvail == 0 },
		why: func(name string) error {
			return &SettingError{Setting: "--power-cap", Err: fmt.Errorf("--power-cap: policy %s %w, which the cap's windows are: use fcfs, easy, conservative or backfill", name, engine.ErrNoAvailabilityPlanner)}
		}},
}

// checkCombination decides, from own (what the built policy called name
// can do, policy.CapsOf), whether the layers l go with it: the error of
// the first row of combinations that refuses it, else nil.
func checkCombination(name string, own policy.Caps, l layers) error {
	o, lc := own.Set(), layeredCaps(own, l).Set()
	for _, c := range combinations {
		if c.when(l) && c.refuse(o, lc) {
			return c.why(name)
		}
	}
	return nil
}

// layeredCaps is what the policy the model runs can do, given what the
// built policy can (own) and the layers around it: the predictor passes
// on its inner's among predict.Forwards; the partitions' router plans
// around unavailable CPUs when the partitions' policies do, and has no
// other capability (each partition's policy is the same policy, built
// for its CPUs). The thread split and the unavailable CPUs are outside
// the policy and change nothing.
func layeredCaps(own policy.Caps, l layers) policy.Caps {
	c := own
	if l.predict {
		c = c.Only(predict.Forwards)
	}
	if l.parts {
		c = c.Only(policy.CapAvail)
	}
	return c
}
