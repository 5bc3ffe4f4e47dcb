package experiment

import (
	"errors"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/predict"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/model"
	"github.com/schedlab/schedlab/workload/synth"
)

// clusterSynth is a synthetic run of the cluster model being assembled:
// what the generator stages made.
type clusterSynth struct {
	a    *synthAsm
	load float64 // the offered load, for the message of an overloaded run
	// speed is the machine's CPU speed, when the workload model sets one
	// (0: 1).
	speed float64
	// requests: some jobs may ask for more than cores on nodes
	// (model.Built.Requests).
	requests bool
}

// genStage is one stage of a synthetic cluster run's source: the
// generator (given no source) and its wrappers.
type genStage struct {
	name    string
	applies func(c *clusterSynth) bool
	wrap    func(c *clusterSynth, src workload.Source) (workload.Source, error)
}

// genStages are the stages of a synthetic cluster run's source,
// innermost first; newClusterRun's clusterStages follow them.
var genStages = []genStage{
	{name: "poisson", // one-processor Poisson jobs
		applies: func(c *clusterSynth) bool { return !c.syn().declared() },
		wrap: func(c *clusterSynth, _ workload.Source) (workload.Source, error) {
			s, y := c.a.s, c.syn()
			ps, err := synth.NewPoisson(s.Workload.Seed, s.Workload.Rep, y.MeanInterarrival, y.MeanService, y.Stop)
			c.load = y.MeanService / y.MeanInterarrival / float64(s.Platform.Procs)
			return ps, err
		}},
	{name: "workload model", // a declared workload model (registry.WorkloadModels), its jobs in seconds
		applies: func(c *clusterSynth) bool { return c.syn().declared() },
		wrap: func(c *clusterSynth, _ workload.Source) (workload.Source, error) {
			s, y := c.a.s, c.syn()
			b, err := registry.BuildWorkload(y.Model, model.Env{Procs: s.Platform.Procs, Jobs: y.Stop, Seed: s.Workload.Seed, Rep: s.Workload.Rep}, y.Options)
			if err != nil {
				return nil, err
			}
			c.load, c.a.tau, c.speed, c.requests = b.Load, metrics.DefaultTau, b.Speed, b.Requests
			return b.Source, nil
		}},
	{name: "exact", // a declared model's requests replaced by the runtimes
		applies: func(c *clusterSynth) bool {
			return c.syn().declared() && c.a.s.Workload.Estimate == workload.EstimateExact
		},
		wrap: func(c *clusterSynth, src workload.Source) (workload.Source, error) {
			return workload.WithEstimates(src, workload.EstimateExact), nil
		}},
	{name: "submit-zero",
		applies: func(c *clusterSynth) bool { return c.a.s.Workload.SubmitZero },
		wrap: func(_ *clusterSynth, src workload.Source) (workload.Source, error) {
			return workload.SubmitZero(src), nil
		}},
}

func (c *clusterSynth) syn() *SyntheticSpec { return c.a.s.Workload.Synthetic }

// runClusterSynth runs a synthetic workload on the cluster; with
// Outputs.Responses, its result also has the jobs' responses and the
// windows' heads (ClusterResult).
func runClusterSynth(a *synthAsm) (repValues, error) {
	a.tau = metrics.SyntheticTau
	c := &clusterSynth{a: a}
	var src workload.Source
	for _, st := range genStages {
		if st.applies(c) {
			var err error
			if src, err = st.wrap(c, src); err != nil {
				return repValues{}, err
			}
		}
	}
	res, err := c.run(src)
	if err != nil {
		return repValues{}, err
	}
	return clusterValues(res, a.o.uw, a.o.users), nil
}

// run builds the policy, the machine and the engine around src and runs
// it.
func (c *clusterSynth) run(src workload.Source) (ClusterResult, error) {
	s, y := c.a.s, c.syn()
	var pred *predict.Params
	if y.declared() {
		var err error
		if pred, err = predictParams(s.Workload.Estimate, s.Policy.Predictor, s.Policy.Correction); err != nil {
			return ClusterResult{}, err
		}
	}
	qp, err := registry.Lookup(registry.ModelCluster, registry.KindQueue, s.Policy.Name)
	if err != nil {
		return ClusterResult{}, err
	}
	var ns *nodes.Nodes
	if len(s.Platform.Nodes) > 0 {
		if ns, err = ParseNodes(s.Platform.Nodes); err != nil {
			return ClusterResult{}, &SettingError{Setting: "platform.nodes", Err: err}
		}
		if c.speed > 0 {
			return ClusterResult{}, errors.New("platform.nodes: the workload model sets a CPU speed; nodes have none yet")
		}
	}
	c.a.plat, err = platform.Cluster(s.Platform.Procs)
	if c.speed > 0 {
		c.a.plat, err = platform.New([]platform.Machine{{CPUs: s.Platform.Procs, Speed: c.speed}})
	}
	if err != nil {
		return ClusterResult{}, err
	}
	opts, err := qp.Check(s.Policy.Options)
	if err != nil {
		return ClusterResult{}, err
	}
	var availCfg *engine.Availability
	var navailCfg *engine.NodeAvailability
	if av := s.Platform.Avail; av.Used() {
		if pred != nil {
			return ClusterResult{}, errors.New("unavailable CPUs (platform.reservations, events, failures) do not go with workload.estimate predict: the model keeps jobs off reserved CPUs by the estimates the policy plans with")
		}
		var closeEvents func() error
		if ns != nil {
			navailCfg, closeEvents, err = av.buildNodes(ns, s.Workload.Rep)
		} else {
			availCfg, closeEvents, err = av.build(c.a.plat, s.Workload.Rep)
		}
		if err != nil {
			return ClusterResult{}, err
		}
		defer closeEvents()
	}
	run, err := newClusterRun(clusterSpec{plat: c.a.plat, ns: ns, qp: qp, opts: opts, env: policy.Env{Seed: s.Workload.Seed, Rep: s.Workload.Rep}, src: src,
		lis: c.a.openOutputs(), maxWaiting: MaxWaiting, cont: y.declared() && s.Platform.Continue, predict: pred, avail: availCfg, navail: navailCfg,
		coresAlone: !c.requests, planner: s.Policy.NodePlanner})
	if errors.Is(err, engine.ErrNoAvailabilityPlanner) {
		return ClusterResult{}, &AvailError{err}
	}
	if err != nil {
		return ClusterResult{}, err
	}
	defer closePolicy(run.built)
	if c.a.o.reader != nil {
		c.a.o.reader.watch(run.built)
	}
	return c.simulate(run)
}

// simulate runs the assembled run and collects its result.
func (c *clusterSynth) simulate(run *clusterRun) (ClusterResult, error) {
	s := c.a.s
	if err := run.eng.Run(); err != nil {
		if errors.Is(err, engine.ErrAvailLimit) {
			return ClusterResult{}, s.Platform.Avail.limitError(err)
		}
		return ClusterResult{}, waitingError(err, "cluster", c.load)
	}
	if err := closePolicy(run.built); err != nil {
		return ClusterResult{}, err
	}
	var res ClusterResult
	if c.a.o.reader != nil {
		res = *c.a.o.reader.res
	}
	res.Result = c.a.o.sum.Result()
	// A policy that schedules threads gets Poisson jobs' one thread each,
	// so the summary's utilization needs no correction; a declared
	// model's parallel jobs' threads do.
	var err error
	if c.syn().declared() {
		err = run.threadUtilization(&res.Result, s.Platform.Procs)
	} else if run.fold != nil {
		err = run.fold.Err()
	}
	if err != nil {
		return ClusterResult{}, err
	}
	return res, nil
}

// userMetrics are the per-user metrics the names ask for: the users and
// the metrics' names.
func userMetrics(metricNames []string) (users []int32, names []string) {
	for _, name := range metricNames {
		if u, m, ok := registry.UserMetric(name); ok && m == "mean_wait" {
			users, names = append(users, u), append(names, name)
		}
	}
	return users, names
}

// clusterValues are the cluster model's metrics of res, with the
// per-user waits (uw, nil: none) by their names.
func clusterValues(res ClusterResult, uw *metrics.UserWaits, names []string) repValues {
	v := map[string]float64{"mean_wait": res.MeanWait, "max_wait": res.MaxWait, "mean_response": res.MeanResponse, "mean_slowdown": res.MeanSlowdown,
		"mean_bounded_slowdown": res.MeanBoundedSlowdown, "utilization": res.Utilization, "makespan": res.Makespan}
	if uw != nil {
		for i, x := range uw.Means() {
			v[names[i]] = x
		}
	}
	return repValues{v, res}
}
