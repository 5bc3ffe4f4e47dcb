package backfill_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/predict"
)

// EASY, conservative and Flexible backfilling over machines of different
// sizes and speeds take corrected predictions: on random workloads every
// run ends with every job started once and run for its runtime (or its
// request) at its machine's speed - the model validates each start:
// machine able to hold the job, CPUs free - and jobs are corrected.
func TestMultiMachinePredicted(t *testing.T) {
	var corrections int64
	for seed := uint64(1); seed <= 60; seed++ {
		r := rand.New(rand.NewPCG(seed, 2525))
		p := mustPlatform(t, platform.Machine{CPUs: 4 + r.IntN(8), Speed: 1}, platform.Machine{CPUs: 2 + r.IntN(8), Speed: 2},
			platform.Machine{CPUs: 1 + r.IntN(4), Speed: 1.5})
		var jobs []actual.Job
		t0 := 0.0
		for i := range 80 {
			t0 += float64(r.IntN(20))
			run := float64(1 + r.IntN(300))
			req := run + float64(r.IntN(600))
			if r.IntN(5) == 0 {
				req = run / 2
			}
			jobs = append(jobs, actual.Job{ID: job.ID(i + 1), Submit: t0, Procs: 1 + r.IntN(4), Runtime: run, Estimate: req,
				Request: req, User: int32(r.IntN(3)), Group: -1, BMEst: 1})
		}
		for _, c := range []backfill.MultiConfig{
			{Name: "easy", Platform: p, Depth: 1, Pick: backfill.PickFastest},
			{Name: "conservative", Platform: p, Depth: backfill.Unlimited},
			{Name: "flexible", Platform: p, Depth: 1, Order: backfill.OrderPriority, Pick: backfill.PickFastest},
		} {
			b, err := backfill.NewBackfillMulti(c)
			if err != nil {
				t.Fatal(err)
			}
			pr := predict.New(b, predict.Params{})
			l := runOn(t, p, pr, jobs)
			if len(l.order) != len(jobs) {
				t.Fatalf("seed %d %s: %d of %d jobs started", seed, c.Name, len(l.order), len(jobs))
			}
			for _, j := range jobs {
				x := l.runs[j.ID]
				d := p.Machine(x.machine).Duration(min(j.Runtime, j.Request), 1)
				if math.Abs(x.end-x.start-d) > 1e-9*d {
					t.Fatalf("seed %d %s: job %d ran %g, want %g", seed, c.Name, j.ID, x.end-x.start, d)
				}
			}
			corrections += pr.Corrections()
		}
	}
	if corrections < 500 {
		t.Fatalf("only %d corrections", corrections)
	}
	t.Logf("%d corrections", corrections)
}
