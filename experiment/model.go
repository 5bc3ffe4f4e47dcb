package experiment

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/predict"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/model"
	"github.com/schedlab/schedlab/workload/synth"
)

// modelRunner is how one replication of a scenario of one model runs:
// the one place where a model meets its scenario settings. Adding a
// model to the registry and a runner here is all a sweep (package sweep,
// through RunReplication) needs.
type modelRunner struct {
	model string // registry model name
	// run runs replication rep; records, when set, is where the cluster
	// model writes a trace run's output folder (records.csv without .csv).
	run func(s scenario.Scenario, rep int, records string, extra []engine.Listener, perJob bool) (repValues, error)
}

// repValues is what a runner reports: its metrics' values keyed by the
// reported name ("mean_wait", "site0_load", "user3_mean_wait"), never
// by position, and the model's typed result. runReplication puts them
// in the declarations' order (registry.ModelMetrics).
type repValues struct {
	values map[string]float64
	detail any
}

// runners lists the runners of the implemented models.
func runners() []modelRunner {
	return []modelRunner{
		{registry.ModelCluster, runCluster},
		{registry.ModelGrid, runGridRep},
		{registry.ModelGang, runGangRep},
		{registry.ModelHetero, runHeteroRep},
	}
}

// RepMetrics is one replication's metrics: Values[i] is the metric named
// Names[i]. The names are derived from the metric declarations
// (registry.ModelMetrics): the model's metrics that are on by default,
// in the declarations' order, then its per-site ones for every site,
// then those the scenario's metrics list asks for that are not on by
// default (per-user metrics, declared metrics that are off by default),
// in the list's order; every replication of a scenario names the same
// ones.
type RepMetrics struct {
	Names  []string
	Values []float64
	// Detail is the model's own typed result of the replication, for
	// callers in memory that need more than the named metrics (a
	// reproduction's per-class numbers, counts, the jobs simulated):
	// GridResult (grid), GangResult (gang), HeteroResult (hetero; its
	// DecisionSeconds is wall-clock time, which no metric reports) and
	// ClusterResult (cluster: the summary with each job's response and
	// the window heads of a policy that forms windows). No file records
	// it.
	Detail any
}

// Index returns the position of the metric called name in m.Names, or
// -1 when m has no such metric.
func (m RepMetrics) Index(name string) int {
	for i, n := range m.Names {
		if n == name {
			return i
		}
	}
	return -1
}

// RunReplication is the sweep's replication core: it runs replication
// rep of scenario s (one point of a scenario file) through its model's
// runner and returns its metrics. The result depends on s and rep only
// (the replication's random streams are s.Seed's, number rep), so a
// sweep may run replications in any order, on any worker or in any
// shard. A model the registry lists as not implemented gives a
// *registry.NotImplementedError.
//
// records, when set, is where the per-job records go, written
// atomically (they appear only when the replication succeeded): a CSV
// file of jobs.csv columns plus kind and sites for a synthetic workload;
// for the hetero model that file with the machine columns and the
// machines beside it (.platform.csv); for a trace, an output folder
// named records without .csv (jobs.csv, summary.json). The listeners
// more see the run's events (not a trace run's).
func RunReplication(s scenario.Scenario, rep int, records string, more ...engine.Listener) (RepMetrics, error) {
	return runReplication(s, rep, records, false, more...)
}

// RunReplicationPerJob is RunReplication without records, whose Detail
// also holds a cluster replication's per-job part (ClusterResult's
// Responses and Heads; other models' Detail is as RunReplication's): for
// a caller that compares jobs one by one (a reproduction). A sweep does
// not ask for it, so its replications do not keep every job's response.
func RunReplicationPerJob(s scenario.Scenario, rep int) (RepMetrics, error) {
	return runReplication(s, rep, "", true)
}

func runReplication(s scenario.Scenario, rep int, records string, perJob bool, more ...engine.Listener) (RepMetrics, error) {
	m, err := registry.LookupModel(s.Model)
	if err != nil {
		return RepMetrics{}, err
	}
	if !m.Implemented {
		return RepMetrics{}, &registry.NotImplementedError{Model: m.Name}
	}
	var r *modelRunner
	for _, x := range runners() {
		if x.model == m.Name {
			r = &x
		}
	}
	if r == nil {
		return RepMetrics{}, fmt.Errorf("model %s: no runner in package experiment", m.Name)
	}
	// The declared metrics that are their own listeners, when on by
	// default or asked for.
	type measured struct {
		name string
		m    metrics.Measure
	}
	var measures []measured
	for _, d := range registry.ModelMetrics(m.Name) {
		if d.New == nil || !d.Default && !slices.Contains(s.Metrics, d.Name) {
			continue
		}
		x := d.New(metrics.Env{Model: m.Name, Procs: scenarioProcs(s), Skip: s.Warmup.Jobs})
		measures = append(measures, measured{d.Name, x})
		more = append(more[:len(more):len(more)], x)
	}
	var res repValues
	if records != "" && s.Workload.Trace == "" && s.Model != registry.ModelHetero {
		// The run happens inside atomicfile.Write, so the records appear
		// only when the replication succeeded.
		err = atomicfile.Write(records, func(w io.Writer) error {
			jw := metrics.NewJobsCSVSites(w)
			x, err := r.run(s, rep, "", append(more, jw), perJob)
			if err != nil {
				jw.Stop() // before atomicfile removes the file
				return err
			}
			res = x
			return jw.Flush()
		})
	} else {
		res, err = r.run(s, rep, records, more, perJob)
	}
	if err != nil {
		return RepMetrics{}, err
	}
	for _, x := range measures {
		res.values[x.name] = x.m.Value()
	}
	return ordered(m, s, res)
}

// ordered puts a runner's values in the order of the declarations
// (RepMetrics); a declared metric the runner did not report is an error
// of the runner's.
func ordered(m registry.Model, s scenario.Scenario, res repValues) (RepMetrics, error) {
	out := RepMetrics{Detail: res.detail}
	add := func(name string) error {
		v, ok := res.values[name]
		if !ok {
			return fmt.Errorf("model %s: metric %s is declared but its runner did not report it", m.Name, name)
		}
		out.Names, out.Values = append(out.Names, name), append(out.Values, v)
		return nil
	}
	for _, name := range m.Metrics {
		if err := add(name); err != nil {
			return RepMetrics{}, err
		}
	}
	if len(m.SiteMetrics) > 0 {
		for i := range s.Platform.Sites {
			for _, name := range m.SiteMetrics {
				if err := add(fmt.Sprintf("site%d_%s", i, name)); err != nil {
					return RepMetrics{}, err
				}
			}
		}
	}
	for _, name := range s.Metrics {
		if slices.Contains(out.Names, name) || !m.HasMetric(name) {
			continue
		}
		if d, ok := registry.LookupMetric(m.Name, name); ok && d.Scope == registry.PerSite {
			continue // every site's are reported above; a site the platform lacks has none
		}
		if err := add(name); err != nil {
			return RepMetrics{}, err
		}
	}
	return out, nil
}

// scenarioProcs is the number of CPUs of a scenario's platform as its
// file gives it (0 when the run finds it: a trace's header, the hetero
// model's generated machines).
func scenarioProcs(s scenario.Scenario) int {
	n := s.Platform.Procs
	for _, st := range s.Platform.Sites {
		n += st.Procs
	}
	return n
}

// sitesPlatform is the platform of a multi-site scenario: one machine
// per site. Site speeds are not modelled by the grid and gang models.
func sitesPlatform(s scenario.Scenario) (platform.Platform, error) {
	if len(s.Platform.Sites) == 0 {
		return platform.Platform{}, fmt.Errorf("%s model: no sites", s.Model)
	}
	cpus := make([]int, len(s.Platform.Sites))
	for i, st := range s.Platform.Sites {
		if st.Speed != 0 && st.Speed != 1 {
			return platform.Platform{}, fmt.Errorf("%s model: site speeds other than 1 are not modelled (site %d has %g)", s.Model, i, st.Speed)
		}
		cpus[i] = st.Procs
	}
	return platform.Sites(cpus)
}

func runGridRep(s scenario.Scenario, rep int, _ string, extra []engine.Listener, _ bool) (repValues, error) {
	plat, err := sitesPlatform(s)
	if err != nil {
		return repValues{}, err
	}
	r, err := RunGrid(GridRun{Platform: plat, Grid: s.Policy.Grid, Local: s.Policy.Local, Options: s.Policy.Options,
		MeanInterarrival: s.Workload.MeanInterarrival, MeanService: s.Workload.MeanService,
		Stop: s.Stop.Completed, Warmup: s.Warmup.Jobs, Seed: s.Seed, Replication: rep}, extra...)
	if err != nil {
		return repValues{}, err
	}
	v := map[string]float64{"rt": r.RT, "max_rt": r.MaxRT, "sld": r.SLD, "utilization": r.Utilization}
	for i := range r.SiteUtil {
		v[fmt.Sprintf("site%d_utilization", i)], v[fmt.Sprintf("site%d_load", i)] = r.SiteUtil[i], r.SiteLoad[i]
	}
	return repValues{v, r}, nil
}

func runGangRep(s scenario.Scenario, rep int, _ string, extra []engine.Listener, _ bool) (repValues, error) {
	plat, err := sitesPlatform(s)
	if err != nil {
		return repValues{}, err
	}
	w := s.Workload
	r, err := RunGang(GangRun{Platform: plat, Approach: s.Policy.Approach, Options: s.Policy.Options,
		MeanInterarrival: w.MeanInterarrival, GangMeanInterarrival: w.GangMeanInterarrival, MeanService: w.MeanService,
		Pow2: w.GangSizes == "pow2", GangMin: w.GangMin, GangMax: w.GangMax, SharedTimes: w.GangTimes == "shared",
		EstimateError: w.EstimateError, SplitOverhead: w.SplitOverhead,
		Stop: s.Stop.Completed, Warmup: s.Warmup.Jobs, Seed: s.Seed, Replication: rep}, extra...)
	if err != nil {
		return repValues{}, err
	}
	return repValues{map[string]float64{"rt": r.RT, "sld": r.SLD, "wrt": r.WRT, "wsld": r.WSLD, "utilization": r.Utilization,
		"finished_gangs_pct": r.FinishedPct, "split_gangs_pct": r.SplitPct}, r}, nil
}

func runCluster(s scenario.Scenario, rep int, records string, extra []engine.Listener, perJob bool) (repValues, error) {
	var res ClusterResult
	// Per-user metrics, when the scenario's metrics list names some.
	var users []int32
	var userNames []string
	for _, name := range s.Metrics {
		if u, m, ok := registry.UserMetric(name); ok && m == "mean_wait" {
			users, userNames = append(users, u), append(userNames, name)
		}
	}
	var uw *metrics.UserWaits
	if len(users) > 0 {
		if s.Workload.Trace != "" {
			return repValues{}, fmt.Errorf("metric %s: per-user metrics are measured on synthetic workloads (a trace run's jobs.csv has each job's user and wait)", userNames[0])
		}
		uw = metrics.NewUserWaits(users, s.Warmup.Jobs)
		extra = append(extra[:len(extra):len(extra)], uw)
	}
	if s.Workload.Trace != "" {
		out := ""
		if records != "" {
			out = strings.TrimSuffix(records, ".csv")
		}
		spec, err := TraceSpec(s, rep, out, perJob, extra)
		if err != nil {
			return repValues{}, err
		}
		tr, err := spec.Run()
		if err != nil {
			return repValues{}, err
		}
		if tr.PerJob != nil {
			res = *tr.PerJob
		}
		res.Result = tr.Result
	} else {
		var err error
		if res, err = runClusterSynthetic(s, rep, perJob, extra...); err != nil {
			return repValues{}, err
		}
	}
	v := map[string]float64{"mean_wait": res.MeanWait, "max_wait": res.MaxWait, "mean_response": res.MeanResponse, "mean_slowdown": res.MeanSlowdown,
		"mean_bounded_slowdown": res.MeanBoundedSlowdown, "utilization": res.Utilization, "makespan": res.Makespan}
	if uw != nil {
		for i, x := range uw.Means() {
			v[userNames[i]] = x
		}
	}
	return repValues{v, res}, nil
}

// runClusterSynthetic runs a synthetic workload on the cluster; with
// perJob, its result also has the jobs' responses and the windows'
// heads (ClusterResult).
func runClusterSynthetic(s scenario.Scenario, rep int, perJob bool, extra ...engine.Listener) (ClusterResult, error) {
	if s.Stop.Completed <= 0 {
		return ClusterResult{}, errors.New("cluster model with a synthetic workload: give stop.completed")
	}
	if s.Platform.Procs <= 0 {
		return ClusterResult{}, errors.New("cluster model with a synthetic workload: give platform.procs")
	}
	var src workload.Source
	var load float64 // the offered load, for the message of an overloaded run
	tau := metrics.SyntheticTau
	cont := false
	var pred *predict.Params
	speed := 0.0 // the machine's CPU speed, when the workload model sets one
	declared := s.Workload.Model != "" && s.Workload.Model != scenario.Poisson
	if declared {
		// A declared workload model (registry.WorkloadModels), its jobs
		// in seconds with requests as estimates: exact replaces them by
		// the runtimes; predict adds its layer.
		b, err := registry.BuildWorkload(s.Workload.Model, model.Env{Procs: s.Platform.Procs, Jobs: s.Stop.Completed, Seed: s.Seed, Rep: rep}, s.Workload.Options)
		if err != nil {
			return ClusterResult{}, err
		}
		est, err := workload.ParseEstimate(s.Workload.Estimate)
		if err != nil {
			return ClusterResult{}, err
		}
		src, load, tau, cont, speed = b.Source, b.Load, metrics.DefaultTau, s.Workload.OnOverrun == "continue", b.Speed
		if est == workload.EstimateExact {
			src = workload.WithEstimates(src, est)
		}
		if pred, err = predictParams(est, s.Workload.Predictor, s.Workload.Correction); err != nil {
			return ClusterResult{}, err
		}
	} else {
		ps, err := synth.NewPoisson(s.Seed, rep, s.Workload.MeanInterarrival, s.Workload.MeanService, s.Stop.Completed)
		if err != nil {
			return ClusterResult{}, err
		}
		// One-processor jobs.
		src, load = ps, s.Workload.MeanService/s.Workload.MeanInterarrival/float64(s.Platform.Procs)
	}
	if s.Workload.Submit == scenario.SubmitZero {
		src = workload.SubmitZero(src)
	}
	qp, err := registry.Lookup(registry.ModelCluster, registry.KindQueue, s.Policy.Queue)
	if err != nil {
		return ClusterResult{}, err
	}
	plat, err := platform.Cluster(s.Platform.Procs)
	if speed > 0 {
		plat, err = platform.New([]platform.Machine{{CPUs: s.Platform.Procs, Speed: speed}})
	}
	if err != nil {
		return ClusterResult{}, err
	}
	opts, err := qp.Check(s.Policy.Options)
	if err != nil {
		return ClusterResult{}, err
	}
	sum := metrics.NewSummary(s.Platform.Procs, tau)
	sum.Skip(s.Warmup.Jobs)
	var availCfg *engine.Availability
	if a := scenarioAvail(s); a.Used() {
		if pred != nil {
			return ClusterResult{}, errors.New("unavailable CPUs (platform.reservations, events, failures) do not go with workload.estimate predict: the model keeps jobs off reserved CPUs by the estimates the policy plans with")
		}
		var closeEvents func() error
		if availCfg, closeEvents, err = a.build(plat, rep); err != nil {
			return ClusterResult{}, err
		}
		defer closeEvents()
	}
	reader := &jobReader{res: &ClusterResult{}}
	lis := engine.Tee{sum}
	if perJob {
		lis = append(lis, reader)
	}
	run, err := newClusterRun(clusterSpec{plat: plat, qp: qp, opts: opts, env: policy.Env{Seed: s.Seed, Rep: rep}, src: src,
		lis: append(lis, extra...), maxWaiting: MaxWaiting, cont: cont, predict: pred, avail: availCfg})
	if errors.Is(err, engine.ErrNoAvailabilityPlanner) {
		return ClusterResult{}, &AvailError{err}
	}
	if err != nil {
		return ClusterResult{}, err
	}
	defer closePolicy(run.pol)
	if perJob {
		reader.watch(run.pol)
	}
	if err := run.eng.Run(); err != nil {
		if errors.Is(err, engine.ErrAvailLimit) {
			return ClusterResult{}, scenarioAvail(s).limitError(err)
		}
		return ClusterResult{}, waitingError(err, "cluster", load)
	}
	if err := closePolicy(run.pol); err != nil {
		return ClusterResult{}, err
	}
	res := *reader.res
	res.Result = sum.Result()
	// A policy that schedules threads gets Poisson jobs' one thread each,
	// so the summary's utilization needs no correction; a declared
	// model's parallel jobs' threads do.
	if declared {
		err = run.threadUtilization(&res.Result, s.Platform.Procs)
	} else if run.fold != nil {
		err = run.fold.Err()
	}
	if err != nil {
		return ClusterResult{}, err
	}
	return res, nil
}

// predictParams are the parameters of the predicting layer of estimate
// model est (nil unless it is predict), from the predictor and
// correction texts.
func predictParams(est workload.Estimate, predictor, correction string) (*predict.Params, error) {
	if est != workload.EstimatePredict {
		return nil, nil
	}
	h, err := predict.ParsePredictor(predictor)
	if err != nil {
		return nil, err
	}
	c, err := predict.ParseCorrection(correction)
	if err != nil {
		return nil, err
	}
	return &predict.Params{Predictor: h, Correction: c}, nil
}

// TraceSpec is the run of replication rep of a trace scenario s: the
// scenario's trace settings bound to a RunSpec, writing its records to
// out ("": none), keeping per-job results (perJob) and heard by extra.
func TraceSpec(s scenario.Scenario, rep int, out string, perJob bool, extra []engine.Listener) (RunSpec, error) {
	est, err := workload.ParseEstimate(s.Workload.Estimate)
	if err != nil {
		return RunSpec{}, err
	}
	return RunSpec{
		Workload: WorkloadSpec{Trace: s.Workload.Trace, First: s.Workload.Jobs, SubmitZero: s.Workload.Submit == scenario.SubmitZero,
			Resample: s.Workload.Resample, Seed: s.Seed, Rep: rep, Estimate: est},
		Platform: PlatformSpec{Procs: s.Platform.Procs, Clamp: s.Workload.Clamp, Continue: s.Workload.OnOverrun == "continue",
			Partitions: s.Platform.Partitions, Avail: scenarioAvail(s)},
		Policy:  PolicySpec{Name: s.Policy.Queue, Options: s.Policy.Options, Predictor: s.Workload.Predictor, Correction: s.Workload.Correction},
		Outputs: OutputSpec{Dir: out, Responses: perJob, Listeners: extra},
	}, nil
}
