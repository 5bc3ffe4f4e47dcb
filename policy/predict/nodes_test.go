package predict_test

import (
	"fmt"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/predict"
	"github.com/schedlab/schedlab/workload"
)

type nodeOutcome struct {
	start, end float64
	reason     job.StartReason
	node       string // the first node of its allocation
	killed     bool
}

type nodeLog struct {
	engine.NopListener
	ns  *nodes.Nodes
	got map[job.ID]*nodeOutcome
}

func (l *nodeLog) JobStarted(now float64, s engine.Start) {
	l.got[s.Job.ID] = &nodeOutcome{start: now, reason: s.Reason, node: l.ns.Name(s.Alloc.Nodes[0].Node)}
}
func (l *nodeLog) JobFinished(now float64, r *engine.Record) { l.got[r.Job.ID].end = r.End }
func (l *nodeLog) JobKilled(now float64, r *engine.Record) {
	l.got[r.Job.ID].end, l.got[r.Job.ID].killed = r.End, true
}

// TestEASYWithPredictionsByHand on 2 nodes of 4 cores (n1, n2), through
// the model on nodes, every job twice the CPUs:
//
//	job user submit cores runtime request
//	1   1    0      2     10      100
//	2   1    0      2     10      100
//	3   2    20     4     100     100
//	4   3    21     8     10      10
//	5   1    22     4     10|200  1000
//
// 1 and 2 start at 0 on n1 and end at 10; 3 starts at 20 on n1; 4 needs
// both nodes and reserves 120 (3's end).
//
// With requests, 5 (22 + 1000 > 120, and 4 needs n2's cores at 120)
// cannot backfill and starts at 130 after 4 (120..130).
//
// With predictions: user 1's runtimes 10, 10 predict 5 at 10 s, so it
// backfills at 22 on n2 (22 + 10 <= 120). Running 10 s it ends at 32
// and 4 keeps 120. Running 200 s it outlives its prediction: the pass at
// its predicted end 32 (Plan.Wake, job 4 waiting) corrects it to
// 10 + 60 = 70 (end 92, 4 keeps 120); the pass at 92 to 10 + 300 = 310
// (end 332): NodePolicy.Reestimate moves 5's hold to [22, 332) and 4's
// reservation moves to 332; at 120 (3 ends) it stays 332. Job 5 is not
// killed at its prediction: it ends at 222, and 4 starts then.
func TestNodeEASYWithPredictionsByHand(t *testing.T) {
	I, B, R := job.Immediate, job.Backfilled, job.Reserved
	ns := *nodestest.Must(t, "n[1-2]:cores=4")
	for _, c := range []struct {
		name    string
		run5    float64
		predict bool
		want    map[job.ID]nodeOutcome
		corr    int64
		resv4   string // job 4's reservations by pass: now:at
	}{
		{"requests", 10, false, map[job.ID]nodeOutcome{1: {0, 10, I, "n1", false}, 2: {0, 10, I, "n1", false}, 3: {20, 120, I, "n1", false},
			4: {120, 130, R, "n1", false}, 5: {130, 140, R, "n1", false}}, 0, "21:120 22:120"},
		{"predictions", 10, true, map[job.ID]nodeOutcome{1: {0, 10, I, "n1", false}, 2: {0, 10, I, "n1", false}, 3: {20, 120, I, "n1", false},
			4: {120, 130, R, "n1", false}, 5: {22, 32, B, "n2", false}}, 0, "21:120 22:120 32:120"},
		{"predictions, job 5 corrected", 200, true, map[job.ID]nodeOutcome{1: {0, 10, I, "n1", false}, 2: {0, 10, I, "n1", false},
			3: {20, 120, I, "n1", false}, 4: {222, 232, R, "n1", false}, 5: {22, 222, B, "n2", false}}, 2,
			"21:120 22:120 32:120 92:332 120:332"},
	} {
		jobs := []actual.Job{
			userJob(1, 1, 0, 2, 10, 100),
			userJob(2, 1, 0, 2, 10, 100),
			userJob(3, 2, 20, 4, 100, 100),
			userJob(4, 3, 21, 8, 10, 10),
			userJob(5, 1, 22, 4, c.run5, 1000),
		}
		easy, err := backfill.NewNodePolicy(backfill.NodeConfig{Name: "easy", Nodes: &ns, Depth: 1, Order: backfill.OrderFCFS})
		if err != nil {
			t.Fatal(err)
		}
		resv4 := ""
		easy.SetOnReserve(func(now float64, id job.ID, at float64) {
			if id == 4 {
				resv4 += fmt.Sprintf(" %g:%g", now, at)
			}
		})
		var pol policy.NodeScheduler = easy
		var pr *predict.NodePredictor
		if c.predict {
			pr = predict.NewNodes(easy, predict.Params{})
			pol = pr
		}
		l := &nodeLog{ns: &ns, got: map[job.ID]*nodeOutcome{}}
		m, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: &ns, Policy: pol, Source: workload.FromSlice(jobs), Listener: l})
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		for id, w := range c.want {
			if g := l.got[id]; g == nil || *g != w {
				t.Errorf("%s: job %d: %+v, want %+v", c.name, id, g, w)
			}
		}
		if resv4 != " "+c.resv4 {
			t.Errorf("%s: job 4's reservations%s, want %s", c.name, resv4, c.resv4)
		}
		if pr != nil && pr.Corrections() != c.corr {
			t.Errorf("%s: %d corrections, want %d", c.name, pr.Corrections(), c.corr)
		}
	}
}
