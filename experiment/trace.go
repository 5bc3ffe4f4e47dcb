package experiment

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/external"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/threads"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/resample"
	"github.com/schedlab/schedlab/workload/swf"
	"github.com/schedlab/schedlab/workload/tsafrir"
)

// TraceRun is one simulation of an SWF trace on one space-shared cluster.
type TraceRun struct {
	Trace  string // path, or bare name of an embedded/shared trace
	Policy string // queue policy: registry.Names(registry.ModelCluster, registry.KindQueue), or of the hetero model
	// Options are the policy's option texts by name (see 'schedlab
	// policies'); an option not given takes its default. The registry
	// checks them against the policy's declarations.
	Options  map[string]string
	Estimate workload.Estimate // runtime estimates (zero: the request)
	Procs    int               // machine size; 0 = the trace header's MaxProcs
	Continue bool              // let jobs run past their request (default: killed)
	Clamp    bool              // clamp jobs larger than the machine instead of rejecting them
	Tau      float64           // bounded-slowdown threshold; 0 = metrics.DefaultTau
	Out      string            // output folder; "" writes no files
	SWF      bool              // also write Out/schedule.swf
	Check    bool              // validate the produced schedule independently
	// Deadlines derives deadlines for the trace's jobs (zero: none). With
	// deadlines, or a policy of the hetero model (flexible, eg-edf, tabu:
	// the schedule-based policies on the trace's one machine), summary.json
	// gains the deadline metrics and jobs.csv the machine columns.
	Deadlines workload.DeadlineRule
	// From and To restrict the run to the jobs submitted in [From, To):
	// each a date in the trace's time zone (its header's UnixStartTime
	// places it) or seconds since the trace's time 0 ("" = no bound).
	// The window's jobs run on an empty machine.
	From, To string
	// Threads also writes Out/threads.csv, one row per thread, for a
	// policy that schedules threads.
	Threads bool
	// Planned also writes Out/planned.csv: every reservation a
	// backfilling policy makes or moves (job, time, planned start), which
	// the report draws on the Gantt chart.
	Planned bool
	// Resample, when not "" or "none", replaces the trace (after the
	// window) by a resampled one (package workload/resample), drawn from
	// the stream (Seed, Rep, "resample"): each replication of a trace
	// scenario runs a different trace of the same kind.
	Resample string
	Seed     uint64
	Rep      int
	// Predictor and Correction configure estimate predict (package
	// policy/predict): "last2" or "avg:K", and "increments" or
	// "request" ("" = the defaults).
	Predictor, Correction string
	// Avail makes CPUs unavailable: reservations, failures
	// (docs/availability.md). With it, jobs.csv gains the attempts
	// column, the output folder unavailability.csv, summary.json an
	// availability section, and --check verifies that no job held an
	// unavailable CPU.
	Avail AvailSpec
	// Decider, when set, makes the decisions of Policy "external" in
	// this process instead of a decision process (package
	// policy/external, Options.Decider): the options command and fds are
	// then not given. The shared library cmd/libschedlab runs the engine
	// in Python's process this way.
	Decider external.Decider
	// Partitions split the machine's CPUs into partitions, each text
	// "NAME:CPUS[:maxtime=S][:maxcpus=N][:users=..][:accounts=..]
	// [:qos=..][:default]" (docs/partitions.md). With them, summary.json
	// gains a partitions section and --check verifies that every job
	// held CPUs of its partition only.
	Partitions []string
	// Jobs, when above 0, runs the first Jobs jobs the trace gives (after
	// the window, before resampling; at most workload.MaxPrefixJobs): a
	// trace with fewer is an error.
	Jobs int64
	// SubmitZero submits every job at time 0 (a batch), in the trace's
	// order.
	SubmitZero bool
	// Responses keeps each job's response and the policy's window heads
	// in TraceResult.PerJob (in memory only; see ClusterResult).
	Responses bool
	// Listeners see the run's job events (and time events, for a
	// TimeListener) beside the run's own: the declared metrics that are
	// their own listeners (package registry, 'run --metric').
	Listeners []engine.Listener
	// Metrics names declared metrics of the cluster model to measure
	// besides the summary (registry.ModelMetrics; 'run --metric'): each
	// one that is its own listener, and every such metric on by
	// default, is measured and written to summary.json's metrics
	// object; the others are in the summary already.
	Metrics []string
}

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
	// (TraceRun.From, To), and BeforeWindow the records submitted before
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
	// Resample names the resampling of the trace (TraceRun.Resample),
	// with the seed and replication it was drawn for; Resampled is its
	// job count.
	Resample  string `json:"resample,omitempty"`
	Resampled int    `json:"jobs_resampled,omitempty"`
	// Predictions counts what the predicting layer of estimate predict
	// did.
	Predictions *Predictions `json:"predictions,omitempty"`
	// Availability says what unavailable CPUs did (TraceRun.Avail).
	Availability *AvailInfo `json:"availability,omitempty"`
	// Partitions says what the partitions did (TraceRun.Partitions).
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

// TraceResult is what RunTrace returns and writes as summary.json.
type TraceResult struct {
	Run RunInfo `json:"run"`
	metrics.Result
	// Deadlines: missed deadlines and the system usage of klusacek-2008,
	// for runs with deadlines or a hetero-model policy.
	Deadlines *TraceDeadlines `json:"deadlines,omitempty"`
	Counts    swf.Counts      `json:"-"`
	Engine    engine.Stats    `json:"-"`
	// PerJob holds the per-job responses and window heads when
	// TraceRun.Responses asked for them (its Result is not set).
	PerJob *ClusterResult `json:"-"`
	// Metrics are the declared metrics measured by their own listeners
	// (TraceRun.Metrics), by name; MetricNames lists them in the order
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
// (cfg.Resample), from the random stream of cfg's seed and replication.
func resampleTrace(jobs workload.Source, cfg TraceRun) ([]actual.Job, error) {
	if cfg.Resample != "user-weeks" {
		return nil, fmt.Errorf("unknown resampling %q (want %s)", cfg.Resample, strings.Join(resample.Methods, ", "))
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
	return resample.UserWeeks(all, rng.New(cfg.Seed, cfg.Rep, "resample"))
}

// RunTrace simulates cfg. With cfg.Out set it writes jobs.csv and
// summary.json (and schedule.swf) there, atomically.
func RunTrace(cfg TraceRun) (res *TraceResult, err error) {
	est := cfg.Estimate
	if !slices.Contains(workload.Estimates(), est) {
		return nil, fmt.Errorf("trace run: unknown estimate model %v", est)
	}
	measured, err := traceMetrics(cfg.Metrics)
	if err != nil {
		return nil, err
	}
	if err := cfg.Deadlines.Check(); err != nil {
		return nil, err
	}
	predictor, correction := orText(cfg.Predictor, "last2"), orText(cfg.Correction, "increments")
	pred, err := predictParams(est, predictor, correction)
	if err != nil {
		return nil, err
	}
	qp, err := registry.Lookup(registry.ModelCluster, registry.KindQueue, cfg.Policy)
	hetero := false
	if err != nil {
		hp, herr := registry.Lookup(registry.ModelHetero, registry.KindQueue, cfg.Policy)
		if herr != nil {
			return nil, err // the cluster's error lists the cluster's names
		}
		qp, hetero = hp, true
	}
	var opts option.Values
	if cfg.Decider != nil {
		if !qp.InProcess() {
			return nil, fmt.Errorf("an in-process decider decides for policy %s, not %s",
				strings.Join(registry.InProcessNames(qp.Model, qp.Kind), " or "), cfg.Policy)
		}
		// The policy's in-process check: the decider replaces what its
		// own check asks for (external: a command or file descriptors).
		if opts, err = qp.CheckInProcess(cfg.Options); err != nil {
			return nil, err
		}
	} else if opts, err = qp.Check(cfg.Options); err != nil {
		return nil, err
	}
	asThreads := qp.Traits.Threads
	switch {
	case cfg.Threads && !asThreads:
		return nil, fmt.Errorf("per-thread records are only for a policy that schedules threads, not %s", cfg.Policy)
	case cfg.Planned && cfg.Out == "":
		return nil, errors.New("--planned needs an output folder")
	case cfg.Threads && cfg.Out == "":
		return nil, errors.New("per-thread records need an output folder")
	}
	if cfg.Procs < 0 {
		return nil, fmt.Errorf("--procs must be positive, got %d", cfg.Procs)
	}
	rd, err := workload.OpenTrace(cfg.Trace)
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	src := swf.NewSource(rd, swf.Options{MaxProcs: cfg.Procs, Clamp: cfg.Clamp})
	procs := src.MaxProcs()
	if procs <= 0 {
		// A file that is not SWF at all also has no MaxProcs: its first
		// record's error is the real one, and an empty file says so.
		if _, err := rd.Next(); err == io.EOF {
			return nil, fmt.Errorf("trace %s has no job records (an empty or header-only trace)", rd.Name())
		} else if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("trace %s: the header gives no MaxProcs: give the machine size with --procs", rd.Name())
	}
	plat, err := platform.Cluster(procs)
	if err != nil {
		return nil, fmt.Errorf("trace %s: %w", rd.Name(), err)
	}
	var availCfg *engine.Availability
	if cfg.Avail.Used() {
		if pred != nil {
			return nil, errors.New("unavailable CPUs (reservations, failures) do not go with estimate predict: the model keeps jobs off reserved CPUs by the estimates the policy plans with")
		}
		var closeEvents func() error
		if availCfg, closeEvents, err = cfg.Avail.build(plat, cfg.Rep); err != nil {
			return nil, err
		}
		defer closeEvents()
	}
	var defs []partitionDef
	if len(cfg.Partitions) > 0 {
		if defs, err = cfg.partitionDefs(procs, rd.Header(), hetero, asThreads); err != nil {
			return nil, err
		}
	}
	var jobs workload.Source = src
	var window *workload.WindowSource
	if cfg.From != "" || cfg.To != "" {
		w := workload.Window{From: math.Inf(-1), To: math.Inf(1)}
		if cfg.From != "" {
			if w.From, err = workload.ParseInstant(cfg.From, rd.Header()); err != nil {
				return nil, &WindowError{fmt.Errorf("--from %w", err)}
			}
		}
		if cfg.To != "" {
			if w.To, err = workload.ParseInstant(cfg.To, rd.Header()); err != nil {
				return nil, &WindowError{fmt.Errorf("--to %w", err)}
			}
		}
		if !(w.From < w.To) {
			return nil, &WindowError{fmt.Errorf("--from %s --to %s: an empty window (from must come before to)", cfg.From, cfg.To)}
		}
		window = workload.NewWindowSource(src, w)
		jobs = window
	}
	if cfg.Jobs < 0 || cfg.Jobs > workload.MaxPrefixJobs {
		return nil, fmt.Errorf("trace run: %d jobs, want 1..%d (0: the whole trace)", cfg.Jobs, workload.MaxPrefixJobs)
	}
	if cfg.Jobs > 0 {
		jobs = workload.First(jobs, cfg.Jobs)
	}
	if cfg.SubmitZero {
		jobs = workload.SubmitZero(jobs)
	}
	var resampled []actual.Job
	if cfg.Resample != "" && cfg.Resample != resample.Methods[0] {
		if resampled, err = resampleTrace(jobs, cfg); err != nil {
			return nil, fmt.Errorf("trace %s: %w", rd.Name(), err)
		}
		jobs = workload.FromSlice(resampled)
	}
	if est == workload.EstimateTsafrir {
		if jobs, err = tsafrirRequests(jobs, cfg.Seed, cfg.Rep); err != nil {
			return nil, err
		}
	}
	var dl *metrics.Deadlines
	withDeadlines := hetero || cfg.Deadlines.Base != workload.DeadlineNone
	tau := cfg.Tau
	if tau == 0 {
		tau = metrics.DefaultTau
	}
	sum := metrics.NewSummary(procs, tau)
	lis := engine.Tee{sum}
	var unavail *metrics.Unavail
	var unavailFile *os.File
	if withDeadlines {
		dl = metrics.NewDeadlines()
		lis = append(lis, dl)
	}
	var reader *jobReader
	if cfg.Responses {
		reader = &jobReader{res: &ClusterResult{}}
		lis = append(lis, reader)
	}
	lis = append(lis, cfg.Listeners...)
	measures := make([]metrics.Measure, len(measured))
	for i, d := range measured {
		measures[i] = d.New(metrics.Env{Model: registry.ModelCluster, Procs: procs})
		lis = append(lis, measures[i])
	}

	var out *outDir
	var jobsCSV *metrics.JobsCSV
	var jobsFile *os.File
	var swfOut *metrics.SWFSchedule
	var threadsCSV *threads.CSV
	if cfg.Out != "" {
		if out, err = newOutDir(cfg.Out); err != nil {
			return nil, err
		}
		defer func() {
			if err != nil {
				if jobsCSV != nil {
					jobsCSV.Stop() // no batch writes to the file once it is gone
				}
				out.abort()
			}
		}()
		if jobsFile, err = out.create("jobs.csv"); err != nil {
			return nil, err
		}
		if availCfg != nil {
			var mp *platform.Platform
			if withDeadlines {
				mp = &plat
			}
			jobsCSV = metrics.NewJobsCSVAttempts(atomicfile.WriteBehind(jobsFile), mp)
			if unavailFile, err = out.create("unavailability.csv"); err != nil {
				return nil, err
			}
			unavail = metrics.NewUnavail(atomicfile.WriteBehind(unavailFile))
		} else if withDeadlines {
			jobsCSV = metrics.NewJobsCSVMachines(atomicfile.WriteBehind(jobsFile), plat)
		} else {
			jobsCSV = metrics.NewJobsCSV(atomicfile.WriteBehind(jobsFile))
		}
		lis = append(lis, jobsCSV)
		if cfg.SWF {
			f, err := out.create("schedule.swf")
			if err != nil {
				return nil, err
			}
			h := rd.Header()
			h.Lines = append(append([]string(nil), h.Lines...),
				fmt.Sprintf(" Note: simulated by schedlab, policy %s, estimate %s: field 3 is the simulated wait time", cfg.Policy, cfg.Estimate))
			swfOut = metrics.NewSWFSchedule(atomicfile.WriteBehind(f), h)
			lis = append(lis, swfOut)
		}
		if cfg.Threads {
			f, err := out.create("threads.csv")
			if err != nil {
				return nil, err
			}
			threadsCSV = threads.NewCSV(atomicfile.WriteBehind(f))
		}
	} else if cfg.Check {
		return nil, errors.New("--check needs --out (it re-reads the written jobs.csv)")
	}

	if availCfg != nil {
		if unavail == nil {
			unavail = metrics.NewUnavail(nil)
		}
		lis = append(lis, unavail)
	}

	// Parsing overlaps with simulation: the prefetcher reads ahead in a
	// goroutine of its own (same jobs, same order, same errors).
	pre := workload.Prefetch(workload.WithEstimates(jobs, est), 4096)
	defer pre.Close()
	wsrc, err := workload.WithDeadlines(pre, cfg.Deadlines)
	if err != nil {
		return nil, err
	}
	var rec *recordingSource
	var threadRecs *threads.Recorder
	var rejected *rejectedJobs
	if cfg.Check {
		rejected = &rejectedJobs{}
		lis = append(lis, rejected)
	}
	var psrc *partitionSource
	if defs != nil {
		psrc = newPartitionSource(wsrc, defs)
		wsrc = psrc
	}
	spec := clusterSpec{plat: plat, qp: qp, opts: opts, env: policy.Env{Seed: cfg.Deadlines.Seed, Decider: cfg.Decider}, src: wsrc, lis: lis, cont: cfg.Continue, predict: pred, avail: availCfg}
	if psrc != nil {
		spec.parts = engineParts(defs)
	}
	if threadsCSV != nil {
		spec.threadLis = append(spec.threadLis, threadsCSV)
	}
	if cfg.Check {
		record := func(src workload.Source) workload.Source {
			rec = &recordingSource{src: src, limit: MaxCheckJobs}
			if psrc != nil {
				rec.allowed = psrc.allowed
			}
			return rec
		}
		if asThreads {
			// The threads are the schedule the checker reads.
			spec.threads = record
			threadRecs = &threads.Recorder{}
			spec.threadLis = append(spec.threadLis, threadRecs)
		} else {
			spec.jobs = record
		}
	}
	run, err := newClusterRun(spec)
	if errors.Is(err, engine.ErrNoAvailabilityPlanner) {
		return nil, &AvailError{err}
	}
	if err != nil {
		return nil, err
	}
	pol, eng := run.pol, run.eng
	if reader != nil {
		reader.watch(pol)
	}
	// An external decision process is ended on every path; its failure
	// at the end fails the run before anything is written.
	defer closePolicy(pol)
	var planned *plannedCSV
	if cfg.Planned {
		f, err := out.create("planned.csv")
		if err != nil {
			return nil, err
		}
		if planned, err = newPlannedCSV(f, pol); err != nil {
			return nil, err
		}
	}
	if err := eng.Run(); err != nil {
		if errors.Is(err, engine.ErrAvailLimit) {
			return nil, cfg.Avail.limitError(err)
		}
		var se *workload.ShortError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("trace %s: %w", rd.Name(), err)
		}
		var ae *engine.AdmitError
		if errors.As(err, &ae) && resampled == nil {
			if line, ok := recordLine(cfg.Trace, int64(ae.Job), ae.Submit, refusedSecond(err, ae.Submit)); ok {
				return nil, fmt.Errorf("%s:%d: %w", rd.Name(), line, err)
			}
		}
		return nil, err
	}
	if err = closePolicy(pol); err != nil {
		return nil, err
	}

	counts := src.Counts()
	if counts.Read == 0 {
		return nil, fmt.Errorf("trace %s has no job records (an empty or header-only trace)", rd.Name())
	}
	if eng.Stats().Jobs == 0 && window != nil {
		return nil, fmt.Errorf("trace %s: no job was submitted between --from %s and --to %s (%d records before the window)", rd.Name(), orText(cfg.From, "the start"), orText(cfg.To, "the end"), window.Before())
	}
	if eng.Stats().Jobs == 0 && psrc != nil && psrc.info().Rejected > 0 {
		in := psrc.info()
		return nil, fmt.Errorf("trace %s: every job was refused by the partitions: %d of no partition given, %d above maxtime, %d above maxcpus or the partition's CPUs, %d not allowed (users, accounts, qos)",
			rd.Name(), in.RejectedUnknown, in.RejectedMaxTime, in.RejectedMaxCPUs, in.RejectedAccess)
	}
	if eng.Stats().Jobs == 0 {
		// Records that are all skipped or rejected are no run either.
		return nil, noJobsError(rd.Name(), counts, procs, run.refused(), pol.Name())
	}
	overrun := "kill"
	if cfg.Continue {
		overrun = "continue"
	}
	res = &TraceResult{
		Run: RunInfo{Trace: rd.Name(), Policy: pol.Name(), Order: qp.QueueOrder(opts), Estimate: est.String(), OnOverrun: overrun,
			Procs: procs, Read: counts.Read, Skipped: counts.Skipped(), Rejected: counts.Rejected, Clamped: counts.Clamped,
			MaxQueued: eng.Stats().MaxQueued, Passes: eng.Stats().Passes, RejectedByPolicy: eng.Stats().Rejected},
		Result: sum.Result(),
		Counts: counts,
		Engine: eng.Stats(),
	}
	if reader != nil {
		res.PerJob = reader.res
	}
	for i, d := range measured {
		if res.Metrics == nil {
			res.Metrics = map[string]float64{}
		}
		res.Metrics[d.Name] = measures[i].Value()
		res.MetricNames = append(res.MetricNames, d.Name)
	}
	if run.preds != nil {
		p := &Predictions{Predictor: predictor, Correction: correction}
		p.Predicted, p.Corrected, p.Corrections = run.predictions()
		res.Run.Predictions = p
	}
	if availCfg != nil {
		a := &AvailInfo{Reservations: len(cfg.Avail.Reservations), Events: cfg.Avail.Events, OnFailure: orText(cfg.Avail.OnFailure, "kill"),
			UnavailCounts: unavail.Counts}
		if f := cfg.Avail.Failures; f != nil {
			a.Failures = fmt.Sprintf("mtbf %g mttr %g seed %d group_size %d", f.MTBF, f.MTTR, f.Seed, f.GroupSize)
			if f.CPUs != nil {
				a.Failures += " cpus " + f.CPUs.String()
			}
		}
		res.Run.Availability = a
	}
	if psrc != nil {
		res.Run.Partitions = psrc.info()
	}
	if resampled != nil {
		res.Run.Resample = fmt.Sprintf("%s seed %d replication %d", cfg.Resample, cfg.Seed, cfg.Rep)
		res.Run.Resampled = len(resampled)
	}
	if dl != nil {
		d, r := dl.Result(), cfg.Deadlines
		res.Deadlines = &TraceDeadlines{Rule: r.Base.String(), Jobs: d.Jobs, WithDeadline: d.WithDeadline, Missed: d.Missed,
			MissedPct: d.MissedPct, MissedOfDeadlinePct: d.MissedOfDeadlinePct, Usage: d.Usage}
		if r.Base != workload.DeadlineNone {
			res.Deadlines.Factor = fmt.Sprintf("%g-%g", r.Min, r.Max)
			res.Deadlines.Fraction, res.Deadlines.Seed = r.Fraction, r.Seed
		}
	}
	if err = run.threadUtilization(&res.Result, procs); err != nil {
		return nil, err
	}
	if run.scr != nil {
		res.Run.Refused = run.refused()
		if rh, ok := pol.(rankHead); ok {
			res.Run.Rank, res.Run.Head = rh.RankHead()
		}
		if rn, ok := pol.(interface{ RefusalNote() string }); ok {
			res.Run.RefusalNote = rn.RefusalNote()
		}
	}
	if window != nil {
		h := rd.Header()
		from, to := "the start", "the end"
		if cfg.From != "" {
			x, _ := workload.ParseInstant(cfg.From, h)
			from = workload.FormatInstant(x, h)
		}
		if cfg.To != "" {
			x, _ := workload.ParseInstant(cfg.To, h)
			to = workload.FormatInstant(x, h)
		}
		res.Run.Window = "from " + from + " to " + to
		res.Run.BeforeWindow = window.Before()
	}
	if s := counts.Skipped(); s > 0 {
		res.Run.SkipDetail = fmt.Sprintf("%d without submit time, %d without runtime, %d without processor count",
			counts.SkippedNoSubmit, counts.SkippedNoRuntime, counts.SkippedNoProcs)
	}
	if out == nil {
		return res, nil
	}
	if err = jobsCSV.Flush(); err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	if unavail != nil {
		if err = unavail.Flush(); err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
	}
	if swfOut != nil {
		if err = swfOut.Close(); err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
	}
	if threadsCSV != nil {
		if err = threadsCSV.Flush(); err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
	}
	if planned != nil {
		if err = planned.flush(); err != nil {
			return nil, fmt.Errorf("output: %w", err)
		}
	}
	if cfg.Check && asThreads {
		// The threads are the schedule: each holds one CPU over its own
		// interval (a job's CPUs are reused by other jobs' threads between
		// its first start and last end, which a job-level check would call
		// a conflict).
		if err = validate.Check(rec.jobs, threadRecs.Recs, validate.Options{Procs: procs, Kill: !cfg.Continue}); err != nil {
			return nil, fmt.Errorf("check: the thread schedule is invalid: %w", err)
		}
	} else if cfg.Check {
		var spans []validate.Span
		if availCfg != nil {
			if spans, err = readSpans(unavailFile.Name()); err != nil {
				return nil, fmt.Errorf("check: %w", err)
			}
			if spans == nil {
				spans = []validate.Span{}
			}
		}
		if err = checkSchedule(jobsFile.Name(), rejected.drop(rec.jobs), procs, !cfg.Continue, spans); err != nil {
			return nil, err
		}
	}
	sf, err := out.create("summary.json")
	if err != nil {
		return nil, err
	}
	if err = metrics.WriteJSON(sf, res); err != nil {
		return nil, fmt.Errorf("output: %w", err)
	}
	if err = out.commit(); err != nil {
		return nil, err
	}
	return res, nil
}

// CheckTraceMetrics reports whether every name is a declared per-run
// metric of the cluster model, which a trace run can measure
// (TraceRun.Metrics), naming them if not.
func CheckTraceMetrics(names []string) error {
	_, err := traceMetrics(names)
	return err
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

// WindowError is a time window (TraceRun.From, To) that cannot be read
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
