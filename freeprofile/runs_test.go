package freeprofile

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestRunsAgainstReference drives a Profile answering Replace from its
// runs cache and the reference with the same random changes; after each
// change (Alloc, Release, Advance, a no-op clipped before the start) a
// burst of Replace queries, many with the same CPU count so that cached
// runs are reused, partly built ones extended, and stale ones cut back
// to the part before the change. The queries hit the edges: from at the
// start, before it, on breakpoints and inside runs; s0 on breakpoints and
// at held spans; d zero, negative and equal to gaps between breakpoints
// give or take an ulp; CPU counts above anything free; times far from
// zero, where a+d rounds.
func TestRunsAgainstReference(t *testing.T) {
	cases := []struct {
		name         string
		above, below int
		base, unit   float64 // times are base + unit*k
		grid, steps  int
		runs         int // runsAbove
	}{
		{"slice", math.MaxInt, 0, 0, 1, 40, 20000, 0},
		{"slice-far", math.MaxInt, 0, 1e9, 0.1, 200, 20000, 0},
		{"slice-frac", math.MaxInt, 0, 12345.678, 1.0 / 3, 300, 20000, 0},
		{"blocks", 0, 0, 0, 1, 60, 20000, 0},
		{"blocks-far", 0, 0, 3e8, 0.7, 500, 20000, 0},
		{"hybrid", 40, 10, 1e6, 0.25, 120, 20000, 0},
		{"hybrid-scan-and-runs", 40, 10, 1e6, 0.25, 120, 20000, 25}, // both answers, by size
		{"blocks-scan", 0, 0, 1e6, 0.25, 120, 20000, math.MaxInt},   // the scans alone
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			withForms(t, c.above, c.below)
			oldRuns := runsAbove
			runsAbove = c.runs
			t.Cleanup(func() { runsAbove = oldRuns })
			rnd := rand.New(rand.NewPCG(uint64(ci+11), 7))
			total := 2 + rnd.IntN(40)
			p := New(total, c.base)
			ref := newRef(total, c.base)
			var held []span
			now := c.base
			tm := func() float64 {
				x := now + c.unit*float64(rnd.IntN(c.grid))
				switch rnd.IntN(10) {
				case 0:
					x += c.unit / 2
				case 1:
					x = now - c.unit*float64(1+rnd.IntN(3))
				}
				return x
			}
			bp := func() float64 { return ref.segs[rnd.IntN(len(ref.segs))].t }
			queries, maxLists, evictions, prev := 0, 0, 0, 0
			for step := 0; step < c.steps; step++ {
				switch op := rnd.IntN(100); {
				case op < 4:
					now += c.unit * float64(rnd.IntN(4))
					p.Advance(now)
					ref.Advance(now)
				case op < 50 || len(held) == 0:
					s := tm()
					e := Span(s, c.unit*float64(rnd.IntN(c.grid/3+1)))
					if rnd.IntN(30) == 0 { // wholly before the start: no change
						s, e = now-3*c.unit, now-c.unit
					}
					procs := rnd.IntN(total/2 + 1)
					held = allocBoth(p, ref, held, s, e, procs)
				default:
					held = releaseOne(p, ref, held, rnd.IntN(len(held)))
				}
				// A few CPU counts, asked again and again; sometimes many
				// distinct ones (eviction) or more than ever free.
				counts := []int{1 + rnd.IntN(total), 1 + rnd.IntN(total), total}
				for q, nq := 0, rnd.IntN(25); q < nq; q++ {
					procs := counts[rnd.IntN(len(counts))]
					switch rnd.IntN(20) {
					case 0:
						procs = total + 1 + rnd.IntN(3)
					case 1:
						procs = rnd.IntN(1000)
					case 2:
						procs = 0
					}
					var from float64
					switch rnd.IntN(5) {
					case 0, 1:
						from = now
					case 2:
						from = bp()
					case 3:
						from = tm()
					case 4:
						from = bp() + c.unit/3
					}
					var s0 float64
					switch rnd.IntN(4) {
					case 0:
						s0 = bp()
					case 1:
						s0 = tm()
					default:
						if len(held) > 0 {
							h := held[rnd.IntN(len(held))]
							s0, procs = h.s, h.procs
						} else {
							s0 = math.Inf(1)
						}
					}
					var d float64
					switch rnd.IntN(8) {
					case 0:
						d = 0
					case 1:
						d = -c.unit
					case 2, 3, 4: // a gap between two breakpoints, give or take
						x, y := bp(), bp()
						if rnd.IntN(2) == 0 {
							x = from
						}
						d = math.Abs(y - x)
						for k := rnd.IntN(5) - 2; k != 0; {
							if k > 0 {
								d, k = math.Nextafter(d, math.Inf(1)), k-1
							} else {
								d, k = math.Nextafter(d, 0), k+1
							}
						}
					case 5:
						d = math.Inf(1)
					default:
						d = c.unit * float64(rnd.IntN(c.grid))
					}
					got, want := p.Replace(from, procs, d, s0), ref.Replace(from, procs, d, s0)
					if got != want {
						t.Fatalf("step %d (blocks %v): Replace(%v, %d, %v, %v) = %v, want %v\nprofile %s", step, p.bl != nil,
							from, procs, d, s0, got, want, ref.String())
					}
					queries++
					n := len(p.rc.lists)
					if n < prev {
						evictions++
					}
					prev, maxLists = n, max(maxLists, n)
				}
				if p.Len() != len(ref.segs) {
					t.Fatalf("step %d: Len %d, want %d", step, p.Len(), len(ref.segs))
				}
			}
			if evictions == 0 && c.runs < math.MaxInt {
				t.Fatalf("the cache of %d counts was never emptied", maxLists)
			}
			t.Logf("%d queries, up to %d cached counts, %d evictions", queries, maxLists, evictions)
		})
	}
}

// TestFitBound checks the bound that lets Replace skip runs: whenever
// Span(a, d) <= b, d <= fitBound(a, b), at the largest such d, found by
// stepping d an ulp at a time.
func TestFitBound(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 20000; i++ {
		scale := math.Pow(10, float64(rnd.IntN(19)-3))
		a := rnd.Float64() * scale
		if rnd.IntN(4) == 0 {
			a = math.Round(a)
		}
		b := a + rnd.Float64()*scale*math.Pow(10, -float64(rnd.IntN(12)))
		if b <= a {
			b = math.Nextafter(a, math.Inf(1))
		}
		u := fitBound(a, b)
		d := b - a
		for Span(a, d) > b {
			d = math.Nextafter(d, 0)
		}
		for k := 0; k < 1<<12 && Span(a, math.Nextafter(d, math.Inf(1))) <= b; k++ {
			d = math.Nextafter(d, math.Inf(1))
		}
		if d > u {
			t.Fatalf("a=%v b=%v: d=%v fits, bound %v", a, b, d, u)
		}
	}
}
