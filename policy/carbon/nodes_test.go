package carbon_test

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/carbon"
	"github.com/schedlab/schedlab/workload"
)

type nodeStarts struct {
	engine.NopListener
	start map[job.ID]float64
	nodes map[job.ID]int
}

func (r *nodeStarts) JobStarted(now float64, s engine.Start) {
	r.start[s.Job.ID] = now
	r.nodes[s.Job.ID] = len(s.Alloc.Nodes)
}

// The delay over EASY on 2 nodes of 4 cores (n1, n2). The intensity:
// 300 over [0, 100), 50 over [100, 200), 400 from 200; MaxDelay 150,
// every job deferrable.
//
//	job submit tasks run est  window      lowest       release
//	1   0      8     10  10   [0, 150]    50 at 100    100
//	4   50     4     100 100  [50, 200]   50 at 100    100
//	2   150    4     20  20   [150, 300]  50 at 150    150, not held
//	3   210    4     10  10   [210, 360]  400 at 210   210, not held
//
// At 100 both are released, 1 then 4 ((release, id) order); EASY's
// queue is in submit order: 1 starts on both nodes [100, 110), 4 waits
// for it and starts at 110 on n1 [110, 210). 2 starts at 150 on n2;
// 3 at 210 on n1 (4 ends then: ends come first). Held: 1 100 s, 4 50 s.
func TestNodeDelayByHand(t *testing.T) {
	sig := mustSignal(t, []float64{0, 100, 200}, []float64{300, 50, 400}, 0)
	ns := *nodestest.Must(t, "n[1-2]:cores=4")
	mk := func(id int, submit float64, procs int, run, est float64) actual.Job {
		return actual.Job{ID: job.ID(id), Submit: submit, Procs: procs, Runtime: run, Request: est, Estimate: est, User: -1, Group: -1}
	}
	jobs := []actual.Job{mk(1, 0, 8, 10, 10), mk(4, 50, 4, 100, 100), mk(2, 150, 4, 20, 20), mk(3, 210, 4, 10, 10)}
	easy, err := backfill.NewNodePolicy(backfill.NodeConfig{Name: "easy", Nodes: &ns, Depth: 1, Order: backfill.OrderFCFS})
	if err != nil {
		t.Fatal(err)
	}
	d := carbon.NewNodes(easy, sig, carbon.Params{MaxDelay: 150})
	var released []string
	d.OnRelease = func(now float64, id job.ID, submit float64) {
		released = append(released, strings.Join([]string{itoa(int(id)), ftoa(submit), ftoa(now)}, ":"))
	}
	rec := &nodeStarts{start: map[job.ID]float64{}, nodes: map[job.ID]int{}}
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: &ns, Policy: d, Source: workload.FromSlice(jobs), Listener: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	want := map[job.ID]float64{1: 100, 4: 110, 2: 150, 3: 210}
	for id, w := range want {
		if got, ok := rec.start[id]; !ok || got != w {
			t.Errorf("job %d starts at %g (%v), want %g", id, got, ok, w)
		}
	}
	if rec.nodes[1] != 2 {
		t.Errorf("job 1 on %d nodes, want 2", rec.nodes[1])
	}
	if got, w := strings.Join(released, " "), "1:0:100 4:50:100"; got != w {
		t.Errorf("releases %s, want %s", got, w)
	}
	if d.Deferred() != 2 || d.HeldSeconds() != 150 || d.Held() != 0 {
		t.Errorf("deferred %d, held %g s, still held %d; want 2, 150, 0", d.Deferred(), d.HeldSeconds(), d.Held())
	}
}
