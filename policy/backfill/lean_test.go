package backfill

import (
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
)

// checkLeanBooks fails unless every entry's minLeft is at most the
// smallest Procs from it to the end of the queue and never decreases
// along the queue, and nResv is the number of entries holding a
// reservation.
func checkLeanBooks(t *testing.T, b *Backfill) {
	t.Helper()
	q := b.w.q
	least, resv := 1<<16-1, 0
	for i := len(q) - 1; i >= 0; i-- {
		least = min(least, q[i].Procs)
		if int(q[i].minLeft) > least {
			t.Fatalf("entry %d (job %d): minLeft %d above the suffix minimum %d", i, q[i].ID, q[i].minLeft, least)
		}
		if i+1 < len(q) && q[i].minLeft > q[i+1].minLeft {
			t.Fatalf("entry %d: minLeft %d above the next one's %d", i, q[i].minLeft, q[i+1].minLeft)
		}
		if q[i].hasResv {
			resv++
		}
	}
	if resv != b.nResv {
		t.Fatalf("nResv %d, but %d entries hold a reservation", b.nResv, resv)
	}
}

// booksChecked checks the lean stop's bookkeeping after every pass.
type booksChecked struct {
	*Backfill
	t *testing.T
}

func (c booksChecked) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	c.Backfill.Schedule(now, v, plan)
	checkLeanBooks(c.t, c.Backfill)
}

func runLean(t *testing.T, jobs []actual.Job, procs, depth int, order Order, cont, off bool) (*starts, *Backfill) {
	t.Helper()
	pol := NewBackfill("test", procs, depth, order)
	pol.NoLean = off
	l := &starts{}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: booksChecked{pol, t},
		Source: workload.FromSlice(jobs), Listener: l, Continue: cont})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return l, pol
}

// The lean stop (end the pass when no entry left asks for as few CPUs as
// are free now and none holds a reservation) gives the same starts, start
// reasons and CPUs as the full loop, in FCFS and SJF order, at depths 1,
// 2, 5 and unlimited, with jobs ending early, on time and past their
// estimates, ids in and out of order (the arrivals-only shortcut on in
// both runs, so that its bookkeeping after a lean stop is exercised too);
// the queue's minLeft stays a lower bound of the suffix minimum and nResv
// the count of reservations after every pass; and the stop is really
// taken.
func TestLeanStopSameSchedule(t *testing.T) {
	var cuts int64
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 2727))
		overrun := seed%2 == 0
		jobs, procs := arrivalHeavy(r, overrun)
		for _, order := range []Order{OrderFCFS, OrderSJF} {
			for _, d := range []int{1, 2, 5, Unlimited} {
				full, _ := runLean(t, jobs, procs, d, order, overrun, true)
				fast, pol := runLean(t, jobs, procs, d, order, overrun, false)
				cuts += pol.leanCuts
				if len(full.log) != len(fast.log) {
					t.Fatalf("seed %d %s depth %d: %d starts with the lean stop, %d without", seed, order, d, len(fast.log), len(full.log))
				}
				for i := range full.log {
					if full.log[i] != fast.log[i] {
						t.Fatalf("seed %d %s depth %d overrun %v: start %d is %s with the lean stop, %s without", seed, order, d, overrun, i, fast.log[i], full.log[i])
					}
				}
			}
		}
	}
	if cuts < 1000 {
		t.Fatalf("the lean stop ended only %d passes over all runs: not exercised", cuts)
	}
	t.Logf("passes ended by the lean stop: %d", cuts)
}

// Hand-worked: minLeft after appends and an out-of-order insertion.
func TestMinLeftHandWorked(t *testing.T) {
	w := waitQueue{order: OrderFCFS, minLeft: true}
	for i, p := range []int{5, 3, 8, 6} {
		w.insert(entry{jobKey: jobKey{ID: job.ID(10 + 10*i), Submit: float64(i), Procs: p}})
	}
	want := func(ms ...uint16) {
		t.Helper()
		if len(w.q) != len(ms) {
			t.Fatalf("%d entries, want %d", len(w.q), len(ms))
		}
		for i, m := range ms {
			if w.q[i].minLeft != m {
				t.Fatalf("entry %d (procs %d): minLeft %d, want %d", i, w.q[i].Procs, w.q[i].minLeft, m)
			}
		}
	}
	want(3, 3, 6, 6)
	// Submit 2.5 goes between the 8 and the 6: it lowers everything
	// before it that was above 2.
	w.insert(entry{jobKey: jobKey{ID: 99, Submit: 2.5, Procs: 2}})
	want(2, 2, 2, 2, 6)
	// The 3 and the 2 start: the rest keep a lower bound (2, 2 over 5, 8).
	w.q[1].started, w.q[3].started = true, true
	w.compact(1, 2)
	want(2, 2, 6)
}
