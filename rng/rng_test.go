package rng

import "testing"

func TestStreamsReproducibleAndDistinct(t *testing.T) {
	a, b := New(1, 0, Arrivals), New(1, 0, Arrivals)
	for i := 0; i < 100; i++ {
		if a.Uint64() != b.Uint64() {
			t.Fatal("same coordinates, different streams")
		}
	}
	first := func(seed uint64, rep int, p string) uint64 { return New(seed, rep, p).Uint64() }
	seen := map[uint64]string{}
	for _, c := range []struct {
		s uint64
		r int
		p string
	}{{1, 0, Arrivals}, {1, 0, Service}, {1, 1, Arrivals}, {2, 0, Arrivals}, {0, 1, Arrivals}, {1, 0, GridChoice}} {
		v := first(c.s, c.r, c.p)
		if prev, dup := seen[v]; dup {
			t.Fatalf("streams %v and %s start alike", c, prev)
		}
		seen[v] = c.p
	}
}
