package backfill

import (
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// kthDiff runs the first n KTH jobs under the CPU-pool policy pool and
// under the node policy nb on nodes of one core (n[1-100]:cores=1) and
// returns the jobs whose start differs, in submit order, and the total.
func kthDiff(t *testing.T, n int, pool policy.QueueScheduler, nb *NodePolicy) ([]job.ID, int) {
	t.Helper()
	jobs, procs := kthJobs(t, n)
	if procs != 100 {
		t.Fatalf("KTH: %d CPUs, want 100", procs)
	}
	want := poolStarts(t, jobs, procs, pool)
	got := driveNodes(t, nb.ns, nb, specsOf(jobs))
	var diff []job.ID
	for _, j := range jobs {
		if got[j.ID].start != want[j.ID] {
			diff = append(diff, j.ID)
		}
	}
	return diff, len(jobs)
}

// On nodes of one core and nothing else a job's request is its count
// of cores, as on the pool of CPUs: FCFS, first-fit and EASY (with the
// repair) start every job of the KTH trace when the CPU pool's policies
// do (first 3,000 jobs).
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
			diff, n := kthDiff(t, 3000, c.pool, nb)
			if len(diff) > 0 {
				t.Fatalf("%d of %d jobs start elsewhen than on the CPU pool; first job %d", len(diff), n, diff[0])
			}
		})
	}
}
