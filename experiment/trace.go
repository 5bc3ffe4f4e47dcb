package experiment

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/metrics/nodeuse"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/external"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/resample"
	"github.com/schedlab/schedlab/workload/swf"
	"github.com/schedlab/schedlab/workload/tsafrir"
)

// RunInfo describes a finished run in summary.json.
type RunInfo struct {
	Trace      string `json:"trace"`
	Policy     string `json:"policy"`
	Order      string `json:"order"`
	Estimate   string `json:"estimate"`
	OnOverrun  string `json:"on_overrun"`
	Procs      int    `json:"procs"`
	Read       int64  `json:"records_read"`
	Skipped    int64  `json:"records_skipped"`
	Rejected   int64  `json:"jobs_rejected"`
	Clamped    int64  `json:"jobs_clamped"`
	MaxQueued  int    `json:"max_queued"`
	Passes     int64  `json:"scheduling_passes"`
	SkipDetail string `json:"skipped_detail,omitempty"`
	// Rank is the rank function of a ranking policy (jrb), and Refused
	// the jobs it refused at submission (rank -1: no machine can hold
	// them; or a rank its options refuse), never simulated.
	Rank string `json:"rank,omitempty"`
	// Window is the time window of a run restricted to part of its trace
	// (WorkloadSpec.From, To), and BeforeWindow the records submitted before
	// it, read and left out (those after it are not read).
	Window       string `json:"window,omitempty"`
	BeforeWindow int64  `json:"records_before_window,omitempty"`
	Head         string `json:"head,omitempty"`
	Refused      int64  `json:"jobs_refused_by_policy,omitempty"`
	// RefusalNote is the policy's word on which jobs it refuses (for the
	// command's summary line; not in summary.json).
	RefusalNote string `json:"-"`
	// RejectedByPolicy counts the waiting jobs the policy rejected
	// (policy.Plan.Rejects; the external protocol's REJECT_JOB): they
	// left the queue without starting and are not in jobs.csv.
	RejectedByPolicy int64 `json:"jobs_rejected_by_policy,omitempty"`
	// Nodes and NoFit, on a platform of nodes: the platform (a short
	// description), and the jobs whose request fits no node even when
	// all are free, refused at submission and counted (never simulated).
	Nodes string `json:"nodes,omitempty"`
	NoFit int64  `json:"jobs_fitting_no_node,omitempty"`
	// NodePlanner, on a platform of nodes, is how the policy planned:
	// "counts" (the pool's policy over the nodes' cores, package
	// policy/counts) or "nodes" (its node version); docs/nodes.md,
	// "Two planners".
	NodePlanner string `json:"node_planner,omitempty"`
	// Resample names the resampling of the trace (WorkloadSpec.Resample),
	// with the seed and replication it was drawn for; Resampled is its
	// job count.
	Resample  string `json:"resample,omitempty"`
	Resampled int    `json:"jobs_resampled,omitempty"`
	// Predictions counts what the predicting layer of estimate predict
	// did.
	Predictions *Predictions `json:"predictions,omitempty"`
	// Availability says what unavailable CPUs did (PlatformSpec.Avail).
	Availability *AvailInfo `json:"availability,omitempty"`
	// Partitions says what the partitions did (PlatformSpec.Partitions).
	Partitions *PartitionsInfo `json:"partitions,omitempty"`
}

// Predictions is what the predicting layer of estimate predict did in a
// run (package policy/predict).
type Predictions struct {
	Predictor  string `json:"predictor"`
	Correction string `json:"correction"`
	// Predicted: jobs whose prediction came from their user's history
	// (the others were given their request); Corrected: jobs that
	// outlived their prediction and got a corrected one, Corrections
	// times in all.
	Predicted   int64 `json:"jobs_predicted"`
	Corrected   int64 `json:"jobs_corrected"`
	Corrections int64 `json:"corrections"`
}

// TraceResult is what RunSpec.Run returns and writes as summary.json.
type TraceResult struct {
	Run RunInfo `json:"run"`
	metrics.Result
	// Deadlines: missed deadlines and the system usage of klusacek-2008,
	// for runs with deadlines or a hetero-model policy.
	Deadlines *TraceDeadlines `json:"deadlines,omitempty"`
	// Energy: the machine's energy under the run's power model
	// (PlatformSpec.Power).
	Energy *EnergyInfo `json:"energy,omitempty"`
	// Nodes: the use of a platform of nodes (PlatformSpec.Nodes;
	// docs/nodes.md, "Outputs of a run on nodes").
	Nodes *nodeuse.Result `json:"nodes,omitempty"`
	// Partitions are each partition's name, CPUs and own metrics, in the
	// order given (the metrics of Run.Partitions.List, flat: the section
	// a reader looks for first; docs/partitions.md).
	Partitions []PartitionSummary `json:"partitions,omitempty"`
	// By: the jobs grouped by user, group or QOS (OutputSpec.By), each
	// group's metrics.
	By     *GroupMetrics `json:"metrics_by,omitempty"`
	Counts swf.Counts    `json:"-"`
	Engine engine.Stats  `json:"-"`
	// PerJob holds the per-job responses and window heads when
	// OutputSpec.Responses asked for them (its Result is not set).
	PerJob *ClusterResult `json:"-"`
	// Metrics are the declared metrics measured by their own listeners
	// (OutputSpec.Metrics), by name; MetricNames lists them in the order
	// of the declarations.
	Metrics     map[string]float64 `json:"metrics,omitempty"`
	MetricNames []string           `json:"-"`
}

// TraceDeadlines are the deadline metrics of a trace run.
type TraceDeadlines struct {
	Rule                string  `json:"rule"`
	Factor              string  `json:"factor,omitempty"`
	Fraction            float64 `json:"fraction"`
	Seed                uint64  `json:"seed"`
	Jobs                int64   `json:"jobs"`
	WithDeadline        int64   `json:"with_deadline"`
	Missed              int64   `json:"missed"`
	MissedPct           float64 `json:"missed_pct"`
	MissedOfDeadlinePct float64 `json:"missed_of_deadline_pct"`
	Usage               float64 `json:"usage"`
}

// MaxCheckJobs bounds the jobs of a run with --check: the checker holds
// every job and its record in memory (about 600 bytes a job; 5,000,000
// jobs take about 3 GB), so a longer trace is refused when its job
// MaxCheckJobs+1 is read, instead of running the machine out of memory.
const MaxCheckJobs = 5_000_000

// recordLine finds the line of the trace's record of job id submitted at
// submit, for an error about that job (the reading is far ahead of the
// simulation, so the reader's position does not say it): the first
// record with that id and submit time, or the second when second is set.
// Only run on an error.
func recordLine(trace string, id int64, submit float64, second bool) (int, bool) {
	rd, err := workload.OpenTrace(trace)
	if err != nil {
		return 0, false
	}
	defer rd.Close()
	first := 0
	for {
		rec, err := rd.Next()
		if err != nil {
			return first, first > 0
		}
		if rec.JobNumber != id || rec.Submit != submit {
			continue
		}
		if !second || first > 0 {
			return rd.Line(), true
		}
		first = rd.Line()
	}
}

// noJobsError says why none of the records of a trace became a job.
func noJobsError(name string, c swf.Counts, procs int, refused int64, policy string) error {
	var why []string
	add := func(n int64, what string) {
		if n > 0 {
			why = append(why, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(c.Rejected, fmt.Sprintf("larger than the machine of %d CPUs (rejected; clamping, run --clamp or workload.clamp: true, runs them on the whole machine)", procs))
	add(c.SkippedNoSubmit, "without submit time")
	add(c.SkippedNoRuntime, "without runtime")
	add(c.SkippedNoProcs, "without processor count")
	add(refused, "refused by policy "+policy+" at submission")
	return fmt.Errorf("trace %s: none of its %d job record(s) can be simulated: %s", name, c.Read, strings.Join(why, ", "))
}

// refusedSecond reports whether the record a model refused is the second
// with its id and submit time rather than the first. Only a duplicate id
// can be: it is refused while a job with that id is still in the system.
// If that job was submitted earlier, its record comes before every record
// with the refused job's submit time (records are sorted by submit time),
// and the first of those was already refused; if at the same time, that
// job is the first such record and the refused one the second.
func refusedSecond(err error, submit float64) bool {
	var de *engine.DuplicateError
	return errors.As(err, &de) && de.Holder == submit
}

// rejectedJobs keeps the jobs the policy rejected (engine.RejectListener)
// so that the checker does not look for them in the schedule.
type rejectedJobs struct {
	engine.NopListener
	jobs map[rejectedKey]bool
}

type rejectedKey struct {
	id     job.ID
	submit float64
}

func (r *rejectedJobs) JobRejected(now float64, j *actual.Job) {
	if r.jobs == nil {
		r.jobs = map[rejectedKey]bool{}
	}
	r.jobs[rejectedKey{j.ID, j.Submit}] = true
}

// drop returns in without the rejected jobs.
func (r *rejectedJobs) drop(in []validate.Input) []validate.Input {
	if len(r.jobs) == 0 {
		return in
	}
	out := make([]validate.Input, 0, len(in))
	for _, j := range in {
		if !r.jobs[rejectedKey{job.ID(j.ID), j.Submit}] {
			out = append(out, j)
		}
	}
	return out
}

// recordingSource keeps the jobs it passes on, for --check: at most limit.
type recordingSource struct {
	src   workload.Source
	jobs  []validate.Input
	limit int
	// allowed, when set, gives the CPUs a job may hold (partitions).
	allowed func(*actual.Job) []validate.Interval
}

func (r *recordingSource) Next() (actual.Job, error) {
	j, err := r.src.Next()
	if err == nil {
		if len(r.jobs) >= r.limit {
			return actual.Job{}, fmt.Errorf("--check holds every job in memory and is limited to %d jobs; this trace has more (run it without --check)", r.limit)
		}
		r.jobs = append(r.jobs, validate.Input{ID: int64(j.ID), Submit: j.Submit, Runtime: j.Runtime, Request: j.Request, Procs: j.Procs})
		if r.allowed != nil {
			r.jobs[len(r.jobs)-1].Allowed = r.allowed(&j)
		}
	}
	return j, err
}

// screenedSource drops (and counts) the jobs a policy refuses at
// submission (policy.Screener), so that the model never sees them.
type screenedSource struct {
	src     workload.Source
	pol     policy.Screener
	refused int64
}

func (s *screenedSource) Next() (actual.Job, error) {
	for {
		j, err := s.src.Next()
		if err != nil || s.pol.Refuse(j.Info()) == "" {
			return j, err
		}
		s.refused++
	}
}

// tsafrirRequests gives the jobs of src without a request one drawn from
// Tsafrir's model of user estimates with its published parameters. The
// model's histogram is the site's: drawn once per seed (replication 0),
// the same for every replication; the requests are drawn per replication.
func tsafrirRequests(src workload.Source, seed uint64, rep int) (workload.Source, error) {
	m, err := tsafrir.SiteModel(seed)
	if err != nil {
		return nil, err
	}
	return tsafrir.WithRequests(src, m, rng.New(seed, rep, "tsafrir-requests"), true), nil
}

// resampleTrace reads the whole of jobs and returns a resampled trace
// (w.Resample), from the random stream of w's seed and replication.
func resampleTrace(jobs workload.Source, w WorkloadSpec) ([]actual.Job, error) {
	if w.Resample != "user-weeks" {
		return nil, fmt.Errorf("unknown resampling %q (want %s)", w.Resample, strings.Join(resample.Methods, ", "))
	}
	var all []actual.Job
	for {
		j, err := jobs.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(all) == resample.MaxJobs {
			return nil, fmt.Errorf("more than %d jobs to resample (resample.MaxJobs: the trace is held in memory)", resample.MaxJobs)
		}
		all = append(all, j)
	}
	if len(all) == 0 {
		return nil, errors.New("no jobs to resample")
	}
	return resample.UserWeeks(all, rng.New(w.Seed, w.Rep, "resample"))
}

// Run checks s (Check: every problem at once) and simulates it. With
// s.Outputs.Dir set it writes jobs.csv and summary.json (and
// schedule.swf) there, atomically. The run is assembled in declared
// stages (traceStages, traceOutputs; see traceAsm).
func (s RunSpec) Run() (*TraceResult, error) {
	if s.Workload.Synthetic != nil {
		return nil, fmt.Errorf("%s model: a synthetic run has no trace result (RunReplication runs it)", s.Model)
	}
	if err := s.Check(); err != nil {
		return nil, err
	}
	a := &traceAsm{s: s}
	return a.do()
}

// resolve takes what the checked settings give the stages: the estimate
// model, the measured metrics, the predictions, the policy and its
// kind.
func (a *traceAsm) resolve() (err error) {
	s := a.s
	a.est = s.Workload.Estimate
	if a.measured, err = traceMetrics(s.Outputs.Metrics); err != nil {
		return err
	}
	a.predictor, a.correction = orText(s.Policy.Predictor, "last2"), orText(s.Policy.Correction, "increments")
	if a.pred, err = predictParams(a.est, a.predictor, a.correction); err != nil {
		return err
	}
	if a.qp, err = LookupTracePolicy(s.Policy.Name); err != nil {
		return err
	}
	a.hetero = a.qp.Model == registry.ModelHetero
	a.opts = s.Policy.Values
	a.asThreads = a.qp.Traits.Threads
	a.withDeadlines = a.hetero || s.Workload.Deadlines.Base != workload.DeadlineNone
	return nil
}

// LookupTracePolicy finds a trace run's policy (PolicySpec.Name): a
// queue policy of the cluster model, else of the hetero model (on the
// trace's one machine). The error of an unknown name is the cluster
// model's, which lists its names.
func LookupTracePolicy(name string) (registry.Entry, error) {
	qp, err := registry.Lookup(registry.ModelCluster, registry.KindQueue, name)
	if err == nil {
		return qp, nil
	}
	hp, herr := registry.Lookup(registry.ModelHetero, registry.KindQueue, name)
	if herr != nil {
		return qp, err
	}
	return hp, nil
}

// checkTraceOptions checks a trace run's policy options (PolicySpec.Options)
// against qp's declarations: with an in-process decider (PolicySpec.Decider),
// by the policy's in-process check (the decider replaces what its own
// check asks for: external's command or file descriptors).
func checkTraceOptions(qp registry.Entry, options map[string]string, decider external.Decider) (option.Values, error) {
	if decider == nil {
		return qp.Check(options)
	}
	if !qp.InProcess() {
		return option.Values{}, fmt.Errorf("an in-process decider decides for policy %s, not %s",
			strings.Join(registry.InProcessNames(qp.Model, qp.Kind), " or "), qp.Name)
	}
	return qp.CheckInProcess(options)
}

// assemble builds the policy and the engine around src (newClusterRun,
// where clusterStages wrap it further) and runs the outputs' hooks on
// the built policy.
func (a *traceAsm) assemble(src workload.Source) error {
	s := a.s
	spec := clusterSpec{plat: a.plat, qp: a.qp, opts: a.opts, env: policy.Env{Seed: s.Workload.Seed, Rep: s.Workload.Rep, Decider: s.Policy.Decider},
		src: src, lis: a.lis, threadLis: a.threadLis, cont: s.Platform.Continue, predict: a.pred, avail: a.avail, navail: a.navail, planner: s.Policy.NodePlanner}
	if a.psrc != nil && a.ns != nil {
		spec.nodeParts = engineNodeParts(a.defs)
	} else if a.psrc != nil {
		spec.parts = engineParts(a.defs)
	}
	var err error
	if spec.carbon, err = s.carbonLayer(); err != nil { // PolicySpec.CarbonDelay
		return err
	}
	if spec.sleep, spec.switching, err = s.sleepLayer(); err != nil { // PolicySpec.Sleep
		return err
	}
	if spec.cap, err = s.capLayer(); err != nil { // PlatformSpec.PowerCap
		return err
	}
	if a.ns != nil {
		spec.ns = a.ns
		if spec.coresAlone, err = a.coresAlone(); err != nil {
			return err
		}
		if s.Outputs.Check {
			a.nodeChk = &nodeCheck{ns: a.ns}
			if a.psrc != nil {
				a.nodeChk.allowed = a.psrc.allowedNodes
			}
			spec.lis = append(engine.Tee{a.nodeChk}, a.lis...)
		}
	} else if s.Outputs.Check {
		record := func(src workload.Source) workload.Source {
			a.rec = &recordingSource{src: src, limit: MaxCheckJobs}
			if a.psrc != nil {
				a.rec.allowed = a.psrc.allowed
			}
			return a.rec
		}
		if a.asThreads {
			spec.threads = record // the threads are the schedule the checker reads
		} else {
			spec.jobs = record
		}
	}
	run, err := newClusterRun(spec)
	if errors.Is(err, engine.ErrNoAvailabilityPlanner) {
		return &AvailError{err}
	}
	if err != nil {
		return err
	}
	a.run = run
	// An external decision process is ended on every path; its failure
	// at the end fails the run before anything is written.
	a.onClose(func(bool) { closePolicy(run.built) })
	return a.builtOutputs()
}

// simulate runs the engine and ends the policy.
func (a *traceAsm) simulate() error {
	if err := a.run.eng.Run(); err != nil {
		if errors.Is(err, engine.ErrAvailLimit) {
			return a.s.Platform.Avail.limitError(err)
		}
		var se *workload.ShortError
		if errors.As(err, &se) {
			return fmt.Errorf("trace %s: %w", a.rd.Name(), err)
		}
		var ae *engine.AdmitError
		if errors.As(err, &ae) && a.resampled == nil {
			if line, ok := recordLine(a.s.Workload.Trace, int64(ae.Job), ae.Submit, refusedSecond(err, ae.Submit)); ok {
				return fmt.Errorf("%s:%d: %w", a.rd.Name(), line, err)
			}
		}
		return err
	}
	return closePolicy(a.run.built)
}

// noRun says why a run that simulated no job is no run.
func (a *traceAsm) noRun() error {
	counts, name, stats := a.src.Counts(), a.rd.Name(), a.run.eng.Stats()
	switch {
	case counts.Read == 0:
		return fmt.Errorf("trace %s has no job records (an empty or header-only trace)", name)
	case stats.Jobs > 0:
		return nil
	case a.window != nil:
		return fmt.Errorf("trace %s: no job was submitted between --from %s and --to %s (%d records before the window)", name, orText(a.s.Workload.From, "the start"), orText(a.s.Workload.To, "the end"), a.window.Before())
	case a.psrc != nil && a.psrc.info().Rejected > 0:
		in := a.psrc.info()
		return fmt.Errorf("trace %s: every job was refused by the partitions: %d of no partition given, %d above maxtime, %d above maxcpus or the partition's CPUs, %d not allowed (users, accounts, qos)",
			name, in.RejectedUnknown, in.RejectedMaxTime, in.RejectedMaxCPUs, in.RejectedAccess)
	}
	// Records that are all skipped or rejected are no run either.
	if a.ns != nil && a.run.fit.refused > 0 {
		return fmt.Errorf("trace %s: none of its %d job record(s) can be simulated: %d fit no node of the platform (%s) even with every node free",
			name, counts.Read, a.run.fit.refused, nodesText(a.ns))
	}
	return noJobsError(name, counts, a.procs, a.run.refused(), a.run.built.Name())
}

// result is the run's result: its run info, what every applied stage
// and output reports, in their orders.
func (a *traceAsm) result() (*TraceResult, error) {
	if err := a.noRun(); err != nil {
		return nil, err
	}
	counts, stats, pol := a.src.Counts(), a.run.eng.Stats(), a.run.built
	overrun := "kill"
	if a.s.Platform.Continue {
		overrun = "continue"
	}
	res := &TraceResult{
		Run: RunInfo{Trace: a.rd.Name(), Policy: pol.Name(), Order: a.qp.QueueOrder(a.opts), Estimate: a.est.String(), OnOverrun: overrun,
			Procs: a.procs, Read: counts.Read, Skipped: counts.Skipped(), Rejected: counts.Rejected, Clamped: counts.Clamped,
			MaxQueued: stats.MaxQueued, Passes: stats.Passes, RejectedByPolicy: stats.Rejected},
		Counts: counts,
		Engine: stats,
	}
	if s := counts.Skipped(); s > 0 {
		res.Run.SkipDetail = fmt.Sprintf("%d without submit time, %d without runtime, %d without processor count",
			counts.SkippedNoSubmit, counts.SkippedNoRuntime, counts.SkippedNoProcs)
	}
	if a.run.preds != nil {
		p := &Predictions{Predictor: a.predictor, Correction: a.correction}
		p.Predicted, p.Corrected, p.Corrections = a.run.predictions()
		res.Run.Predictions = p
	}
	for _, s := range traceStages {
		if s.report != nil && s.applies(a) {
			s.report(a, &res.Run)
		}
	}
	a.run.report(&res.Run)
	if a.ns != nil {
		res.Run.Nodes = nodesText(a.ns)
		res.Run.NoFit = a.run.fit.refused
		res.Run.Refused = a.run.refused() // the slurm policy's QOS limits
		res.Run.NodePlanner = PlannerNodes
		if a.run.byCounts {
			res.Run.NodePlanner = PlannerCounts
		}
	}
	a.reportOutputs(res)
	if err := a.run.threadUtilization(&res.Result, a.procs); err != nil {
		return nil, err
	}
	return res, nil
}

// finish completes the output folder: the outputs' files, the check of
// the schedule (--check), summary.json, and the commit.
func (a *traceAsm) finish(res *TraceResult) error {
	if err := a.flushOutputs(); err != nil {
		return err
	}
	if err := a.checkRun(); err != nil {
		return err
	}
	sf, err := a.out.create("summary.json")
	if err != nil {
		return err
	}
	if err = metrics.WriteJSON(sf, res); err != nil {
		return fmt.Errorf("output: %w", err)
	}
	return a.out.commit()
}

// checkRun validates the written schedule independently (--check).
func (a *traceAsm) checkRun() error {
	kill := !a.s.Platform.Continue
	switch {
	case !a.s.Outputs.Check:
		return nil
	case a.nodeChk != nil:
		return a.nodeChk.check()
	case a.asThreads:
		// The threads are the schedule: each holds one CPU over its own
		// interval (a job's CPUs are reused by other jobs' threads between
		// its first start and last end, which a job-level check would call
		// a conflict).
		if err := validate.Check(a.rec.jobs, a.o.threadRecs.Recs, validate.Options{Procs: a.procs, Kill: kill}); err != nil {
			return fmt.Errorf("check: the thread schedule is invalid: %w", err)
		}
		return nil
	}
	var spans []validate.Span
	if a.avail != nil {
		var err error
		if spans, err = readSpans(a.o.unavailFile.Name()); err != nil {
			return fmt.Errorf("check: %w", err)
		}
		if spans == nil {
			spans = []validate.Span{}
		}
	}
	return checkSchedule(a.o.jobsFile.Name(), a.o.rejected.drop(a.rec.jobs), a.procs, kill, spans)
}

// traceMetrics are the declared metrics of the cluster model a trace run
// measures with their own listeners: those on by default and those
// names asks for, in the declarations' order. A name the cluster model
// does not declare is an error naming the metrics it has.
func traceMetrics(names []string) ([]registry.Metric, error) {
	decls := registry.ModelMetrics(registry.ModelCluster)
	for _, n := range names {
		found := false
		for _, d := range decls {
			found = found || d.Name == n && d.Scope == registry.PerRun
		}
		if !found {
			var known []string
			for _, d := range decls {
				if d.Scope == registry.PerRun {
					known = append(known, d.Name)
				}
			}
			return nil, fmt.Errorf("unknown metric %q (the metrics of a trace run: %s)", n, strings.Join(known, ", "))
		}
	}
	var out []registry.Metric
	for _, d := range decls {
		if d.New != nil && d.Scope == registry.PerRun && (d.Default || slices.Contains(names, d.Name)) {
			out = append(out, d)
		}
	}
	return out, nil
}

// rankHead is a ranking policy (jrb) that names its rank function and
// head rule for summary.json.
type rankHead interface{ RankHead() (rank, head string) }

func checkSchedule(path string, in []validate.Input, procs int, kill bool, spans []validate.Span) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	recs, err := validate.ReadJobsCSV(f, filepath.Base(path))
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if err := validate.Check(in, recs, validate.Options{Procs: procs, Kill: kill, Unavailable: spans}); err != nil {
		return fmt.Errorf("check: the schedule is invalid: %w", err)
	}
	return nil
}

// WindowError is a time window (WorkloadSpec.From, To) that cannot be read
// or is empty: a mistake of the command line, not of the trace.
type WindowError struct{ Err error }

func (e *WindowError) Error() string { return e.Err.Error() }
func (e *WindowError) Unwrap() error { return e.Err }

// orText is s, or def when s is empty.
func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
