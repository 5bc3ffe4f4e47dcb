package experiment

import (
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload/synth"
)

// firstFit is a minimal strict-FCFS policy over machines (the head goes to
// the first machine in index order with enough free CPUs), enough to drive
// RunHetero in tests without depending on the real policies.
type firstFit struct{ q []job.Info }

func (f *firstFit) Name() string                   { return "first-fit" }
func (f *firstFit) Submit(now float64, j job.Info) { f.q = append(f.q, j) }
func (f *firstFit) Finish(float64, job.ID)         {}
func (f *firstFit) Schedule(now float64, v policy.Machines, p *policy.Plan) {
	free := make([]int, v.Platform().Machines())
	for m := range free {
		free[m] = v.Free(m)
	}
	for len(f.q) > 0 {
		placed := false
		for m := range free {
			if free[m] >= f.q[0].Procs {
				free[m] -= f.q[0].Procs
				r := job.Reserved
				if now == f.q[0].Submit {
					r = job.Immediate
				}
				p.StartOn(f.q[0].ID, r, m)
				f.q, placed = f.q[1:], true
				break
			}
		}
		if !placed {
			return
		}
	}
}

func heteroSmall(ia float64) HeteroRun {
	jobs := synth.PaperJobs(ia)
	jobs.Jobs = 500
	return HeteroRun{Machines: synth.MachineOptions{N: 20, CPUsMin: 8, CPUsMax: 16, SpeedMin: 200, SpeedMax: 600}, Jobs: jobs, Seed: 7,
		Policy: func(platform.Platform, uint64, int) (policy.QueueScheduler, error) { return &firstFit{}, nil }}
}

// More load, more missed deadlines; results are deterministic; every job
// ends; the usage and the missed percentages are proportions.
func TestRunHetero(t *testing.T) {
	light, err := RunHetero(heteroSmall(40))
	if err != nil {
		t.Fatal(err)
	}
	heavy, err := RunHetero(heteroSmall(2))
	if err != nil {
		t.Fatal(err)
	}
	again, _ := RunHetero(heteroSmall(2))
	heavy.DecisionSeconds, again.DecisionSeconds = 0, 0
	if heavy != again {
		t.Fatalf("not deterministic:\n%+v\n%+v", heavy, again)
	}
	if light.Jobs != 500 || heavy.Jobs != 500 {
		t.Fatalf("jobs %d, %d", light.Jobs, heavy.Jobs)
	}
	if !(heavy.MissedPct > light.MissedPct) || !(heavy.OfferedLoad > light.OfferedLoad) {
		t.Fatalf("light %+v\nheavy %+v", light, heavy)
	}
	for _, r := range []HeteroResult{light, heavy} {
		if r.Usage <= 0 || r.Usage > 1 || r.MissedPct > r.MissedOfDeadlinePct || r.Slowdown < 1 || r.Events != 1000 {
			t.Fatalf("%+v", r)
		}
	}
}
