package backfill_test

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/backfill"
)

// literalEASY simulates EASY backfilling over the machines of p written
// literally from docs/papers/klusacek2008.md, the way the authors' Alea does it: one
// start at a time, everything recomputed after each start, from the
// running jobs' estimated ends; no availability profile. With flex set the
// queue is first sorted by Flexible's priority (written out again here),
// the job that holds the reservation first when pinned. It returns each
// job's start and machine. Runtimes must not exceed estimates and be
// positive (no zero-length instants).
func literalEASY(p platform.Platform, jobs []actual.Job, flex *backfill.FlexParams) (map[job.ID]float64, map[job.ID]int) {
	type running struct {
		id     job.ID
		m      int
		procs  int
		end    float64 // actual
		estEnd float64
	}
	starts, machines := map[job.ID]float64{}, map[job.ID]int{}
	free := make([]int, p.Machines())
	for m := range free {
		free[m] = p.Machine(m).CPUs
	}
	can := func(m int, j actual.Job) bool { return backfill.CanHold(p.Machine(m), j.Info()) }
	dur := func(m int, x float64, j actual.Job) float64 { return p.Machine(m).Duration(x, j.BMEst) }
	faster := func(a, b int) bool { return b < 0 || p.Machine(a).BM() > p.Machine(b).BM() }
	var queue []actual.Job
	var run []running
	pinned := job.ID(-1)
	next := 0
	for next < len(jobs) || len(queue) > 0 || len(run) > 0 {
		now := math.Inf(1)
		if next < len(jobs) {
			now = jobs[next].Submit
		}
		for _, r := range run {
			now = min(now, r.end)
		}
		// Completions, then arrivals, then one pass.
		run = slices.DeleteFunc(run, func(r running) bool {
			if r.end == now {
				free[r.m] += r.procs
				return true
			}
			return false
		})
		for next < len(jobs) && jobs[next].Submit == now {
			queue = append(queue, jobs[next])
			next++
		}
		if flex != nil {
			minext := math.Inf(1)
			for _, j := range queue {
				minext = min(minext, j.Estimate)
			}
			prio := map[job.ID]float64{}
			for _, j := range queue {
				fastest := -1
				for m := 0; m < p.Machines(); m++ {
					if can(m, j) && faster(m, fastest) {
						fastest = m
					}
				}
				nx := dur(fastest, j.Estimate, j)
				dl := flex.Min
				if j.Deadline != 0 {
					ext, tj := now+nx, j.Deadline-flex.K*nx
					if ext > tj && ext <= j.Deadline {
						a := (flex.Max - flex.Min) / (j.Deadline - tj)
						dl = a*(ext-tj) + flex.Min
					}
				}
				prio[j.ID] = flex.AgeFactor*(now-j.Submit) + dl + flex.Boost*minext/j.Estimate
			}
			slices.SortStableFunc(queue, func(a, b actual.Job) int {
				if flex.Pin && (a.ID == pinned) != (b.ID == pinned) {
					if a.ID == pinned {
						return -1
					}
					return 1
				}
				switch {
				case prio[a.ID] > prio[b.ID]:
					return -1
				case prio[a.ID] < prio[b.ID]:
					return 1
				case a.Submit != b.Submit:
					return cmp.Compare(a.Submit, b.Submit)
				}
				return cmp.Compare(float64(a.ID), float64(b.ID))
			})
		}
		start := func(i, m int) {
			j := queue[i]
			starts[j.ID], machines[j.ID] = now, m
			free[m] -= j.Procs
			run = append(run, running{j.ID, m, j.Procs, now + dur(m, j.Runtime, j), now + dur(m, j.Estimate, j)})
			queue = slices.Delete(queue, i, i+1)
			if j.ID == pinned {
				pinned = -1
			}
		}
		for len(queue) > 0 {
			h := queue[0]
			best := -1
			for m := 0; m < p.Machines(); m++ {
				if can(m, h) && free[m] >= h.Procs && faster(m, best) {
					best = m
				}
			}
			if best >= 0 {
				start(0, best)
				continue
			}
			// The head's earliest start on each machine, from estimated ends.
			rm, shadow := -1, math.Inf(1)
			for m := 0; m < p.Machines(); m++ {
				if !can(m, h) {
					continue
				}
				var ends []running
				for _, r := range run {
					if r.m == m {
						ends = append(ends, r)
					}
				}
				slices.SortFunc(ends, func(a, b running) int { return cmp.Compare(a.estEnd, b.estEnd) })
				f, est := free[m], now
				for k := 0; f < h.Procs; k++ {
					f += ends[k].procs
					est = max(now, ends[k].estEnd)
				}
				if est < shadow {
					rm, shadow = m, est
				}
			}
			extra := free[rm] - h.Procs
			for _, r := range run {
				if r.m == rm && r.estEnd <= shadow {
					extra += r.procs
				}
			}
			pinned = h.ID
			started := false
			for i := 1; i < len(queue) && !started; i++ {
				j := queue[i]
				best := -1
				for m := 0; m < p.Machines(); m++ {
					if !can(m, j) || free[m] < j.Procs {
						continue
					}
					if m == rm && !(now+dur(m, j.Estimate, j) <= shadow || j.Procs <= extra) {
						continue
					}
					if faster(m, best) {
						best = m
					}
				}
				if best >= 0 {
					start(i, best)
					started = true
				}
			}
			if !started {
				break
			}
		}
	}
	return starts, machines
}

// The engine's EASY and Flexible over several machines (one profile per
// machine, the reservation computed once per pass, backfills counted
// against its extra CPUs) give exactly the schedules of literalEASY
// (Alea's way: one start, then recompute everything) — start times and
// machines — on random platforms and workloads, with jobs ending at or
// before their estimates.
func TestMultiEASYMatchesLiteral(t *testing.T) {
	unpinned := backfill.DefaultFlex()
	unpinned.Pin = false
	def := backfill.DefaultFlex()
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 31))
		p := randomPlatform(r)
		jobs := randomHetero(r, p, seed%2 == 0, false)
		for _, c := range []struct {
			name string
			flex *backfill.FlexParams
		}{{"easy", nil}, {"flexible", &def}, {"flexible unpinned", &unpinned}} {
			name := "easy"
			if c.flex != nil {
				name = "flexible"
			}
			pol, err := declaredMulti(name, p, c.flex)
			if err != nil {
				t.Fatal(err)
			}
			l := runOn(t, p, pol, jobs)
			starts, machines := literalEASY(p, jobs, c.flex)
			for _, j := range jobs {
				if g := l.runs[j.ID]; g.start != starts[j.ID] || g.machine != machines[j.ID] {
					t.Fatalf("seed %d %s: job %d at %g on m%d, literal EASY at %g on m%d\nplatform: %v\njobs: %s",
						seed, c.name, j.ID, g.start, g.machine, starts[j.ID], machines[j.ID], machinesOf(p), dumpHetero(jobs))
				}
			}
		}
	}
}

func machinesOf(p platform.Platform) []platform.Machine {
	var ms []platform.Machine
	for m := 0; m < p.Machines(); m++ {
		ms = append(ms, p.Machine(m))
	}
	return ms
}
