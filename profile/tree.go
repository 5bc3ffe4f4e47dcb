package profile

import "math"

// tree is the long form of a profile: a treap of breakpoints keyed by
// time, each node holding its segment's free count, and every subtree the
// minimum and maximum free count over its segments with a pending
// addition for its children (lazy add). Range add is a split into three
// treaps, one O(1) tag on the middle one and two merges; the queries
// "first segment at or after t with free >= p" (firstGood) and "... with
// free < p" (firstBad) are descents that skip every subtree whose maximum
// (minimum) rules it out. All of it is O(log n) expected.
//
// Stored counts of a node are exact once the lazy tags of its proper
// ancestors are added; the root's are exact. Nodes live in one slice and
// refer to each other by index (0 is the empty tree), so the tree costs
// no allocation per breakpoint and nothing to the garbage collector.
type tree struct {
	n     []tnode // n[0] is the empty tree
	spare []int32 // freed nodes
	root  int32
	size  int
	first float64 // time of the first breakpoint
	rng   uint32  // priorities: a fixed xorshift sequence (the shape never shows)
}

type tnode struct {
	t                  float64
	free, mn, mx, lazy int
	l, r               int32
	pri                uint32
}

func (tr *tree) node(t float64, free int) int32 {
	if tr.rng == 0 {
		tr.rng = 2463534242
	}
	tr.rng ^= tr.rng << 13
	tr.rng ^= tr.rng >> 17
	tr.rng ^= tr.rng << 5
	var x int32
	if k := len(tr.spare); k > 0 {
		x = tr.spare[k-1]
		tr.spare = tr.spare[:k-1]
	} else {
		if len(tr.n) == 0 {
			tr.n = append(tr.n, tnode{})
		}
		tr.n = append(tr.n, tnode{})
		x = int32(len(tr.n) - 1)
	}
	tr.n[x] = tnode{t: t, free: free, mn: free, mx: free, pri: tr.rng}
	tr.size++
	return x
}

// apply adds d to every segment of subtree x.
func (tr *tree) apply(x int32, d int) {
	if x != 0 {
		nd := &tr.n[x]
		nd.free += d
		nd.mn += d
		nd.mx += d
		nd.lazy += d
	}
}

func (tr *tree) push(x int32) {
	nd := &tr.n[x]
	if nd.lazy != 0 {
		tr.apply(nd.l, nd.lazy)
		tr.apply(nd.r, nd.lazy)
		tr.n[x].lazy = 0
	}
}

// pull recomputes x's minimum and maximum; x has no pending tag.
func (tr *tree) pull(x int32) {
	nd := &tr.n[x]
	mn, mx := nd.free, nd.free
	if l := nd.l; l != 0 {
		mn, mx = min(mn, tr.n[l].mn), max(mx, tr.n[l].mx)
	}
	if r := nd.r; r != 0 {
		mn, mx = min(mn, tr.n[r].mn), max(mx, tr.n[r].mx)
	}
	nd.mn, nd.mx = mn, mx
}

// split cuts x into the keys < t and the keys >= t; both roots exact.
func (tr *tree) split(x int32, t float64) (int32, int32) {
	if x == 0 {
		return 0, 0
	}
	tr.push(x)
	if tr.n[x].t < t {
		a, b := tr.split(tr.n[x].r, t)
		tr.n[x].r = a
		tr.pull(x)
		return x, b
	}
	a, b := tr.split(tr.n[x].l, t)
	tr.n[x].l = b
	tr.pull(x)
	return a, x
}

// merge joins a and b, every key of a being below every key of b.
func (tr *tree) merge(a, b int32) int32 {
	if a == 0 {
		return b
	}
	if b == 0 {
		return a
	}
	if tr.n[a].pri > tr.n[b].pri {
		tr.push(a)
		tr.n[a].r = tr.merge(tr.n[a].r, b)
		tr.pull(a)
		return a
	}
	tr.push(b)
	tr.n[b].l = tr.merge(a, tr.n[b].l)
	tr.pull(b)
	return b
}

// minOf and maxOf return the first and last node of the (exact-rooted,
// non-empty) subtree x with its exact free count.
func (tr *tree) minOf(x int32) (int32, int) {
	acc := 0
	for tr.n[x].l != 0 {
		acc += tr.n[x].lazy
		x = tr.n[x].l
	}
	return x, tr.n[x].free + acc
}

func (tr *tree) maxOf(x int32) (int32, int) {
	acc := 0
	for tr.n[x].r != 0 {
		acc += tr.n[x].lazy
		x = tr.n[x].r
	}
	return x, tr.n[x].free + acc
}

// popMin removes the first node of x and returns the new root.
func (tr *tree) popMin(x int32) int32 {
	tr.push(x)
	if tr.n[x].l == 0 {
		r := tr.n[x].r
		tr.drop(x)
		return r
	}
	tr.n[x].l = tr.popMin(tr.n[x].l)
	tr.pull(x)
	return x
}

func (tr *tree) drop(x int32) {
	tr.spare = append(tr.spare, x)
	tr.size--
}

// dropAll frees every node of subtree x.
func (tr *tree) dropAll(x int32) {
	for x != 0 {
		tr.dropAll(tr.n[x].l)
		r := tr.n[x].r
		tr.drop(x)
		x = r
	}
}

// build makes the tree hold segs (sorted, neighbours distinct) in O(n):
// a Cartesian tree built with a stack of the right spine.
func (tr *tree) build(segs []seg) {
	stack := make([]int32, 0, 64)
	for _, g := range segs {
		x := tr.node(g.t, g.free)
		last := int32(0)
		for len(stack) > 0 && tr.n[stack[len(stack)-1]].pri < tr.n[x].pri {
			last = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
		tr.n[x].l = last
		if len(stack) > 0 {
			tr.n[stack[len(stack)-1]].r = x
		}
		stack = append(stack, x)
	}
	tr.root = stack[0]
	tr.pullAll(tr.root)
	tr.first = segs[0].t
}

func (tr *tree) pullAll(x int32) {
	if x == 0 {
		return
	}
	tr.pullAll(tr.n[x].l)
	tr.pullAll(tr.n[x].r)
	tr.pull(x)
}

// appendSegs appends the breakpoints in order, with exact counts.
func (tr *tree) appendSegs(dst []seg) []seg {
	return tr.walk(dst, tr.root, 0)
}

func (tr *tree) walk(dst []seg, x int32, acc int) []seg {
	for x != 0 {
		nd := &tr.n[x]
		dst = tr.walk(dst, nd.l, acc+nd.lazy)
		dst = append(dst, seg{t: nd.t, free: nd.free + acc})
		acc += nd.lazy
		x = nd.r
	}
	return dst
}

// seg returns the time and free count of the segment containing t (the
// first one for t before the first breakpoint).
func (tr *tree) seg(t float64) (float64, int) {
	x, acc := tr.root, 0
	bt, bv, found := 0.0, 0, false
	for x != 0 {
		nd := &tr.n[x]
		if nd.t <= t {
			bt, bv, found = nd.t, nd.free+acc, true
			acc += nd.lazy
			x = nd.r
		} else {
			acc += nd.lazy
			x = nd.l
		}
	}
	if !found {
		m, v := tr.minOf(tr.root)
		return tr.n[m].t, v
	}
	return bt, bv
}

// firstGood returns the first breakpoint in [k, hi) whose segment has at
// least p free.
func (tr *tree) firstGood(x int32, acc int, k, hi float64, p int) (float64, bool) {
	for x != 0 {
		nd := &tr.n[x]
		if nd.mx+acc < p {
			return 0, false
		}
		if nd.t >= hi { // nd and its right subtree are past the range
			acc += nd.lazy
			x = nd.l
			continue
		}
		if nd.t >= k {
			if t, ok := tr.firstGood(nd.l, acc+nd.lazy, k, hi, p); ok {
				return t, true
			}
			if nd.free+acc >= p {
				return nd.t, true
			}
		}
		acc += nd.lazy
		x = nd.r
	}
	return 0, false
}

// firstBad returns the first breakpoint at or after k whose segment has
// fewer than p free.
func (tr *tree) firstBad(x int32, acc int, k float64, p int) (float64, bool) {
	for x != 0 {
		nd := &tr.n[x]
		if nd.mn+acc >= p {
			return 0, false
		}
		if nd.t >= k {
			if t, ok := tr.firstBad(nd.l, acc+nd.lazy, k, p); ok {
				return t, true
			}
			if nd.free+acc < p {
				return nd.t, true
			}
		}
		acc += nd.lazy
		x = nd.r
	}
	return 0, false
}

// lastBad returns the last breakpoint in [lo, e) whose segment has fewer
// than p free.
func (tr *tree) lastBad(x int32, acc int, lo, e float64, p int) (float64, bool) {
	for x != 0 {
		nd := &tr.n[x]
		if nd.mn+acc >= p {
			return 0, false
		}
		if nd.t < lo { // nd and its left subtree are before the range
			acc += nd.lazy
			x = nd.r
			continue
		}
		if nd.t < e {
			if t, ok := tr.lastBad(nd.r, acc+nd.lazy, lo, e, p); ok {
				return t, true
			}
			if nd.free+acc < p {
				return nd.t, true
			}
		}
		acc += nd.lazy
		x = nd.l
	}
	return 0, false
}

func (tr *tree) advance(now float64) {
	k, _ := tr.seg(now)
	if k > tr.first {
		a, b := tr.split(tr.root, k)
		tr.dropAll(a)
		tr.root = b
	}
	m, _ := tr.minOf(tr.root)
	tr.n[m].t = now
	tr.first = now
}

// add changes the free count by delta on [s, e), s >= first < e, and
// merges equal neighbours at the two ends, as sliceProfile.add does.
func (tr *tree) add(s, e float64, delta int) {
	a, b := tr.split(tr.root, s)
	b, c := tr.split(b, e)
	if b == 0 || tr.n[first(tr, b)].t != s {
		_, v := tr.maxOf(a) // s > first, so a holds the segment containing s
		b = tr.merge(tr.node(s, v), b)
	}
	if c == 0 || tr.n[first(tr, c)].t != e {
		_, v := tr.maxOf(b)
		c = tr.merge(tr.node(e, v), c)
	}
	tr.apply(b, delta)
	if _, vb := tr.maxOf(b); vb == tr.minVal(c) {
		c = tr.popMin(c)
	}
	if a != 0 {
		if _, va := tr.maxOf(a); va == tr.minVal(b) {
			b = tr.popMin(b)
		}
	}
	tr.root = tr.merge(tr.merge(a, b), c)
}

func first(tr *tree, x int32) int32 {
	m, _ := tr.minOf(x)
	return m
}

func (tr *tree) minVal(x int32) int {
	_, v := tr.minOf(x)
	return v
}

func (tr *tree) fits(s float64, procs int, d float64) bool {
	k, _ := tr.seg(s)
	t, bad := tr.firstBad(tr.root, 0, k, procs)
	return !bad || t >= Span(s, d)
}

// earliest leapfrogs from the segment containing from: a candidate start
// lies in a segment g with at least procs free; if some segment in the
// window [start, Span(start, d)) has fewer, no start up to the last such
// segment can work (its window would contain it), so the next candidate
// is the first good segment after the last bad one. Each step is O(log n)
// and skips every short run inside the window at once.
func (tr *tree) earliest(from float64, procs int, d float64) float64 {
	inf := math.Inf(1)
	k, _ := tr.seg(from)
	g, ok := tr.firstGood(tr.root, 0, k, inf, procs)
	if !ok {
		return inf
	}
	start := from
	if g != k {
		start = g
	}
	for {
		lb, bad := tr.lastBad(tr.root, 0, g, Span(start, d), procs)
		if !bad {
			return start
		}
		if g, ok = tr.firstGood(tr.root, 0, lb, inf, procs); !ok {
			return inf
		}
		start = g
	}
}

// replace is sliceProfile.replace by the same leapfrog as earliest, the
// window being [start, min(Span(start, d), s0)); a candidate at or after
// s0 answers s0.
func (tr *tree) replace(from float64, procs int, d float64, s0 float64) float64 {
	k, v := tr.seg(from)
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
		if g, ok = tr.firstGood(tr.root, 0, k, s0, procs); !ok {
			return s0
		}
		start = g
	}
	for {
		lb, bad := tr.lastBad(tr.root, 0, g, minEnd(start, d, s0), procs)
		if !bad {
			return start
		}
		if g, ok = tr.firstGood(tr.root, 0, lb, s0, procs); !ok {
			return s0
		}
		start = g
	}
}
