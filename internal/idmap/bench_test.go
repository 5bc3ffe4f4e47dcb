package idmap

import "testing"

// runLike is the shape of the backfilling engine's running-job record
// (48 bytes, a pointer among them).
type runLike struct {
	procs   int
	estEnd  float64
	m       int32
	overrun bool
	start   float64
	x       *int
}

// live is how many keys the benchmarks keep held.
const live = 200

// filled returns a map holding keys 0..live-1, key i with value(i).
func filled[V any](value func(int) V) *Map[int64, V] {
	m := &Map[int64, V]{}
	for i := range live {
		m.Set(int64(i), value(i))
	}
	return m
}

// benchEnds has 200 keys live and, each step, removes the oldest (its
// value read) and adds a new one: a run's running jobs.
func benchEnds(b *testing.B, take bool) {
	m := filled(func(i int) runLike { return runLike{procs: i} })
	next := int64(live)
	sum := 0
	for b.Loop() {
		k := next - live
		var v runLike
		if take {
			m.Take(k, &v)
		} else {
			v, _ = m.Get(k)
			m.Delete(k)
		}
		sum += v.procs
		m.Set(next, runLike{procs: int(next)})
		next++
	}
	_ = sum
}

func BenchmarkTake(b *testing.B)      { benchEnds(b, true) }
func BenchmarkGetDelete(b *testing.B) { benchEnds(b, false) }

// benchArrivals adds a key that is not held each step (one leaves): a
// run's arrivals, each checked for a duplicate id.
func benchArrivals(b *testing.B, add bool) {
	m := filled(func(i int) int32 { return int32(i) })
	next := int64(live)
	for b.Loop() {
		m.Delete(next - live)
		if add {
			m.Add(next, int32(next))
		} else if _, ok := m.Get(next); !ok {
			m.Set(next, int32(next))
		}
		next++
	}
}

func BenchmarkAdd(b *testing.B)    { benchArrivals(b, true) }
func BenchmarkGetSet(b *testing.B) { benchArrivals(b, false) }

// benchStarts sets a large value for a new key each step (one leaves):
// a run's starts.
func benchStarts(b *testing.B, put bool) {
	m := filled(func(i int) runLike { return runLike{procs: i} })
	next := int64(live)
	for b.Loop() {
		m.Delete(next - live)
		if put {
			*m.Put(next) = runLike{procs: int(next), estEnd: 3, start: 4}
		} else {
			m.Set(next, runLike{procs: int(next), estEnd: 3, start: 4})
		}
		next++
	}
}

func BenchmarkPut(b *testing.B) { benchStarts(b, true) }
func BenchmarkSet(b *testing.B) { benchStarts(b, false) }
