package endheap

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/job"
)

// Against a sort: random pushes and pops (ties on At frequent) come out
// in (At, ID) order.
func TestHeapOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var h Heap
		var ref []Item
		for range r.IntN(100) {
			if len(ref) > 0 && r.IntN(3) == 0 {
				slices.SortFunc(ref, func(a, b Item) int {
					if a.less(b) {
						return -1
					}
					if b.less(a) {
						return 1
					}
					return 0
				})
				if got := h.Pop(); got != ref[0] {
					t.Fatalf("pop %v, want %v", got, ref[0])
				}
				ref = ref[1:]
				continue
			}
			x := Item{At: float64(r.IntN(10)), ID: job.ID(r.IntN(1000))}
			h.Push(x)
			ref = append(ref, x)
		}
		if len(h) != len(ref) {
			t.Fatalf("%d items, want %d", len(h), len(ref))
		}
	}
}
