package freeprofile

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSliceAddEdges holds the slice form's add (the scan that finds e, the
// moves of the head or of the tail) against the reference on profiles
// with negative times, a -Inf origin, and -0 and +0: every span starts
// and ends before, at or just after a breakpoint (or at the other zero),
// and Advance leaves room before the slice for the head moves.
func TestSliceAddEdges(t *testing.T) {
	withForms(t, math.MaxInt, 0)
	negZero := math.Copysign(0, -1)
	for _, origin := range []float64{0, negZero, -1000, math.Inf(-1)} {
		for seed := uint64(1); seed <= 4; seed++ {
			rnd := rand.New(rand.NewPCG(seed, 7))
			total := 1 + rnd.IntN(40)
			p := New(total, origin)
			ref := newRef(total, origin)
			now := origin
			// pick returns a time near a breakpoint of the profile, or a
			// zero of either sign, or a time on a grid around them.
			pick := func() float64 {
				segs := ref.segs
				switch r := rnd.IntN(10); {
				case r == 0:
					return negZero
				case r == 1:
					return 0
				case r < 6:
					x := segs[rnd.IntN(len(segs))].t
					switch rnd.IntN(3) {
					case 1:
						x = math.Nextafter(x, math.Inf(1))
					case 2:
						x = math.Nextafter(x, math.Inf(-1))
					}
					return x
				default:
					return float64(rnd.IntN(400) - 200)
				}
			}
			var held []span
			for step := 0; step < 8000; step++ {
				switch op := rnd.IntN(100); {
				case op < 2 && !math.IsInf(now, -1) || op < 1:
					if math.IsInf(now, -1) {
						now = -300
					}
					now += float64(rnd.IntN(20))
					p.Advance(now)
					ref.Advance(now)
				case op < 55 || len(held) == 0:
					s, e := pick(), pick()
					if e < s {
						s, e = e, s
					}
					if !(e > s) {
						e = Span(s, 0)
					}
					procs := 1 + rnd.IntN(total)
					held = allocBoth(p, ref, held, s, e, procs)
				default:
					held = releaseOne(p, ref, held, rnd.IntN(len(held)))
				}
				if got, want := p.String(), ref.String(); got != want {
					t.Fatalf("origin %v seed %d step %d: profile\n%s\nwant\n%s", origin, seed, step, got, want)
				}
				if p.bl != nil {
					t.Fatal("left the slice form")
				}
				for _, g := range ref.segs {
					if got, want := p.FreeAt(g.t), ref.FreeAt(g.t); got != want {
						t.Fatalf("origin %v seed %d step %d: FreeAt(%v) = %d, want %d", origin, seed, step, g.t, got, want)
					}
				}
			}
		}
	}
}
