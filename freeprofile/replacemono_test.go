package freeprofile

import (
	"math/rand/v2"
	"testing"
)

// Replace is monotone in the request, the fact policy/backfill's kept
// memo rests on: if Replace(from, p, d, s0) answers s0 (no start before
// s0 has p free CPUs up to min(Span(t, d), s0)), so does any request of
// at least p CPUs for at least d. Checked on random profiles in the slice
// form, the block form and with the runs cache (long profiles), including
// zero durations, requests above the total and negative free counts.
func TestReplaceMonotoneInRequest(t *testing.T) {
	for _, c := range []struct {
		name         string
		above, below int
		spans        int
	}{
		{"slice", 1 << 30, 0, 60},
		{"slice-runs", 1 << 30, 0, 400},
		{"blocks", 0, 0, 60},
		{"blocks-runs", 0, 0, 1500},
	} {
		t.Run(c.name, func(t *testing.T) {
			withForms(t, c.above, c.below)
			kept, checked := 0, 0
			for seed := uint64(1); seed <= 40; seed++ {
				r := rand.New(rand.NewPCG(seed, 77))
				const total = 64
				p := New(total, 0)
				for range c.spans {
					s := float64(r.IntN(3000))
					e := s + float64(r.IntN(400))
					p.Alloc(s, Span(s, e-s), 1+r.IntN(40))
				}
				for range 300 {
					from := float64(r.IntN(500))
					s0 := from + float64(r.IntN(3000))
					procs, d := 1+r.IntN(total), float64(r.IntN(600))
					if p.Replace(from, procs, d, s0) != s0 {
						continue
					}
					kept++
					for range 10 {
						p2, d2 := procs+r.IntN(total), d+float64(r.IntN(600))
						checked++
						if got := p.Replace(from, p2, d2, s0); got != s0 {
							t.Fatalf("seed %d: Replace(%g, %d, %g, %g) = s0 but Replace(%g, %d, %g, %g) = %g", seed, from, procs, d, s0, from, p2, d2, s0, got)
						}
					}
				}
			}
			if kept < 1000 {
				t.Fatalf("only %d requests kept their start: not exercised", kept)
			}
			t.Logf("%d kept requests, %d larger ones checked", kept, checked)
		})
	}
}
