package freeprofile

import "math"

// A runs cache answers Replace from the maximal runs of segments with at
// least p free, for a requested count p, instead of scanning segments. A
// list is dated by the profile's version, which Alloc, Release and Advance
// bump; a list asked for after changes keeps only its runs that end before
// the earliest change (all of them lost at an Advance). It is built
// lazily, one run at a time from there, only as far as queries need.
//
// Exactness. Replace's answer depends on the segments only through
// whether each has at least procs free, so the runs carry all of it; the
// exact conditions below are the scan's, and the only approximation, the
// bound u, only decides which runs are checked exactly, never an answer.
//
// Replace's scan, read run by run (a run [a, b) of good segments, the gap
// before it being bad): the run holding from, if any, answers from when b
// >= min(Span(from, d), s0); then each later run, in order, answers s0 if
// its gap reaches s0 (a >= s0), else a if b >= s0 or Span(a, d) <= b. Runs
// with b < s0 that fail are passed; b and the prefix maximum of an upper
// bound of the largest d that fits a run increase along the list, so a
// binary search skips them all at once.

// maxRunLists bounds the requested counts cached at once; past it the
// cache is emptied. (At most 255: slot holds an index + 1 in a byte.)
const maxRunLists = 64

// maxChanges bounds the changes a profile remembers (see changed).
const maxChanges = 4096

type run struct {
	a, b float64 // the run is [a, b); b is +Inf for the last segment's run
	u    float64 // an upper bound: Span(a, d) <= b implies d <= u
	pm   float64 // the largest u of this run and the ones before it
	bi   int     // slice form: the index of the segment at b (else -1)
}

// runList is the runs of one requested count p, from the profile's start.
type runList struct {
	p    int
	ver  uint64
	runs []run
	pos  int     // slice form: the next segment to scan, if at posT
	posT float64 // where the next run is searched from
	done bool    // the last run has been found
}

// runCache holds the run lists; slot[p]-1 indexes the list of p < len(slot).
type runCache struct {
	lists []runList
	slot  []uint8
}

// drop forgets every list.
func (c *runCache) drop() {
	for k := range c.lists {
		if q := c.lists[k].p; uint(q) < uint(len(c.slot)) {
			c.slot[q] = 0
		}
	}
	c.lists = c.lists[:0]
}

// runsFor returns the run list of p, cut back if the profile changed.
func (p *Profile) runsFor(procs int) *runList {
	c := &p.rc
	var l *runList
	if uint(procs) < uint(len(c.slot)) {
		if k := c.slot[procs]; k > 0 {
			l = &c.lists[k-1]
		}
	} else if c.slot == nil {
		c.slot = make([]uint8, min(p.total+2, 1<<16))
		return p.runsFor(procs)
	} else {
		for k := range c.lists {
			if c.lists[k].p == procs {
				l = &c.lists[k]
				break
			}
		}
	}
	if l == nil {
		if len(c.lists) == maxRunLists {
			c.drop()
		}
		if len(c.lists) < cap(c.lists) {
			c.lists = c.lists[:len(c.lists)+1]
		} else {
			c.lists = append(c.lists, runList{})
		}
		l = &c.lists[len(c.lists)-1]
		if uint(procs) < uint(len(c.slot)) {
			c.slot[procs] = uint8(len(c.lists))
		}
		*l = runList{p: procs, ver: p.ver, runs: l.runs[:0], posT: p.Start()}
		return l
	}
	if l.ver != p.ver {
		// The runs that end before every change since are kept: the
		// segments before a change are untouched, and so is the bad
		// segment at the end of such a run (nor has its index moved).
		chg := p.chg // the first change after l.ver: the earliest start since
		lo, hi := 0, len(chg)-1
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if chg[m].v > l.ver {
				hi = m
			} else {
				lo = m + 1
			}
		}
		lim := chg[lo].s
		runs := l.runs
		k, hi := 0, len(runs) // the first run that does not end before lim
		for k < hi {
			m := int(uint(k+hi) >> 1)
			if runs[m].b < lim {
				k = m + 1
			} else {
				hi = m
			}
		}
		l.runs = runs[:k]
		l.ver = p.ver
		l.done = false
		l.pos = 0
		l.posT = p.Start()
		if k > 0 {
			l.posT = runs[k-1].b
			l.pos = runs[k-1].bi
		}
	}
	return l
}

// extend appends the next run; false if there is none.
func (l *runList) extend(p *Profile) bool {
	if l.done {
		return false
	}
	inf := math.Inf(1)
	var a, b float64
	bi := -1
	if bl := p.bl; bl != nil {
		var ok, bounded bool
		if a, b, ok, bounded = bl.nextRun(l.posT, l.p); !ok {
			l.done = true
			return false
		}
		if !bounded {
			b = inf
			l.done = true
		}
	} else {
		segs := p.sl.segs
		n := len(segs)
		i := l.pos
		if i < 0 || i >= n || segs[i].t != l.posT {
			i = p.sl.index(l.posT)
		}
		for i < n && segs[i].free < l.p {
			i++
		}
		if i == n {
			l.done = true
			return false
		}
		a = segs[i].t
		for i < n && segs[i].free >= l.p {
			i++
		}
		b = inf
		if i < n {
			b = segs[i].t
		} else {
			l.done = true
		}
		l.pos, bi = i, i
	}
	l.posT = b
	u := fitBound(a, b)
	pm := u
	if k := len(l.runs); k > 0 && l.runs[k-1].pm > pm {
		pm = l.runs[k-1].pm
	}
	l.runs = append(l.runs, run{a: a, b: b, u: u, pm: pm, bi: bi})
	return true
}

// fitBound returns u such that Span(a, d) <= b implies d <= u, for a < b.
// Rounding lets a+d exceed b by up to half an ulp of b, and b-a is off by
// at most half an ulp of |a|+|b|; an ulp of x is at most |x|/2^52 (or
// 2^-1074), so (|a|+|b|)/2^49 more, and a little for the tiny, cover both
// and the rounding of the sum.
func fitBound(a, b float64) float64 {
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return math.Inf(1)
	}
	return (b - a) + (math.Abs(a)+math.Abs(b))*0x1p-49 + 0x1p-1000
}

// replaceRuns is Replace answered from the runs of procs.
func (p *Profile) replaceRuns(from float64, procs int, d float64, s0 float64) float64 {
	l := p.runsFor(procs)
	inf := math.Inf(1)
	// The run holding from: the first with b > from (the +Inf run holds
	// +Inf too, as the last segment does).
	for {
		if k := len(l.runs); k > 0 && (l.runs[k-1].b > from || l.runs[k-1].b == inf) {
			break
		}
		if !l.extend(p) {
			break
		}
	}
	runs := l.runs
	lo, hi := 0, len(runs)
	if hi > 0 && (runs[0].b > from || runs[0].b == inf) {
		hi = 0 // from is at or before the end of the first run: the usual case
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if runs[m].b > from || runs[m].b == inf {
			hi = m
		} else {
			lo = m + 1
		}
	}
	j := lo
	if j < len(runs) && runs[j].a <= max(from, p.Start()) {
		if runs[j].b >= minEnd(from, d, s0) {
			return from
		}
		j++
	}
	// Every run from j on starts after from.
	for {
		if j == len(l.runs) && !l.extend(p) {
			return s0 // the gap after the last run reaches +Inf
		}
		runs = l.runs
		if j == 0 || runs[j-1].pm < d {
			// Skip the runs that cannot fit d and end before s0: both
			// conditions are monotone along the list.
			lo, hi := j, len(runs)
			for lo < hi {
				m := int(uint(lo+hi) >> 1)
				if !(runs[m].pm < d) || runs[m].b >= s0 {
					hi = m
				} else {
					lo = m + 1
				}
			}
			if lo == len(runs) {
				j = lo
				continue // extend
			}
			j = lo
		}
		r := &runs[j]
		if r.a >= s0 {
			return s0
		}
		if r.b >= s0 || (!(r.u < d) && Span(r.a, d) <= r.b) {
			return r.a
		}
		j++
	}
}
