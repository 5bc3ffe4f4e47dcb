package freeprofile

import (
	"fmt"
	"math"
)

// Profile is the availability of a pool of Total processors over time.
// The zero value is not usable; call New.
//
// A short profile is a sorted slice of breakpoints; past blocksAbove
// breakpoints it is cut into blocks (see blocks), and becomes a slice
// again below sliceBelow. The two forms answer every query identically.
type Profile struct {
	total int
	sl    sliceProfile
	bl    *blocks  // non-nil: the block form is in use and sl is empty
	ver   uint64   // bumped by every change: dates the runs cache
	adds  uint64   // spans changed (add calls): Changes
	chg   []change // where the changes began: see changed
	rc    runCache // see replaceRuns
}

// The breakpoint counts at which a profile changes form. The gap between
// them keeps a profile that hovers around one size from converting back
// and forth. Tests lower them to drive the block form at every size.
var (
	runsAbove   = 128 // Replace answers from the runs cache at this many breakpoints
	blocksAbove = 1024
	sliceBelow  = 256
)

// New returns a profile of total processors, all free from time origin on.
func New(total int, origin float64) *Profile {
	return &Profile{total: total, sl: sliceProfile{segs: []seg{{t: origin, free: total}}}}
}

// Len is the number of breakpoints (a measure of the profile's cost).
func (p *Profile) Len() int {
	if p.bl != nil {
		return p.bl.size
	}
	return len(p.sl.segs)
}

// Span returns the end of a span of duration d starting at s: s+d, or the
// next float after s when d is zero (or too small to move s).
func Span(s, d float64) float64 {
	if e := s + d; e > s {
		return e
	}
	return nextUp(s)
}

func nextUp(s float64) float64 { return math.Nextafter(s, math.Inf(1)) }

// Advance forgets the past: segments that end at or before now are dropped
// and the first segment starts at now. now must not decrease.
func (p *Profile) Advance(now float64) {
	p.changed(math.Inf(-1))
	if p.bl != nil {
		p.bl.advance(now)
		p.shrink()
		return
	}
	p.sl.advance(now)
}

// Changes is the number of span changes made so far (each Alloc and
// Release that reaches past the profile's start counts one; a Move one or
// two): with the time a run spends in them, the cost per change that
// bounds conservative backfilling (docs/performance.md).
func (p *Profile) Changes() uint64 { return p.adds }

// Start is the time of the first breakpoint (the last Advance).
func (p *Profile) Start() float64 {
	if p.bl != nil {
		return p.bl.first
	}
	return p.sl.segs[0].t
}

// FreeAt returns the free processors at instant t.
func (p *Profile) FreeAt(t float64) int {
	if p.bl != nil {
		_, v := p.bl.seg(t)
		return v
	}
	return p.sl.freeAt(t)
}

// add changes the free count by delta on [s, e) and merges equal
// neighbours at the two ends.
func (p *Profile) add(s, e float64, delta int) {
	if e <= s {
		panic(fmt.Sprintf("profile: empty span [%v, %v)", s, e))
	}
	if first := p.Start(); s < first {
		s = first
		if e <= s {
			return
		}
	}
	p.changed(s)
	p.adds++
	if p.bl != nil {
		p.bl.add(s, e, delta)
		p.shrink()
		return
	}
	p.sl.add(s, e, delta)
	if len(p.sl.segs) > blocksAbove {
		p.bl = &blocks{}
		p.bl.build(p.sl.segs)
		p.sl.segs = nil
	}
}

// changed records a change of the profile from time s on (-Inf: all of
// it). chg keeps the suffix minima of the changes' starts: an entry is
// dropped once a later change starts at or before it, so the first entry
// after version v holds the earliest start of the changes since v (see
// runsFor). An Advance empties it.
func (p *Profile) changed(s float64) {
	p.ver++
	if len(p.rc.lists) == 0 {
		return // no list to cut back: a new one starts at p.ver
	}
	k := len(p.chg)
	for k > 0 && p.chg[k-1].s >= s {
		k--
	}
	if k >= maxChanges {
		k, s = 0, math.Inf(-1) // forget: every run list starts afresh
	}
	p.chg = append(p.chg[:k], change{v: p.ver, s: s})
}

// change is a change of a profile: its version and where it began.
type change struct {
	v uint64
	s float64
}

// shrink turns a block form that became short back into a slice.
func (p *Profile) shrink() {
	if p.bl.size < sliceBelow {
		p.sl.segs = p.bl.appendSegs(make([]seg, 0, 2*sliceBelow))
		p.bl = nil
	}
}

// Alloc takes procs processors on [s, e). Parts before the profile's start
// are ignored.
func (p *Profile) Alloc(s, e float64, procs int) { p.add(s, e, -procs) }

// Release gives back procs processors on [s, e); it undoes an Alloc.
func (p *Profile) Release(s, e float64, procs int) { p.add(s, e, procs) }

// Move moves an allocation of procs processors from [s0, e0) to an
// earlier span of the same length [s1, e1) (s1 < s0, e1 <= e0) and leaves
// the profile as Release(s0, e0) then Alloc(s1, e1) leave it. When the
// two spans overlap, only where they differ changes: [s1, s0) loses procs,
// [e1, e0) gains them, and the breakpoints in [s0, e1) are not touched.
// Any other pair of spans is done as the Release and the Alloc.
func (p *Profile) Move(s0, e0, s1, e1 float64, procs int) {
	if !(s1 < s0 && s0 < e1 && e1 <= e0) {
		p.Release(s0, e0, procs)
		p.Alloc(s1, e1, procs)
		return
	}
	p.add(s1, s0, -procs)
	if e1 < e0 {
		p.add(e1, e0, procs)
	}
}

// Fits reports whether procs processors are free on all of [s, Span(s, d)).
func (p *Profile) Fits(s float64, procs int, d float64) bool {
	if p.bl != nil {
		return p.bl.fits(s, procs, d)
	}
	return p.sl.fits(s, procs, d)
}

// Earliest returns the earliest time t >= from at which procs processors
// are free on all of [t, Span(t, d)), or +Inf if there is none (procs larger
// than what is ever free).
func (p *Profile) Earliest(from float64, procs int, d float64) float64 {
	if p.bl != nil {
		return p.bl.earliest(from, procs, d)
	}
	return p.sl.earliest(from, procs, d)
}

// Replace answers "where would a job go if re-placed?" for a job that
// holds a feasible allocation of procs processors on [s0, Span(s0, d)):
// the earliest t >= from at which procs processors are free on
// [t, min(Span(t, d), s0)), or s0 itself. It equals Earliest computed as
// if the job's own span were lifted: lifting it frees [s0, s0+d), so an
// earlier window, which ends before s0+d, needs room only before s0. Only
// the segments before s0 are looked at; the profile is not changed.
func (p *Profile) Replace(from float64, procs int, d float64, s0 float64) float64 {
	if p.Len() >= runsAbove {
		return p.replaceRuns(from, procs, d, s0)
	}
	if len(p.rc.lists) > 0 {
		p.rc.drop() // short again: stop recording changes
	}
	if p.bl != nil {
		return p.bl.replace(from, procs, d, s0)
	}
	return p.sl.replace(from, procs, d, s0)
}

// minEnd is min(Span(s, d), limit), without math.Min's NaN handling.
func minEnd(s, d, limit float64) float64 {
	if e := Span(s, d); e < limit {
		return e
	}
	return limit
}

// String renders the profile as "t:free" pairs, for tests and debugging.
func (p *Profile) String() string {
	if p.bl != nil {
		s := sliceProfile{segs: p.bl.appendSegs(nil)}
		return s.string()
	}
	return p.sl.string()
}
