package experiment

import (
	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
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

// prepareHetero makes the hetero run of a.s and, with records, its
// machines (the records' machine columns need them).
func prepareHetero(a *synthAsm) (err error) {
	if a.hetero, err = a.s.heteroRun(); err != nil {
		return err
	}
	if a.s.Outputs.Records != "" {
		a.hetero.Platform, err = HeteroPlatform(a.hetero)
	}
	return err
}

// runHeteroSpec runs one replication of the hetero model. The policy's
// wall-clock decision time is left out: sweep outputs are deterministic.
// The records (synthModels) are jobs.csv columns and
// metrics.MachineColumns, and the replication's machines beside them
// (records without .csv, then .platform.csv).
func runHeteroSpec(a *synthAsm, extra engine.Tee) (repValues, error) {
	r, err := RunHetero(a.hetero, extra...)
	if err != nil {
		return repValues{}, err
	}
	perEvent := 0.0
	if r.Events > 0 {
		perEvent = float64(r.Evaluations) / float64(r.Events)
	}
	return repValues{map[string]float64{"missed_pct": r.MissedPct, "missed_of_deadline_pct": r.MissedOfDeadlinePct, "usage": r.Usage,
		"slowdown": r.Slowdown, "mean_wait": r.MeanWait, "offered_load": r.OfferedLoad, "plan_evaluations_per_event": perEvent,
		"queue_at_events": r.QueueAtEvents}, r}, nil
}
