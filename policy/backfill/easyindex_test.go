//go:build invariants

package backfill

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/internal/testref"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload"
)

// longQueueMix draws a workload whose queue grows to hundreds of jobs and
// drains again: arrivals much faster than the machine serves them, in
// bursts; requests from one CPU to the whole machine, with many narrow
// ones (backfilled deep in the queue, leaving tombstones) and wide ones
// (which block); estimates above, at and (with overrun) below the
// runtimes; zero runtimes; ids sometimes out of submit order; quiet spells
// that empty the queue (the index is turned off and on again).
func longQueueMix(r *rand.Rand, overrun bool) ([]actual.Job, int) {
	procs := 8 + r.IntN(57)
	n := 600 + r.IntN(900)
	var jobs []actual.Job
	t := 0.0
	for i := range n {
		switch {
		case r.IntN(200) == 0:
			t += float64(2000 + r.IntN(4000)) // the queue drains
		case r.IntN(3) == 0:
			t += float64(r.IntN(4))
		}
		var p int
		switch r.IntN(8) {
		case 0:
			p = procs
		case 1, 2, 3:
			p = 1 + r.IntN(max(1, procs/8))
		default:
			p = 1 + r.IntN(procs)
		}
		run := float64(r.IntN(120))
		if r.IntN(10) == 0 {
			run = 0
		}
		est := run
		switch r.IntN(4) {
		case 0:
			est = run + float64(r.IntN(200)) // ends early
		case 1:
			if overrun {
				est = float64(r.IntN(int(run) + 1))
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

// ixMode sets how the fast path keeps its queue index.
type ixMode struct {
	name           string
	never          bool
	minLen, offLen int
}

func runEASYIndexed(t *testing.T, jobs []actual.Job, procs int, order Order, cont bool, m ixMode) easyRun {
	t.Helper()
	pol := newBackfill("easy", procs, 1, order, false)
	pol.hooks.ixNever, pol.hooks.ixMinLen, pol.hooks.ixOffLen = m.never, m.minLen, m.offLen
	var out easyRun
	pol.OnReserve = func(now float64, id job.ID, at float64) {
		out.resv = append(out.resv, fmt.Sprintf("%g:%d@%g", now, id, at))
	}
	out.log, out.pol = runOn(t, pol, jobs, procs, cont).Log(), pol
	return out
}

// On long queues the fast path with its queue index (always on; on and
// off at low thresholds, so it is built, dropped and rebuilt within a run;
// at the default thresholds) gives the schedule of the fast path without
// it and of the generic engine over the profile: the same starts (time,
// reason, CPUs) in the same order and the same OnReserve calls, in FCFS
// and SJF order, with early ends, overruns, zero runtimes and ids out of
// order. And the index really skips entries and leaves tombstones.
func TestEASYIndexLongQueues(t *testing.T) {
	modes := []ixMode{
		{name: "always", minLen: 1, offLen: 1},
		{name: "toggling", minLen: 24, offLen: 6},
		{name: "default"},
	}
	var skips int64
	var longest int
	for seed := uint64(1); seed <= 24; seed++ {
		r := rand.New(rand.NewPCG(seed, 1618))
		overrun := seed%2 == 0
		jobs, procs := longQueueMix(r, overrun)
		for _, order := range []Order{OrderFCFS, OrderSJF} {
			ref := runEASY(t, jobs, procs, order, overrun, true, false, false)
			plain := runEASYIndexed(t, jobs, procs, order, overrun, ixMode{never: true})
			what := fmt.Sprintf("seed %d %s overrun %v", seed, order, overrun)
			sameLines(t, what+" starts (no index)", plain.log, ref.log)
			sameLines(t, what+" reservations (no index)", plain.resv, ref.resv)
			for _, m := range modes {
				fast := runEASYIndexed(t, jobs, procs, order, overrun, m)
				sameLines(t, what+" starts, index "+m.name, fast.log, ref.log)
				sameLines(t, what+" reservations, index "+m.name, fast.resv, ref.resv)
				skips += fast.pol.hooks.ixSkips
			}
			if plain.pol.hooks.ixSkips != 0 {
				t.Fatal("the index skipped entries while off")
			}
		}
		longest = max(longest, queuePeak(jobs))
	}
	if skips < 100000 || longest < 300 {
		t.Fatalf("not exercised: %d entries skipped, longest queue about %d", skips, longest)
	}
	t.Logf("entries skipped: %d; most jobs submitted within 1,000 s: %d", skips, longest)
}

// queuePeak is a rough measure of the queue a workload builds: the most
// jobs submitted within any 1,000 s.
func queuePeak(jobs []actual.Job) int {
	best, lo := 0, 0
	for hi := range jobs {
		for jobs[hi].Submit-jobs[lo].Submit > 1000 {
			lo++
		}
		best = max(best, hi-lo+1)
	}
	return best
}

// Against the naive reference (internal/testref, written independently
// from the rules) too, on a few long-queue workloads: start times and
// start reasons, FCFS and SJF.
func TestEASYIndexMatchesNaive(t *testing.T) {
	for seed := uint64(1); seed <= 4; seed++ {
		r := rand.New(rand.NewPCG(seed, 2024))
		overrun := seed%2 == 0
		jobs, procs := longQueueMix(r, overrun)
		jobs = jobs[:min(len(jobs), 700)]
		naive := make([]testref.Job, len(jobs))
		for i, j := range jobs {
			d := j.Runtime
			if !overrun && j.Request > 0 && d > j.Request {
				d = j.Request
			}
			naive[i] = testref.Job{ID: int64(j.ID), Submit: j.Submit, Duration: d, Estimate: j.Estimate, Procs: j.Procs}
		}
		for _, order := range []Order{OrderFCFS, OrderSJF} {
			var starts []float64
			var reasons []string
			if order == OrderSJF {
				starts, reasons, _ = testref.BackfillSJF(naive, procs, 1)
			} else {
				starts, reasons, _ = testref.BackfillDetailed(naive, procs, 1)
			}
			pol := newBackfill("easy", procs, 1, order, false)
			pol.hooks.ixMinLen, pol.hooks.ixOffLen = 1, 1
			l := &enginetest.Recorder{}
			c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: pol,
				Source: workload.FromSlice(jobs), Listener: l, Continue: overrun})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Run(); err != nil {
				t.Fatal(err)
			}
			for i, j := range jobs {
				if l.At(j.ID) != starts[i] || l.Reason(j.ID).String() != reasons[i] {
					t.Fatalf("seed %d %s overrun %v: job %d starts at %g (%v), naive %g (%s)",
						seed, order, overrun, j.ID, l.At(j.ID), l.Reason(j.ID), starts[i], reasons[i])
				}
			}
			if pol.hooks.ixSkips == 0 {
				t.Fatalf("seed %d %s: the index skipped nothing", seed, order)
			}
		}
	}
}
