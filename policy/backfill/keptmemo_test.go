//go:build invariants

package backfill

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

func TestKeptMemoUnit(t *testing.T) {
	var k keptMemo
	if k.holds(1, 0, 0) {
		t.Fatal("an empty memo holds")
	}
	k.set(4, 10, 100)
	for _, c := range []struct {
		procs int
		d, s  float64
		want  bool
	}{
		{4, 10, 100, true}, {5, 10, 100, true}, {4, 11, 100, true}, {64, 1e9, 100, true},
		{3, 10, 100, false}, {4, 9, 100, false}, {4, 10, 99, false}, {4, 10, 101, false},
	} {
		if got := k.holds(c.procs, c.d, c.s); got != c.want {
			t.Errorf("after set(4, 10, 100): holds(%d, %g, %g) = %v, want %v", c.procs, c.d, c.s, got, c.want)
		}
	}
	k.freed(100) // freed from its start on: before it nothing changed
	if !k.holds(4, 10, 100) {
		t.Fatal("freed(100) lifted a memo at 100")
	}
	k.freed(99.5)
	if k.holds(4, 10, 100) {
		t.Fatal("freed(99.5) kept a memo at 100")
	}
	k.set(1, 0, 5)
	k.reset()
	if k.holds(1, 0, 5) {
		t.Fatal("reset kept the memo")
	}
}

// arrays draws a workload of job arrays: bursts of identical jobs (same
// CPUs, runtime and estimate) submitted together, so that reservations
// sit side by side at one start, as on RICC-2010, mixed with single jobs;
// early ends (re-placement passes), exact ends and (with overrun) jobs
// past their estimates.
func arrays(r *rand.Rand, overrun bool) ([]actual.Job, int) {
	procs := 8 + r.IntN(57)
	var jobs []actual.Job
	t := 0.0
	for len(jobs) < 150+r.IntN(150) {
		t += float64(r.IntN(30))
		n := 1
		if r.IntN(2) == 0 {
			n = 2 + r.IntN(12)
		}
		p := 1 + r.IntN(procs/2)
		if r.IntN(8) == 0 {
			p = procs/2 + r.IntN(procs/2+1)
		}
		est := float64(10 + r.IntN(300))
		for range n {
			run := est
			switch r.IntN(3) {
			case 0:
				run = float64(r.IntN(int(est))) // ends early
			case 1:
				if overrun {
					run = est + float64(r.IntN(50))
				}
			}
			jobs = append(jobs, actual.Job{ID: job.ID(len(jobs) + 1), Submit: t, Procs: p,
				Runtime: run, Estimate: est, Request: est, User: -1, Group: -1})
		}
	}
	return jobs, procs
}

func runKept(t *testing.T, jobs []actual.Job, procs, depth int, order Order, cont, off bool) (starts, resv []string, pol *Backfill) {
	t.Helper()
	pol = NewBackfill("test", procs, depth, order)
	pol.hooks.noKept = off
	pol.OnReserve = func(now float64, id job.ID, at float64) {
		resv = append(resv, fmt.Sprintf("%g:%d@%g", now, id, at))
	}
	return runOn(t, pol, jobs, procs, cont).Log(), resv, pol
}

// The kept memo gives the schedule of asking Replace every time: the same
// starts (time, reason, CPUs) and the same reservations made or kept in
// every pass, in FCFS and SJF order at depths 2, 5 and unlimited, on job
// arrays and on the arrival-heavy mix, with early ends, exact ends and
// overruns; and it really answers (the queries it saves are counted).
func TestKeptMemoSameSchedule(t *testing.T) {
	var hits, queries int64
	for seed := uint64(1); seed <= 100; seed++ {
		r := rand.New(rand.NewPCG(seed, 9191))
		overrun := seed%2 == 0
		var jobs []actual.Job
		var procs int
		if seed%3 == 0 {
			jobs, procs = arrivalHeavy(r, overrun)
		} else {
			jobs, procs = arrays(r, overrun)
		}
		for _, order := range []Order{OrderFCFS, OrderSJF} {
			for _, d := range []int{2, 5, Unlimited} {
				what := fmt.Sprintf("seed %d %s depth %d overrun %v", seed, order, d, overrun)
				refStarts, refResv, ref := runKept(t, jobs, procs, d, order, overrun, true)
				starts, resv, pol := runKept(t, jobs, procs, d, order, overrun, false)
				sameLines(t, what+" starts", starts, refStarts)
				sameLines(t, what+" reservations", resv, refResv)
				if ref.spared != 0 {
					t.Fatal("the switch does not turn the memo off")
				}
				hits += pol.spared
				queries += ref.replaces
			}
		}
	}
	if hits < queries/20 { // about 7% on these workloads
		t.Fatalf("the memo answered %d of %d re-placement queries: not exercised", hits, queries)
	}
	t.Logf("re-placement queries: %d; answered by the memo: %d", queries, hits)
}
