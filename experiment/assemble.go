package experiment

import (
	"errors"
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/policy/predict"
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
	// parts, when set, splits the machine into partitions (their
	// policies unset: newClusterRun builds one per partition).
	parts []engine.Partition
}

// clusterRun is an assembled run: the policy, the engine, and what the
// assembly put between them.
type clusterRun struct {
	pol policy.QueueScheduler
	eng *engine.Cluster
	// scr counts the jobs the policy refused at submission (nil unless
	// the policy is a policy.Screener).
	scr *screenedSource
	// fold hands the listeners jobs made of their threads (nil unless
	// the policy has the Threads trait).
	fold *threads.Fold
	// preds are the predicting layers (none without clusterSpec.predict;
	// one per partition, sharing the users' histories, with partitions).
	preds []*predict.Predictor
	// stages are the clusterStages applied, in their order.
	stages []clusterStage
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
// around it: a policy.Screener's refusals are dropped and counted before
// the model sees them; a policy with the Threads trait gets each job as
// one-CPU threads and the listeners get the jobs back (package threads).
func newClusterRun(s clusterSpec) (*clusterRun, error) {
	env := s.env
	env.Platform = s.plat
	b, err := s.qp.BuildValues(env, s.opts)
	if err != nil {
		return nil, err
	}
	r := &clusterRun{pol: b.Queue}
	if s.parts != nil {
		return r.partitioned(s)
	}
	if s.predict != nil {
		pred := predict.New(r.pol, *s.predict)
		r.preds, r.pol = []*predict.Predictor{pred}, pred
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
	r.eng, err = engine.NewCluster(engine.ClusterConfig{Platform: s.plat, Policy: r.pol, Source: src, Listener: klis, Continue: s.cont, MaxWaiting: s.maxWaiting, Availability: s.avail})
	if err != nil {
		return nil, err
	}
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
	{name: "screen", // a policy.Screener's refusals, dropped and counted
		applies: func(_ *clusterSpec, r *clusterRun) bool {
			_, ok := r.pol.(policy.Screener)
			return ok
		},
		wrap: func(_ *clusterSpec, r *clusterRun, src workload.Source) workload.Source {
			r.scr = &screenedSource{src: src, pol: r.pol.(policy.Screener)}
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
	if rh, ok := r.pol.(rankHead); ok {
		info.Rank, info.Head = rh.RankHead()
	}
	if rn, ok := r.pol.(interface{ RefusalNote() string }); ok {
		info.RefusalNote = rn.RefusalNote()
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
	if _, ok := r.pol.(policy.Screener); ok {
		return nil, &PartitionError{fmt.Errorf("partitions do not go with policy %s yet (it refuses jobs at submission)", r.pol.Name())}
	}
	if _, ok := r.pol.(policy.Failer); ok {
		return nil, &PartitionError{fmt.Errorf("partitions do not go with policy %s yet (one decision process per partition)", r.pol.Name())}
	}
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
			if _, ok := b.Queue.(policy.ForeignLoad); !ok {
				// the predictor would pass foreign jobs to nobody
				return nil, &PartitionError{fmt.Errorf("partitions with --estimate predict need a policy that plans around the jobs of other partitions (policy.ForeignLoad); %s does not", b.Queue.Name())}
			}
			pred := predict.NewShared(b.Queue, *s.predict, hist)
			r.preds = append(r.preds, pred)
			parts[k].Policy = pred
		}
	}
	src := s.src
	if s.jobs != nil {
		src = s.jobs(src)
	}
	var err error
	r.eng, err = engine.NewCluster(engine.ClusterConfig{Platform: s.plat, Source: src, Listener: s.lis, Continue: s.cont, MaxWaiting: s.maxWaiting, Partitions: parts, Availability: s.avail})
	if errors.Is(err, engine.ErrNoAvailabilityPlanner) {
		return nil, err // the caller says it as for a run without partitions
	}
	if errors.Is(err, engine.ErrNoForeignLoad) {
		return nil, &PartitionError{fmt.Errorf("%w (docs/partitions.md)", err)}
	}
	if err != nil {
		return nil, &PartitionError{err} // the partitions' configuration
	}
	return r, nil
}
