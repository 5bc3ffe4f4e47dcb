package freeprofile

import "math"

// blocks is the long form of a profile: its breakpoints in order, cut
// into blocks of at most blockMax, each block with a pending addition
// for all of its counts (lazy) and the least and most count in it. A
// range add tags the blocks it covers whole and edits the two at its
// ends; the queries "first breakpoint at or after t with free >= p"
// (firstGood), "... with free < p" (firstBad) and "last ... < p"
// (lastBad) skip every block whose most (least) count rules it out and
// scan the others. A block is a short sorted slice, so all of it runs on
// contiguous memory; the block list is searched by its first keys.
type blocks struct {
	keys  []float64 // keys[k]: the time of block k's first breakpoint
	bs    []block
	size  int     // breakpoints
	first float64 // time of the first breakpoint
	spare [][]seg // arrays of dropped blocks, for new ones (no garbage)
}

type block struct {
	segs   []seg // stored counts: a breakpoint's count is free + lazy
	lazy   int
	mn, mx int // the least and most count of the block, lazy included
}

// The block sizes: a block splits in two past blockMax breakpoints; one
// that falls below blockMin joins its successor when both fit in one.
const (
	blockMax = 32
	blockMin = 8
)

func (b *block) recalc() {
	mn, mx := math.MaxInt, math.MinInt
	for _, g := range b.segs {
		mn, mx = min(mn, g.free), max(mx, g.free)
	}
	b.mn, b.mx = mn+b.lazy, mx+b.lazy
}

// flush moves the block's pending addition into its stored counts.
func (b *block) flush() {
	if b.lazy != 0 {
		for i := range b.segs {
			b.segs[i].free += b.lazy
		}
		b.lazy = 0
	}
}

// newBlock returns a block holding a copy of segs, in a spare array if
// there is one.
func (bl *blocks) newBlock(segs []seg) block {
	var a []seg
	if k := len(bl.spare); k > 0 {
		a, bl.spare = bl.spare[k-1], bl.spare[:k-1]
	} else {
		a = make([]seg, 0, blockMax+1)
	}
	b := block{segs: append(a, segs...)}
	b.recalc()
	return b
}

// free keeps the array of a block that is dropped.
func (bl *blocks) free(b *block) {
	bl.spare = append(bl.spare, b.segs[:0])
	*b = block{}
}

// build makes the blocks hold segs (sorted, neighbours distinct), in
// blocks half full.
func (bl *blocks) build(segs []seg) {
	bl.keys, bl.bs = bl.keys[:0], bl.bs[:0]
	for i := 0; i < len(segs); i += blockMax / 2 {
		part := segs[i:min(i+blockMax/2, len(segs))]
		bl.bs = append(bl.bs, bl.newBlock(part))
		bl.keys = append(bl.keys, part[0].t)
	}
	bl.size = len(segs)
	bl.first = segs[0].t
}

// appendSegs appends the breakpoints in order, with exact counts.
func (bl *blocks) appendSegs(dst []seg) []seg {
	for k := range bl.bs {
		b := &bl.bs[k]
		for _, g := range b.segs {
			dst = append(dst, seg{t: g.t, free: g.free + b.lazy})
		}
	}
	return dst
}

// locate returns the block and index of the segment containing t (the
// first segment for t before the first breakpoint).
func (bl *blocks) locate(t float64) (int, int) {
	k := bl.lastKey(0, len(bl.keys), t)
	return k, bl.within(k, t)
}

// lastKey returns the last block in [lo, hi) whose first breakpoint is at
// or before t; it requires keys[lo] <= t unless lo = 0 (then 0 if none
// is).
func (bl *blocks) lastKey(lo, hi int, t float64) int {
	keys := bl.keys
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if keys[m] <= t {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// locateFrom is locate for a t at or after block k's first breakpoint
// (keys[k] <= t), searching onwards from k: a later span end is usually
// in the same block or a near one.
func (bl *blocks) locateFrom(k int, t float64) (int, int) {
	keys := bl.keys
	if k+1 < len(keys) && keys[k+1] <= t {
		lo, hi, step := k+1, len(keys), 1 // keys[lo] <= t
		for lo+step < hi && keys[lo+step] <= t {
			lo += step
			step *= 2
		}
		k = bl.lastKey(lo, min(lo+step, hi), t) // keys[lo+step] > t, or past the end
	}
	return k, bl.within(k, t)
}

// within returns the index in block k of the segment containing t (its
// first for t before the block).
func (bl *blocks) within(k int, t float64) int {
	s := bl.bs[k].segs
	i, j := 0, len(s)
	for j-i > 1 {
		m := int(uint(i+j) >> 1)
		if s[m].t <= t {
			i = m
		} else {
			j = m
		}
	}
	return i
}

// seg returns the time and free count of the segment containing t (the
// first one for t before the first breakpoint).
func (bl *blocks) seg(t float64) (float64, int) {
	k, i := bl.locate(t)
	b := &bl.bs[k]
	return b.segs[i].t, b.segs[i].free + b.lazy
}

// prev returns the position before (k, i), false at the first breakpoint.
func (bl *blocks) prev(k, i int) (int, int, bool) {
	if i > 0 {
		return k, i - 1, true
	}
	if k > 0 {
		return k - 1, len(bl.bs[k-1].segs) - 1, true
	}
	return 0, 0, false
}

func (bl *blocks) count(k, i int) int { return bl.bs[k].segs[i].free + bl.bs[k].lazy }

// insert puts a breakpoint at t with count v after position (k, i), the
// segment containing t (t > its time), splitting the block if it is full
// (then it reports true: positions in block k from half of it on moved).
func (bl *blocks) insert(k, i int, t float64, v int) bool {
	b := &bl.bs[k]
	b.segs = append(b.segs, seg{})
	copy(b.segs[i+2:], b.segs[i+1:])
	b.segs[i+1] = seg{t: t, free: v - b.lazy}
	b.mn, b.mx = min(b.mn, v), max(b.mx, v)
	bl.size++
	if len(b.segs) > blockMax {
		half := len(b.segs) / 2
		nb := bl.newBlock(b.segs[half:])
		nb.lazy = b.lazy
		nb.recalc()
		b.segs = b.segs[:half]
		b.recalc()
		bl.bs = append(bl.bs, block{})
		copy(bl.bs[k+2:], bl.bs[k+1:])
		bl.bs[k+1] = nb
		bl.keys = append(bl.keys, 0)
		copy(bl.keys[k+2:], bl.keys[k+1:])
		bl.keys[k+1] = nb.segs[0].t
		return true
	}
	return false
}

// remove deletes the breakpoint at position (k, i), never the first of
// all; a block left short joins its successor when both fit in one.
func (bl *blocks) remove(k, i int) {
	b := &bl.bs[k]
	v := b.segs[i].free + b.lazy
	b.segs = append(b.segs[:i], b.segs[i+1:]...)
	bl.size--
	if len(b.segs) == 0 {
		bl.free(b)
		bl.bs = append(bl.bs[:k], bl.bs[k+1:]...)
		bl.keys = append(bl.keys[:k], bl.keys[k+1:]...)
		return
	}
	if i == 0 {
		bl.keys[k] = b.segs[0].t
	}
	if len(b.segs) < blockMin && k+1 < len(bl.bs) && len(b.segs)+len(bl.bs[k+1].segs) <= blockMax {
		b.flush()
		n := &bl.bs[k+1]
		n.flush()
		b.segs = append(b.segs, n.segs...)
		bl.free(n)
		bl.bs = append(bl.bs[:k+1], bl.bs[k+2:]...)
		bl.keys = append(bl.keys[:k+1], bl.keys[k+2:]...)
		b.recalc()
		return
	}
	if v == b.mn || v == b.mx {
		b.recalc() // it may have been the only one at the extreme
	}
}

func (bl *blocks) advance(now float64) {
	k, i := bl.locate(now)
	if k > 0 {
		for j := range k {
			bl.free(&bl.bs[j])
		}
		n := copy(bl.bs, bl.bs[k:])
		clear(bl.bs[n:]) // copies of the blocks moved down
		bl.bs = bl.bs[:n]
		bl.keys = bl.keys[:copy(bl.keys, bl.keys[k:])]
		bl.size = 0
		for j := range bl.bs {
			bl.size += len(bl.bs[j].segs)
		}
	}
	b := &bl.bs[0]
	if i > 0 {
		b.segs = b.segs[:copy(b.segs, b.segs[i:])]
		bl.size -= i
		b.recalc()
	}
	b.segs[0].t = now
	bl.keys[0] = now
	bl.first = now
}

// add changes the free count by delta on [s, e), s >= first < e, and
// merges equal neighbours at the two ends, as sliceProfile.add does: the
// counts around s and e decide beforehand which breakpoint is inserted
// (only one that stays) and which is removed (one that merges).
func (bl *blocks) add(s, e float64, delta int) {
	if delta == 0 {
		return
	}
	ks, is := bl.locate(s)
	hasS := bl.bs[ks].segs[is].t == s
	vS := bl.count(ks, is) // the count from s on, before the change
	hasPS, vPS := false, 0 // the segment before s
	if hasS {
		if pk, pi, ok := bl.prev(ks, is); ok {
			hasPS, vPS = true, bl.count(pk, pi)
		}
	} else {
		hasPS, vPS = true, vS
	}
	ke, ie := bl.locateFrom(ks, e) // keys[ks] <= s < e
	hasE := bl.bs[ke].segs[ie].t == e
	vE := bl.count(ke, ie)
	// The count just before e once delta is added: the last breakpoint
	// before e is at or after s (it gains delta), else s's segment runs
	// on to e.
	before := vS + delta
	pk, pi := ke, ie
	if hasE {
		pk, pi, _ = bl.prev(ke, ie) // e > s >= first: there is one
	}
	if bl.bs[pk].segs[pi].t >= s {
		before = bl.count(pk, pi) + delta
	}
	mergeS := hasPS && vPS == vS+delta
	mergeE := before == vE
	split := false // an edit at e moves s only if it splits s's block
	if hasE && mergeE {
		bl.remove(ke, ie) // leaves the positions before e where they are
	} else if !hasE && !mergeE {
		split = bl.insert(ke, ie, e, vE)
	}
	k, i := ks, is
	if split {
		k, i = bl.locate(s)
	}
	if !hasS { // without a breakpoint at s, mergeS would mean delta 0
		if bl.insert(k, i, s, vS) {
			k, i = bl.locate(s)
		} else {
			i++
		}
	}
	bl.addRange(k, i, e, delta)
	if hasS && mergeS {
		bl.remove(k, i)
	}
}

// addRange adds delta to the breakpoints from position (k, i) on that are
// before e: whole blocks by their tag.
func (bl *blocks) addRange(k, i int, e float64, delta int) {
	for ; k < len(bl.bs); k, i = k+1, 0 {
		b := &bl.bs[k]
		if i >= len(b.segs) {
			continue
		}
		if b.segs[i].t >= e {
			return
		}
		if i == 0 && b.segs[len(b.segs)-1].t < e {
			b.lazy += delta
			b.mn += delta
			b.mx += delta
			continue
		}
		// The changed part's least and most, before (stored) and after.
		lo, hi := math.MaxInt, math.MinInt
		for ; i < len(b.segs) && b.segs[i].t < e; i++ {
			lo, hi = min(lo, b.segs[i].free), max(hi, b.segs[i].free)
			b.segs[i].free += delta
		}
		lo, hi = lo+b.lazy, hi+b.lazy
		// The extreme the change moves towards is exact from the old one
		// and the changed part's; the other one needs a recount only if
		// the changed part held it (else the rest of the block holds it).
		if delta < 0 {
			b.mn = min(b.mn, lo+delta)
			if hi == b.mx {
				b.recalc()
			}
		} else {
			b.mx = max(b.mx, hi+delta)
			if lo == b.mn {
				b.recalc()
			}
		}
		if i < len(b.segs) {
			return
		}
	}
}

// from returns the position of the first breakpoint at or after k (one
// past the last block if none).
func (bl *blocks) from(k float64) (int, int) {
	kb, i := bl.locate(k)
	if bl.bs[kb].segs[i].t < k {
		i++
	}
	return kb, i
}

// firstGood returns the first breakpoint in [k, hi) whose segment has at
// least p free.
func (bl *blocks) firstGood(k, hi float64, p int) (float64, bool) {
	kb, i := bl.from(k)
	if kb, i, ok := bl.goodAt(kb, i, hi, p); ok {
		return bl.bs[kb].segs[i].t, true
	}
	return 0, false
}

// goodAt is firstGood from position (kb, i), answering a position.
func (bl *blocks) goodAt(kb, i int, hi float64, p int) (int, int, bool) {
	for ; kb < len(bl.bs); kb, i = kb+1, 0 {
		b := &bl.bs[kb]
		if i >= len(b.segs) {
			continue
		}
		if b.segs[i].t >= hi {
			return 0, 0, false
		}
		if b.mx < p {
			continue
		}
		q := p - b.lazy
		for ; i < len(b.segs); i++ {
			if b.segs[i].t >= hi {
				return 0, 0, false
			}
			if b.segs[i].free >= q {
				return kb, i, true
			}
		}
	}
	return 0, 0, false
}

// firstBad returns the first breakpoint at or after k whose segment has
// fewer than p free.
func (bl *blocks) firstBad(k float64, p int) (float64, bool) {
	kb, i := bl.from(k)
	if kb, i, ok := bl.badAt(kb, i, p); ok {
		return bl.bs[kb].segs[i].t, true
	}
	return 0, false
}

// badAt is firstBad from position (kb, i), answering a position.
func (bl *blocks) badAt(kb, i int, p int) (int, int, bool) {
	for ; kb < len(bl.bs); kb, i = kb+1, 0 {
		b := &bl.bs[kb]
		if i >= len(b.segs) || b.mn >= p {
			continue
		}
		q := p - b.lazy
		for ; i < len(b.segs); i++ {
			if b.segs[i].free < q {
				return kb, i, true
			}
		}
	}
	return 0, 0, false
}

// nextRun returns the next run of segments with at least p free from
// breakpoint k on: its first breakpoint a and the first one after it
// with fewer, b (ok false: no run; bounded false: the run never ends).
func (bl *blocks) nextRun(k float64, p int) (a, b float64, ok, bounded bool) {
	kb, i := bl.from(k)
	if kb, i, ok = bl.goodAt(kb, i, math.Inf(1), p); !ok {
		return 0, 0, false, false
	}
	a = bl.bs[kb].segs[i].t
	if kb, i, bounded = bl.badAt(kb, i, p); bounded {
		b = bl.bs[kb].segs[i].t
	}
	return a, b, true, bounded
}

// lastBad returns the last breakpoint in [lo, e) whose segment has fewer
// than p free.
func (bl *blocks) lastBad(lo, e float64, p int) (float64, bool) {
	kb, i := bl.locate(e)
	if bl.bs[kb].segs[i].t >= e {
		var ok bool
		if kb, i, ok = bl.prev(kb, i); !ok {
			return 0, false
		}
	}
	for ; kb >= 0; kb-- {
		b := &bl.bs[kb]
		if i < 0 {
			i = len(b.segs) - 1
		}
		if b.segs[i].t < lo {
			return 0, false
		}
		if b.mn >= p && b.segs[0].t >= lo {
			i = -1
			continue
		}
		q := p - b.lazy
		for ; i >= 0; i-- {
			if b.segs[i].t < lo {
				return 0, false
			}
			if b.segs[i].free < q {
				return b.segs[i].t, true
			}
		}
	}
	return 0, false
}

func (bl *blocks) fits(s float64, procs int, d float64) bool {
	k, _ := bl.seg(s)
	t, bad := bl.firstBad(k, procs)
	return !bad || t >= Span(s, d)
}

// earliest leapfrogs from the segment containing from: a candidate start
// lies in a segment g with at least procs free; if some segment in the
// window [start, Span(start, d)) has fewer, no start up to the last such
// segment can work (its window would contain it), so the next candidate
// is the first good segment after the last bad one.
func (bl *blocks) earliest(from float64, procs int, d float64) float64 {
	inf := math.Inf(1)
	k, _ := bl.seg(from)
	g, ok := bl.firstGood(k, inf, procs)
	if !ok {
		return inf
	}
	start := from
	if g != k {
		start = g
	}
	for {
		lb, bad := bl.lastBad(g, Span(start, d), procs)
		if !bad {
			return start
		}
		if g, ok = bl.firstGood(lb, inf, procs); !ok {
			return inf
		}
		start = g
	}
}

// replace is sliceProfile.replace by the same leapfrog as earliest, the
// window being [start, min(Span(start, d), s0)); a candidate at or after
// s0 answers s0.
func (bl *blocks) replace(from float64, procs int, d float64, s0 float64) float64 {
	k, v := bl.seg(from)
	if from >= s0 { // not a re-placement; answered as the slice scan does
		if v >= procs {
			return from
		}
		return s0
	}
	// The segment holding from may be good even if it starts at or
	// after s0 (from and s0 before the first breakpoint).
	g, start, ok := k, from, true
	if v < procs {
		if g, ok = bl.firstGood(k, s0, procs); !ok {
			return s0
		}
		start = g
	}
	for {
		lb, bad := bl.lastBad(g, minEnd(start, d, s0), procs)
		if !bad {
			return start
		}
		if g, ok = bl.firstGood(lb, s0, procs); !ok {
			return s0
		}
		start = g
	}
}
