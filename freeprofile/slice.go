package freeprofile

import (
	"fmt"
	"math"
	"strings"
)

type seg struct {
	t    float64
	free int
}

// sliceProfile is the profile as a sorted slice of breakpoints, the form
// Profile takes while it is short.
type sliceProfile struct {
	segs []seg
	// base is the whole array segs was last grown into (advance drops
	// segments from the front by reslicing; grow moves segs back to the
	// start of base rather than allocate while base has room).
	base []seg
}

// grow makes room for m breakpoints in segs (same content), moving them
// to the front of base when that leaves a quarter of base free, else
// into a new array of twice m.
func (p *sliceProfile) grow(m int) []seg {
	if m+m/4 <= cap(p.base) {
		p.segs = p.base[:copy(p.base[:cap(p.base)], p.segs)]
		return p.segs
	}
	nb := make([]seg, len(p.segs), 2*m)
	copy(nb, p.segs)
	p.base, p.segs = nb, nb
	return nb
}

// index returns the segment containing t; t before the first breakpoint
// maps to segment 0.
func (p *sliceProfile) index(t float64) int {
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

func (p *sliceProfile) advance(now float64) {
	i := p.index(now)
	if i > 0 {
		p.segs = p.segs[i:]
	}
	p.segs[0].t = now
}

func (p *sliceProfile) freeAt(t float64) int { return p.segs[p.index(t)].free }

// add changes the free count by delta on [s, e) and merges equal
// neighbours at the two ends. The caller has checked e > s and clipped s
// to the first breakpoint. It gives what "split at s and e, add, merge
// at e then at s" gives, with one move of the tail: the breakpoint at s
// is inserted, kept or deleted, so is the one at e, and the segments in
// between shift by the first edit.
func (p *sliceProfile) add(s, e float64, delta int) {
	segs := p.segs
	n := len(segs)
	i := p.index(s) // the segment holding s
	newS := segs[i].t != s
	// Breakpoints in (s, e), and s itself if present, gain delta; the
	// same scan finds e (spans are short: cheaper than a search).
	if !newS {
		segs[i].free += delta
	}
	k := i + 1
	// Four at a time while the fourth is before e (times increase).
	for k+3 < n && segs[k+3].t < e {
		g := segs[k : k+4 : k+4]
		g[0].free += delta
		g[1].free += delta
		g[2].free += delta
		g[3].free += delta
		k += 4
	}
	for k < n && segs[k].t < e {
		segs[k].free += delta
		k++
	}
	last := k - 1 // the last breakpoint before e
	newE := k == n || segs[k].t != e
	j := k // the segment holding e, j >= i
	vE := 0
	if newE {
		j = last
		vE = segs[j].free // the count from e on, unchanged: undo delta
		if j > i || !newS {
			vE -= delta
		}
	} else {
		vE = segs[j].free
	}
	vS := segs[i].free // the count from s on
	if newS {
		vS += delta
	}
	vL := vS // the count just before e
	if last > i {
		vL = segs[last].free
	}
	mergeS := false
	if newS {
		mergeS = segs[i].free == vS
	} else if i > 0 {
		mergeS = segs[i-1].free == vS
	}
	mergeE := vL == vE
	sEdit, eEdit := 0, 0 // +1 insert the breakpoint, -1 delete it
	switch {
	case newS && !mergeS:
		sEdit = 1
	case !newS && mergeS:
		sEdit = -1
	}
	switch {
	case newE && !mergeE:
		eEdit = 1
	case !newE && mergeE:
		eEdit = -1
	}
	total := sEdit + eEdit
	mEnd := j + 1 // the segments between the edits: [i+1, mEnd)
	if eEdit < 0 {
		mEnd = j
	}
	if total != 0 {
		// Move the shorter side: the tail [j+1, n) by total, and the
		// middle by sEdit; or the head (before s) by -total, and the
		// middle by -eEdit, the new array ending where the old one did.
		head := i + 1 // the breakpoints kept before s
		if sEdit < 0 {
			head = i
		}
		costTail, costHead := n-j-1, head
		if sEdit != 0 {
			costTail += mEnd - i - 1
		}
		if eEdit != 0 {
			costHead += mEnd - i - 1
		}
		if costHead < costTail {
			var all []seg // from the new start to the old end
			oldAt, newAt := 0, 0
			if total < 0 {
				all, newAt = segs, -total
			} else if off := p.room(); off >= total {
				all, oldAt = p.base[off-total:off+n], total
			}
			if all != nil {
				if total > 0 { // moving left: the head first
					copy(all[:head], all[oldAt:oldAt+head])
					copy(all[i+1+sEdit:], all[oldAt+i+1:oldAt+mEnd])
				} else { // moving right: the middle first
					copy(all[newAt+i+1+sEdit:], all[i+1:mEnd])
					copy(all[newAt:newAt+head], all[:head])
				}
				if sEdit > 0 {
					all[newAt+i+1] = seg{t: s, free: vS}
				}
				if eEdit > 0 {
					all[newAt+j+1+sEdit] = seg{t: e, free: vE}
				}
				p.segs = all[newAt : newAt+n+total]
				return
			}
		}
	}
	if n+total > cap(segs) {
		segs = p.grow(n + total)
	}
	for k := 0; k < total; k++ {
		segs = append(segs, seg{})
	}
	if total > 0 {
		copy(segs[j+1+total:], segs[j+1:n])
		copy(segs[i+1+sEdit:], segs[i+1:mEnd])
	} else {
		copy(segs[i+1+sEdit:], segs[i+1:mEnd])
		copy(segs[j+1+total:], segs[j+1:n])
	}
	if sEdit > 0 {
		segs[i+1] = seg{t: s, free: vS}
	}
	if eEdit > 0 {
		segs[j+1+sEdit] = seg{t: e, free: vE}
	}
	p.segs = segs[:n+total]
}

// room returns how many entries of base precede segs (0 if segs is not
// in base): what add may use to grow segs at the front.
func (p *sliceProfile) room() int {
	off := cap(p.base) - cap(p.segs)
	if off <= 0 || len(p.segs) == 0 || &p.base[:off+1][off] != &p.segs[0] {
		return 0
	}
	return off
}

func (p *sliceProfile) fits(s float64, procs int, d float64) bool {
	e := Span(s, d)
	i := p.index(s)
	for ; i < len(p.segs) && (p.segs[i].t < e || p.segs[i].t <= s); i++ {
		if p.segs[i].free < procs {
			return false
		}
	}
	return true
}

// replace is one tight scan of the segments before s0 (see Replace), run
// by run: a run of short segments answers s0 if it reaches s0 (its last
// end is the largest), else the next candidate start is its end; a run of
// good ones answers its start as soon as it covers min(Span(start, d),
// s0). The reference scan checks the same conditions segment by segment.
func (p *sliceProfile) replace(from float64, procs int, d float64, s0 float64) float64 {
	segs := p.segs
	n := len(segs)
	i := p.index(from)
	start := from
	for {
		if segs[i].free < procs {
			for {
				if i++; i == n {
					return s0 // the last segment ends at +Inf
				}
				if segs[i].free >= procs {
					break
				}
			}
			if segs[i].t >= s0 {
				return s0
			}
			start = segs[i].t
		}
		need := minEnd(start, d, s0)
		for {
			if i+1 == n || segs[i+1].t >= need {
				return start
			}
			if i++; segs[i].free < procs {
				break
			}
		}
	}
}

// earliest sweeps the segments of the profile from the one containing
// from, run by run: start is the beginning of the current run of segments
// with enough processors; the answer is start as soon as that run covers
// Span(start, d).
func (p *sliceProfile) earliest(from float64, procs int, d float64) float64 {
	segs := p.segs
	n := len(segs)
	i := p.index(from)
	start := from
	for {
		if segs[i].free < procs {
			for {
				if i++; i == n {
					return math.Inf(1)
				}
				if segs[i].free >= procs {
					break
				}
			}
			start = segs[i].t
		}
		end := Span(start, d)
		for {
			if i+1 == n || end <= segs[i+1].t {
				return start
			}
			if i++; segs[i].free < procs {
				break
			}
		}
	}
}

func (p *sliceProfile) string() string {
	var b strings.Builder
	for i, g := range p.segs {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%g:%d", g.t, g.free)
	}
	return b.String()
}
