package experiment

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics/energy"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/external"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/resample"
	"github.com/schedlab/schedlab/workload/synth"
)

// RunSpec is one simulation of an SWF trace on one space-shared cluster,
// or one replication of a synthetic model (Model, Workload.Synthetic:
// generated jobs on the cluster, grid, gang or hetero model; SynthSpec
// builds it from a scenario, RunReplication builds and runs it): what jobs
// (Workload), on what machine (Platform), under which policy (Policy),
// writing what (Outputs). The command line ('schedlab run',
// 'schedlab explain'), trace scenarios and the in-process library
// (cmd/libschedlab) all build one; Check reports every problem with it
// before any work, and Run runs it. A RunSpec encodes to JSON and back
// (the in-process library's form), except for what only a Go caller can
// give: the policy's decider, the caller's listeners, per-job results.
type RunSpec struct {
	// Model is the model of a synthetic run (registry.ModelCluster,
	// ModelGrid, ModelGang, ModelHetero) with Workload.Synthetic set;
	// "" is a trace run on one cluster (synthspec.go: SynthSpec builds
	// a synthetic one from a scenario; a synthetic run has no JSON form).
	Model    string       `json:"-"`
	Workload WorkloadSpec `json:"workload"`
	Platform PlatformSpec `json:"platform"`
	Policy   PolicySpec   `json:"policy"`
	Outputs  OutputSpec   `json:"outputs"`
}

// WorkloadSpec is the jobs of a run: a trace, the part of it that runs,
// the estimates and deadlines its jobs get.
type WorkloadSpec struct {
	// Trace is a path, or the bare name of an embedded or shared trace.
	Trace string `json:"trace"`
	// From and To restrict the run to the jobs submitted in [From, To):
	// each a date in the trace's time zone (its header's UnixStartTime
	// places it) or seconds since the trace's time 0 ("" = no bound).
	// The window's jobs run on an empty machine.
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
	// First, when above 0, runs the first First jobs the trace gives
	// (after the window, before resampling; at most
	// workload.MaxPrefixJobs): a trace with fewer is an error.
	First int64 `json:"first,omitempty"`
	// SubmitZero submits every job at time 0 (a batch), in the trace's
	// order.
	SubmitZero bool `json:"submit_zero,omitempty"`
	// Resample, when not "" or "none", replaces the trace (after the
	// window) by a resampled one (package workload/resample), drawn from
	// the stream (Seed, Rep, "resample"): each replication of a trace
	// scenario runs a different trace of the same kind.
	Resample string `json:"resample,omitempty"`
	// Seed and Rep choose the random streams of resampling, of Tsafrir's
	// requests (Estimate tsafrir) and of generated failures.
	Seed uint64 `json:"seed,omitempty"`
	Rep  int    `json:"replication,omitempty"`
	// Estimate is the runtime estimates the policy sees (zero: the
	// request); in JSON its name ("request", "exact", ...).
	Estimate workload.Estimate `json:"-"`
	// Deadlines derives deadlines for the trace's jobs (zero: none; its
	// Seed also seeds the policy, e.g. tabu's random machine order).
	// With deadlines, or a policy of the hetero model (flexible, eg-edf,
	// tabu: the schedule-based policies on the trace's one machine),
	// summary.json gains the deadline metrics and jobs.csv the machine
	// columns. In JSON: {"rule", "factor" (S or MIN-MAX), "fraction",
	// "seed"}.
	Deadlines workload.DeadlineRule `json:"-"`
	// Synthetic, when set, generates the jobs instead of reading a
	// trace (a synthetic model's run, RunSpec.Model).
	Synthetic *SyntheticSpec `json:"-"`
}

// PlatformSpec is the machine of a run.
type PlatformSpec struct {
	// Procs is the machine size; 0 = the trace header's MaxProcs.
	Procs int `json:"procs,omitempty"`
	// Clamp clamps jobs larger than the machine instead of rejecting
	// them.
	Clamp bool `json:"clamp,omitempty"`
	// Continue lets jobs run past their request (default: killed at it).
	Continue bool `json:"continue,omitempty"`
	// Partitions split the machine's CPUs into partitions, each text
	// "NAME:CPUS[:maxtime=S][:maxcpus=N][:users=..][:accounts=..]
	// [:qos=..][:default]" (docs/partitions.md). With them, summary.json
	// gains a partitions section and Outputs.Check verifies that every
	// job held CPUs of its partition only.
	Partitions []string `json:"partitions,omitempty"`
	// Avail makes CPUs unavailable: reservations, failures
	// (docs/availability.md). With it, jobs.csv gains the attempts
	// column, the output folder unavailability.csv, summary.json an
	// availability section, and Outputs.Check verifies that no job held
	// an unavailable CPU.
	Avail AvailSpec `json:"availability"`
	// Power is the power model "IDLE_W:COMPUTE_W", watts a CPU draws
	// idle and running a job ("" none; docs/energy.md): summary.json
	// gains an energy section, the output folder energy.csv, and jobs.csv's
	// consumed_energy each job's joules above idle.
	Power string `json:"power,omitempty"`
	// Carbon and Price are signal files (docs/energy.md, "Carbon and
	// price signals"): the carbon intensity of the electricity, gCO2/kWh,
	// and its price, currency per kWh, over the run's time. Each needs
	// Power: summary.json's energy section gains carbon_kg and cost.
	Carbon string `json:"carbon,omitempty"`
	Price  string `json:"price,omitempty"`
	// PowerCap is a cluster power budget over time, "W" or
	// "W@A-B,..." with at most one bare W, the cap outside the windows
	// (docs/energy.md, "Power caps"; package platform/powercap). Needs
	// Power: the capping layer (policy/capping) holds the starts that
	// would break it, the kernel refuses any that would, and
	// summary.json's energy section gains cap.
	PowerCap string `json:"power_cap,omitempty"`
	// Nodes, when set, makes the cluster a platform of nodes: node
	// groups, each "NAMES:cores=N[:sockets=S][:threads=T][:mem=SIZE]
	// [:gres=NAME[:TYPE]=COUNT[,...]][:features=F[,...]][:weight=W]"
	// (docs/nodes.md). Jobs then ask for nodes, tasks, memory and GRES
	// (a job table's requests; an SWF job's processors as tasks of one
	// CPU), jobs.csv gains allocated_nodes and summary.json a nodes
	// section. Procs is then the nodes' cores.
	Nodes []string `json:"nodes,omitempty"`
	// Sites are the machines of a synthetic model's run (the grid, gang
	// and hetero models; one machine per site); Machines, for the
	// hetero model without sites, draws them for the replication.
	Sites    []SiteSpec           `json:"sites,omitempty"`
	Machines synth.MachineOptions `json:"-"`
}

// PolicySpec is the policy of a run and its options.
type PolicySpec struct {
	// Name is a queue policy of the cluster model
	// (registry.Names(registry.ModelCluster, registry.KindQueue)), or of
	// the hetero model.
	Name string `json:"name"`
	// Options are the policy's option texts by name, as given (see
	// 'schedlab policies'); an option not given takes its default.
	Options map[string]string `json:"options,omitempty"`
	// Values are the checked, typed values of every declared option:
	// Check sets them from Options and the policy's declarations, and
	// the run uses them only.
	Values option.Values `json:"-"`
	// Predictor and Correction configure Estimate predict (package
	// policy/predict): "last2" or "avg:K", and "increments" or "request"
	// ("" = the defaults).
	Predictor  string `json:"predictor,omitempty"`
	Correction string `json:"correction,omitempty"`
	// CarbonDelay, "MAX_S" or "MAX_S:EST_S", puts the carbon-aware
	// delay layer (package policy/carbon) around the policy: a job (with
	// EST_S, one whose estimate is at most EST_S) is held until the
	// lowest carbon intensity of [submit, submit + MAX_S]. Needs
	// PlatformSpec.Carbon.
	CarbonDelay string `json:"carbon_delay,omitempty"`
	// Sleep, "T" or "T:keep=K", puts the idle sleeper (package
	// policy/sleep) around the policy: a CPU idle T seconds is switched
	// off, CPUs are switched on when the waiting jobs need them, K are
	// kept on. Needs a Power model with states (docs/energy.md).
	Sleep string `json:"sleep,omitempty"`
	// Decider, when set, makes the decisions of policy "external" in
	// this process instead of a decision process (package
	// policy/external, Options.Decider): the options command and fds are
	// then not given. The shared library cmd/libschedlab runs the engine
	// in Python's process this way.
	Decider external.Decider `json:"-"`
	// NodePlanner, on a platform of nodes (PlatformSpec.Nodes), is how a
	// policy of the backfill family is planned: "auto" (or ""): by
	// counts (the pool's policy over the nodes' cores, exact when every
	// job asks for cores alone) when the run allows it, else on nodes;
	// "counts": by counts, or an error saying why not; "nodes": the
	// node version, always (docs/nodes.md, "Two planners").
	NodePlanner string `json:"node_planner,omitempty"`
	// Local is the grid model's local scheduler (Name is then the grid
	// scheduler; for the gang model, Name is the approach).
	Local string `json:"-"`
}

// OutputSpec is what a run writes and measures.
type OutputSpec struct {
	// Dir is the output folder (jobs.csv, summary.json, written
	// atomically); "" writes no files.
	Dir string `json:"dir,omitempty"`
	// SWF also writes Dir/schedule.swf.
	SWF bool `json:"swf,omitempty"`
	// Check validates the produced schedule independently (it re-reads
	// Dir/jobs.csv).
	Check bool `json:"check,omitempty"`
	// Threads also writes Dir/threads.csv, one row per thread, for a
	// policy that schedules threads.
	Threads bool `json:"threads,omitempty"`
	// Planned also writes Dir/planned.csv: every reservation a
	// backfilling policy makes or moves (job, time, planned start),
	// which the report draws on the Gantt chart.
	Planned bool `json:"planned,omitempty"`
	// Metrics names declared metrics of the cluster model to measure
	// besides the summary (registry.ModelMetrics; 'run --metric'): each
	// one that is its own listener, and every such metric on by
	// default, is measured and written to summary.json's metrics
	// object; the others are in the summary already. For a synthetic
	// run it is the scenario's metrics list: the cluster model measures
	// the per-user waits it names (the declared metrics that are their
	// own listeners come in Listeners, from RunReplication).
	Metrics []string `json:"metrics,omitempty"`
	// Tau is the bounded-slowdown threshold; 0 = metrics.DefaultTau.
	Tau float64 `json:"tau,omitempty"`
	// By, on a trace run, also groups the jobs by user, group or qos,
	// or on a platform of nodes by node group (MetricsByKeys; 'run
	// --metrics-by') and writes each group's
	// metrics to summary.json's metrics_by and the printed summary; ""
	// none.
	By string `json:"metrics_by,omitempty"`
	// Responses keeps each job's response and the policy's window heads
	// in TraceResult.PerJob (in memory only; see ClusterResult).
	Responses bool `json:"-"`
	// Listeners see the run's job events (and time events, for a
	// TimeListener) beside the run's own: the declared metrics that are
	// their own listeners (package registry, 'run --metric').
	Listeners []engine.Listener `json:"-"`
	// Records, for a synthetic model's run, is the file of its per-job
	// records (jobs.csv columns and the sites, or the machine columns
	// and the machines beside it for the hetero model), written
	// atomically; "" writes none.
	Records string `json:"-"`
}

// SettingError is one problem of a RunSpec: the setting, by the name a
// user knows (the flag, e.g. "--tau"), and what is wrong. Its message
// names the setting itself.
type SettingError struct {
	Setting string
	Err     error
}

func (e *SettingError) Error() string { return e.Err.Error() }
func (e *SettingError) Unwrap() error { return e.Err }

// Problems are the problems of an error of Check, in order (none for
// nil; an error that is not Check's is one problem without a setting).
func Problems(err error) []*SettingError {
	if err == nil {
		return nil
	}
	var se *SettingError
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		var out []*SettingError
		for _, e := range j.Unwrap() {
			out = append(out, Problems(e)...)
		}
		return out
	}
	if errors.As(err, &se) {
		return []*SettingError{se}
	}
	return []*SettingError{{Err: err}}
}

// Check checks every setting of s and reports every problem at once
// (errors.Join of *SettingError, in the order of the parts), before any
// work; on success it sets s.Policy.Values. What needs the trace (the
// window's dates, the partitions' and reservations' CPUs against the
// machine) is checked when the run opens it.
func (s *RunSpec) Check() error {
	if s.Workload.Synthetic != nil {
		return s.checkSynthetic()
	}
	var errs []error
	add := func(setting string, err error) {
		if err != nil {
			errs = append(errs, &SettingError{Setting: setting, Err: err})
		}
	}
	w, p, o := s.Workload, s.Platform, s.Outputs
	if w.First < 0 || w.First > workload.MaxPrefixJobs {
		add("--jobs", fmt.Errorf("trace run: %d jobs, want 1..%d (0: the whole trace)", w.First, workload.MaxPrefixJobs))
	}
	if w.Resample != "" && !slices.Contains(resample.Methods, w.Resample) {
		add("--resample", fmt.Errorf("unknown resampling %q (want %s)", w.Resample, strings.Join(resample.Methods, ", ")))
	}
	if w.Rep < 0 || w.Rep >= scenario.MaxReplications {
		add("--replication", fmt.Errorf("--replication must be 0..%d (scenario.MaxReplications), got %d", scenario.MaxReplications-1, w.Rep))
	}
	est := w.Estimate
	if !slices.Contains(workload.Estimates(), est) {
		add("--estimate", fmt.Errorf("trace run: unknown estimate model %v", est))
	}
	if r := w.Deadlines; r.Base != workload.DeadlineNone && !(r.Fraction >= 0 && r.Fraction <= 1) {
		add("--deadline-fraction", fmt.Errorf("--deadline-fraction %g: want a number in [0, 1]", r.Fraction))
	} else {
		add("--deadline", r.Check())
	}
	if p.Procs < 0 || p.Procs > platform.MaxCPUs {
		add("--procs", fmt.Errorf("--procs %d: want 1..%d (or leave it out for the header's MaxProcs)", p.Procs, platform.MaxCPUs))
	}
	if f := p.Avail.Failures; f != nil {
		add("--failures", f.Check(max(f.GroupSize, 1))) // the group count is checked with the machine
	}
	if of := p.Avail.OnFailure; of != "" && of != "kill" && of != "requeue" {
		add("--on-failure", fmt.Errorf("--on-failure %q: want kill or requeue", of))
	}
	if p.Power != "" {
		if _, err := energy.ParsePower(p.Power); err != nil {
			add("--power", fmt.Errorf("--power %v", err))
		}
	}
	s.checkNodes(add)
	s.checkNodePlanner(add)
	errs = append(errs, s.checkPolicy()...)
	if est == workload.EstimatePredict && p.Avail.Used() {
		add("--estimate", errors.New("unavailable CPUs (reservations, failures) do not go with estimate predict: the model keeps jobs off reserved CPUs by the estimates the policy plans with"))
	}
	if !(o.Tau >= 0) || math.IsInf(o.Tau, 0) {
		add("--tau", fmt.Errorf("--tau must be a positive number of seconds, got %v", o.Tau))
	}
	if err := checkMetricsBy(o.By); err != nil {
		errs = append(errs, err)
	} else if o.By == "nodegroup" && len(p.Nodes) == 0 {
		add("--metrics-by", errors.New("--metrics-by nodegroup needs a platform of nodes (--nodes, docs/nodes.md)"))
	}
	if ms, err := traceMetrics(o.Metrics); err != nil {
		add("--metric", fmt.Errorf("--metric: %w", err))
	} else {
		for _, m := range ms {
			if m.Requires == "platform.nodes" && len(p.Nodes) == 0 {
				add("--metric", fmt.Errorf("--metric %s needs --nodes (a platform of nodes, docs/nodes.md)", m.Name))
			}
			if m.Requires == "platform.power" && p.Power == "" {
				add("--metric", fmt.Errorf("--metric %s needs --power (a power model, docs/energy.md)", m.Name))
			}
		}
	}
	{
		ms, _ := traceMetrics(o.Metrics)
		errs = append(errs, s.checkSignals(ms)...)
		errs = append(errs, s.checkSleep()...)
		errs = append(errs, s.checkCap()...)
	}
	if o.Dir == "" {
		for _, f := range []struct {
			name, msg string
			set       bool
		}{{"--check", "--check needs --out (it re-reads the written jobs.csv)", o.Check},
			{"--planned", "--planned needs an output folder", o.Planned},
			{"--threads", "per-thread records need an output folder", o.Threads}} {
			if f.set {
				add(f.name, errors.New(f.msg))
			}
		}
	}
	return errors.Join(errs...)
}

// checkPolicy checks the policy part: the name, in-process use, the
// options (setting s.Policy.Values), predictions, and the outputs that
// need a kind of policy.
func (s *RunSpec) checkPolicy() []error {
	var errs []error
	add := func(setting string, err error) {
		errs = append(errs, &SettingError{Setting: setting, Err: err})
	}
	pol := s.Policy
	if s.Workload.Estimate == workload.EstimatePredict {
		if err := registry.CheckPredictor(orText(pol.Predictor, "last2")); err != nil {
			add("--predictor", fmt.Errorf("--predictor: %w", err))
		} else if _, err := predictParams(s.Workload.Estimate, orText(pol.Predictor, "last2"), orText(pol.Correction, "increments")); err != nil {
			add("--correction", fmt.Errorf("--correction: %w", err))
		}
	}
	qp, err := LookupTracePolicy(pol.Name)
	if err != nil {
		var unknown *registry.UnknownNameError
		if errors.As(err, &unknown) {
			err = fmt.Errorf("%w; or of the hetero model: %s", err, strings.Join(HeteroOnlyPolicies(), ", "))
		}
		add("--policy", err)
		return errs
	}
	vals, err := checkTraceOptions(qp, pol.Options, pol.Decider)
	switch {
	case err != nil && pol.Decider != nil && !qp.InProcess():
		add("--policy", err)
		return errs
	case err != nil:
		add("--set", err)
	default:
		s.Policy.Values = vals
	}
	if s.Outputs.Threads && !qp.Traits.Threads {
		var ts []string
		for _, p := range registry.Policies(registry.ModelCluster, registry.KindQueue) {
			if p.Traits.Threads {
				ts = append(ts, p.Name)
			}
		}
		add("--threads", fmt.Errorf("--threads is only for --policy %s (%s schedules whole jobs)", strings.Join(ts, " or "), pol.Name))
	}
	return errs
}

// HeteroOnlyPolicies are the policies of the hetero model a trace run
// takes that are no queue policy of the cluster model.
func HeteroOnlyPolicies() []string {
	var out []string
	for _, n := range registry.Names(registry.ModelHetero, registry.KindQueue) {
		if _, err := registry.Lookup(registry.ModelCluster, registry.KindQueue, n); err != nil {
			out = append(out, n)
		}
	}
	return out
}
