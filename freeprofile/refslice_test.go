package freeprofile

import (
	"fmt"
	"math"
	"strings"
)

// refProfile is the sorted-slice profile as it was before the tree: the
// reference that every form of Profile must agree with, kept verbatim.
type refProfile struct {
	total int
	segs  []seg
}

// newRef returns a reference profile of total processors, free from origin on.
func newRef(total int, origin float64) *refProfile {
	return &refProfile{total: total, segs: []seg{{t: origin, free: total}}}
}

// Len is the number of breakpoints (a measure of the profile's cost).
func (p *refProfile) Len() int { return len(p.segs) }

// Advance forgets the past: segments that end at or before now are dropped
// and the first segment starts at now. now must not decrease.
func (p *refProfile) Advance(now float64) {
	i := p.index(now)
	if i > 0 {
		p.segs = p.segs[i:]
	}
	p.segs[0].t = now
}

// Start is the time of the first breakpoint (the last Advance).
func (p *refProfile) Start() float64 { return p.segs[0].t }

// index returns the segment containing t; t before the first breakpoint
// maps to segment 0.
func (p *refProfile) index(t float64) int {
	s := p.segs
	// Most queries are at the front: check it before searching.
	if len(s) == 1 || t < s[1].t {
		return 0
	}
	lo, hi := 1, len(s) // s[lo].t <= t; answer in [lo, hi)
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if s[m].t <= t {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// FreeAt returns the free processors at instant t.
func (p *refProfile) FreeAt(t float64) int { return p.segs[p.index(t)].free }

// split makes t a breakpoint and returns its index. t must not be before
// the first breakpoint.
func (p *refProfile) split(t float64) int {
	i := p.index(t)
	if p.segs[i].t == t {
		return i
	}
	p.segs = append(p.segs, seg{})
	copy(p.segs[i+2:], p.segs[i+1:])
	p.segs[i+1] = seg{t: t, free: p.segs[i].free}
	return i + 1
}

// add changes the free count by delta on [s, e) and merges equal
// neighbours at the two ends.
func (p *refProfile) add(s, e float64, delta int) {
	if e <= s {
		panic(fmt.Sprintf("profile: empty span [%v, %v)", s, e))
	}
	if s < p.segs[0].t {
		s = p.segs[0].t
		if e <= s {
			return
		}
	}
	i := p.split(s)
	j := p.split(e)
	for k := i; k < j; k++ {
		p.segs[k].free += delta
	}
	// Merge at j first so that index i stays valid.
	if j < len(p.segs) && p.segs[j-1].free == p.segs[j].free {
		p.segs = append(p.segs[:j], p.segs[j+1:]...)
	}
	if i > 0 && p.segs[i-1].free == p.segs[i].free {
		p.segs = append(p.segs[:i], p.segs[i+1:]...)
	}
}

// Alloc takes procs processors on [s, e). Parts before the profile's start
// are ignored.
func (p *refProfile) Alloc(s, e float64, procs int) { p.add(s, e, -procs) }

// Release gives back procs processors on [s, e); it undoes an Alloc.
func (p *refProfile) Release(s, e float64, procs int) { p.add(s, e, procs) }

// Fits reports whether procs processors are free on all of [s, Span(s, d)).
func (p *refProfile) Fits(s float64, procs int, d float64) bool {
	e := Span(s, d)
	i := p.index(s)
	for ; i < len(p.segs) && (p.segs[i].t < e || p.segs[i].t <= s); i++ {
		if p.segs[i].free < procs {
			return false
		}
	}
	return true
}

// Earliest returns the earliest time t >= from at which procs processors
// are free on all of [t, Span(t, d)), or +Inf if there is none (procs larger
// than what is ever free).
func (p *refProfile) Earliest(from float64, procs int, d float64) float64 {
	return p.earliest(from, procs, d)
}

// Replace answers "where would a job go if re-placed?" for a job that
// holds a feasible allocation of procs processors on [s0, Span(s0, d)):
// the earliest t >= from at which procs processors are free on
// [t, min(Span(t, d), s0)), or s0 itself. It equals Earliest computed as
// if the job's own span were lifted: lifting it frees [s0, s0+d), so an
// earlier window, which ends before s0+d, needs room only before s0. One tight scan of the
// segments before s0; the profile is not changed.
func (p *refProfile) Replace(from float64, procs int, d float64, s0 float64) float64 {
	segs := p.segs
	n := len(segs)
	start := from
	need := minEnd(start, d, s0)
	for i := p.index(from); i < n; i++ {
		next := math.Inf(1)
		if i+1 < n {
			next = segs[i+1].t
		}
		if segs[i].free < procs {
			if next >= s0 {
				return s0
			}
			start = next
			need = minEnd(start, d, s0)
			continue
		}
		if next >= need {
			return start
		}
	}
	return s0
}

// earliest sweeps the segments of the profile from the one containing
// from. start is the beginning of the current run of segments with enough
// processors; the answer is start as soon as that run covers
// Span(start, d).
func (p *refProfile) earliest(from float64, procs int, d float64) float64 {
	segs := p.segs
	n := len(segs)
	inf := math.Inf(1)
	i := p.index(from)
	start := from
	for {
		segEnd := inf
		if i+1 < n {
			segEnd = segs[i+1].t
		}
		if segs[i].free < procs {
			if segEnd == inf {
				return inf
			}
			start = segEnd
		} else if Span(start, d) <= segEnd {
			return start
		}
		i++
	}
}

// String renders the profile as "t:free" pairs, for tests and debugging.
func (p *refProfile) String() string {
	var b strings.Builder
	for i, g := range p.segs {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%g:%d", g.t, g.free)
	}
	return b.String()
}
