package backfill

import (
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
)

// kthDiff runs the first n KTH jobs under the CPU-pool policy pool and
// under the node policy nb on nodes of one core (n[1-100]:cores=1) and
// returns the jobs whose start (or start reason) differs, in submit
// order, and the total. Both run through the engine.
func kthDiff(t *testing.T, n int, pool policy.QueueScheduler, nb *NodePolicy) ([]job.ID, int) {
	t.Helper()
	jobs, procs := kthJobs(t, n)
	if procs != 100 {
		t.Fatalf("KTH: %d CPUs, want 100", procs)
	}
	rec := &startRecorder{start: map[job.ID]float64{}, reason: map[job.ID]job.StartReason{}}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: pool,
		Source: workload.FromSlice(jobs), Listener: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	got := engineNodes(t, nb.ns, nb, specsOf(jobs))
	var diff []job.ID
	for _, j := range jobs {
		if got[j.ID].start != rec.start[j.ID] || got[j.ID].reason != rec.reason[j.ID] {
			diff = append(diff, j.ID)
		}
	}
	return diff, len(jobs)
}

// On nodes of one core and nothing else a job's request is its count
// of cores, as on the pool of CPUs: FCFS, first-fit and EASY (with the
// repair) start every job of the KTH trace when the CPU pool's policies
// do (the whole trace; the first 3,000 jobs with -short), with the same
// start reasons.
func TestNodesMatchPoolOnKTH(t *testing.T) {
	ns := mustNodes(t, "n[1-100]:cores=1")
	for _, c := range []struct {
		name  string
		pool  policy.QueueScheduler
		depth int
		order Order
	}{
		{"fcfs", NewFCFS(), -1, OrderFCFS},
		{"firstfit", NewFirstFit(OrderFCFS), 0, OrderFCFS},
		{"easy", NewBackfill("easy", 100, 1, OrderFCFS), 1, OrderFCFS},
		{"easy-sjf", NewBackfill("easy", 100, 1, OrderSJF), 1, OrderSJF},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := NodeConfig{Name: c.name, Nodes: ns, Depth: max(c.depth, 0), Strict: c.depth < 0, Order: c.order}
			nb, err := NewNodePolicy(cfg)
			if err != nil {
				t.Fatal(err)
			}
			n := 0 // the whole trace
			if testing.Short() {
				n = 3000
			}
			diff, n := kthDiff(t, n, c.pool, nb)
			if len(diff) > 0 {
				t.Fatalf("%d of %d jobs start elsewhen than on the CPU pool; first job %d", len(diff), n, diff[0])
			}
		})
	}
}

// The multifactor order on nodes of one core: EASY starts every KTH job
// when the CPU pool's EASY in the same order does (first 3,000 jobs;
// age, fair-share and size weighted).
func TestNodesMultifactorMatchesPoolOnKTH(t *testing.T) {
	ns := mustNodes(t, "n[1-100]:cores=1")
	mf := DefaultMultifactor()
	mf.WeightAge, mf.WeightFairshare, mf.WeightJobSize = 1000, 2000, 500
	pool, err := NewBackfillMultifactor("easy", 100, 1, mf)
	if err != nil {
		t.Fatal(err)
	}
	nb, err := NewNodePolicy(NodeConfig{Name: "easy", Nodes: ns, Depth: 1, Order: OrderMultifactor, MF: &mf})
	if err != nil {
		t.Fatal(err)
	}
	if diff, n := kthDiff(t, 3000, pool, nb); len(diff) > 0 {
		t.Fatalf("%d of %d jobs start elsewhen than on the CPU pool; first job %d", len(diff), n, diff[0])
	}
}
