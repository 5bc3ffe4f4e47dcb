package backfill_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/internal/testref"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/backfill"
)

// randomWorkload draws n jobs on a machine of procs processors. Times are
// integers, so ties (same-instant batching) are frequent. With overrun,
// some jobs run longer than their estimate (and are not killed).
func randomWorkload(r *rand.Rand, overrun bool) ([]actual.Job, int) {
	procs := 2 + r.IntN(15)
	n := 10 + r.IntN(50)
	var jobs []actual.Job
	t := 0.0
	for i := 0; i < n; i++ {
		t += float64(r.IntN(6))
		run := float64(r.IntN(40))
		est := run + float64(r.IntN(30))
		if r.IntN(4) == 0 {
			est = run // exact
		}
		if overrun && r.IntN(3) == 0 {
			est = float64(r.IntN(int(run) + 1))
		}
		jobs = append(jobs, actual.Job{ID: job.ID(i + 1), Submit: t, Procs: 1 + r.IntN(procs),
			Runtime: run, Estimate: est, Request: est, User: -1, Group: -1})
	}
	return jobs, procs
}

func runEngine(t *testing.T, jobs []actual.Job, procs, depth int, cont bool) *enginetest.Recorder {
	return runEngineOrder(t, jobs, procs, depth, cont, backfill.OrderFCFS)
}

func runEngineOrder(t *testing.T, jobs []actual.Job, procs, depth int, cont bool, order backfill.Order) *enginetest.Recorder {
	t.Helper()
	pol := backfill.NewBackfill("test", procs, depth, order)
	l := enginetest.RunCluster(t, platform.MustCluster(procs), pol, jobs, enginetest.Options{Continue: cont})
	return l
}

func toNaive(jobs []actual.Job, cont bool) []testref.Job {
	out := make([]testref.Job, len(jobs))
	for i, j := range jobs {
		d := j.Runtime
		if !cont && j.Request > 0 && d > j.Request {
			d = j.Request
		}
		out[i] = testref.Job{ID: int64(j.ID), Submit: j.Submit, Duration: d, Estimate: j.Estimate, Procs: j.Procs}
	}
	return out
}

// The profile-based engine and the deliberately naive implementation
// (internal/testref, written independently from the same rules) give
// identical schedules — start times and start reasons — at every depth,
// with and without jobs overrunning their estimates.
func TestBackfillMatchesNaive(t *testing.T) {
	depths := []int{1, 2, 3, backfill.Unlimited}
	for seed := uint64(1); seed <= 400; seed++ {
		r := rand.New(rand.NewPCG(seed, 99))
		overrun := seed%3 == 0
		jobs, procs := randomWorkload(r, overrun)
		for _, d := range depths {
			got := runEngine(t, jobs, procs, d, overrun)
			starts, reasons, _ := testref.BackfillDetailed(toNaive(jobs, overrun), procs, d)
			for i, j := range jobs {
				if got.At(j.ID) != starts[i] || got.Reason(j.ID).String() != reasons[i] {
					t.Fatalf("seed %d depth %d overrun %v: job %d starts at %g (%v), naive %g (%s)\njobs: %s",
						seed, d, overrun, j.ID, got.At(j.ID), got.Reason(j.ID), starts[i], reasons[i], dump(jobs))
				}
			}
		}
		// EASY written literally from the shadow/extra rule agrees too.
		got := runEngine(t, jobs, procs, 1, overrun)
		for i, s := range testref.EASY(toNaive(jobs, overrun), procs) {
			if got.At(jobs[i].ID) != s {
				t.Fatalf("seed %d: EASY job %d at %g, literal EASY %g", seed, jobs[i].ID, got.At(jobs[i].ID), s)
			}
		}
		// And strict FCFS.
		pol := backfill.NewFCFS()
		l := enginetest.RunCluster(t, platform.MustCluster(procs), pol, jobs, enginetest.Options{Continue: overrun})
		for i, s := range testref.FCFS(toNaive(jobs, overrun), procs) {
			if l.At(jobs[i].ID) != s {
				t.Fatalf("seed %d: FCFS job %d at %g, naive %g", seed, jobs[i].ID, l.At(jobs[i].ID), s)
			}
		}
	}
}

// The same under shortest-estimate-first order, where a new short job can
// move ahead of reserved ones (and, with a finite depth, take the head's
// reservation): the fast path and the reservation drop of step 1 are
// exercised against the naive reference.
func TestBackfillSJFMatchesNaive(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 4242))
		overrun := seed%3 == 0
		jobs, procs := randomWorkload(r, overrun)
		for _, d := range []int{1, 2, backfill.Unlimited} {
			got := runEngineOrder(t, jobs, procs, d, overrun, backfill.OrderSJF)
			starts, reasons, _ := testref.BackfillSJF(toNaive(jobs, overrun), procs, d)
			for i, j := range jobs {
				if got.At(j.ID) != starts[i] || got.Reason(j.ID).String() != reasons[i] {
					t.Fatalf("SJF seed %d depth %d overrun %v: job %d starts at %g (%v), naive %g (%s)\njobs: %s",
						seed, d, overrun, j.ID, got.At(j.ID), got.Reason(j.ID), starts[i], reasons[i], dump(jobs))
				}
			}
		}
	}
}

func dump(jobs []actual.Job) string {
	s := ""
	for _, j := range jobs {
		s += fmt.Sprintf("\n  id %d submit %g procs %d run %g est %g", j.ID, j.Submit, j.Procs, j.Runtime, j.Estimate)
	}
	return s
}
