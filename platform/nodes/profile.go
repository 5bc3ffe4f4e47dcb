package nodes

import (
	"cmp"
	"math"
	"slices"
)

// Span is the end of a hold of length d from t: t + d when d > 0, else
// the next float after t (a hold of length 0 still covers its instant).
func Span(t, d float64) float64 {
	if d > 0 {
		return t + d
	}
	return math.Nextafter(t, math.Inf(1))
}

// Profile is a node platform's use over time as counts: holds, each
// with per-node amounts (cores, memory, units of each kind, exclusive)
// over [a, b). What is free on a node over an interval [x, y) is its
// capacity minus the peak, over the instants of the interval, of the
// holds covering them, resource by resource; a node has jobs over the
// interval when a hold overlaps it and is held whole when an exclusive
// one does. Within a node nothing is named: a profile is the plan of a
// backfilling policy on nodes (docs/nodes.md, "Scheduling on nodes"),
// and a job names its ids only when it starts (State.Assign).
//
// It is built for speed: each node keeps the holds that use it (a
// query reads only the nodes the selection rule visits, and on each
// only its holds), and the platform's total cores in use is kept as a
// sorted step function, so that a request needing more cores than are
// free in total over an interval is refused without reading any node,
// and Earliest skips every candidate time whose interval contains an
// instant of too much use.
type Profile struct {
	sel       *Selector
	k         int
	holds     []phold
	freeSlots []int32
	byNode    [][]nref
	ev        []pev // sorted by (t, ends first, hold)
	pre       []int // prefix sums of ev's deltas; valid before index dirty
	dirty     int

	starts  []pstart // every hold's start, sorted by (a, hold)
	version uint64   // changes at every change of a hold
	// The sums of free cores over [sumX, y) of the last x asked, as a
	// step function of y (SumFreeCores): steps[k] is the sum when the
	// first k starts after sumX (from starts[sumFrom]) are inside.
	sumVer  uint64
	sumX    float64
	sumFrom int
	steps   []int
	peak    []int    // per node: its peak cores so far, valid where stamp is stampOf
	stamp   []uint32 // per node
	stampOf uint32

	plain bool // no quick refusals (DisableShortcuts)

	useVer uint64 // useAt's last answer: for this version and x
	useX   float64
	useVal int
	useOK  bool

	// Earliest's failures of requests of cores only (fitMemo), valid
	// while no hold is removed or moved; seq counts the holds added.
	memo  []earlyFail
	saved []earlyFail
	seq   uint64
	added []added // the holds added while memo is not empty (or in Restoring), in order
	cand  []float64
	// restoring: within Restoring's f
	restoring bool

	// The cores held on each node at two instants, kept as holds
	// change, for the selection rule to skip the nodes with none free
	// there (openAt).
	foc   [2]focus
	clock uint64

	ov    []int32 // scratch: overlapping refs of one node
	peakU []int
	curU  []int
	view  profView
}

// HoldID names a hold of a Profile.
type HoldID int32

// nref is a hold on one node (a node's are in order of their start):
// its slot, the node's index in it, and a copy of what a query of cores
// reads (its interval, cores, whether it
// is exclusive and whether it holds memory or units there), so that a
// node's holds are read without reading the holds.
type nref struct {
	h, i  int32
	cores int32
	excl  bool
	more  bool // memory or units held on the node
	a, b  float64
}

type phold struct {
	a, b  float64
	seq   uint64 // when it was added (Profile.seq)
	live  bool
	excl  bool
	nodes []int32
	cores []int32
	mem   []int64
	units []int32 // per node x kind
	total int
}

type pstart struct {
	a float64
	h int32
}

func cmpStart(x, y pstart) int {
	if c := cmp.Compare(x.a, y.a); c != 0 {
		return c
	}
	return cmp.Compare(x.h, y.h)
}

type pev struct {
	t   float64
	d   int
	h   int32
	end bool
}

func cmpEv(a, b pev) int {
	if c := cmp.Compare(a.t, b.t); c != 0 {
		return c
	}
	if a.end != b.end {
		if a.end {
			return -1
		}
		return 1
	}
	return cmp.Compare(a.h, b.h)
}

// NewProfile returns an empty profile over sel's platform.
func NewProfile(sel *Selector) *Profile {
	p := &Profile{sel: sel, k: sel.K, byNode: make([][]nref, sel.ns.Len()), stamp: make([]uint32, sel.ns.Len()), peak: make([]int, sel.ns.Len()),
		peakU: make([]int, sel.K), curU: make([]int, sel.K)}
	p.view.p = p
	return p
}

// DisableShortcuts makes Select and Earliest apply the selection rule at
// every interval and candidate time, without the quick refusals by
// counts: the same answers, slower (for tests that hold the shortcuts
// against the rule).
func (p *Profile) DisableShortcuts() { p.plain = true }

// Version changes at every change of the profile's holds (and only
// then: SetInterval to the same interval changes nothing).
func (p *Profile) Version() uint64 { return p.version }

// Selector is the profile's selector.
func (p *Profile) Selector() *Selector { return p.sel }

func (p *Profile) slot() int32 {
	if n := len(p.freeSlots); n > 0 {
		h := p.freeSlots[n-1]
		p.freeSlots = p.freeSlots[:n-1]
		return h
	}
	p.holds = append(p.holds, phold{})
	return int32(len(p.holds) - 1)
}

// AddSelection holds sel's amounts over [a, b).
func (p *Profile) AddSelection(a, b float64, sel *Selection) HoldID {
	h := p.slot()
	x := &p.holds[h]
	x.a, x.b, x.excl, x.total = a, b, sel.Exclusive, 0
	x.nodes, x.cores, x.mem, x.units = x.nodes[:0], x.cores[:0], x.mem[:0], x.units[:0]
	for i, pk := range sel.Picks {
		x.nodes = append(x.nodes, int32(pk.Node))
		x.cores = append(x.cores, int32(pk.Cores))
		x.mem = append(x.mem, pk.MemMB)
		for _, u := range sel.Units(i) {
			x.units = append(x.units, int32(u))
		}
		x.total += pk.Cores
	}
	p.link(h)
	return HoldID(h)
}

// AddAllocation holds al's amounts (its cores, memory and units
// counted) over [a, b).
func (p *Profile) AddAllocation(a, b float64, al Allocation) HoldID {
	h := p.slot()
	x := &p.holds[h]
	x.a, x.b, x.excl, x.total = a, b, al.Exclusive, 0
	x.nodes, x.cores, x.mem, x.units = x.nodes[:0], x.cores[:0], x.mem[:0], x.units[:0]
	for _, na := range al.Nodes {
		x.nodes = append(x.nodes, int32(na.Node))
		x.cores = append(x.cores, int32(len(na.Cores)))
		x.mem = append(x.mem, na.MemMB)
		base := len(x.units)
		for range p.k {
			x.units = append(x.units, 0)
		}
		for _, g := range na.GRES {
			if k, ok := slices.BinarySearchFunc(p.sel.ns.kinds, g.Kind, compareKind); ok {
				x.units[base+k] += int32(len(g.Units))
			}
		}
		x.total += len(na.Cores)
	}
	p.link(h)
	return HoldID(h)
}

func (p *Profile) link(h int32) {
	x := &p.holds[h]
	x.live = true
	p.seq++
	x.seq = p.seq
	if len(p.memo) > 0 || p.restoring {
		p.added = append(p.added, added{h, p.seq})
	}
	p.focusAdd(x, 1)
	k := p.k
	for i, n := range x.nodes {
		more := x.mem[i] != 0
		for q := 0; q < k && !more; q++ {
			more = x.units[i*k+q] != 0
		}
		p.insertRef(n, nref{h: h, i: int32(i), cores: x.cores[i], excl: x.excl, more: more, a: x.a, b: x.b})
	}
	p.insertEv(pev{t: x.a, d: x.total, h: h})
	p.insertEv(pev{t: x.b, d: -x.total, h: h, end: true})
	p.insertStart(pstart{x.a, h})
}

func (p *Profile) insertStart(e pstart) {
	i, _ := slices.BinarySearchFunc(p.starts, e, cmpStart)
	p.starts = slices.Insert(p.starts, i, e)
}

func (p *Profile) removeStart(e pstart) {
	if i, ok := slices.BinarySearchFunc(p.starts, e, cmpStart); ok {
		p.starts = slices.Delete(p.starts, i, i+1)
	}
}

func (p *Profile) insertEv(e pev) {
	i, _ := slices.BinarySearchFunc(p.ev, e, cmpEv)
	p.ev = slices.Insert(p.ev, i, e)
	p.dirty = min(p.dirty, i)
	p.version++
}

func (p *Profile) removeEv(e pev) {
	if i, ok := slices.BinarySearchFunc(p.ev, e, cmpEv); ok {
		p.ev = slices.Delete(p.ev, i, i+1)
		p.dirty = min(p.dirty, i)
		p.version++
	}
}

// insertRef adds r to node n's holds, kept in order of their start.
func (p *Profile) insertRef(n int32, r nref) {
	refs := p.byNode[n]
	j := len(refs)
	for j > 0 && refs[j-1].a > r.a {
		j--
	}
	p.byNode[n] = slices.Insert(refs, j, r)
}

// removeRef drops hold h from node n's holds.
func (p *Profile) removeRef(n int32, h int32) {
	refs := p.byNode[n]
	for j := range refs {
		if refs[j].h == h {
			p.byNode[n] = slices.Delete(refs, j, j+1)
			return
		}
	}
}

// Remove drops hold h.
func (p *Profile) Remove(id HoldID) {
	h := int32(id)
	x := &p.holds[h]
	for _, n := range x.nodes {
		p.removeRef(n, h)
	}
	p.removeEv(pev{t: x.a, d: x.total, h: h})
	p.removeEv(pev{t: x.b, d: -x.total, h: h, end: true})
	p.removeStart(pstart{x.a, h})
	p.focusAdd(x, -1)
	x.live = false
	p.freeSlots = append(p.freeSlots, h)
	p.memo = p.memo[:0]
}

// RemoveAll drops the holds ids, as Remove one after the other would,
// with one pass over the profile's events for all of them.
func (p *Profile) RemoveAll(ids []HoldID) {
	if len(ids) < 4 {
		for _, id := range ids {
			p.Remove(id)
		}
		return
	}
	for _, id := range ids {
		h := int32(id)
		x := &p.holds[h]
		for _, n := range x.nodes {
			p.removeRef(n, h)
		}
		p.focusAdd(x, -1)
		x.live = false
		p.freeSlots = append(p.freeSlots, h)
	}
	j := 0
	for i, e := range p.ev {
		if p.holds[e.h].live {
			p.ev[j] = e
			j++
		} else {
			p.dirty = min(p.dirty, i)
		}
	}
	p.ev = p.ev[:j]
	j = 0
	for _, e := range p.starts {
		if p.holds[e.h].live {
			p.starts[j] = e
			j++
		}
	}
	p.starts = p.starts[:j]
	p.version++
	p.memo = p.memo[:0]
}

// Interval is hold h's interval.
func (p *Profile) Interval(id HoldID) (a, b float64) {
	x := &p.holds[id]
	return x.a, x.b
}

// SetInterval moves hold h to [a, b), keeping its amounts.
func (p *Profile) SetInterval(id HoldID, a, b float64) {
	h := int32(id)
	x := &p.holds[h]
	if x.a == a && x.b == b {
		return
	}
	p.removeEv(pev{t: x.a, d: x.total, h: h})
	p.removeEv(pev{t: x.b, d: -x.total, h: h, end: true})
	p.removeStart(pstart{x.a, h})
	p.focusAdd(x, -1)
	p.memo = p.memo[:0]
	x.a, x.b = a, b
	p.focusAdd(x, 1)
	for _, n := range x.nodes {
		refs := p.byNode[n]
		for j := range refs {
			if refs[j].h == h {
				r := refs[j]
				r.a, r.b = a, b
				p.byNode[n] = slices.Delete(refs, j, j+1)
				p.insertRef(n, r)
				break
			}
		}
	}
	p.insertEv(pev{t: a, d: x.total, h: h})
	p.insertEv(pev{t: b, d: -x.total, h: h, end: true})
	p.insertStart(pstart{a, h})
}

// FreeOver fills f with node n's free amounts over [x, y).
func (p *Profile) FreeOver(n int, x, y float64, f *NodeFree) {
	p.sel.Capacity(n, f)
	refs := p.byNode[n]
	if len(refs) == 0 {
		return
	}
	ov := p.ov[:0]
	inner := false
	for j := range refs {
		r := &refs[j]
		if r.a >= y {
			break // the others start later still
		}
		if x < r.b {
			ov = append(ov, int32(j))
			if r.a > x {
				inner = true
			}
			if r.excl {
				f.Whole = true
			}
		}
	}
	p.ov = ov
	if len(ov) == 0 {
		return
	}
	f.Jobs = true
	k := p.k
	if !inner { // every overlapping hold covers x: the peak is their sum
		for _, j := range ov {
			r := &refs[j]
			f.Cores -= int(r.cores)
			if r.more {
				h, i := &p.holds[r.h], int(r.i)
				f.MemMB -= h.mem[i]
				for q := 0; q < k; q++ {
					f.Units[q] -= int(h.units[i*k+q])
				}
			}
		}
		return
	}
	// The peak is at x or at the start of a hold inside (x, y).
	peakC, peakM := 0, int64(0)
	clear(p.peakU)
	for j := -1; j < len(ov); j++ {
		s := x
		if j >= 0 {
			s = refs[ov[j]].a
			if s <= x {
				continue
			}
		}
		c, m := 0, int64(0)
		clear(p.curU)
		for _, q := range ov {
			r := &refs[q]
			if r.a <= s && s < r.b {
				c += int(r.cores)
				if r.more {
					h, i := &p.holds[r.h], int(r.i)
					m += h.mem[i]
					for u := 0; u < k; u++ {
						p.curU[u] += int(h.units[i*k+u])
					}
				}
			}
		}
		peakC, peakM = max(peakC, c), max(peakM, m)
		for u := 0; u < k; u++ {
			p.peakU[u] = max(p.peakU[u], p.curU[u])
		}
	}
	f.Cores -= peakC
	f.MemMB -= peakM
	for u := 0; u < k; u++ {
		f.Units[u] -= p.peakU[u]
	}
}

// profView is the FreeSource of a profile over one interval.
type profView struct {
	p    *Profile
	x, y float64
	open *openSet // the nodes with a core free at x (nil: not known)
}

func (v *profView) openNodes() *openSet { return v.open }

// focus is the cores held on each node at instant x (ok: kept), and
// the nodes where some are free.
type focus struct {
	x    float64
	ok   bool
	tick uint64
	use  []int32
	open openSet
}

// focusAdd adds sign times hold x's cores to the kept instants it
// covers.
func (p *Profile) focusAdd(x *phold, sign int32) {
	for fi := range p.foc {
		f := &p.foc[fi]
		if !f.ok || !(x.a <= f.x && f.x < x.b) {
			continue
		}
		for i, n := range x.nodes {
			f.use[n] += sign * x.cores[i]
			f.open.set(p.sel.pos[n], f.use[n] < p.sel.cores[n])
		}
	}
}

// openAt is the nodes with a core free at instant x, from a kept
// instant: one kept at x, else the one used least recently moved to x
// (nil: not kept, under DisableShortcuts).
func (p *Profile) openAt(x float64) *openSet {
	if p.plain {
		return nil
	}
	p.clock++
	for fi := range p.foc {
		if f := &p.foc[fi]; f.ok && f.x == x {
			f.tick = p.clock
			return &f.open
		}
	}
	f := &p.foc[0]
	if p.foc[1].tick < f.tick {
		f = &p.foc[1]
	}
	if f.use == nil {
		f.use = make([]int32, len(p.byNode))
		f.open = newOpenSet(len(p.byNode))
	}
	if !f.ok || !p.moveFocus(f, x) {
		p.fillFocus(f, x)
	}
	f.x, f.ok, f.tick = x, true, p.clock
	return &f.open
}

// moveFocus moves kept instant f to x by the holds that start or end
// between them (the others cover both or neither); it reports false,
// doing nothing, when more events lie between than there are holds
// (fillFocus is then cheaper).
func (p *Profile) moveFocus(f *focus, x float64) bool {
	lo, hi := min(f.x, x), max(f.x, x)
	after := func(t float64) int {
		i, _ := slices.BinarySearchFunc(p.ev, t, func(e pev, t float64) int {
			if e.t <= t {
				return -1
			}
			return 1
		})
		return i
	}
	i, j := after(lo), after(hi)
	if j-i > len(p.holds)-len(p.freeSlots) {
		return false
	}
	for ; i < j; i++ {
		e := p.ev[i]
		h := &p.holds[e.h]
		if e.end && lo < h.a && h.a <= hi {
			continue // done at its start
		}
		was := h.a <= f.x && f.x < h.b
		now := h.a <= x && x < h.b
		if was == now {
			continue
		}
		sign := int32(1)
		if was {
			sign = -1
		}
		for k, n := range h.nodes {
			f.use[n] += sign * h.cores[k]
			f.open.set(p.sel.pos[n], f.use[n] < p.sel.cores[n])
		}
	}
	return true
}

// fillFocus computes kept instant f at x from every hold.
func (p *Profile) fillFocus(f *focus, x float64) {
	clear(f.use)
	for h := range p.holds {
		x0 := &p.holds[h]
		if !x0.live || !(x0.a <= x && x < x0.b) {
			continue
		}
		for i, nd := range x0.nodes {
			f.use[nd] += x0.cores[i]
		}
	}
	for nd := range f.use {
		f.open.set(p.sel.pos[nd], f.use[nd] < p.sel.cores[nd])
	}
}

func (v *profView) FreeOn(n int, f *NodeFree) { v.p.FreeOver(n, v.x, v.y, f) }

// Over returns the free amounts over [x, y) as a FreeSource (valid until
// the next call of Over, Select or Earliest).
func (p *Profile) Over(x, y float64) FreeSource {
	p.view.x, p.view.y = x, y
	p.view.open = p.openAt(x)
	return &p.view
}

func (p *Profile) prefix() {
	i := min(p.dirty, len(p.pre), len(p.ev))
	if i == len(p.ev) && len(p.pre) == len(p.ev) {
		return
	}
	p.pre = p.pre[:i]
	s := 0
	if i > 0 {
		s = p.pre[i-1]
	}
	for _, e := range p.ev[i:] {
		s += e.d
		p.pre = append(p.pre, s)
	}
	p.dirty = len(p.ev)
}

// crowded reports the first instant of [x, y) at which more than limit
// cores are held, all nodes together (ok false: none).
func (p *Profile) crowded(x, y float64, limit int) (float64, bool) {
	p.prefix()
	i, _ := slices.BinarySearchFunc(p.ev, x, func(e pev, t float64) int {
		if e.t <= t {
			return -1
		}
		return 1
	})
	return p.crowdedFrom(i, x, y, limit)
}

// crowdedFrom is crowded with i the index of the first event after x
// (the prefix sums up to date).
func (p *Profile) crowdedFrom(i int, x, y float64, limit int) (float64, bool) {
	if i > 0 && p.pre[i-1] > limit {
		return x, true
	}
	for ; i < len(p.ev) && p.ev[i].t < y; i++ {
		if p.pre[i] > limit {
			return p.ev[i].t, true
		}
	}
	return 0, false
}

// TotalPeak is the most cores held at one instant of [x, y), all
// nodes together.
func (p *Profile) TotalPeak(x, y float64) int {
	p.prefix()
	i, _ := slices.BinarySearchFunc(p.ev, x, func(e pev, t float64) int {
		if e.t <= t {
			return -1
		}
		return 1
	})
	peak := 0
	if i > 0 {
		peak = p.pre[i-1]
	}
	for ; i < len(p.ev) && p.ev[i].t < y; i++ {
		peak = max(peak, p.pre[i])
	}
	return peak
}

// useAt is the cores held at instant x, all nodes together (the last
// answer is kept for the same state and x).
func (p *Profile) useAt(x float64) int {
	if p.useVer == p.version && p.useX == x && p.useOK {
		return p.useVal
	}
	p.useVer, p.useX, p.useOK = p.version, x, true
	p.useVal = p.useAt0(x)
	return p.useVal
}

func (p *Profile) useAt0(x float64) int {
	p.prefix()
	i, _ := slices.BinarySearchFunc(p.ev, x, func(e pev, t float64) int {
		if e.t <= t {
			return -1
		}
		return 1
	})
	if i == 0 {
		return 0
	}
	return p.pre[i-1]
}

// kept is the kept instant at s (nil: none).
func (p *Profile) kept(s float64) *focus {
	for fi := range p.foc {
		if f := &p.foc[fi]; f.ok && f.x == s {
			return f
		}
	}
	return nil
}

// useOn is the cores held on node n at instant s, from f when it is
// the kept instant at s.
func (p *Profile) useOn(f *focus, n int32, s float64) int {
	if f != nil {
		return int(f.use[n])
	}
	return p.coresAt(n, s)
}

// coresAt is the cores node n's holds hold at instant s.
func (p *Profile) coresAt(n int32, s float64) int {
	c := 0
	for _, r := range p.byNode[n] {
		if r.a > s {
			break // the others start later still
		}
		if s < r.b {
			c += int(r.cores)
		}
	}
	return c
}

// FreeAt is the cores free at instant x, all nodes together.
func (p *Profile) FreeAt(x float64) int { return p.sel.total - p.useAt(x) }

// SumFreeCores is the sum over the nodes of their free cores over
// [x, y). A node's peak over [x, y) is its use at x or at the start of
// a hold inside (x, y), so the sum is the cores free at x less, on each
// node where a hold starts inside, what the greatest use at such a start
// adds to its use at x: a step function of y, changing only at starts.
// It is computed once per state of the profile and x, step by step as
// later y ask (reading only the nodes of the holds that start inside).
// No request needing more cores fits over the interval.
func (p *Profile) SumFreeCores(x, y float64) int {
	if p.sumVer != p.version || p.sumX != x || len(p.steps) == 0 {
		p.sumVer, p.sumX = p.version, x
		p.sumFrom, _ = slices.BinarySearchFunc(p.starts, x, func(e pstart, t float64) int {
			if e.a <= t {
				return -1
			}
			return 1
		})
		p.steps = append(p.steps[:0], p.sel.total-p.useAt(x))
		p.stampOf++
		if p.stampOf == 0 { // wrapped: forget every stamp
			clear(p.stamp)
			p.stampOf = 1
		}
	}
	// k: the starts inside (x, y), those from sumFrom before y.
	k := len(p.steps) - 1
	if i := p.sumFrom + k; i == len(p.starts) || p.starts[i].a >= y {
		// y needs no new step: find its own among those computed.
		k, _ = slices.BinarySearchFunc(p.starts[p.sumFrom:p.sumFrom+k], y, func(e pstart, t float64) int {
			if e.a < t {
				return -1
			}
			return 1
		})
		return p.steps[k]
	}
	for {
		k := len(p.steps) - 1
		i := p.sumFrom + k
		if i == len(p.starts) || p.starts[i].a >= y {
			return p.steps[k]
		}
		// One more start inside: its nodes' use at that instant.
		sum := p.steps[k]
		a := p.starts[i].a
		fx, fa := p.kept(x), p.kept(a)
		for _, n := range p.holds[p.starts[i].h].nodes {
			if p.stamp[n] != p.stampOf {
				p.stamp[n] = p.stampOf
				p.peak[n] = p.useOn(fx, n, x)
			}
			if use := p.useOn(fa, n, a); use > p.peak[n] {
				sum -= use - p.peak[n]
				p.peak[n] = use
			}
		}
		p.steps = append(p.steps, sum)
	}
}

// Select applies the selection rule to what is free over [x, y) and
// writes it to out; it reports false when pr does not fit then. A
// request needing more cores than the nodes have free over the interval
// (SumFreeCores) is refused without the rule: that assumes no node is
// held beyond its cores at an instant of the interval (holds placed by
// Select never are). Where some may be (a hold added without regard to
// others), Selector.Select over Over(x, y) applies the rule alone.
func (p *Profile) Select(x, y float64, pr *Prepared, out *Selection) bool {
	if !p.plain && p.SumFreeCores(x, y) < pr.MinCores {
		return false
	}
	return p.sel.Select(p.Over(x, y), pr, out)
}

// Earliest finds the first candidate time T, among the finite ends of
// the holds after now in increasing order, at which pr fits over
// [T, Span(T, d)), and writes that selection to out; it reports false
// when none works.
func (p *Profile) Earliest(now, d float64, pr *Prepared, out *Selection) (float64, bool) {
	return p.EarliestBy(now, math.Inf(1), d, pr, out)
}

// EarliestBy is Earliest looking no further than until: it reports
// false when no candidate time up to until works (a planner that
// reserves only within a window, Slurm's bf_window, need not search
// beyond it).
func (p *Profile) EarliestBy(now, until, d float64, pr *Prepared, out *Selection) (float64, bool) {
	limit := p.sel.total - pr.MinCores
	p.prefix()
	// A request of at least the cores of one of cores only that failed
	// at every candidate before its time, for no shorter, fails there
	// too (less is free now: holds were only added since), but at the
	// ends of holds added since.
	below, seq := math.Inf(-1), uint64(0)
	if !p.plain {
		for _, m := range p.memo {
			if m.now == now && pr.MinCores >= m.cores && d >= m.d && m.t > below {
				below, seq = m.t, m.seq
			}
		}
	}
	after := now
	if !math.IsInf(below, -1) {
		// Before below only the ends of the holds added since: tried
		// in increasing order, then the candidates from below on.
		p.cand = p.cand[:0]
		for _, a := range p.added {
			if h := &p.holds[a.h]; a.seq > seq && h.live && h.seq == a.seq && h.b > now && h.b < below {
				p.cand = append(p.cand, h.b)
			}
		}
		slices.Sort(p.cand)
		for k, t := range p.cand {
			if t > until {
				return p.noneBy(now, until, d, pr)
			}
			if k > 0 && t == p.cand[k-1] {
				continue
			}
			y := Span(t, d)
			if _, over := p.crowded(t, y, limit); over {
				continue
			}
			if p.Select(t, y, pr, out) {
				if pr.coresOnly {
					p.remember(earlyFail{now: now, cores: pr.MinCores, d: d, t: t, seq: p.seq})
				}
				return t, true
			}
		}
		after = math.Nextafter(below, math.Inf(-1)) // from the events at below on
	}
	i, _ := slices.BinarySearchFunc(p.ev, after, func(e pev, t float64) int {
		if e.t <= t {
			return -1
		}
		return 1
	})
	last := math.Inf(-1)
	for ; i < len(p.ev); i++ {
		e := p.ev[i]
		if !e.end || e.t == last || math.IsInf(e.t, 1) {
			continue
		}
		if e.t > until {
			return p.noneBy(now, until, d, pr)
		}
		last = e.t
		y := Span(e.t, d)
		j := i + 1 // the first event after e.t
		for j < len(p.ev) && p.ev[j].t <= e.t {
			j++
		}
		if tf, over := p.crowdedFrom(j, e.t, y, limit); over && !p.plain {
			// Every candidate up to tf has tf in its interval.
			for i+1 < len(p.ev) && p.ev[i+1].t <= tf {
				i++
			}
			last = tf
			continue
		}
		if p.Select(e.t, y, pr, out) {
			if pr.coresOnly && !p.plain {
				p.remember(earlyFail{now: now, cores: pr.MinCores, d: d, t: e.t, seq: p.seq})
			}
			return e.t, true
		}
	}
	return 0, false
}

// noneBy is EarliestBy's answer when every candidate up to until
// failed: none. A request of cores only remembers it as a failure at
// every candidate before the first time past until, so that the next
// such request of no fewer cores and no shorter time skips them (as
// Earliest's successes are remembered).
func (p *Profile) noneBy(now, until, d float64, pr *Prepared) (float64, bool) {
	if pr.coresOnly && !p.plain && !math.IsInf(until, 1) {
		p.remember(earlyFail{now: now, cores: pr.MinCores, d: d, t: math.Nextafter(until, math.Inf(1)), seq: p.seq})
	}
	return 0, false
}

// Restoring runs f, which changes the holds and reports whether it left
// them as they were (every hold it removed added back with the same
// interval and amounts, every hold it added removed): what Earliest
// learned before f then stays (holds added back count as added since).
func (p *Profile) Restoring(f func() bool) bool {
	p.saved = append(p.saved[:0], p.memo...)
	p.restoring = true
	restored := f()
	p.restoring = false
	if restored {
		p.memo = append(p.memo[:0], p.saved...)
	}
	return restored
}

type added struct {
	h   int32
	seq uint64
}

// earlyFail is a request of cores only (cores, for d) for which
// Earliest at now failed at every candidate before t, when seq holds
// had been added: there the nodes had fewer than cores free in all.
type earlyFail struct {
	now, d, t float64
	cores     int
	seq       uint64
}

const earlyFails = 8

// remember adds m, in place of one it implies or else of the oldest.
func (p *Profile) remember(m earlyFail) {
	if len(p.memo) == 0 {
		p.added = p.added[:0] // every hold in it is older than m
	}
	for i, o := range p.memo {
		if o.now != m.now || (m.cores <= o.cores && m.d <= o.d && m.t >= o.t) {
			p.memo[i] = m
			return
		}
	}
	if len(p.memo) == earlyFails {
		copy(p.memo, p.memo[1:])
		p.memo = p.memo[:earlyFails-1]
	}
	p.memo = append(p.memo, m)
}
