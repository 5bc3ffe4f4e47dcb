package engine

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// The heap pops in (time, class, push order) order, whatever the push order.
func TestEventHeapOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 200; trial++ {
		var q eventHeap
		type key struct {
			t   float64
			c   Class
			ref int32
		}
		var want []key
		n := r.IntN(300)
		for i := 0; i < n; i++ {
			k := key{float64(r.IntN(20)), Class(r.IntN(3)), int32(i)}
			want = append(want, k)
			q.Push(k.t, k.c, k.ref)
		}
		// stable sort by (time, class) keeps push order among equals
		slices.SortStableFunc(want, func(a, b key) int {
			if a.t != b.t {
				if a.t < b.t {
					return -1
				}
				return 1
			}
			return int(a.c) - int(b.c)
		})
		for i, w := range want {
			e := q.Pop()
			if e.Time != w.t || e.Class != w.c || e.Ref != w.ref {
				t.Fatalf("trial %d pop %d: got (%v,%v,%v), want %v", trial, i, e.Time, e.Class, e.Ref, w)
			}
		}
		if q.Len() != 0 {
			t.Fatal("queue not empty")
		}
	}
}

func BenchmarkEventHeapPushPop(b *testing.B) {
	var q eventHeap
	r := rand.New(rand.NewPCG(1, 1))
	for i := 0; i < 1000; i++ {
		q.Push(r.Float64()*1000, ClassArrival, int32(i))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e := q.Pop()
		q.Push(e.Time+r.Float64()*100, ClassCompletion, e.Ref)
	}
}

// Pushes and pops interleaved (as a run does: pops of the earliest, pushes
// later than it): each pop is the least (time, class, push order) of the
// events pending, found by a scan of a plain list.
func TestEventHeapInterleaved(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	type key struct {
		t   float64
		c   Class
		seq int
	}
	for trial := 0; trial < 100; trial++ {
		var q eventHeap
		var pending []key
		seq := 0
		for step := 0; step < 2000; step++ {
			if len(pending) == 0 || r.IntN(5) < 3 {
				k := key{float64(r.IntN(50)), Class(r.IntN(3)), seq}
				seq++
				pending = append(pending, k)
				q.Push(k.t, k.c, int32(k.seq))
				continue
			}
			least := 0
			for i, k := range pending {
				l := pending[least]
				if k.t < l.t || (k.t == l.t && (k.c < l.c || (k.c == l.c && k.seq < l.seq))) {
					least = i
				}
			}
			w := pending[least]
			pending = slices.Delete(pending, least, least+1)
			if e := q.Pop(); e.Time != w.t || e.Class != w.c || int(e.Ref) != w.seq {
				t.Fatalf("trial %d step %d: popped (%v,%v,%v), want %v", trial, step, e.Time, e.Class, e.Ref, w)
			}
			if q.Len() != len(pending) {
				t.Fatalf("trial %d step %d: %d pending, heap holds %d", trial, step, len(pending), q.Len())
			}
		}
	}
}
