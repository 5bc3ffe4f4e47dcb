package backfill

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/nodecheck"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
)

// nodeRecorder records each job's start, end and allocation in an
// engine run on nodes.
type nodeRecorder struct {
	engine.NopListener
	got map[job.ID]*drivenJob
}

func (r *nodeRecorder) JobStarted(now float64, s engine.Start) {
	// A deep copy: the engine reuses the allocation's storage.
	a := nodes.Allocation{Exclusive: s.Alloc.Exclusive}
	for _, na := range s.Alloc.Nodes {
		na.Cores = slices.Clone(na.Cores)
		var gs []nodes.GRESUnits
		for _, g := range na.GRES {
			gs = append(gs, nodes.GRESUnits{Kind: g.Kind, Units: slices.Clone(g.Units)})
		}
		na.GRES = gs
		a.Nodes = append(a.Nodes, na)
	}
	r.got[s.Job.ID] = &drivenJob{start: now, alloc: a, reason: s.Reason}
}
func (r *nodeRecorder) JobFinished(now float64, rec *engine.Record) { r.got[rec.Job.ID].end = rec.End }
func (r *nodeRecorder) JobKilled(now float64, rec *engine.Record)   { r.got[rec.Job.ID].end = rec.End }

// engineNodes runs pol over the driver's jobs through engine.NodeCluster
// (a job's runtime its dur, its request its limit so that it is never
// cut).
func engineNodes(t testing.TB, ns *nodes.Nodes, pol policy.NodeScheduler, specs []nodeJobSpec) map[job.ID]*drivenJob {
	t.Helper()
	jobs := make([]actual.Job, len(specs))
	for i, j := range specs {
		jobs[i] = actual.Job{ID: j.id, Submit: j.submit, Procs: j.procs, Runtime: j.dur, Request: -1, Estimate: j.est,
			User: j.user, Group: j.group, Partition: j.partition, QOS: j.qo, Req: j.req}
	}
	rec := &nodeRecorder{got: map[job.ID]*drivenJob{}}
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: pol, Source: workload.FromSlice(jobs), Listener: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return rec.got
}

// Through the engine (engine.NodeCluster): on random platforms and
// multi-resource jobs every node policy's schedule is the test
// driver's, job for job and node for node, and validate.CheckNodes
// accepts it.
func TestNodePoliciesThroughEngine(t *testing.T) {
	runs := 60
	if testing.Short() {
		runs = 15
	}
	for seed := 0; seed < runs; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 13))
		ns := randomNodePlatform(t, r)
		jobs := randomNodeJobs(r, ns, 40, seed%2 == 1)
		for _, c := range []struct {
			name   string
			depth  int
			strict bool
		}{{"fcfs", 0, true}, {"firstfit", 0, false}, {"easy", 1, false}, {"conservative", Unlimited, false}} {
			mk := func() *NodePolicy {
				nb, err := NewNodePolicy(NodeConfig{Name: c.name, Nodes: ns, Depth: c.depth, Strict: c.strict, Order: OrderFCFS})
				if err != nil {
					t.Fatal(err)
				}
				return nb
			}
			eng := engineNodes(t, ns, mk(), jobs)
			drv := driveNodes(t, ns, mk(), append([]nodeJobSpec(nil), jobs...))
			for _, j := range jobs {
				e, d := eng[j.id], drv[j.id]
				if e == nil {
					t.Fatalf("seed %d, %s: job %d never started in the engine", seed, c.name, j.id)
				}
				if e.start != d.start || e.end != d.end || allocText(ns, e.alloc) != allocText(ns, d.alloc) || e.reason != d.reason {
					t.Fatalf("seed %d, %s: job %d: engine %g-%g on %s (%v), driver %g-%g on %s (%v)", seed, c.name, j.id,
						e.start, e.end, allocText(ns, e.alloc), e.reason, d.start, d.end, allocText(ns, d.alloc), d.reason)
				}
			}
			if err := validate.CheckNodes(nodecheck.Caps(ns), nodeRecs(ns, jobs, eng)); err != nil {
				t.Fatalf("seed %d, %s: %v", seed, c.name, err)
			}
		}
	}
}
