package backfill

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload"
)

type starts struct {
	engine.NopListener
	log []string
}

func (s *starts) JobStarted(now float64, st engine.Start) {
	s.log = append(s.log, fmt.Sprintf("%d@%g:%v:%v", st.Job.ID, now, st.Reason, st.CPUs))
}

// arrivalHeavy draws a workload where many jobs arrive between
// completions: long estimates (reservations far ahead), bursts of
// arrivals at the same or nearby instants, early ends, exact ends and
// (with overrun) jobs running past their estimates.
func arrivalHeavy(r *rand.Rand, overrun bool) ([]actual.Job, int) {
	procs := 4 + r.IntN(29)
	n := 50 + r.IntN(150)
	var jobs []actual.Job
	t := 0.0
	for i := range n {
		if r.IntN(4) == 0 {
			t += float64(r.IntN(20))
		}
		run := float64(1 + r.IntN(200))
		est := run
		switch r.IntN(3) {
		case 0:
			est = run + float64(r.IntN(300)) // ends early
		case 1:
			if overrun {
				est = float64(1 + r.IntN(int(run)))
			}
		}
		jobs = append(jobs, actual.Job{ID: job.ID(i + 1), Submit: t, Procs: 1 + r.IntN(procs),
			Runtime: run, Estimate: est, Request: est, User: -1, Group: -1})
	}
	if r.IntN(2) == 0 {
		// Ids out of order: a job may arrive after one of the same submit
		// time and a larger id, and go before it in the queue.
		for i, k := range r.Perm(n) {
			jobs[i].ID = job.ID(k + 1)
		}
	}
	return jobs, procs
}

func runShortcut(t *testing.T, jobs []actual.Job, procs, depth int, cont, off bool) (*starts, *Backfill) {
	t.Helper()
	pol := NewBackfill("test", procs, depth, OrderFCFS)
	pol.noShortcut = off
	return runOn(t, pol, jobs, procs, cont), pol
}

// runOn runs pol over jobs on one machine of procs processors (cont: jobs
// may run past their estimates) and returns its starts.
func runOn(t *testing.T, pol *Backfill, jobs []actual.Job, procs int, cont bool) *starts {
	t.Helper()
	l := &starts{}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: pol,
		Source: workload.FromSlice(jobs), Listener: l, Continue: cont})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return l
}

// The arrivals-only shortcut (skip the entries the last pass tried when
// only arrivals happened since) gives the same starts, start reasons and
// CPUs as the full loop, at depths 1, 2, 5 and unlimited, with jobs ending
// early, on time and past their estimates, ids in and out of order; and
// it is really taken. (Two of its conditions are implied by the others
// and kept as safeguards that no workload can exercise: every held
// reservation starts after now - a reservation starts at the end of a
// running job or of another reservation - and no job was inserted before
// a tried one - under FCFS only jobs of the same submit time, which
// arrive at the same instant, can pass one another.)
func TestArrivalsOnlyShortcutSameSchedule(t *testing.T) {
	var skipped, stale int64
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 1313))
		overrun := seed%2 == 0
		jobs, procs := arrivalHeavy(r, overrun)
		for _, d := range []int{1, 2, 5, Unlimited} {
			full, ref := runShortcut(t, jobs, procs, d, overrun, true)
			fast, pol := runShortcut(t, jobs, procs, d, overrun, false)
			stale += ref.staleDrops
			if ref.unguarded > 0 {
				t.Fatalf("seed %d depth %d: %d stale reservations with no overrun seen: step 0's guard is wrong", seed, d, ref.unguarded)
			}
			skipped += pol.skipped
			if len(full.log) != len(fast.log) {
				t.Fatalf("seed %d depth %d: %d starts with the shortcut, %d without", seed, d, len(fast.log), len(full.log))
			}
			for i := range full.log {
				if full.log[i] != fast.log[i] {
					t.Fatalf("seed %d depth %d overrun %v: start %d is %s with the shortcut, %s without", seed, d, overrun, i, fast.log[i], full.log[i])
				}
			}
		}
	}
	if stale < 100 {
		t.Fatalf("only %d stale reservations were dropped over all runs: step 0's guard not exercised", stale)
	}
	if skipped < 10000 {
		t.Fatalf("the shortcut skipped only %d entries over all runs: not exercised", skipped)
	}
	t.Logf("entries skipped: %d; stale reservations dropped: %d", skipped, stale)
}
