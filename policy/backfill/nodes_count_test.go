package backfill

import (
	"cmp"
	"math"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/job"
)

// countConservative is conservative backfilling on a pool of P CPUs
// planned anew at every pass, as the spec of the node policies plans
// (docs/nodes.md, "Scheduling on nodes"), but over counts: at each
// instant the ends, then the submissions, then one pass in which every
// waiting job, in submit order, starts when its CPUs are free over
// [now, now + estimate) beside the running jobs (a job past its
// estimate holds the instant only), the jobs started and the
// reservations made so far, and else is reserved at the first end of a
// hold at which they are. It is written apart from both policies, to
// tell what the pool's kept reservations change from what the nodes
// change.
func countConservative(jobs []nodeJobSpec, procs int) map[job.ID]float64 {
	type hold struct {
		a, b float64
		c    int
	}
	type run struct {
		id         job.ID
		start, end float64
	}
	span := func(t, d float64) float64 {
		if d > 0 {
			return t + d
		}
		return math.Nextafter(t, math.Inf(1))
	}
	byID := map[job.ID]*nodeJobSpec{}
	order := make([]*nodeJobSpec, len(jobs))
	for i := range jobs {
		order[i] = &jobs[i]
		byID[jobs[i].id] = &jobs[i]
	}
	slices.SortStableFunc(order, func(a, b *nodeJobSpec) int { return cmp.Compare(a.submit, b.submit) })
	var running []run
	var queue []*nodeJobSpec
	out := map[job.ID]float64{}
	next := 0
	for next < len(order) || len(running) > 0 {
		now := math.Inf(1)
		if next < len(order) {
			now = order[next].submit
		}
		for _, r := range running {
			now = min(now, r.end)
		}
		for again := true; again; {
			again = false
			running = slices.DeleteFunc(running, func(r run) bool { return r.end == now })
			for next < len(order) && order[next].submit == now {
				queue = append(queue, order[next])
				next++
			}
			var hs []hold
			for _, r := range running {
				j := byID[r.id]
				b := r.start + j.est
				if b <= now {
					b = span(now, 0)
				}
				hs = append(hs, hold{now, b, j.procs})
			}
			peak := func(x, y float64) int {
				p := 0
				for _, s := range append([]float64{x}, func() []float64 {
					var in []float64
					for _, h := range hs {
						if h.a > x && h.a < y {
							in = append(in, h.a)
						}
					}
					return in
				}()...) {
					u := 0
					for _, h := range hs {
						if h.a <= s && s < h.b {
							u += h.c
						}
					}
					p = max(p, u)
				}
				return p
			}
			var wait []*nodeJobSpec
			for _, j := range queue {
				if peak(now, span(now, j.est))+j.procs <= procs {
					hs = append(hs, hold{now, span(now, j.est), j.procs})
					out[j.id] = now
					running = append(running, run{j.id, now, now + j.dur})
					again = again || j.dur == 0
					continue
				}
				var ts []float64
				for _, h := range hs {
					if h.b > now && !math.IsInf(h.b, 1) {
						ts = append(ts, h.b)
					}
				}
				slices.Sort(ts)
				for _, t := range ts {
					if peak(t, span(t, j.est))+j.procs <= procs {
						hs = append(hs, hold{t, span(t, j.est), j.procs})
						break
					}
				}
				wait = append(wait, j)
			}
			queue = wait
		}
	}
	return out
}

// Conservative on nodes of one core against the CPU pool's
// conservative backfilling and against countConservative, measured
// (logged, not hidden) on the first 3,000 KTH jobs: the pool keeps each
// reservation from pass to pass and only compresses it, where the node
// policy plans every reservation anew at each pass (most of the
// difference: countConservative differs from the pool about as much);
// and a reservation on nodes needs the same nodes free over its whole
// interval, where a count profile needs only enough CPUs at each
// instant. The test fails if the node policy and countConservative
// stop agreeing on most jobs.
func TestNodesConservativeMeasuredOnKTH(t *testing.T) {
	jobs, procs := kthJobs(t, 3000)
	specs := specsOf(jobs)
	ns := mustNodes(t, "n[1-100]:cores=1")
	nb, err := NewNodePolicy(NodeConfig{Name: "conservative", Nodes: ns, Depth: Unlimited, Order: OrderFCFS})
	if err != nil {
		t.Fatal(err)
	}
	got := driveNodes(t, ns, nb, specs)
	pool := poolStarts(t, jobs, procs, NewBackfill("conservative", procs, Unlimited, OrderFCFS))
	counts := countConservative(specs, procs)
	var vsPool, vsCounts, countsVsPool int
	var firstPool, firstCounts job.ID
	for _, j := range jobs {
		g := got[j.ID].start
		if g != pool[j.ID] {
			if vsPool++; vsPool == 1 {
				firstPool = j.ID
				t.Logf("first job differing from the pool: %d (%d CPUs, submit %g, estimate %g): nodes %g, pool %g, counts anew %g",
					j.ID, j.Procs, j.Submit, j.Estimate, g, pool[j.ID], counts[j.ID])
			}
		}
		if g != counts[j.ID] {
			if vsCounts++; vsCounts == 1 {
				firstCounts = j.ID
				t.Logf("first job differing from counts anew: %d: nodes %g, counts anew %g", j.ID, g, counts[j.ID])
			}
		}
		if counts[j.ID] != pool[j.ID] {
			countsVsPool++
		}
	}
	t.Logf("of %d jobs: nodes vs pool %d differ (first %d); nodes vs counts anew %d (first %d); counts anew vs pool %d",
		len(jobs), vsPool, firstPool, vsCounts, firstCounts, countsVsPool)
	if 4*vsCounts > len(jobs) {
		t.Fatalf("nodes and counts planned anew differ on %d of %d jobs", vsCounts, len(jobs))
	}
}
