package backfill_test

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/internal/testref"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
)

func runFF(t *testing.T, pol policy.QueueScheduler, jobs []actual.Job, procs int, cont bool) *enginetest.Recorder {
	t.Helper()
	l := enginetest.RunCluster(t, platform.MustCluster(procs), pol, jobs, enginetest.Options{Continue: cont})
	return l
}

// A schedule worked by hand on 4 processors, estimates exact:
//
//	job  submit  runtime  procs
//	 1     0       10       3
//	 2     1        5       4
//	 3     2        3       1
//	 4     3        8       1
//
// firstfit: t=0 J1 starts (immediate), 1 CPU free. t=1 J2 needs 4: waits.
// t=2 J3 fits the free CPU: starts, passing J2 (backfilled), ends 5. t=3
// J4: nothing free. t=5 J3 ends, 1 free: J2 no, J4 yes: starts (backfilled),
// ends 13. t=10 J1 ends, 3 free: J2 still does not fit (no reservation
// protects it). t=13 J4 ends: J2 starts (reserved = in queue order after
// waiting), ends 18.
//
// EASY on the same jobs: J2's shadow time is 10 with 0 extra CPUs, so J4
// (ending 5+8 = 13 > 10) may not backfill at 5; J2 starts at 10, J4 at 15.
func TestFirstFitHand(t *testing.T) {
	jobs := []actual.Job{
		{ID: 1, Submit: 0, Runtime: 10, Estimate: 10, Procs: 3},
		{ID: 2, Submit: 1, Runtime: 5, Estimate: 5, Procs: 4},
		{ID: 3, Submit: 2, Runtime: 3, Estimate: 3, Procs: 1},
		{ID: 4, Submit: 3, Runtime: 8, Estimate: 8, Procs: 1},
	}
	ff := runFF(t, backfill.NewFirstFit(backfill.OrderFCFS), jobs, 4, false)
	want := map[job.ID]float64{1: 0, 2: 13, 3: 2, 4: 5}
	wantR := map[job.ID]job.StartReason{1: job.Immediate, 2: job.Reserved, 3: job.Backfilled, 4: job.Backfilled}
	for id, s := range want {
		if ff.At(id) != s || ff.Reason(id) != wantR[id] {
			t.Errorf("firstfit: job %d starts at %g (%v), want %g (%v)", id, ff.At(id), ff.Reason(id), s, wantR[id])
		}
	}
	easy := runFF(t, backfill.NewBackfill("easy", 4, 1, backfill.OrderFCFS), jobs, 4, false)
	for id, s := range map[job.ID]float64{1: 0, 2: 10, 3: 2, 4: 15} {
		if easy.At(id) != s {
			t.Errorf("easy: job %d starts at %g, want %g", id, easy.At(id), s)
		}
	}
}

// Several jobs start in one pass, each in what the ones before it left:
// 5 CPUs, all submitted at 0 with sizes 3, 4, 2, 1, 1 (runtime 1). The
// scan takes J1 (3; 2 left), passes J2 (4), takes J3 (2; 0 left, so the
// scan stops: J3 is backfilled). At t=1 J1 and J3 end, 5 free: J2 (4)
// starts in queue order (reserved), J4 (1) takes the last CPU (reserved:
// nobody ahead of it waits any more), J5 waits for t=2 (reserved).
func TestFirstFitOnePass(t *testing.T) {
	var jobs []actual.Job
	for i, p := range []int{3, 4, 2, 1, 1} {
		jobs = append(jobs, actual.Job{ID: job.ID(i + 1), Submit: 0, Runtime: 1, Estimate: 1, Procs: p})
	}
	got := runFF(t, backfill.NewFirstFit(backfill.OrderFCFS), jobs, 5, false)
	want := map[job.ID]float64{1: 0, 2: 1, 3: 0, 4: 1, 5: 2}
	wantR := map[job.ID]job.StartReason{1: job.Immediate, 2: job.Reserved, 3: job.Backfilled, 4: job.Reserved, 5: job.Reserved}
	for id, s := range want {
		if got.At(id) != s || got.Reason(id) != wantR[id] {
			t.Errorf("job %d starts at %g (%v), want %g (%v)", id, got.At(id), got.Reason(id), s, wantR[id])
		}
	}
}

// The engine's first-fit and the naive one (internal/testref, written from
// the rule's wording) agree job for job, start time and reason, on random
// workloads; and the schedule is greedy: at no instant does a waiting job
// fit the processors left free after the pass.
func TestFirstFitMatchesNaive(t *testing.T) {
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 7))
		overrun := seed%3 == 0
		jobs, procs := randomWorkload(r, overrun)
		got := runFF(t, backfill.NewFirstFit(backfill.OrderFCFS), jobs, procs, overrun)
		nj := toNaive(jobs, overrun)
		starts, reasons := testref.FirstFit(nj, procs)
		for i, j := range jobs {
			if got.At(j.ID) != starts[i] || got.Reason(j.ID).String() != reasons[i] {
				t.Fatalf("seed %d: job %d starts at %g (%v), naive %g (%s)\njobs: %s",
					seed, j.ID, got.At(j.ID), got.Reason(j.ID), starts[i], reasons[i], dump(jobs))
			}
		}
		// Greedy: at every instant (a submit or an end), after the pass,
		// each waiting job needs more CPUs than are free.
		var instants []float64
		for i, j := range nj {
			instants = append(instants, j.Submit, starts[i]+j.Duration)
		}
		for _, at := range instants {
			busy := 0
			for i, j := range nj {
				if starts[i] <= at && (at < starts[i]+j.Duration || (j.Duration == 0 && starts[i] == at)) {
					busy += j.Procs
				}
			}
			for i, j := range nj {
				if j.Submit <= at && at < starts[i] && j.Procs <= procs-busy {
					t.Fatalf("seed %d: at t=%g job %d (%d CPUs) waits with %d CPUs free", seed, at, j.ID, j.Procs, procs-busy)
				}
			}
		}
	}
}
