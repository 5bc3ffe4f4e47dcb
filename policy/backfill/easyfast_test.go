package backfill

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/freeprofile"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
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
	pol.noShortcut, pol.noFitMemo = noShort, noMemo
	var out easyRun
	pol.OnReserve = func(now float64, id job.ID, at float64) {
		out.resv = append(out.resv, fmt.Sprintf("%g:%d@%g", now, id, at))
	}
	out.log, out.pol = runOn(t, pol, jobs, procs, cont).log, pol
	return out
}

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d lines with the fast path, %d with the profile", what, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: line %d is %s with the fast path, %s with the profile", what, i, got[i], want[i])
		}
	}
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
				if fast.pol.ez == nil || ref.pol.ez != nil || ref.pol.profs == nil || fast.pol.profs != nil {
					t.Fatal("the switch does not choose the path")
				}
				what := fmt.Sprintf("seed %d %s overrun %v noShortcut/noMemo %v", seed, order, overrun, sw[0])
				sameLines(t, what+" starts", fast.log, ref.log)
				sameLines(t, what+" reservations", fast.resv, ref.resv)
				overruns += fast.pol.ez.overPasses
				peak = max(peak, fast.pol.ez.peakResv)
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

// easyProf answers as the profile does, on random sequences of starts,
// early completions, reservations (several at once, some in the past),
// their removal, overrunning processors at the current instant and time
// advancing: FreeAt(now), Fits(now, p, d), Earliest(now, p, d) and
// Replace(now, p, d, s0) for a reservation held.
func TestEasyProfAnswersAsProfile(t *testing.T) {
	var several, replaces, withOver, stale int
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 31))
		total := 1 + r.IntN(20)
		z := newEasyProf(total)
		p := freeprofile.New(total, math.Inf(-1))
		type runJob struct {
			end   float64
			procs int
		}
		type res struct {
			s, e, d float64
			procs   int
		}
		running := map[job.ID]runJob{}
		resvs := map[job.ID]res{}
		now := 0.0
		p.Advance(now)
		z.advance(now)
		next := job.ID(1)
		dur := func() float64 {
			switch r.IntN(5) {
			case 0:
				return 0
			case 1:
				return float64(r.IntN(4)) + 0.5
			}
			return float64(r.IntN(30))
		}
		for step := range 400 {
			if r.IntN(4) == 0 {
				now += float64(r.IntN(6))
				p.Advance(now)
				z.advance(now)
				for id, j := range running {
					if j.end <= now {
						delete(running, id) // ended or overran
					}
				}
			}
			over := 0
			if r.IntN(5) == 0 {
				over = 1 + r.IntN(total)
				p.Alloc(now, freeprofile.Span(now, 0), over)
				z.over = over
			}
			switch r.IntN(6) {
			case 0, 1: // start
				d, procs := dur(), 1+r.IntN(total)
				end := freeprofile.Span(now, d)
				p.Alloc(now, end, procs)
				z.start(end, next, procs)
				running[next] = runJob{end, procs}
				next++
			case 2: // early completion
				for id, j := range running {
					p.Release(now, j.end, j.procs)
					z.finishEarly(j.end, id, j.procs)
					delete(running, id)
					break
				}
			case 3: // reserve
				if len(resvs) < 3 {
					s := now + float64(1+r.IntN(20))
					d, procs := dur(), 1+r.IntN(total)
					e := freeprofile.Span(s, d)
					p.Alloc(s, e, procs)
					z.reserve(next, s, e, procs)
					resvs[next] = res{s, e, d, procs}
					next++
				}
			case 4: // lift
				for id, v := range resvs {
					p.Release(v.s, v.e, v.procs)
					z.unreserve(id)
					delete(resvs, id)
					break
				}
			}
			if len(resvs) >= 2 {
				several++
			}
			if over > 0 {
				withOver++
			}
			for _, v := range resvs {
				if v.s < now {
					stale++
				}
			}
			if got, want := z.freeNow(), p.FreeAt(now); got != want {
				t.Fatalf("seed %d step %d: freeNow %d, profile %d (%s)", seed, step, got, want, p)
			}
			for range 5 {
				procs, d := 1+r.IntN(total), dur()
				if got, want := z.fits(procs, d), p.Fits(now, procs, d); got != want {
					t.Fatalf("seed %d step %d: fits(%d, %g) %v, profile %v (%s)", seed, step, procs, d, got, want, p)
				}
				if got, want := z.earliest(procs, d, math.Inf(1)), p.Earliest(now, procs, d); got != want {
					t.Fatalf("seed %d step %d: earliest(%d, %g) %v, profile %v (%s)", seed, step, procs, d, got, want, p)
				}
			}
			for _, v := range resvs {
				if v.s <= now {
					continue // Replace is asked only of reservations ahead
				}
				d := v.d
				replaces++
				if got, want := z.earliest(v.procs, d, v.s), p.Replace(now, v.procs, d, v.s); got != want {
					t.Fatalf("seed %d step %d: replace(%d, %g, %g) %v, profile %v (%s)", seed, step, v.procs, d, v.s, got, want, p)
				}
			}
			if over > 0 {
				p.Release(now, freeprofile.Span(now, 0), over)
				z.over = 0
			}
		}
	}
	if several < 10000 || replaces < 10000 || withOver < 10000 || stale < 1000 {
		t.Fatalf("not exercised: %d steps with several reservations, %d Replace asked, %d steps with overrunning CPUs, %d stale reservations",
			several, replaces, withOver, stale)
	}
	t.Logf("%d steps with several reservations, %d Replace asked, %d steps with overrunning CPUs, %d stale reservations", several, replaces, withOver, stale)
}
