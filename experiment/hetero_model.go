package experiment

import (
	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/workload/synth"
)

// heteroRun is the HeteroRun of replication rep of a hetero scenario s
// (SynthSpec, checked).
func heteroRun(s scenario.Scenario, rep int) (HeteroRun, error) {
	spec, err := SynthSpec(s, rep, "", false, nil)
	if err != nil {
		return HeteroRun{}, err
	}
	if err := spec.Check(); err != nil {
		return HeteroRun{}, err
	}
	return spec.heteroRun()
}

// heteroRun is the HeteroRun of a hetero spec: the machines as given
// (sites, speed = BM) or drawn by the generator, the job generator of
// klusacek-2008 with Stop jobs.
func (s RunSpec) heteroRun() (HeteroRun, error) {
	r := HeteroRun{Seed: s.Workload.Seed, Replication: s.Workload.Rep, Jobs: s.Workload.Synthetic.Hetero}
	if len(s.Platform.Sites) > 0 {
		ms := make([]platform.Machine, len(s.Platform.Sites))
		for i, st := range s.Platform.Sites {
			ms[i] = platform.Machine{CPUs: st.Procs, Speed: orOne(st.Speed)}
		}
		var err error
		if r.Platform, err = platform.New(ms); err != nil {
			return HeteroRun{}, err
		}
	} else {
		r.Machines = s.Platform.Machines
	}
	pol, err := registry.Lookup(registry.ModelHetero, registry.KindQueue, s.Policy.Name)
	if err != nil {
		return HeteroRun{}, err
	}
	opts := pol.Own(s.Policy.Options)
	if _, err := pol.Check(opts); err != nil {
		return HeteroRun{}, err
	}
	r.Policy = func(p platform.Platform, seed uint64, rep int) (policy.QueueScheduler, error) {
		b, err := pol.Build(policy.Env{Platform: p, Seed: seed, Rep: rep}, opts)
		return b.Queue, err
	}
	return r, nil
}

// prepareHetero makes the hetero run of a.s and its machines.
func prepareHetero(a *synthAsm) (err error) {
	if a.hetero, err = a.s.heteroRun(); err != nil {
		return err
	}
	a.plat, err = HeteroPlatform(a.hetero)
	return err
}

// runHeteroAsm runs one replication of the hetero model on a.plat: the
// job generator of klusacek-2008, the policy timed (its wall-clock
// decision time is only in the result's DecisionSeconds: sweep outputs
// are deterministic). Its records (synthModels) are jobs.csv columns
// and metrics.MachineColumns, and the replication's machines beside
// them (records without .csv, then .platform.csv).
func runHeteroAsm(a *synthAsm) (repValues, error) {
	r, p := a.hetero, a.plat
	src, err := synth.NewHetero(r.Seed, r.Replication, r.Jobs, p)
	if err != nil {
		return repValues{}, err
	}
	pol, err := r.Policy(p, r.Seed, r.Replication)
	if err != nil {
		return repValues{}, err
	}
	tp := newTimed(pol)
	defer closePolicy(pol)
	a.tau = metrics.SyntheticTau
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: p, Policy: tp, Source: src, Listener: a.openOutputs(), MaxWaiting: MaxWaiting})
	if err != nil {
		return repValues{}, err
	}
	if err := c.Run(); err != nil {
		return repValues{}, waitingError(err, "hetero", synth.OfferedLoad(r.Jobs, p))
	}
	if err := closePolicy(pol); err != nil {
		return repValues{}, err
	}
	m, d := a.o.sum.Result(), a.o.dl.Result()
	out := HeteroResult{Jobs: m.Jobs, MissedPct: d.MissedPct, MissedOfDeadlinePct: d.MissedOfDeadlinePct, Usage: d.Usage,
		Slowdown: m.MeanSlowdown, MeanWait: m.MeanWait, OfferedLoad: synth.OfferedLoad(r.Jobs, p), Events: tp.events,
		QueueAtEvents: a.o.qe.Mean()}
	if e, ok := pol.(Evaluator); ok {
		out.Evaluations = e.PlanEvaluations()
	}
	if tp.events > 0 {
		out.DecisionSeconds = tp.spent.Seconds() / float64(tp.events)
	}
	perEvent := 0.0
	if out.Events > 0 {
		perEvent = float64(out.Evaluations) / float64(out.Events)
	}
	return repValues{map[string]float64{"missed_pct": out.MissedPct, "missed_of_deadline_pct": out.MissedOfDeadlinePct, "usage": out.Usage,
		"slowdown": out.Slowdown, "mean_wait": out.MeanWait, "offered_load": out.OfferedLoad, "plan_evaluations_per_event": perEvent,
		"queue_at_events": out.QueueAtEvents}, out}, nil
}
