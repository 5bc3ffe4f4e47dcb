package backfill

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/job"
)

// The wait queue against a plain sorted slice: random insertions (in and
// out of order, FCFS and SJF) and removals of started entries (a prefix,
// as when the head starts, or scattered, as backfilling does) keep the
// same entries in the same order, whatever moves the storage makes.
func TestWaitQueueAgainstSortedSlice(t *testing.T) {
	for _, order := range []Order{OrderFCFS, OrderSJF} {
		rng := rand.New(rand.NewPCG(1, uint64(order)))
		w := waitQueue{order: order}
		var model []jobKey
		submit := 0.0
		for step := range 20000 {
			if rng.IntN(3) > 0 {
				if rng.IntN(4) > 0 {
					submit += float64(rng.IntN(3))
				}
				k := jobKey{ID: job.ID(step + 1), Submit: submit - float64(rng.IntN(2)), Estimate: float64(rng.IntN(50)), Procs: 1}
				w.insert(entry{jobKey: k})
				i, _ := slices.BinarySearchFunc(model, k, func(a, b jobKey) int {
					if order.less(&a, &b) {
						return -1
					}
					return 1
				})
				model = slices.Insert(model, i, k)
			} else if len(w.q) > 0 {
				// Start a prefix, then maybe a few scattered entries.
				from, n := 0, 0
				for n < len(w.q) && rng.IntN(2) == 0 {
					w.q[n].started = true
					n++
				}
				if n == 0 {
					from = -1
				}
				for i := n; i < len(w.q); i++ {
					if rng.IntN(8) == 0 {
						w.q[i].started = true
						if from < 0 {
							from = i
						}
						n++
					}
				}
				keep := model[:0]
				for i, k := range model {
					if !w.q[i].started {
						keep = append(keep, k)
					}
				}
				model = keep
				if n > 0 {
					w.compact(from, n)
				}
			}
			if len(w.q) != len(model) {
				t.Fatalf("%s step %d: queue has %d entries, model %d", order, step, len(w.q), len(model))
			}
			for i := range model {
				if w.q[i].jobKey != model[i] {
					t.Fatalf("%s step %d: entry %d is %+v, want %+v", order, step, i, w.q[i].jobKey, model[i])
				}
			}
		}
	}
}

// A short queue whose head starts at every pass (the common case) reuses
// its storage: no allocation per job once the array is large enough.
func TestWaitQueueNoAllocationPerJob(t *testing.T) {
	w := waitQueue{order: OrderFCFS}
	id := job.ID(0)
	cycle := func() {
		for range 3 {
			id++
			w.insert(entry{jobKey: jobKey{ID: id, Submit: float64(id), Procs: 1}})
		}
		w.q[0].started = true
		w.compact(0, 1)
		w.q[0].started, w.q[1].started = true, true
		w.compact(0, 2)
	}
	for range 10 {
		cycle()
	}
	if a := testing.AllocsPerRun(1000, cycle); a != 0 {
		t.Errorf("%.2f allocations per cycle of 3 jobs, want 0", a)
	}
}
