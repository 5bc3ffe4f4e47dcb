//go:build invariants

package backfill

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
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

// keptView is the machines view of TestKeptMemoDriver: one machine, down
// CPUs, no windows.
type keptView struct {
	p    platform.Platform
	down int
}

func (v *keptView) Platform() platform.Platform             { return v.p }
func (v *keptView) Free(m int) int                          { return 0 }
func (v *keptView) Down(m int) int                          { return v.down }
func (v *keptView) Horizons(m int, dst []float64) []float64 { return dst }

// The kept memo against a query every time, driven pass by pass beside
// the paths the engine runs do not reach: submissions (bursts of
// identical jobs, zero estimates), ends early, on time and late, foreign
// jobs occupying and releasing CPUs (foreign.go), new estimates of
// running jobs (Reestimate: every reservation lifted and placed again),
// down CPUs without windows (PlanAvailability); depths 2, 3, 5 and
// unlimited, FCFS and SJF. After every pass the starts and the queue
// with its reservations must be the same.
func TestKeptMemoDriver(t *testing.T) {
	var spared, replaces, occ, rees, downs int64
	for seed := uint64(1); seed <= 80; seed++ {
		r := rand.New(rand.NewPCG(seed, 4711))
		procs := 2 + r.IntN(40)
		depth := []int{2, 3, 5, Unlimited}[r.IntN(4)]
		order := []Order{OrderFCFS, OrderSJF}[r.IntN(2)]
		av := r.IntN(2) == 0
		foreign := r.IntN(2) == 0
		reest := r.IntN(2) == 0
		pols := []*Backfill{NewBackfill("t", procs, depth, order), NewBackfill("t", procs, depth, order)}
		pols[1].hooks.noKept = true
		if av {
			for _, b := range pols {
				b.PlanAvailability(nil)
			}
		}
		v := &keptView{p: platform.MustCluster(procs)}
		type rj struct {
			end     float64
			procs   int
			foreign bool
		}
		running := map[job.ID]rj{}
		idle := procs
		now := 0.0
		next := job.ID(1)
		nextF := job.ID(1 << 30)
		infos := map[job.ID]job.Info{}
		var plans [2]policy.Plan
		what := fmt.Sprintf("seed %d procs %d depth %d %s av %v foreign %v reest %v", seed, procs, depth, order, av, foreign, reest)
		for step := range 300 {
			if r.IntN(4) != 0 {
				now += float64(r.IntN(10))
			}
			for _, id := range endedBy(running, now, func(j rj) float64 { return j.end }) {
				for _, b := range pols {
					if running[id].foreign {
						b.Release(now, id)
					} else {
						b.Finish(now, id)
					}
				}
				idle += running[id].procs
				delete(running, id)
			}
			// submissions
			for range r.IntN(3) {
				k := 1
				if r.IntN(3) == 0 {
					k = 2 + r.IntN(10)
				}
				est := float64(r.IntN(80))
				if r.IntN(6) == 0 {
					est = 0
				}
				p := 1 + r.IntN(procs)
				if r.IntN(2) == 0 {
					p = 1 + r.IntN(max(1, procs/3))
				}
				for range k {
					j := job.Info{ID: next, Submit: now, Procs: p, Estimate: est, User: -1, Group: -1}
					infos[next] = j
					next++
					for _, b := range pols {
						b.Submit(now, j)
					}
				}
			}
			// foreign occupation
			if foreign && idle > 0 && r.IntN(4) == 0 {
				p := 1 + r.IntN(idle)
				end := now + float64(r.IntN(60))
				if r.IntN(5) == 0 {
					end = now
				}
				occ++
				for _, b := range pols {
					b.Occupy(now, nextF, p, end)
				}
				trueEnd := end + float64(r.IntN(30)) - 10
				running[nextF] = rj{end: max(trueEnd, now+1), procs: p, foreign: true}
				idle -= p
				nextF++
			}
			if reest {
				var live []job.ID
				for id, j := range running {
					if !j.foreign {
						live = append(live, id)
					}
				}
				slices.Sort(live)
				for _, id := range live {
					if r.IntN(4) != 0 {
						continue
					}
					est := float64(r.IntN(120))
					rees++
					for _, b := range pols {
						b.Reestimate(now, id, est)
					}
				}
			}
			v.down = 0
			if av && idle > 0 && r.IntN(3) == 0 {
				v.down = 1 + r.IntN(idle)
				downs++
			}
			for i, b := range pols {
				plans[i].Reset()
				b.Schedule(now, v, &plans[i])
			}
			if a, b := fmt.Sprint(plans[0].Starts), fmt.Sprint(plans[1].Starts); a != b {
				t.Fatalf("%s step %d t=%g: memo starts %s, query %s", what, step, now, a, b)
			}
			if a, b := fmt.Sprint(pols[0].Queue()), fmt.Sprint(pols[1].Queue()); a != b {
				t.Fatalf("%s step %d t=%g: memo leaves %s, query %s", what, step, now, a, b)
			}
			for _, s := range plans[0].Starts {
				j := infos[s.ID]
				idle -= j.Procs
				end := now + j.Estimate
				switch r.IntN(3) {
				case 0:
					end = now + float64(r.IntN(int(j.Estimate)+1))
				case 1:
					end = now + j.Estimate + float64(r.IntN(20))
				}
				running[s.ID] = rj{end: end, procs: j.Procs}
			}
		}
		spared += pols[0].spared
		replaces += pols[1].replaces
	}
	if spared < replaces/50 || occ < 1000 || rees < 1000 || downs < 1000 {
		t.Fatalf("not exercised: %d of %d re-placements spared; %d occupations, %d new estimates, %d passes with down CPUs", spared, replaces, occ, rees, downs)
	}
	t.Logf("spared %d of %d; occupations %d; reestimates %d; passes with down CPUs %d", spared, replaces, occ, rees, downs)
}
