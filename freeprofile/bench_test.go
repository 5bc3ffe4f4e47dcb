package freeprofile

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// benchProfile builds a profile of about n breakpoints the way
// conservative backfilling does: jobs placed one after another at their
// earliest fit. It returns the placements.
func benchProfile(n int) (*Profile, []span) {
	c, ok := benchCache[n]
	if !ok {
		c = buildBench(n)
		benchCache[n] = c
	}
	return c.p.clone(), c.placed
}

func buildBench(n int) benchBuilt {
	oa, ob := blocksAbove, sliceBelow
	blocksAbove, sliceBelow = 0, 0 // build fast in the block form
	defer func() { blocksAbove, sliceBelow = oa, ob }()
	r := rand.New(rand.NewPCG(3, 4))
	p := New(240, 0)
	var placed []span
	for p.Len() < n {
		procs := 1 + r.IntN(32)
		d := float64(1 + r.IntN(10000))
		s := p.Earliest(0, procs, d)
		p.Alloc(s, s+d, procs)
		placed = append(placed, span{s, s + d, procs})
	}
	return benchBuilt{p, placed}
}

type benchBuilt struct {
	p      *Profile
	placed []span
}

var benchCache = map[int]benchBuilt{}

// clone copies p into the form the current thresholds ask for.
func (p *Profile) clone() *Profile {
	segs := p.sl.segs
	if p.bl != nil {
		segs = p.bl.appendSegs(nil)
	}
	q := &Profile{total: p.total, sl: sliceProfile{segs: append([]seg(nil), segs...)}}
	if len(segs) > blocksAbove {
		q.bl = &blocks{}
		q.bl.build(q.sl.segs)
		q.sl.segs = nil
	}
	return q
}

// benched is what the per-operation benchmarks call: a Profile or the
// reference (the former implementation).
type benched interface {
	Earliest(from float64, procs int, d float64) float64
	Fits(s float64, procs int, d float64) bool
	Replace(from float64, procs int, d float64, s0 float64) float64
	Alloc(s, e float64, procs int)
	Release(s, e float64, procs int)
}

// The per-operation benchmarks run at 500 and 20,000 breakpoints on the
// former implementation (ref), the slice form, the block form, and the
// hybrid that Profile is by default.
func benchForms(b *testing.B, f func(b *testing.B, p benched, placed []span)) {
	for _, n := range []int{500, 20000} {
		for _, form := range []struct {
			name         string
			above, below int
			runs         int // runsAbove: MaxInt, Replace scans
		}{
			{"ref", math.MaxInt, 0, math.MaxInt},
			{"slice", math.MaxInt, 0, runsAbove}, {"slice-scan", math.MaxInt, 0, math.MaxInt},
			{"blocks", 0, 0, runsAbove}, {"blocks-scan", 0, 0, math.MaxInt},
			{"hybrid", blocksAbove, sliceBelow, runsAbove},
		} {
			b.Run(fmt.Sprintf("%d/%s", n, form.name), func(b *testing.B) {
				withForms(b, form.above, form.below)
				oldRuns := runsAbove
				runsAbove = form.runs
				b.Cleanup(func() { runsAbove = oldRuns })
				p, placed := benchProfile(n)
				var q benched = p
				if form.name == "ref" {
					q = &refProfile{total: p.total, segs: p.sl.segs}
				}
				b.ResetTimer()
				f(b, q, placed)
			})
		}
	}
}

func BenchmarkOpEarliest(b *testing.B) {
	benchForms(b, func(b *testing.B, p benched, _ []span) {
		for i := 0; i < b.N; i++ {
			p.Earliest(0, 1+i%64, float64(100+i%5000))
		}
	})
}

func BenchmarkOpFits(b *testing.B) {
	benchForms(b, func(b *testing.B, p benched, placed []span) {
		for i := 0; i < b.N; i++ {
			a := placed[i%len(placed)]
			p.Fits(a.s, 1+i%64, a.e-a.s)
		}
	})
}

// Replace of the placed jobs, the query of a dirty conservative pass.
func BenchmarkOpReplace(b *testing.B) {
	benchForms(b, func(b *testing.B, p benched, placed []span) {
		for i := 0; i < b.N; i++ {
			a := placed[i%len(placed)]
			p.Replace(0, a.procs, a.e-a.s, a.s)
		}
	})
}

// Replace of the placed jobs after a change: the first query of a dirty
// pass after a reservation moved (an Alloc and a Release at a placed
// job's start), which cuts the cached runs back to before the change.
func BenchmarkOpReplaceAfterChange(b *testing.B) {
	benchForms(b, func(b *testing.B, p benched, placed []span) {
		for i := 0; i < b.N; i++ {
			c := placed[(i*7919)%len(placed)]
			p.Alloc(c.s, c.s+100.5, 1)
			p.Release(c.s, c.s+100.5, 1)
			a := placed[i%len(placed)]
			p.Replace(0, a.procs, a.e-a.s, a.s)
		}
	})
}

func BenchmarkOpAllocRelease(b *testing.B) {
	benchForms(b, func(b *testing.B, p benched, placed []span) {
		for i := 0; i < b.N; i++ {
			s := float64(i % 7919)
			p.Alloc(s, s+100.5, 1)
			p.Release(s, s+100.5, 1)
		}
	})
}

// Release and Alloc of a placed job's span, as a conservative pass lifts
// a reservation and places it again: spans cover many breakpoints.
func BenchmarkOpReleaseAllocPlaced(b *testing.B) {
	benchForms(b, func(b *testing.B, p benched, placed []span) {
		for i := 0; i < b.N; i++ {
			a := placed[(i*7919)%len(placed)]
			p.Release(a.s, a.e, a.procs)
			p.Alloc(a.s, a.e, a.procs)
		}
	})
}

// A placed job's span moved 50 s earlier, as a conservative pass moves a
// reservation, then put back: with Move (the two spans overlap, so only
// their differences change) and with a Release and an Alloc for the move.
// The put-back is the same Release and Alloc in both.
func BenchmarkOpMovePlaced(b *testing.B) { benchMove(b, true) }

func BenchmarkOpMoveAsReleaseAlloc(b *testing.B) { benchMove(b, false) }

func benchMove(b *testing.B, move bool) {
	benchForms(b, func(b *testing.B, p benched, placed []span) {
		pr, isProfile := p.(*Profile)
		if move && !isProfile {
			b.Skip("the reference has no Move")
		}
		for i := 0; i < b.N; i++ {
			a := placed[(i*7919)%len(placed)]
			s1, e1 := a.s-50, a.e-50
			if move {
				pr.Move(a.s, a.e, s1, e1, a.procs)
			} else {
				p.Release(a.s, a.e, a.procs)
				p.Alloc(s1, e1, a.procs)
			}
			p.Release(s1, e1, a.procs)
			p.Alloc(a.s, a.e, a.procs)
		}
	})
}
