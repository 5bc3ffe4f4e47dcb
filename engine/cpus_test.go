package engine

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/platform"
)

// take and set against a plain []bool: random machines inside a platform,
// random takes of the lowest free CPUs, random releases.
func TestCPUSetAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 300; trial++ {
		n := 1 + r.IntN(300)
		s := newCPUSet(n)
		free := make([]bool, n)
		for i := range free {
			free[i] = true
		}
		var held []platform.Runs
		for step := 0; step < 200; step++ {
			if len(held) > 0 && r.IntN(3) == 0 {
				k := r.IntN(len(held))
				s.set(held[k], true)
				for i := 0; i+1 < len(held[k]); i += 2 {
					for c := held[k][i]; c <= held[k][i+1]; c++ {
						free[c] = true
					}
				}
				held = slices.Delete(held, k, k+1)
				continue
			}
			lo := r.IntN(n)
			hi := lo + 1 + r.IntN(n-lo)
			avail := 0
			for c := lo; c < hi; c++ {
				if free[c] {
					avail++
				}
			}
			if avail == 0 {
				continue
			}
			k := 1 + r.IntN(avail)
			var want platform.Runs
			for c := lo; c < hi && len(want) < 2*n && k > want.Count(); c++ {
				if free[c] {
					want = want.Add(int32(c))
					free[c] = false
				}
			}
			got := s.take(nil, lo, hi, k)
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d: take(%d, %d, %d) = %v, want %v", trial, lo, hi, k, got, want)
			}
			held = append(held, got)
			for c := 0; c < n; c++ {
				if s.free(int32(c)) != free[c] {
					t.Fatalf("trial %d: CPU %d free=%v, want %v", trial, c, s.free(int32(c)), free[c])
				}
			}
		}
	}
}

func BenchmarkCPUSetTakeSet(b *testing.B) {
	s := newCPUSet(240)
	var r platform.Runs
	for i := 0; i < b.N; i++ {
		r = s.take(r[:0], 0, 240, 1+i%64)
		s.set(r, true)
	}
}
