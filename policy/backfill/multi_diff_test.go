package backfill_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
)

func runPolicy(t *testing.T, p platform.Platform, pol policy.QueueScheduler, jobs []actual.Job, cont bool) *enginetest.Recorder {
	t.Helper()
	l := enginetest.RunCluster(t, p, pol, jobs, enginetest.Options{Continue: cont})
	return l
}

// scaled returns the jobs as they look on a machine of speed s when they
// were measured at speed bm: every time x bm / s (Machine.Duration's
// formula), BM_est left unset.
func scaled(jobs []actual.Job, bm, s float64) []actual.Job {
	out := make([]actual.Job, len(jobs))
	for i, j := range jobs {
		j.Runtime, j.Estimate = j.Runtime*bm/s, j.Estimate*bm/s
		if j.Request > 0 {
			j.Request = j.Request * bm / s
		}
		out[i] = j
	}
	return out
}

// With a platform of ONE machine, the engine over several machines gives
// exactly the schedules (start times and reasons) of the one-machine
// policies that internal/testref and the golden KTH runs pin down: FCFS, and
// backfilling at depths 1 (EASY), 2, 3 and unlimited (conservative) in
// FCFS and SJF order, with and without jobs overrunning their estimates.
// Both machine choices agree (there is one machine). A second platform
// runs the machine at speed 3 with every job measured at BM_est 2: the
// schedule is that of the one-machine policies on the jobs with all times
// scaled by 2/3 — the engine scales estimates exactly as the model scales
// runtimes.
func TestOneMachineIsTheSingleMachineEngine(t *testing.T) {
	type cfg struct {
		depth int
		order backfill.Order
	}
	var cfgs []cfg
	for _, o := range []backfill.Order{backfill.OrderFCFS, backfill.OrderSJF} {
		for _, d := range []int{1, 2, 3, backfill.Unlimited} {
			cfgs = append(cfgs, cfg{d, o})
		}
	}
	for seed := uint64(1); seed <= 150; seed++ {
		r := rand.New(rand.NewPCG(seed, 2026))
		overrun := seed%3 == 0
		jobs, procs := randomWorkload(r, overrun)
		ref := platform.MustCluster(procs)
		at2 := make([]actual.Job, len(jobs))
		for i, j := range jobs {
			j.BMEst = 2
			at2[i] = j
		}
		fast := mustPlatform(t, platform.Machine{CPUs: procs, Speed: 3})
		runs := []struct {
			name string
			p    platform.Platform
			jobs []actual.Job
			want []actual.Job // the one-machine run that must agree
		}{
			{"reference machine", ref, jobs, jobs},
			{"speed 3, BM_est 2", fast, at2, scaled(jobs, 2, 3)},
		}
		for _, run := range runs {
			want := runPolicy(t, ref, backfill.NewFCFS(), run.want, overrun)
			got := runPolicy(t, run.p, backfill.NewFCFSMulti(run.p), run.jobs, overrun)
			same(t, "fcfs "+run.name, seed, jobs, got, want)
			for _, c := range cfgs {
				want := runPolicy(t, ref, backfill.NewBackfill("one", procs, c.depth, c.order), run.want, overrun)
				for _, pick := range []backfill.Pick{backfill.PickFirst, backfill.PickFastest} {
					b, err := backfill.NewBackfillMulti(backfill.MultiConfig{Name: "multi", Platform: run.p, Depth: c.depth, Order: c.order, Pick: pick})
					if err != nil {
						t.Fatal(err)
					}
					got := runPolicy(t, run.p, b, run.jobs, overrun)
					same(t, fmt.Sprintf("backfill %s depth %d order %v pick %v", run.name, c.depth, c.order, pick), seed, jobs, got, want)
				}
			}
		}
	}
}

func same(t *testing.T, what string, seed uint64, jobs []actual.Job, got, want *enginetest.Recorder) {
	t.Helper()
	for _, j := range jobs {
		if got.At(j.ID) != want.At(j.ID) || got.Reason(j.ID) != want.Reason(j.ID) {
			t.Fatalf("%s seed %d: job %d starts at %g (%v), the one-machine policy at %g (%v)\njobs: %s",
				what, seed, j.ID, got.At(j.ID), got.Reason(j.ID), want.At(j.ID), want.Reason(j.ID), dump(jobs))
		}
	}
}
