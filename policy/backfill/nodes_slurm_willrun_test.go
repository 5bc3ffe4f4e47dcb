package backfill

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
)

// The will-run test's memo of failures (slurmEarliest) changes no start
// and no allocation: random platforms, bursts of like jobs of cores only
// (few sizes and time limits, as job arrays give) among random requests
// of every kind, under the grouped will-run test with and without the
// memo; and the memo skips candidates (the test is not vacuous).
func TestSlurmMemoChangesNothing(t *testing.T) {
	runs := 60
	if testing.Short() {
		runs = 20
	}
	skips := 0
	for seed := 0; seed < runs; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 41))
		ns := randomNodePlatform(t, r)
		total := 0
		for id := range ns.Len() {
			total += ns.Node(id).Cores()
		}
		var jobs []nodeJobSpec
		at := 0.0
		for len(jobs) < 60 {
			at += float64(r.IntN(40))
			burst := 1 + r.IntN(6)
			for k := 0; k < burst; k++ {
				est := float64([]int{60, 120, 300, 600}[r.IntN(4)])
				dur := est
				if r.IntN(3) == 0 {
					dur = float64(r.IntN(int(est) + 1))
				}
				var q nodes.Request
				if r.IntN(4) == 0 {
					q = randomNodeRequest(r, false)
					if !nodes.Fits(ns, q) {
						continue
					}
				} else {
					q = nodes.Request{Tasks: min(total, []int{1, 2, 4, 8}[r.IntN(4)]), CPUsPerTask: 1}
				}
				jobs = append(jobs, nodeJobSpec{id: job.ID(len(jobs) + 1), submit: at, est: est, dur: dur, req: &q, procs: q.CPUs()})
			}
		}
		p := SlurmParams{Backfill: true, Window: 1200, MaxJobTest: 40, Resolution: []float64{1, 60}[seed%2], Interval: 5, QueueDepth: 100}
		run := func(noMemo bool) (map[job.ID]*drivenJob, int) {
			q := p
			nb, err := NewNodePolicy(NodeConfig{Name: "slurm", Nodes: ns, Order: OrderFCFS, Slurm: &q})
			if err != nil {
				t.Fatal(err)
			}
			nb.slurm.noMemo = noMemo
			got := engineNodes(t, ns, nb, append([]nodeJobSpec(nil), jobs...))
			return got, nb.slurm.memoSkips
		}
		got, n := run(false)
		want, _ := run(true)
		skips += n
		for _, j := range jobs {
			if g, w := got[j.id], want[j.id]; g.start != w.start || allocText(ns, g.alloc) != allocText(ns, w.alloc) {
				t.Fatalf("seed %d: job %d starts %g on %s, without the memo %g on %s",
					seed, j.id, g.start, allocText(ns, g.alloc), w.start, allocText(ns, w.alloc))
			}
		}
	}
	if skips == 0 {
		t.Fatal("the memo skipped no candidate: the test checks nothing")
	}
	t.Logf("%d candidates skipped by the memo over %d runs", skips, runs)
}
