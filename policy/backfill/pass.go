package backfill

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/freeprofile"
	"github.com/schedlab/schedlab/policy"
)

// The driver: one scheduling pass (the package doc's steps 0 to 2). It
// orders the queue (queueOrder, order.go), drops and lifts the
// reservations that must go, then walks the queue in order and, for each
// job, asks the planner (planner.go) where it can go: it starts now,
// keeps or takes a reservation, or waits. The planner answers and
// records; every decision is taken here, the same for every planner.

// pass is the state of one walk over the queue.
type pass struct {
	now     float64
	full    bool // capacity may have been freed: held reservations are re-placed
	indexed bool // the planner's queue index is in use (planner.jump)
	from    int  // the first entry walked (the arrivals-only shortcut)
	// count: reservations held so far; blocked: a job ahead is still
	// waiting; broke: the walk stopped before the end of the queue (no
	// CPU free now, no reservation left to make); changed: a reservation
	// moved or vanished, so the next pass is full too.
	count                  int
	blocked, broke, change bool
	firstStart, nStarted   int     // the first entry started and how many
	freeNow                int     // the most CPUs free now on one machine; -1: not known
	minResv                float64 // the earliest reservation held
}

// Schedule runs a pass at now over view v and records its starts in
// plan.
func (b *Backfill) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	if b.multi && !b.checked {
		if err := sameMachines(b.machs, v.Platform()); err != nil {
			panic(fmt.Sprintf("policy %s: %v", b.name, err))
		}
		b.checked = true
	}
	ended, indexed := b.pl.begin(now)
	// Jobs running past their estimated end hold their processors for
	// this instant only ("could end at any moment").
	for _, g := range ended {
		b.overran(g.id, g.end)
	}
	if len(b.w.q) == 0 && !b.av && b.pl.idleShortcut() {
		b.idlePass()
		return
	}
	instant := b.holdInstant(now, v)
	b.reorder(now)
	b.dropStale(now)

	b.openValid = false
	b.fails.reset() // see fitMemo
	b.kept.reset()  // see keptMemo
	p := pass{now: now, full: b.dirty, indexed: indexed, firstStart: -1, freeNow: -1, minResv: math.Inf(1)}
	q := b.w.q
	b.shortcut(&p, q)
	for i := p.from; i < len(q); i++ {
		e := &q[i]
		if e.started {
			continue // a tombstone (easyindex.go)
		}
		if !p.full && e.hasResv && e.resv > now {
			// Nothing freed capacity since this slot was computed:
			// re-placing it would find the same slot.
			b.keep(&p, e)
			continue
		}
		if p.count >= b.depth {
			if j := b.screen(&p, q, i); j != i {
				i = j - 1 // skip to j (len(q): stop)
				continue
			}
		}
		b.place(&p, i, e, plan)
	}
	b.endPass(&p, instant)
}

// holdInstant holds, for the instant [now, nextUp(now)) it returns, the
// CPUs that are down and those of the jobs past their estimated end.
func (b *Backfill) holdInstant(now float64, v policy.Machines) float64 {
	var instant float64 // needed only for down CPUs and overruns
	if b.av || b.nOver > 0 {
		instant = freeprofile.Span(now, 0)
	}
	if b.av {
		b.availPass(now, v, instant)
	}
	if b.nOver > 0 {
		b.dirty = true
		b.pl.holdOver(now, instant)
	}
	return instant
}

// reorder re-sorts the queue if its order says so, and lifts every
// reservation after a running job's estimated end moved later.
func (b *Backfill) reorder(now float64) {
	if b.ord.sort(b, now, b.resort) {
		b.dirty = true // a full pass (queueOrder)
	}
	b.resort = false
	if b.rebuild {
		// A running job holds its processors longer than the reservations
		// assumed (Reestimate): some may now overlap it. Lift them all and
		// let the loop place them again in queue order, each around the
		// running jobs and the ones placed before it, as if new. (After
		// the re-sort, so that Flexible's pinned jobs stay first.)
		for i := range b.w.q {
			if b.w.q[i].hasResv {
				b.unreserve(&b.w.q[i])
			}
		}
		b.rebuild = false
		b.dirty = true
	}
}

// dropStale is steps 0 and 1: it drops the reservations whose start has
// passed and those of jobs at positions >= depth.
func (b *Backfill) dropStale(now float64) {
	q := b.w.q
	if b.dirty && (b.mayStale || b.hooks.shortcutOff()) {
		// Step 0: a reservation whose start has passed is stale; drop it.
		// Only an overrun makes one: a reservation starts where the
		// profile steps up, at the estimated end of a running job or of
		// another reservation, and a job that ends on time has its
		// completion (and a pass) there, one that ends early a dirty pass
		// before; only a job that runs past its estimated end leaves that
		// instant without a pass. So the scan of the whole queue is done
		// only after an overrun was seen (mayStale), and once more after
		// the last overrunning job has gone.
		for i := range q {
			if q[i].hasResv && q[i].resv < now {
				b.hooks.staleDropped(b.mayStale)
				b.unreserve(&q[i])
			}
		}
		b.mayStale = b.nOver > 0
	}
	// Step 1. (In FCFS order only a requeued job, back at its place after
	// a failure, moves others back: with unavailable CPUs, always.)
	if (b.w.order != OrderFCFS || b.av) && b.depth != Unlimited {
		for i := b.depth; i < len(q); i++ {
			if q[i].hasResv {
				b.unreserve(&q[i])
				b.dirty = true
			}
		}
	}
}

// shortcut starts the walk after the entries the last pass tried, when
// only arrivals came since. Proof: an entry that did not fit then had, in
// its window [t0, t0+d), a time p with fewer free CPUs than it needs.
// Since then the profile has only lost capacity (jobs started,
// reservations made; anything that releases some - a completion, early
// or on time, an overrun, a reservation moved - calls Finish or leaves
// the pass dirty), and it steps up only at an end: of a running job (an
// end at or before now means a completion, hence Finish, or an overrun,
// hence dirty) or of a reservation (all start after now). So either p >=
// now, inside the new window [now, now+d), or p < now and the free CPUs
// at now are at most those at p: it still does not fit. Reservations are
// kept (not dirty), so the held ones count and block as before, and the
// new jobs are tried as the full loop would try them.
func (b *Backfill) shortcut(p *pass, q []entry) {
	if !b.arrivalsOnly || b.hooks.shortcutOff() || p.full || len(b.machs) != 1 ||
		b.w.order != OrderFCFS || !(b.minResv > p.now) || b.tested > len(q) {
		return
	}
	p.from = b.tested
	p.count, p.blocked = b.held, p.from > 0
	b.hooks.shortcutSkipped(p.from)
	if b.OnReserve != nil {
		for i := range q[:p.from] {
			if q[i].hasResv {
				b.notify(p.now, &q[i])
			}
		}
	}
}

// keep counts e's reservation, held where it is.
func (b *Backfill) keep(p *pass, e *entry) {
	p.count++
	p.minResv = min(p.minResv, e.resv)
	p.blocked = true
	b.notify(p.now, e)
}

// screen is the backfill phase's first test of entry i (depth
// reservations held: a job without one only starts now if it fits now):
// it returns i to try it, or the index to go on from (len(q): stop).
func (b *Backfill) screen(p *pass, q []entry, i int) int {
	if !b.openValid || p.freeNow < 0 {
		// Known until a job starts or a reservation at now is lifted
		// (both clear openValid).
		p.freeNow, b.openValid = b.pl.freeNow(p.now), true
	}
	if p.freeNow <= 0 {
		p.blocked, p.broke = true, true
		return len(q) // nothing more can start, no reservation to make
	}
	if p.indexed {
		// Jump to the next entry that may start now (or holds a
		// reservation): those between would not fit.
		if j := b.pl.jump(q, i, p.freeNow, p.now); j != i {
			b.hooks.indexSkipped(j - i)
			p.blocked = true
			return j
		}
	}
	if q[i].Procs > p.freeNow {
		p.blocked = true
		return i + 1
	}
	return i
}

// place decides for entry e (queue index i): it starts now, or holds a
// reservation (kept, moved or new), or waits.
func (b *Backfill) place(p *pass, i int, e *entry, plan *policy.Plan) {
	old, oldM, had := e.resv, e.m, e.hasResv
	s, m, moved, done := b.where(p, e)
	if done {
		return
	}
	if s == p.now {
		b.startNow(p, i, e, m, moved, plan)
	} else {
		p.blocked = true
		if m < 0 {
			return // no machine can hold it (Submit keeps such jobs out)
		}
		e.resv, e.m, e.hasResv = s, int32(m), true
		b.pl.reserve(i, e, moved)
		p.count++
		p.minResv = min(p.minResv, s)
	}
	if had && (old != s || int(oldM) != m) {
		p.change = true
	}
	if e.hasResv {
		b.notify(p.now, e)
	}
}

// where returns where e goes: its start s (now: it starts) and machine
// m, moved if the planner moved its reservation there already; done if
// the pass is through with it (kept where it was, or left waiting).
func (b *Backfill) where(p *pass, e *entry) (s float64, m int, moved, done bool) {
	now, old := p.now, e.resv
	switch {
	case e.hasResv && p.count < b.depth && old > now:
		// Where would it go with its own reservation lifted? Usually the
		// same slot: then the plan is left untouched. (Its slot is still
		// feasible: everything placed since respected it, and early ends
		// only free room. At old == now, an overrunning job may hold the
		// processors: next case.)
		s, m = b.pl.replace(now, e)
		if s == old && m == int(e.m) {
			b.keep(p, e)
			return s, m, false, true
		}
		b.moves++
		if b.pl.moveEarlier(e, s, m) {
			return s, m, true, false
		}
		b.unreserve(e)
		if s == now {
			m = b.pl.fitNow(now, e) // it fits now: on the Pick machine
		}
		return s, m, false, false
	case e.hasResv:
		b.unreserve(e)
		p.change = true
		if p.count >= b.depth {
			p.blocked = true
			return 0, -1, false, true
		}
		s, m = b.earliest(now, e)
		return s, m, false, false
	}
	if m = b.pl.fitNow(now, e); m >= 0 {
		return now, m, false, false
	}
	if p.count >= b.depth {
		p.blocked = true
		return 0, -1, false, true
	}
	s, m = b.pl.later(now, e)
	return s, m, false, false
}

// startNow starts e (queue index i) now on machine m.
func (b *Backfill) startNow(p *pass, i int, e *entry, m int, moved bool, plan *policy.Plan) {
	now, d := p.now, b.dur(e, m)
	if b.hasWin {
		b.hz[m].Take(now+d, e.Procs)
	}
	end := freeprofile.Span(now, d)
	e.started = true
	b.pl.start(now, i, e, m, end, moved)
	b.openValid = false
	*b.running.Put(e.ID) = run{procs: e.Procs, estEnd: end, m: int32(m), start: now, x: e.x}
	if b.mf != nil {
		b.mf.started(e.ID, e.x.who, e.Procs, now)
	}
	plan.StartOn(e.ID, reasonFor(p.blocked, now, &e.jobKey), m)
	if p.firstStart < 0 {
		p.firstStart = i
	}
	p.nStarted++
}

// endPass gives back what was held for the instant, drops the started
// entries and records what the arrivals-only shortcut needs.
func (b *Backfill) endPass(p *pass, instant float64) {
	if b.av {
		b.releaseDown(p.now, instant)
	}
	b.pl.releaseOver(p.now, instant)
	b.dirty = p.change
	if p.firstStart >= 0 {
		b.pl.dropStarted(p.firstStart, p.nStarted)
	}
	// Every entry left was tried; the skipped ones keep their
	// reservations, so minResv covers them too. After a stop for want of
	// free CPUs the entries not reached were not counted: no shortcut
	// (the next pass stops as fast).
	minResv := p.minResv
	if p.from > 0 {
		minResv = min(minResv, b.minResv)
	}
	b.arrivalsOnly, b.tested, b.held, b.minResv = !p.broke, len(b.w.q), p.count, minResv
}

// idlePass is the rest of a pass of the EASY planner (without
// unavailable CPUs) when the queue is empty, after the overruns were
// marked: the state the full pass leaves, without its steps, none of
// which has anything to act on (no reservation to drop, lift or keep, no
// job to try). About a third of the passes on HPC2N find the queue empty.
func (b *Backfill) idlePass() {
	if b.nOver > 0 {
		b.hooks.overPass()
	}
	if (b.dirty || b.nOver > 0 || b.rebuild) && (b.mayStale || b.hooks.shortcutOff()) {
		b.mayStale = b.nOver > 0 // as step 0 leaves it
	}
	b.rebuild, b.resort = false, false
	b.openValid = false
	b.fails.reset()
	b.dirty = false
	b.arrivalsOnly, b.tested, b.held, b.minResv = true, 0, 0, math.Inf(1)
}
