package backfill

import (
	"math"

	"github.com/schedlab/schedlab/freeprofile"
)

// queueIndex lets the EASY fast path's pass skip, on a long queue, the
// waiting jobs that cannot start now, without looking at them one by one.
// It is a segment tree over the positions of the wait queue's backing
// array (waitQueue.base): each node keeps the least CPU request and the
// least estimate of the entries below it. A started entry counts as
// absent, an entry holding a reservation as one that must be visited
// (request MinInt32): the pass does more than a fit test there.
//
// Within a pass, once a job holds the reservation (count >= depth), a job
// without one starts now only if it fits now: it asks for at most the CPUs
// free now (P) and, if it ends after s1 (the first reservation start after
// now), for at most the CPUs free at s1 (the extra processors; X is the
// smaller of the two). A subtree none of whose entries can meet that
// condition (least request > X, and least request > P or least estimate
// ending after s1) holds no job the pass would start, so next jumps over
// it. The condition is necessary only (the pass then asks easyProf.fits,
// as before), so the pass makes exactly the decisions of the plain loop;
// it just stops as soon as no entry left can start ("no request left as
// small as the CPUs free"), and finds the next candidate in O(log n) while
// nothing starts. On RICC-2010 (queues of up to 23,000 jobs) that loop
// was most of the run.
//
// The index is kept only for long queues (on from minLen entries, off
// below offLen) so short queues pay nothing. While it is on, started jobs
// are left in the queue as tombstones (entry.started) and compacted only
// when they make up an eighth of it (a backfilled job deep in a long queue
// no longer moves half of the queue at every pass); a started prefix is
// still dropped by reslicing, as compact does. Positions in the backing
// array then stay put, and the changes the index must follow are few:
// appends and insertions (Submit), starts, reservations made and lifted,
// and the rare moves of the whole queue (a compaction, a new backing
// array), after which the touched range is rebuilt.
type queueIndex struct {
	on   bool
	n    int       // leaves (a power of two >= cap(base))
	mp   []int32   // least request per node (1-based heap layout, 2n)
	md   []float64 // least estimate per node
	base *entry    // &w.base[0] when last synced (nil: not built)
	bcap int       // cap(w.base) when last synced
	off  int       // the queue's offset in base when last synced
	// lo, hi: base positions to rebuild from the queue before the next
	// query (lo >= hi: none); all: rebuild everything.
	lo, hi int
	all    bool
	dead   int // started entries left in the queue
}

const (
	ixMinLen = 256 // queue length from which the index is kept
	ixOffLen = 64  // below this it is dropped
)

const (
	ixAbsent = math.MaxInt32
	ixVisit  = math.MinInt32
)

// leafOf is e's leaf value.
func leafOf(e *entry) (int32, float64) {
	switch {
	case e.started:
		return ixAbsent, math.Inf(1)
	case e.hasResv:
		return ixVisit, math.Inf(-1)
	}
	p := e.Procs
	if p >= ixAbsent {
		p = ixAbsent - 1 // a smaller bound is still a bound
	}
	return int32(p), e.Estimate
}

// offset is q's position in w.base.
func offset(w *waitQueue) int { return cap(w.base) - cap(w.q) }

func basePtr(w *waitQueue) *entry {
	if len(w.base) == 0 {
		return nil
	}
	return &w.base[0]
}

// prepareIndex is called at the start of each pass of the fast path: it
// turns the index on or off by the queue's length and brings it up to
// date.
func (p *easyPlanner) prepareIndex() {
	x := &p.ix
	n := len(p.b.w.q)
	never, from, below := p.b.hooks.indexThresholds()
	if !x.on {
		if never || n < from {
			return
		}
		x.on, x.all, x.dead = true, true, 0
	} else {
		if n < below {
			p.compactDead()
			x.on = false
			return
		}
	}
	x.sync(&p.b.w)
}

// sync rebuilds what changed since the last query.
func (x *queueIndex) sync(w *waitQueue) {
	if x.all || basePtr(w) != x.base || cap(w.base) != x.bcap || offset(w) < x.off {
		x.build(w)
		return
	}
	x.off = offset(w)
	if x.lo < x.hi {
		x.rebuild(w, x.lo, x.hi)
		x.lo, x.hi = 0, 0
	}
}

// build makes the tree anew over w.
func (x *queueIndex) build(w *waitQueue) {
	n := 1
	for n < cap(w.base) {
		n *= 2
	}
	if n != x.n {
		x.n = n
		x.mp = make([]int32, 2*n)
		x.md = make([]float64, 2*n)
	}
	x.base, x.bcap, x.off = basePtr(w), cap(w.base), offset(w)
	x.all, x.lo, x.hi = false, 0, 0
	x.rebuild(w, 0, n)
}

// rebuild recomputes the leaves of base positions [lo, hi) from the
// queue, and their ancestors.
func (x *queueIndex) rebuild(w *waitQueue, lo, hi int) {
	lo, hi = max(lo, 0), min(hi, x.n)
	if lo >= hi {
		return
	}
	off := offset(w)
	for p := lo; p < hi; p++ {
		if i := p - off; i >= 0 && i < len(w.q) {
			x.mp[x.n+p], x.md[x.n+p] = leafOf(&w.q[i])
		} else {
			x.mp[x.n+p], x.md[x.n+p] = ixAbsent, math.Inf(1)
		}
	}
	l, r := (x.n+lo)>>1, (x.n+hi-1)>>1
	for l >= 1 {
		for p := l; p <= r; p++ {
			x.mp[p] = min(x.mp[2*p], x.mp[2*p+1])
			x.md[p] = min(x.md[2*p], x.md[2*p+1])
		}
		l, r = l>>1, r>>1
	}
}

// set brings the leaf of queue index i (entry e) up to date.
func (x *queueIndex) set(i int, e *entry) {
	p := x.n + x.off + i
	x.mp[p], x.md[p] = leafOf(e)
	for p >>= 1; p >= 1; p >>= 1 {
		x.mp[p] = min(x.mp[2*p], x.mp[2*p+1])
		x.md[p] = min(x.md[2*p], x.md[2*p+1])
	}
}

// dirty notes that base positions [lo, hi) changed.
func (x *queueIndex) dirty(lo, hi int) {
	if x.lo >= x.hi {
		x.lo, x.hi = lo, hi
		return
	}
	x.lo, x.hi = min(x.lo, lo), max(x.hi, hi)
}

// indexSubmitted follows an insertion at queue index i (Submit); base,
// off and the queue's length before it are given.
func (p *easyPlanner) indexSubmitted(i int, base *entry, off, n int) {
	x := &p.ix
	w := &p.b.w
	if basePtr(w) != base || offset(w) != off {
		x.all = true // moved within its array or to a new one
		return
	}
	x.dirty(off+i, off+n+1)
}

// next returns the first queue index j >= i whose entry may start now or
// must be visited, given the CPUs free now, the bound X on the request of
// a job ending after s1, and now; len(q) if there is none.
func (x *queueIndex) next(q []entry, i, free, lim int, s1, now float64) int {
	p32, x32 := int32(min(free, ixAbsent-1)), int32(max(min(lim, ixAbsent-1), ixVisit))
	ok := func(v int) bool {
		m := x.mp[v]
		return m <= x32 || (m <= p32 && freeprofile.Span(now, x.md[v]) <= s1)
	}
	end := x.off + len(q)
	v := x.n + x.off + i
	for {
		if ok(v) {
			if v >= x.n {
				return min(v-x.n, end) - x.off
			}
			v = 2 * v
			continue
		}
		for v&1 == 1 {
			v >>= 1
		}
		if v == 0 {
			return len(q)
		}
		v++
		if v >= x.n && v-x.n >= end {
			return len(q)
		}
	}
}

// candidate reports whether the entry at queue index i may start now or
// must be visited (next's test on one leaf).
func (x *queueIndex) candidate(i, free, lim int, s1, now float64) bool {
	v := x.n + x.off + i
	m := int(x.mp[v])
	return m <= lim || (m <= free && freeprofile.Span(now, x.md[v]) <= s1)
}

// posOf returns the queue index of e (the queue is sorted by its order,
// tombstones included, and ids are unique).
func (p *easyPlanner) posOf(e *entry) int {
	w := &p.b.w
	q := w.q
	lo, hi := 0, len(q)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if w.order.less(&q[m].jobKey, &e.jobKey) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo >= len(q) || q[lo].ID != e.ID {
		panic("backfill: a queued job is missing from its place in the queue")
	}
	return lo
}

// dropStarted removes the n entries started in a pass, the first at index
// from: with the index on, the started prefix goes by reslicing and the
// others stay as tombstones until they make up an eighth of the queue;
// otherwise compact.
func (p *easyPlanner) dropStarted(from, n int) {
	x, w := &p.ix, &p.b.w
	if !x.on {
		w.compact(from, n)
		return
	}
	x.dead += n
	k := 0
	for k < len(w.q) && w.q[k].started {
		k++
	}
	w.q = w.q[k:]
	x.dead -= k
	if x.dead*8 >= len(w.q) {
		p.compactDead()
	}
}

// compactDead removes the tombstones.
func (p *easyPlanner) compactDead() {
	x, w := &p.ix, &p.b.w
	if x.dead == 0 {
		return
	}
	off, n := offset(w), len(w.q)
	from := 0
	for !w.q[from].started {
		from++
	}
	w.compact(from, x.dead)
	x.dead = 0
	x.dirty(off, off+n) // compact moves entries within the old window
}

// indexBound returns, for the pass's current state, the bound X on the
// request of a job that ends after s1, the first reservation start after
// now (+Inf: none), given the CPUs free now.
func (z *easyProf) indexBound(free int) (int, float64) {
	s1 := math.Inf(1)
	k := -1
	for i := range z.resv {
		if s := z.resv[i].s; s > z.now && s < s1 {
			s1, k = s, i
		}
	}
	if k < 0 {
		return free, s1
	}
	return min(free, z.resv[k].fAt-z.reserved(s1)), s1
}
