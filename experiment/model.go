package experiment

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/predict"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/workload"
)

// repValues is what a model's run reports: its metrics' values keyed by the
// reported name ("mean_wait", "site0_load", "user3_mean_wait"), never
// by position, and the model's typed result. runReplication puts them
// in the declarations' order (registry.ModelMetrics).
type repValues struct {
	values map[string]float64
	detail any
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
// rep of scenario s (one point of a scenario file) through its RunSpec
// (a trace's TraceSpec or a synthetic model's SynthSpec, run by
// RunSpec.replicate, which assembles every model) and returns its
// metrics. The result depends on s and rep only
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
// more see the run's events (Outputs.Listeners of its spec).
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
	if _, ok := lookupSynthModel(m.Name); !ok {
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
		env := metrics.Env{Model: m.Name, Procs: scenarioProcs(s), Skip: s.Warmup.Jobs, Power: s.Platform.Power}
		if env.Carbon, env.Price, err = runSignals(PlatformSpec{Carbon: s.Platform.Carbon, Price: s.Platform.Price}); err != nil {
			return RepMetrics{}, err
		}
		if len(s.Platform.Nodes) > 0 {
			if env.Nodes, err = ParseNodes(s.Platform.Nodes); err != nil {
				return RepMetrics{}, &SettingError{Setting: "platform.nodes", Err: err}
			}
		}
		x := d.New(env)
		measures = append(measures, measured{d.Name, x})
		more = append(more[:len(more):len(more)], x)
	}
	spec, err := scenarioSpec(s, rep, records, perJob, more)
	if err != nil {
		return RepMetrics{}, err
	}
	res, err := spec.replicate()
	if err != nil {
		return RepMetrics{}, err
	}
	for _, x := range measures {
		res.values[x.name] = x.m.Value()
	}
	return ordered(m, s, res)
}

// ordered puts a run's values in the order of the declarations
// (RepMetrics); a declared metric the run did not report is an error
// of the model's assembly.
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
	if len(s.Platform.Nodes) > 0 {
		if ns, err := ParseNodes(s.Platform.Nodes); err == nil {
			n = ns.Cores() // on nodes the machine is the nodes' cores
		}
	}
	for _, st := range s.Platform.Sites {
		n += st.Procs
	}
	return n
}

// sitesPlatform is the platform of a multi-site run: one machine per
// site (checked by sitesChecks: site speeds are not modelled by the
// grid and gang models).
func sitesPlatform(s RunSpec) (platform.Platform, error) {
	cpus := make([]int, len(s.Platform.Sites))
	for i, st := range s.Platform.Sites {
		cpus[i] = st.Procs
	}
	return platform.Sites(cpus)
}

// prepareSites makes the machines of the grid and gang models.
func prepareSites(a *synthAsm) (err error) {
	a.plat, err = sitesPlatform(a.s)
	return err
}

// scenarioSpec is the RunSpec of replication rep of scenario s (one
// point of a scenario file): a cluster scenario of a trace bound by
// TraceSpec (its output folder records without .csv), any other by
// SynthSpec.
func scenarioSpec(s scenario.Scenario, rep int, records string, perJob bool, extra []engine.Listener) (RunSpec, error) {
	if s.Model != registry.ModelCluster || s.Workload.Trace == "" {
		return SynthSpec(s, rep, records, perJob, extra)
	}
	if _, names := userMetrics(s.Metrics); len(names) > 0 {
		return RunSpec{}, fmt.Errorf("metric %s: per-user metrics are measured on synthetic workloads (a trace run's jobs.csv has each job's user and wait)", names[0])
	}
	return TraceSpec(s, rep, strings.TrimSuffix(records, ".csv"), perJob, extra)
}

// replicate runs the spec of a replication: a synthetic model's run
// (runSynthetic) or a trace run (Run), and reports its model's metrics.
func (s RunSpec) replicate() (repValues, error) {
	if s.Workload.Synthetic != nil {
		return s.runSynthetic()
	}
	tr, err := s.Run()
	if err != nil {
		return repValues{}, err
	}
	var res ClusterResult
	if tr.PerJob != nil {
		res = *tr.PerJob
	}
	res.Result = tr.Result
	return clusterValues(res, nil, nil), nil
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
		Platform: PlatformSpec{Procs: s.Platform.Procs, Clamp: s.Workload.Clamp, Continue: s.Workload.OnOverrun == "continue", Power: s.Platform.Power,
			Carbon: s.Platform.Carbon, Price: s.Platform.Price, PowerCap: capSpecOf(s.Platform.PowerCap),
			Partitions: s.Platform.Partitions, Nodes: s.Platform.Nodes, Avail: scenarioAvail(s)},
		Policy: PolicySpec{Name: s.Policy.Queue, Options: s.Policy.Options, Predictor: s.Workload.Predictor, Correction: s.Workload.Correction, NodePlanner: s.Platform.NodePlanner,
			Sleep: sleepSpec(s.Platform.SleepAfter)},
		Outputs: OutputSpec{Dir: out, Responses: perJob, Listeners: extra},
	}, nil
}

// capSpecOf is PlatformSpec.PowerCap of a scenario's platform.power_cap
// ("none": no cap).
func capSpecOf(s string) string {
	if s == scenario.CapNone {
		return ""
	}
	return s
}

// sleepSpec is PolicySpec.Sleep of a scenario's platform.sleep_after
// ("none": no sleeper).
func sleepSpec(s string) string {
	if s == scenario.SleepNone {
		return ""
	}
	return s
}
