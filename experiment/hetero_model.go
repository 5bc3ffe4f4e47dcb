package experiment

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/workload/synth"
)

// heteroRun is the HeteroRun of replication rep of a hetero scenario: the
// machines as given (platform.sites, speed = BM) or drawn by the generator,
// the job generator of klusacek-2008 with Stop.Completed jobs.
func heteroRun(s scenario.Scenario, rep int) (HeteroRun, error) {
	w := s.Workload
	bm, err := synth.ParseBMEst(w.BMEst)
	if err != nil {
		return HeteroRun{}, err
	}
	dl, err := synth.ParseDeadline(w.Deadline)
	if err != nil {
		return HeteroRun{}, err
	}
	if s.Stop.Completed < 1 || s.Stop.Completed > synth.MaxHeteroJobs {
		return HeteroRun{}, fmt.Errorf("hetero model: stop.completed %d (want 1..%d jobs)", s.Stop.Completed, synth.MaxHeteroJobs)
	}
	if s.Warmup.Jobs != 0 {
		return HeteroRun{}, fmt.Errorf("hetero model: warmup.jobs is not supported (the metrics cover every job)")
	}
	r := HeteroRun{Seed: s.Seed, Replication: rep}
	// BM_est's range: the generator's speeds, or the sites' speeds rounded
	// outward to integers (at least 1).
	var bmMin, bmMax int
	if len(s.Platform.Sites) > 0 {
		ms := make([]platform.Machine, len(s.Platform.Sites))
		lo, hi := math.Inf(1), 0.0
		for i, st := range s.Platform.Sites {
			sp := st.Speed
			if sp == 0 {
				sp = 1
			}
			ms[i] = platform.Machine{CPUs: st.Procs, Speed: sp}
			lo, hi = min(lo, sp), max(hi, sp)
		}
		if r.Platform, err = platform.New(ms); err != nil {
			return HeteroRun{}, err
		}
		bmMin = max(1, int(math.Floor(lo)))
		bmMax = max(bmMin, int(math.Ceil(hi)))
	} else {
		p := s.Platform
		r.Machines = synth.MachineOptions{N: p.Machines, CPUsMin: p.CPUsMin, CPUsMax: p.CPUsMax, SpeedMin: p.SpeedMin, SpeedMax: p.SpeedMax}
		bmMin, bmMax = p.SpeedMin, p.SpeedMax
	}
	r.Jobs = synth.HeteroOptions{Jobs: int(s.Stop.Completed), MeanInterarrival: w.MeanInterarrival,
		CPUsMin: w.CPUsMin, CPUsMax: w.CPUsMax, EstMin: w.EstimatedMin, EstMax: w.EstimatedMax,
		DeadlineFraction: w.DeadlineFraction, Deadline: dl, SMin: w.DeadlineFactorMin, SMax: w.DeadlineFactorMax,
		BMEst: bm, BMMin: bmMin, BMMax: bmMax}
	if dl == synth.DeadlineAlea {
		// alea does not read the factor; the generator still checks it
		r.Jobs.SMin, r.Jobs.SMax = 2, 2
	}
	pol, err := registry.Lookup(registry.ModelHetero, registry.KindQueue, s.Policy.Queue)
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

// runHeteroRep runs one replication of the hetero model. The policy's
// wall-clock decision time is left out: sweep outputs are deterministic.
// With records set it writes the per-job records there (jobs.csv columns
// and metrics.MachineColumns) and the replication's machines beside them
// (records without .csv, then .platform.csv); both appear only when the
// replication succeeded.
func runHeteroRep(s scenario.Scenario, rep int, records string, extra []engine.Listener, _ bool) (repValues, error) {
	hr, err := heteroRun(s, rep)
	if err != nil {
		return repValues{}, err
	}
	var r HeteroResult
	if records == "" {
		r, err = RunHetero(hr, extra...)
	} else {
		if hr.Platform, err = HeteroPlatform(hr); err != nil {
			return repValues{}, err
		}
		err = atomicfile.Write(records, func(w io.Writer) error {
			jw := metrics.NewJobsCSVMachines(w, hr.Platform)
			if r, err = RunHetero(hr, append(extra, jw)...); err != nil {
				jw.Stop() // before atomicfile removes the file
				return err
			}
			if err := jw.Flush(); err != nil {
				return err
			}
			return atomicfile.Write(strings.TrimSuffix(records, ".csv")+".platform.csv", func(w io.Writer) error {
				return metrics.WritePlatformCSV(w, hr.Platform)
			})
		})
	}
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
