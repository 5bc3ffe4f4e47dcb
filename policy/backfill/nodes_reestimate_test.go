package backfill

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// NodePolicy.Reestimate, worked by hand under EASY on 2 nodes of 4
// cores (n1 cores 0-3, n2 cores 4-7):
//
//	t=0   job 1 (4 tasks, estimate 100) starts on n1; job 2 (8 tasks,
//	      estimate 10) waits: its reservation is at 100, job 1's end.
//	t=50  job 1's estimate becomes 300 (later): the reservation moves
//	      to 300. Nothing else happened since t=0, so the pass would go
//	      on from the last one (kept) and report 100 again, were the
//	      new estimate not counted as a change.
//	t=60  estimate 80 (earlier, still after now): reservation at 80.
//	t=70  estimate 20: its end 20 is past, job 1 is overrunning and
//	      holds n1 for this instant only: reservation at the next float
//	      after 70.
//	t=75  estimate 150: running again until 150; job 3 (4 tasks,
//	      estimate 50) arrives and backfills on n2 (75 + 50 = 125 <=
//	      150, the shadow time); job 2 keeps 150.
//	t=90  the heap's entry of the estimate 80 surfaces: stale, job 1 is
//	      not overrunning; job 2 keeps 150.
//	t=130 job 3 ends; t=160 job 1 is past 150: reservation at the next
//	      float after 160.
func TestNodeReestimate(t *testing.T) {
	ns := mustNodes(t, "n[1-2]:cores=4")
	b, err := NewNodePolicy(NodeConfig{Name: "easy", Nodes: ns, Depth: 1, Order: OrderFCFS})
	if err != nil {
		t.Fatal(err)
	}
	var resv []float64
	b.SetOnReserve(func(now float64, id job.ID, at float64) {
		if id != 2 {
			t.Fatalf("t=%g: reservation for job %d", now, id)
		}
		resv = append(resv, at)
	})
	var plan policy.Plan
	pass := func(now, wantResv float64, wantStarts ...job.ID) {
		t.Helper()
		resv = resv[:0]
		plan.Reset()
		b.Schedule(now, nil, &plan)
		if b.Err() != nil {
			t.Fatal(b.Err())
		}
		if len(plan.Starts) != len(wantStarts) {
			t.Fatalf("t=%g: %d starts, want %v", now, len(plan.Starts), wantStarts)
		}
		for i, s := range plan.Starts {
			if s.ID != wantStarts[i] {
				t.Fatalf("t=%g: start %d is job %d, want %d", now, i, s.ID, wantStarts[i])
			}
		}
		if len(resv) != 1 || resv[0] != wantResv {
			t.Fatalf("t=%g: job 2 reserved at %v, want %v", now, resv, wantResv)
		}
	}
	b.Submit(0, job.Info{ID: 1, Submit: 0, Procs: 4, Estimate: 100})
	b.Submit(0, job.Info{ID: 2, Submit: 0, Procs: 8, Estimate: 10})
	pass(0, 100, 1)
	b.Reestimate(50, 1, 300)
	pass(50, 300)
	b.Reestimate(60, 1, 80)
	pass(60, 80)
	b.Reestimate(70, 1, 20)
	pass(70, math.Nextafter(70, math.Inf(1)))
	b.Reestimate(75, 1, 150)
	b.Submit(75, job.Info{ID: 3, Submit: 75, Procs: 4, Estimate: 50})
	pass(75, 150, 3)
	if r := plan.Starts[0]; r.Reason != job.Backfilled || allocText(ns, *r.Alloc) != "n2:c4-7" {
		t.Fatalf("job 3: %v on %s, want backfilled on n2:c4-7", r.Reason, allocText(ns, *r.Alloc))
	}
	pass(90, 150)
	b.Finish(130, 3)
	pass(130, 150)
	pass(160, math.Nextafter(160, math.Inf(1)))

	// Ignored: an unknown or finished job, a negative, NaN or infinite
	// estimate; the same end again changes nothing.
	before := b.changes
	for _, c := range []struct {
		id job.ID
		e  float64
	}{{3, 10}, {9, 10}, {1, 150}, {1, -1}, {1, math.NaN()}, {1, math.Inf(1)}} {
		b.Reestimate(170, c.id, c.e)
	}
	if b.changes != before {
		t.Fatalf("ignored calls changed the plan (%d changes, was %d)", b.changes, before)
	}
}
