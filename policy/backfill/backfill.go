package backfill

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/profile"
)

// Unlimited is the reservation depth of conservative backfilling.
const Unlimited = math.MaxInt

// Backfill is the one backfilling engine: reservation depth 1 is EASY,
// Unlimited is conservative, any k is the hybrid. See the package doc for
// the exact pass.
type Backfill struct {
	name  string
	depth int
	w     waitQueue
	prof  *profile.Profile

	running map[job.ID]run
	ends    endHeap // running jobs by estimated end, to find overruns
	overrun int     // processors held by jobs past their estimated end

	// dirty: capacity may have been freed since the last pass, so held
	// reservations must be re-placed rather than kept.
	dirty bool

	// OnReserve, when set, is called for every reservation made or kept in
	// a pass (tests use it to check that reservations never move later).
	OnReserve func(now float64, id job.ID, at float64)
}

type run struct {
	procs   int
	estEnd  float64
	overrun bool
}

// NewBackfill returns a backfilling policy over procs processors.
func NewBackfill(name string, procs, depth int, order Order) *Backfill {
	if depth < 1 {
		panic(fmt.Sprintf("queue: backfill depth %d < 1", depth))
	}
	return &Backfill{
		name:    name,
		depth:   depth,
		w:       waitQueue{order: order},
		prof:    profile.New(procs, math.Inf(-1)),
		running: make(map[job.ID]run),
	}
}

func (b *Backfill) Name() string { return b.name }

// Depth is the reservation depth (Unlimited for conservative).
func (b *Backfill) Depth() int { return b.depth }

func (b *Backfill) Submit(now float64, j job.Info) { b.w.insert(j) }

func (b *Backfill) Finish(now float64, id job.ID) {
	r, ok := b.running[id]
	if !ok {
		return
	}
	delete(b.running, id)
	if r.overrun {
		b.overrun -= r.procs
		b.dirty = true
		return
	}
	switch {
	case now < r.estEnd: // early: its processors are free sooner than planned
		b.prof.Advance(now)
		b.prof.Release(now, r.estEnd, r.procs)
		b.dirty = true
	case now > r.estEnd:
		// It overran with no pass in between: reservations planned on its
		// estimated end may now be stale.
		b.dirty = true
	}
}

func (b *Backfill) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	b.prof.Advance(now)

	// Jobs running past their estimated end hold their processors for this
	// instant only ("could end at any moment").
	for len(b.ends) > 0 && b.ends[0].estEnd <= now {
		top := b.ends.pop()
		if r, ok := b.running[top.id]; ok && !r.overrun && r.estEnd == top.estEnd {
			r.overrun = true
			b.running[top.id] = r
			b.overrun += r.procs
		}
	}
	instant := profile.Span(now, 0)
	if b.overrun > 0 {
		b.dirty = true
		b.prof.Alloc(now, instant, b.overrun)
	}

	q := b.w.q
	if b.dirty {
		// Step 0: a reservation whose start has passed is stale (only
		// possible after an overrun); drop it.
		for i := range q {
			if q[i].hasResv && q[i].resv < now {
				b.unreserve(&q[i])
			}
		}
	}
	if b.w.order != OrderFCFS && b.depth != Unlimited {
		for i := b.depth; i < len(q); i++ {
			if q[i].hasResv {
				b.unreserve(&q[i])
				b.dirty = true
			}
		}
	}

	full := b.dirty
	changed := false // a reservation moved or vanished: next pass is full too
	count, blocked, firstStart, nStarted := 0, false, -1, 0
	for i := range q {
		e := &q[i]
		if !full && e.hasResv && e.resv > now {
			// Nothing freed capacity since this slot was computed:
			// re-placing it would find the same slot.
			count++
			blocked = true
			b.notify(now, e)
			continue
		}
		if count >= b.depth {
			freeNow := b.prof.FreeAt(now)
			if freeNow <= 0 {
				blocked = true
				break // nothing more can start, no reservation to make
			}
			if e.Procs > freeNow {
				blocked = true
				continue
			}
		}
		old, had := e.resv, e.hasResv
		var s float64
		switch {
		case had && count < b.depth && old > now:
			// Where would it go with its own reservation lifted? Usually
			// the same slot: then the profile is left untouched. (Its
			// slot is still feasible: everything placed since respected
			// it, and early ends only free room. At old == now, an
			// overrunning job may hold the processors: general path.)
			s = b.prof.Replace(now, e.Procs, e.Estimate, old)
			if s == old {
				count++
				blocked = true
				b.notify(now, e)
				continue
			}
			b.unreserve(e)
		case had:
			b.unreserve(e)
			changed = true
			fallthrough
		case !b.prof.Fits(now, e.Procs, e.Estimate):
			if count >= b.depth {
				blocked = true
				continue
			}
			s = b.prof.Earliest(now, e.Procs, e.Estimate)
		default:
			s = now
		}
		if s == now {
			end := profile.Span(now, e.Estimate)
			b.prof.Alloc(now, end, e.Procs)
			b.running[e.ID] = run{procs: e.Procs, estEnd: end}
			b.ends.push(endItem{estEnd: end, id: e.ID})
			plan.Start(e.ID, reasonFor(blocked, now, &e.jobKey))
			e.started = true
			if firstStart < 0 {
				firstStart = i
			}
			nStarted++
			if had && old != now {
				changed = true
			}
			continue
		}
		blocked = true
		if math.IsInf(s, 1) {
			// Larger than the machine: it can never start. The engine
			// rejects such jobs before they reach a policy.
			continue
		}
		e.resv, e.hasResv = s, true
		b.prof.Alloc(s, profile.Span(s, e.Estimate), e.Procs)
		count++
		if had && old != s {
			changed = true
		}
		b.notify(now, e)
	}
	if b.overrun > 0 {
		b.prof.Release(now, instant, b.overrun)
	}
	b.dirty = changed
	if firstStart >= 0 {
		b.w.compact(firstStart, nStarted)
	}
}

func (b *Backfill) unreserve(e *entry) {
	b.prof.Release(e.resv, profile.Span(e.resv, e.Estimate), e.Procs)
	e.hasResv = false
}

func (b *Backfill) notify(now float64, e *entry) {
	if b.OnReserve != nil {
		b.OnReserve(now, e.ID, e.resv)
	}
}

type endItem struct {
	estEnd float64
	id     job.ID
}

// endHeap is a typed binary min-heap of running jobs by estimated end.
type endHeap []endItem

func (a endItem) less(b endItem) bool {
	if a.estEnd != b.estEnd {
		return a.estEnd < b.estEnd
	}
	return a.id < b.id
}

func (h *endHeap) push(x endItem) {
	*h = append(*h, x)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].less(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *endHeap) pop() endItem {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	*h = s
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && s[r].less(s[l]) {
			c = r
		}
		if !s[c].less(s[i]) {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
	return top
}
