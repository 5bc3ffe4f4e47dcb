package backfill

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/internal/nodecheck"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
	"github.com/schedlab/schedlab/validate"
)

// randomNodePlatform draws 1-3 groups of 1-4 nodes: 1-8 cores, 1-2
// threads, memory or none, 0-4 GPUs of type a or b, features x/y,
// weights 0-2.
func randomNodePlatform(t *testing.T, r *rand.Rand) *nodes.Nodes {
	return nodestest.RandomPlatform(t, r, nodestest.PlatformDraw{Nodes: 4, Cores: 8, GPUs: 5})
}

// randomNodeRequest draws a request of 1-6 tasks of 1-3 CPUs with node
// bounds, memory, GRES per node or per job, a constraint and exclusive
// now and then (perJob false: never GRES per job).
func randomNodeRequest(r *rand.Rand, perJob bool) nodes.Request {
	return nodestest.RandomRequest(r, nodestest.RequestDraw{Tasks: 6, PerJob: perJob, Constraints: []string{"x", "y", "x&y", "x|y", "(x|y)&x"}})
}

// randomNodeJobs draws n jobs that fit the empty platform, each running
// at most its estimate (some of length 0).
func randomNodeJobs(r *rand.Rand, ns *nodes.Nodes, n int, perJob bool) []nodeJobSpec {
	var out []nodeJobSpec
	t := 0.0
	for len(out) < n {
		q := randomNodeRequest(r, perJob)
		if !nodes.Fits(ns, q) {
			continue
		}
		t += float64(r.IntN(4))
		est := float64(r.IntN(30))
		dur := est
		if r.IntN(3) == 0 {
			dur = float64(r.IntN(int(est) + 1))
		}
		out = append(out, nodeJobSpec{id: job.ID(len(out) + 1), submit: t, est: est, dur: dur, req: &q, procs: q.CPUs()})
	}
	return out
}

func nodeRecs(ns *nodes.Nodes, jobs []nodeJobSpec, got map[job.ID]*drivenJob) []validate.NodeRec {
	var recs []validate.NodeRec
	for _, j := range jobs {
		g := got[j.id]
		recs = append(recs, nodecheck.Rec(ns, int64(j.id), g.start, g.end, *j.req, &g.alloc))
	}
	return recs
}

// Random platforms and multi-resource jobs under every node policy:
// the independent checker (validate.CheckNodes) accepts every schedule,
// and under EASY (order fcfs) a job never starts after the first
// reservation it got, except with GRES per job (docs/nodes.md: the
// selection rule is not monotone for them); the exceptions are counted.
func TestNodePoliciesRandomInvariants(t *testing.T) {
	runs := 150
	if testing.Short() {
		runs = 40
	}
	late := 0
	for seed := 0; seed < runs; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		ns := randomNodePlatform(t, r)
		perJob := seed%2 == 1
		jobs := randomNodeJobs(r, ns, 40, perJob)
		for _, c := range []struct {
			name   string
			depth  int
			strict bool
			order  Order
		}{
			{"fcfs", 0, true, OrderFCFS}, {"firstfit", 0, false, OrderSJF}, {"easy", 1, false, OrderFCFS},
			{"backfill-2", 2, false, OrderFCFS}, {"conservative", Unlimited, false, OrderFCFS}, {"conservative-sjf", Unlimited, false, OrderSJF},
		} {
			nb, err := NewNodePolicy(NodeConfig{Name: c.name, Nodes: ns, Depth: c.depth, Strict: c.strict, Order: c.order})
			if err != nil {
				t.Fatal(err)
			}
			first := map[job.ID]float64{}
			nb.SetOnReserve(func(now float64, id job.ID, at float64) {
				if _, ok := first[id]; !ok {
					first[id] = at
				}
			})
			specs := append([]nodeJobSpec(nil), jobs...)
			got := driveNodes(t, ns, nb, specs)
			if err := validate.CheckNodes(nodecheck.Caps(ns), nodeRecs(ns, specs, got)); err != nil {
				t.Fatalf("seed %d, %s on %s: %v", seed, c.name, ns, err)
			}
			{
				// The profile's quick refusals and the policy's going on
				// from the last pass change nothing.
				plain, _ := NewNodePolicy(NodeConfig{Name: c.name, Nodes: ns, Depth: c.depth, Strict: c.strict, Order: c.order})
				plain.noKeep = true
				plain.prof.DisableShortcuts()
				again := driveNodes(t, ns, plain, append([]nodeJobSpec(nil), jobs...))
				for _, j := range jobs {
					if g, w := got[j.id], again[j.id]; g.start != w.start || allocText(ns, g.alloc) != allocText(ns, w.alloc) {
						t.Fatalf("seed %d, %s: job %d starts %g on %s, without shortcuts %g on %s",
							seed, c.name, j.id, g.start, allocText(ns, g.alloc), w.start, allocText(ns, w.alloc))
					}
				}
			}
			if c.depth <= 1 && c.order != OrderSJF || c.name == "firstfit" {
				// Going on from the last pass decides as trying every entry.
				full, _ := NewNodePolicy(NodeConfig{Name: c.name, Nodes: ns, Depth: c.depth, Strict: c.strict, Order: c.order})
				full.noKeep = true
				again := driveNodes(t, ns, full, append([]nodeJobSpec(nil), jobs...))
				for _, j := range jobs {
					if g, w := got[j.id], again[j.id]; g.start != w.start || allocText(ns, g.alloc) != allocText(ns, w.alloc) {
						t.Fatalf("seed %d, %s: job %d starts %g on %s, trying every entry %g on %s",
							seed, c.name, j.id, g.start, allocText(ns, g.alloc), w.start, allocText(ns, w.alloc))
					}
				}
			}
			if c.name != "easy" {
				continue
			}
			for _, j := range specs {
				if at, ok := first[j.id]; ok && got[j.id].start > at {
					if len(j.req.GRESPerJob) == 0 {
						t.Fatalf("seed %d: EASY: job %d (%s) reserved at %g starts at %g", seed, j.id, j.req, at, got[j.id].start)
					}
					late++
				}
			}
		}
	}
	t.Logf("EASY: %d jobs with GRES per job started after their first reservation", late)
}
