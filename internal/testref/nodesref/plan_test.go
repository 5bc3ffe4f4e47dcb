package nodesref

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestDuringBySampling: on random holds with whole-number ends, during
// over [a, b) agrees with a brute force over the half-unit instants of the
// interval: a core or unit is held iff some instant has a hold on it, the
// node is held whole iff some instant has an exclusive hold on it, and the
// memory held is the largest sum at one instant.
func TestDuringBySampling(t *testing.T) {
	nodes := gpuNodes(8000)
	for seed := range 500 {
		rng := rand.New(rand.NewPCG(uint64(seed), 42))
		var holds []hold
		for range 1 + rng.IntN(6) {
			from := float64(rng.IntN(10))
			u := NodeUse{Node: rng.IntN(2), Tasks: 1, Cores: []int{rng.IntN(4)}, MemMB: 1000 * rng.Int64N(4)}
			if rng.IntN(2) == 0 {
				u.GRES = gpu(rng.IntN(2))
			}
			holds = append(holds, hold{from: from, to: from + float64(1+rng.IntN(5)), exclusive: rng.IntN(6) == 0, uses: []NodeUse{u}})
		}
		a := float64(rng.IntN(10))
		b := a + float64(1+rng.IntN(5))
		got := during(nodes, holds, a, b)
		for n := range nodes {
			want := nodeFree{core: make([]bool, 4), unit: map[string][]bool{"gpu": make([]bool, 2)}}
			for x := a; x < b; x += 0.5 {
				var sum int64
				for _, h := range holds {
					if h.from > x || x >= h.to {
						continue
					}
					for _, u := range h.uses {
						if u.Node != n {
							continue
						}
						sum += u.MemMB
						want.busy = true
						want.whole = want.whole || h.exclusive
						for _, c := range u.Cores {
							want.core[c] = true
						}
						for _, id := range u.GRES["gpu"] {
							want.unit["gpu"][id] = true
						}
					}
				}
				want.memHeld = max(want.memHeld, sum)
			}
			g := got[n]
			if g.busy != want.busy || g.whole != want.whole || g.memHeld != want.memHeld ||
				!slices.Equal(g.core, want.core) || !slices.Equal(g.unit["gpu"], want.unit["gpu"]) {
				t.Fatalf("seed %d node %d over [%v,%v) holds %+v:\n got %+v\nwant %+v", seed, n, a, b, holds, g, want)
			}
		}
	}
}
