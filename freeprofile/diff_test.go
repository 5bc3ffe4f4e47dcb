package freeprofile

import (
	"math"
	"math/rand/v2"
	"testing"
)

// withForms sets the conversion thresholds for one test.
func withForms(t testing.TB, above, below int) {
	oa, ob := blocksAbove, sliceBelow
	blocksAbove, sliceBelow = above, below
	t.Cleanup(func() { blocksAbove, sliceBelow = oa, ob })
}

type span struct {
	s, e  float64
	procs int
}

// allocBoth allocates procs on [s, e) in p and in the reference and
// returns held with the span added.
func allocBoth(p *Profile, ref *refProfile, held []span, s, e float64, procs int) []span {
	p.Alloc(s, e, procs)
	ref.Alloc(s, e, procs)
	return append(held, span{s, e, procs})
}

// releaseOne releases held span k in p and in the reference and returns
// held without it (the last span takes its place).
func releaseOne(p *Profile, ref *refProfile, held []span, k int) []span {
	h := held[k]
	held[k] = held[len(held)-1]
	p.Release(h.s, h.e, h.procs)
	ref.Release(h.s, h.e, h.procs)
	return held[:len(held)-1]
}

// TestFormsAgainstReference drives a Profile (slice form forced, block
// form forced, or switching forms at low thresholds) and the reference with the same long
// random sequence of Advance, Alloc, Release, Move and queries: every answer,
// every Len and String must be identical. Times are drawn from a grid
// (ties, spans sharing ends), zero-length spans occur, and allocations
// are not checked for room, so free counts go negative.
func TestFormsAgainstReference(t *testing.T) {
	cases := []struct {
		name         string
		above, below int
		grid         int // distinct times ahead of now: bounds the breakpoints
		tick         int // how far time moves at once (at most)
		steps        int
		want         int // breakpoints the run must reach
	}{
		{"slice-tiny", math.MaxInt, 0, 8, 4, 20000, 10},
		{"slice-500", math.MaxInt, 0, 2000, 20, 20000, 500},
		{"blocks-tiny", 0, 0, 8, 4, 20000, 10},
		{"blocks-small", 0, 0, 60, 10, 20000, 100},
		{"blocks-500", 0, 0, 2000, 20, 20000, 500},
		{"hybrid-switching", 40, 10, 100, 60, 30000, 60},
		{"blocks-20000", 0, 0, 100000, 30, 75000, 10000},
	}
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			withForms(t, c.above, c.below)
			rnd := rand.New(rand.NewPCG(uint64(ci+1), 99))
			total := 1 + rnd.IntN(64)
			p := New(total, 0)
			ref := newRef(total, 0)
			var held []span
			now := 0.0
			maxLen, toBlocks, toSlice, wasBlocks := 0, 0, 0, false
			tm := func() float64 { // a time near now, on the grid, sometimes off it
				x := now + float64(rnd.IntN(c.grid))
				if rnd.IntN(8) == 0 {
					x += 0.5
				}
				if rnd.IntN(20) == 0 {
					x = now - float64(rnd.IntN(5)) // before the start
				}
				return x
			}
			dur := func() float64 {
				if rnd.IntN(6) == 0 {
					return 0
				}
				return float64(rnd.IntN(c.grid/2 + 1))
			}
			for step := 0; step < c.steps; step++ {
				switch op := rnd.IntN(100); {
				case op < 2: // time passes
					now += float64(rnd.IntN(c.tick + 1))
					if rnd.IntN(4) == 0 {
						now += 0.25
					}
					p.Advance(now)
					ref.Advance(now)
				case op < 45 || len(held) == 0: // allocate (growth bias)
					s := tm()
					e := Span(s, dur())
					procs := rnd.IntN(total + 1) // 0 too: a no-op that must leave no breakpoint
					held = allocBoth(p, ref, held, s, e, procs)
				case op < 58: // move a held span earlier (Move), overlapping or not
					k := rnd.IntN(len(held))
					h := held[k]
					d := h.e - h.s
					if h.e == math.Nextafter(h.s, math.Inf(1)) {
						d = 0
					}
					s1 := h.s - float64(1+rnd.IntN(c.grid/4+1))
					if rnd.IntN(4) == 0 {
						s1 = h.s - 0.5
					}
					e1 := Span(s1, d)
					p.Move(h.s, h.e, s1, e1, h.procs)
					ref.Release(h.s, h.e, h.procs)
					ref.Alloc(s1, e1, h.procs)
					held[k] = span{s1, e1, h.procs}
				case op < 70: // release a held span
					held = releaseOne(p, ref, held, rnd.IntN(len(held)))
				default: // queries
					from := tm()
					procs := rnd.IntN(total + 2)
					d := dur()
					if got, want := p.Earliest(from, procs, d), ref.Earliest(from, procs, d); got != want {
						t.Fatalf("step %d: Earliest(%v, %d, %v) = %v, want %v", step, from, procs, d, got, want)
					}
					if got, want := p.Fits(from, procs, d), ref.Fits(from, procs, d); got != want {
						t.Fatalf("step %d: Fits(%v, %d, %v) = %v, want %v", step, from, procs, d, got, want)
					}
					if got, want := p.FreeAt(from), ref.FreeAt(from); got != want {
						t.Fatalf("step %d: FreeAt(%v) = %v, want %v", step, from, got, want)
					}
					s0 := tm()
					if len(held) > 0 && rnd.IntN(2) == 0 {
						h := held[rnd.IntN(len(held))]
						s0, procs, d = h.s, h.procs, h.e-h.s
						if h.e == math.Nextafter(h.s, math.Inf(1)) {
							d = 0
						}
					}
					if got, want := p.Replace(from, procs, d, s0), ref.Replace(from, procs, d, s0); got != want {
						t.Fatalf("step %d: Replace(%v, %d, %v, %v) = %v, want %v", step, from, procs, d, s0, got, want)
					}
				}
				if p.Len() != len(ref.segs) {
					t.Fatalf("step %d: Len %d, want %d", step, p.Len(), len(ref.segs))
				}
				if p.Start() != ref.segs[0].t {
					t.Fatalf("step %d: Start %v, want %v", step, p.Start(), ref.segs[0].t)
				}
				maxLen = max(maxLen, p.Len())
				if isBlocks := p.bl != nil; isBlocks != wasBlocks {
					if isBlocks {
						toBlocks++
					} else {
						toSlice++
					}
					wasBlocks = isBlocks
				}
				if step%97 == 0 || p.Len() < 50 {
					if got, want := p.String(), ref.String(); got != want {
						t.Fatalf("step %d: profile\n%s\nwant\n%s", step, got, want)
					}
					if p.bl != nil {
						if err := p.bl.check(); err != nil {
							t.Fatalf("step %d: %v", step, err)
						}
					}
				}
			}
			if got, want := p.String(), ref.String(); got != want {
				t.Fatalf("end: profile\n%s\nwant\n%s", got, want)
			}
			if maxLen < c.want {
				t.Fatalf("only %d breakpoints reached, want %d", maxLen, c.want)
			}
			if c.above > 0 && c.above < math.MaxInt && (toBlocks < 2 || toSlice < 2) {
				t.Fatalf("forms changed %d times to blocks, %d to slice; want both", toBlocks, toSlice)
			}
			t.Logf("%d steps, up to %d breakpoints, %d/%d changes of form", c.steps, maxLen, toBlocks, toSlice)
		})
	}
}
