//go:build invariants

// The tests that need the engine's test hooks (hooks_on.go): each turns a
// fast path off to compare with it, or counts that it was exercised. They
// run with the tag invariants: go test -tags invariants ./policy/backfill/
// (./test and CI do). TestEASYIndexLongQueues and TestEASYIndexMatchesNaive
// (easyindex_test.go) are built with the same tag.

package backfill

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/policy/predict"
)

// easyMix draws a workload for the EASY fast path: widths from one CPU to
// the whole machine, runtimes and estimates of zero, jobs ending early,
// exactly on their estimate and (with overrun) past it, bursts of arrivals
// at one instant, integer times (so ends and arrivals coincide), and
// sometimes ids out of submit order (a job may then go before one already
// tried). Two reservations never coexist in a whole run (jobs submitted at
// one instant all queue before the pass; SJF drops the extra ones):
// TestEasyProfAnswersAsProfile drives that case directly.
func easyMix(r *rand.Rand, overrun bool) ([]actual.Job, int) {
	procs := 1 + r.IntN(32)
	n := 20 + r.IntN(120)
	var jobs []actual.Job
	t := 0.0
	for i := range n {
		if r.IntN(3) == 0 {
			t += float64(r.IntN(15))
		}
		var p int
		switch r.IntN(6) {
		case 0:
			p = procs // the whole machine
		case 1:
			p = 1
		default:
			p = 1 + r.IntN(procs)
		}
		run := float64(r.IntN(60))
		if r.IntN(8) == 0 {
			run = 0
		}
		est := run
		switch r.IntN(4) {
		case 0:
			est = run + float64(r.IntN(80)) // ends early (or exactly)
		case 1:
			if overrun {
				est = float64(r.IntN(int(run) + 1)) // runs past its estimate
			}
		case 2:
			if r.IntN(3) == 0 {
				est = 0 // a zero estimate: overruns unless run is 0 too
				if !overrun {
					run = 0
				}
			}
		}
		jobs = append(jobs, actual.Job{ID: job.ID(i + 1), Submit: t, Procs: p,
			Runtime: run, Estimate: est, Request: est, User: -1, Group: -1})
	}
	if r.IntN(3) == 0 {
		for i, k := range r.Perm(n) {
			jobs[i].ID = job.ID(k + 1)
		}
	}
	return jobs, procs
}

type easyRun struct {
	log  []string // starts: id@time:reason:cpus
	resv []string // OnReserve calls: now:id@at
	pol  *Backfill
}

func runEASY(t *testing.T, jobs []actual.Job, procs int, order Order, cont, withProfile, noShort, noMemo bool) easyRun {
	t.Helper()
	pol := newBackfill("easy", procs, 1, order, withProfile)
	pol.hooks.noShortcut, pol.hooks.noFitMemo = noShort, noMemo
	var out easyRun
	pol.OnReserve = func(now float64, id job.ID, at float64) {
		out.resv = append(out.resv, fmt.Sprintf("%g:%d@%g", now, id, at))
	}
	out.log, out.pol = runOn(t, pol, jobs, procs, cont).Log(), pol
	return out
}

// The fast path of EASY gives the generic engine's schedule: the same
// starts (time, reason, CPUs) in the same order and the same OnReserve
// calls, in FCFS and SJF order, with jobs ending early, exactly on time
// and past their estimates, zero runtimes and estimates, whole-machine
// jobs, simultaneous arrivals and ends; with and without the
// arrivals-only shortcut and the fit memo.
func TestEASYFastPathMatchesProfile(t *testing.T) {
	var overruns, peak, workloads, reserves int
	for seed := uint64(1); seed <= 400; seed++ {
		r := rand.New(rand.NewPCG(seed, 2718))
		overrun := seed%2 == 0
		jobs, procs := easyMix(r, overrun)
		workloads++
		for _, order := range []Order{OrderFCFS, OrderSJF} {
			for _, sw := range [][2]bool{{false, false}, {true, true}} {
				ref := runEASY(t, jobs, procs, order, overrun, true, sw[0], sw[1])
				fast := runEASY(t, jobs, procs, order, overrun, false, sw[0], sw[1])
				_, fastEasy := fast.pol.pl.(*easyPlanner)
				_, refProfile := ref.pol.pl.(*profilePlanner)
				if !fastEasy || !refProfile {
					t.Fatal("the switch does not choose the path")
				}
				what := fmt.Sprintf("seed %d %s overrun %v noShortcut/noMemo %v", seed, order, overrun, sw[0])
				sameLines(t, what+" starts", fast.log, ref.log)
				sameLines(t, what+" reservations", fast.resv, ref.resv)
				overruns += fast.pol.hooks.overPasses
				peak = max(peak, fast.pol.hooks.peakResv)
				reserves += len(fast.resv)
			}
		}
	}
	if overruns < 1000 || reserves < 10000 {
		t.Fatalf("not exercised: %d passes with overrunning jobs, %d reservations made or kept", overruns, reserves)
	}
	t.Logf("%d workloads; passes with overrunning jobs: %d; reservations made or kept: %d; most held at once: %d",
		workloads, overruns, reserves, peak)
}

func runMemo(t *testing.T, jobs []actual.Job, procs, depth int, order Order, cont, off bool) ([]string, *Backfill) {
	t.Helper()
	pol := NewBackfill("test", procs, depth, order)
	pol.hooks.noFitMemo = off
	return runOn(t, pol, jobs, procs, cont).Log(), pol
}

// The memo of requests that did not fit gives the same starts, start
// reasons and CPUs as asking the profile every time, in FCFS and SJF
// order, at depths 1, 2, 5 and unlimited, with jobs ending early, on time
// and past their estimates (reservations lifted and re-placed), ids in
// and out of order; and it is really used.
func TestFitMemoSameSchedule(t *testing.T) {
	var hits int64
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 4242))
		overrun := seed%2 == 0
		jobs, procs := arrivalHeavy(r, overrun)
		for _, order := range []Order{OrderFCFS, OrderSJF} {
			for _, d := range []int{1, 2, 5, Unlimited} {
				plain, _ := runMemo(t, jobs, procs, d, order, overrun, true)
				memo, pol := runMemo(t, jobs, procs, d, order, overrun, false)
				hits += pol.hooks.memoHits
				if len(plain) != len(memo) {
					t.Fatalf("seed %d %s depth %d: %d starts with the memo, %d without", seed, order, d, len(memo), len(plain))
				}
				for i := range plain {
					if plain[i] != memo[i] {
						t.Fatalf("seed %d %s depth %d overrun %v: start %d is %s with the memo, %s without", seed, order, d, overrun, i, memo[i], plain[i])
					}
				}
			}
		}
	}
	if hits < 10000 {
		t.Fatalf("the memo answered only %d times over all runs: not exercised", hits)
	}
	t.Logf("profile walks saved: %d", hits)
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

func runShortcut(t *testing.T, jobs []actual.Job, procs, depth int, cont, off bool) ([]string, *Backfill) {
	t.Helper()
	pol := NewBackfill("test", procs, depth, OrderFCFS)
	pol.hooks.noShortcut = off
	return runOn(t, pol, jobs, procs, cont).Log(), pol
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
			stale += ref.hooks.staleDrops
			if ref.hooks.unguarded > 0 {
				t.Fatalf("seed %d depth %d: %d stale reservations with no overrun seen: step 0's guard is wrong", seed, d, ref.hooks.unguarded)
			}
			skipped += pol.hooks.skipped
			if len(full) != len(fast) {
				t.Fatalf("seed %d depth %d: %d starts with the shortcut, %d without", seed, d, len(fast), len(full))
			}
			for i := range full {
				if full[i] != fast[i] {
					t.Fatalf("seed %d depth %d overrun %v: start %d is %s with the shortcut, %s without", seed, d, overrun, i, fast[i], full[i])
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

// With predictions and corrections (Reestimate at every predicted end),
// conservative and depth-2 backfilling give the same schedule with and
// without the arrivals-only shortcut, on the workloads of
// TestPredictedFastPathMatchesProfile.
func TestPredictedShortcutSameSchedule(t *testing.T) {
	pars := []predict.Params{{}, {Correction: predict.Request}, {Partial: true}}
	for seed := uint64(1); seed <= 250; seed++ {
		r := rand.New(rand.NewPCG(seed, 25))
		jobs, procs := userMix(r)
		cont := seed%4 == 0
		par := pars[seed%3]
		what := fmt.Sprintf("seed %d %s cont %v", seed, par, cont)
		for _, d := range []int{2, Unlimited} {
			full := NewBackfill("test", procs, d, OrderFCFS)
			full.hooks.noShortcut = true
			a := runPredicted(t, full, par, jobs, procs, cont)
			b := runPredicted(t, NewBackfill("test", procs, d, OrderFCFS), par, jobs, procs, cont)
			sameLines(t, fmt.Sprintf("%s depth %d starts", what, d), b.log, a.log)
		}
	}
}

// plainReference turns off, in the reference of
// TestEveryPlannerIsTheProfilePlanner, the fast paths inside the profile
// planner and the driver: the fit memo, the kept memo and the
// arrivals-only shortcut (step 0 then runs at every dirty pass).
func plainReference(b *Backfill) string {
	b.hooks.noShortcut, b.hooks.noFitMemo, b.hooks.noKept = true, true, true
	return "the plain profile planner (no memo, no shortcut)"
}
