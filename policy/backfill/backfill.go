package backfill

import (
	"fmt"
	"math"

	"github.com/schedlab/schedlab/freeprofile"
	"github.com/schedlab/schedlab/internal/endheap"
	"github.com/schedlab/schedlab/internal/idmap"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// Unlimited is the reservation depth of conservative backfilling.
const Unlimited = math.MaxInt

// Backfill is the one backfilling engine: reservation depth 1 is EASY,
// Unlimited is conservative, any k is the hybrid; the queue order is FCFS,
// SJF or a priority function (Flexible); the machines are one cluster or
// several machines of different sizes and speeds, each with its own
// availability profile. See the package doc for the exact pass.
type Backfill struct {
	name  string
	depth int
	w     waitQueue

	machs []platform.Machine
	profs []*freeprofile.Profile // one per machine; nil with ez
	// ez: the fast path of EASY on one machine (depth 1, FCFS or SJF
	// order), which answers the profile's questions without a profile
	// (easyfast.go); nil for the general engine.
	ez    *easyProf
	scan  []int32   // the machines in the order Pick tries them
	multi bool      // built over a platform (NewBackfillMulti)
	slab  attrsSlab // multi: the jobs' attributes
	pick  Pick
	flex  FlexParams   // OrderPriority: the priority function's constants
	mf    *multifactor // OrderMultifactor: its state (multifactor.go)

	open      []int32 // scratch: machines with a free CPU now, in scan order
	openValid bool
	resort    bool      // OrderPriority: a submission or completion since the last sort
	scratch   []entry   // OrderPriority: scratch for the sort
	keys      []prioKey // OrderPriority: scratch for the sort

	running idmap.Map[job.ID, run]
	ends    endheap.Heap // running jobs by estimated end, to find overruns (not with ez)
	over    []int        // per machine: processors held by jobs past their estimated end
	nOver   int          // their sum

	// dirty: capacity may have been freed since the last pass, so held
	// reservations must be re-placed rather than kept.
	dirty bool
	// rebuild: a running job's estimated end moved later (Reestimate), so
	// held reservations may no longer be feasible: the next pass lifts
	// them all and places them again in queue order.
	rebuild bool
	checked bool // a multi-machine engine compared its machines with the view's

	// The arrivals-only shortcut (see Schedule): after a pass, the queue's
	// first tested entries all were tried (or could not be, no CPU being
	// free) and stay where the pass left them; held of them hold
	// reservations, the earliest starting at minResv. arrivalsOnly: since
	// that pass, jobs were only appended (no Finish, no insertion before
	// the end).
	arrivalsOnly bool
	tested, held int
	minResv      float64
	// mayStale: a running job overran its estimate since the last step 0,
	// so a reservation may have been passed over (see Schedule).
	mayStale bool
	// benchmarks: held reservations re-placed in dirty passes (Replace
	// queries), how many of them moved, and how many the kept memo kept
	// without a query
	replaces, moves, spared int64

	fails fitMemo  // one machine: requests that did not fit now, this pass
	kept  keptMemo // one machine: the last reservation Replace placed, this pass

	// hooks: the test switches and counters, empty unless built with
	// the tag invariants (hooks_on.go, hooks_off.go).
	hooks hooks

	// OnReserve, when set, is called for every reservation made or kept in
	// a pass (tests use it to check that reservations never move later).
	OnReserve func(now float64, id job.ID, at float64)

	// Unavailable CPUs (avail.go): av after PlanAvailability, hasWin if
	// windows are announced; down holds each pass's down CPUs per
	// machine, hz the idle CPUs' next-window starts.
	av, hasWin bool
	down       []int
	hz         []policy.Horizons

	// ix: with ez, the index that skips what cannot start in long
	// queues (easyindex.go).
	ix queueIndex
}

type run struct {
	procs   int
	estEnd  float64
	m       int32
	overrun bool
	start   float64 // for Reestimate: the new end is start + the new estimate
	x       *attrs  // the job's attributes (nil in the one-machine policies)
}

// NewBackfill returns a backfilling policy over one machine of procs
// processors (the cluster model). It believes each job's estimate as it
// is and checks nothing but the processor count.
func NewBackfill(name string, procs, depth int, order Order) *Backfill {
	return newBackfill(name, procs, depth, order, false)
}

// newBackfill is NewBackfill; withProfile (tests) keeps the availability
// profile where the fast path would apply.
func newBackfill(name string, procs, depth int, order Order, withProfile bool) *Backfill {
	if depth < 1 {
		panic(fmt.Sprintf("queue: backfill depth %d < 1", depth))
	}
	b := &Backfill{
		name:  name,
		depth: depth,
		w:     waitQueue{order: order},
		machs: []platform.Machine{{CPUs: procs}},
		scan:  []int32{0},
		over:  make([]int, 1),
	}
	if depth == 1 && (order == OrderFCFS || order == OrderSJF) && !withProfile {
		b.ez = newEasyProf(procs)
	} else {
		b.profs = []*freeprofile.Profile{freeprofile.New(procs, math.Inf(-1))}
	}
	return b
}

// MultiConfig configures the engine over the machines of a platform.
type MultiConfig struct {
	Name     string
	Platform platform.Platform
	Depth    int   // 1 = EASY, Unlimited = conservative, k = hybrid
	Order    Order // OrderFCFS, OrderSJF or OrderPriority (Flexible)
	Pick     Pick  // where a job that fits now starts
	// Flex holds the priority function's constants for OrderPriority (nil:
	// DefaultFlex()); it must be nil for the other orders.
	Flex *FlexParams
}

// NewBackfillMulti returns the backfilling engine over the machines of
// c.Platform. A job runs on one machine that can hold it (CanHold) for
// its estimate scaled by speed (Estimate x BM_est / BM_m).
func NewBackfillMulti(c MultiConfig) (*Backfill, error) {
	switch {
	case c.Platform.Machines() == 0:
		return nil, fmt.Errorf("policy %s: a platform is required", c.Name)
	case c.Depth < 1:
		return nil, fmt.Errorf("policy %s: reservation depth %d < 1", c.Name, c.Depth)
	case c.Order > OrderPriority:
		return nil, fmt.Errorf("policy %s: unknown order %d", c.Name, c.Order)
	case c.Pick > PickFastest:
		return nil, fmt.Errorf("policy %s: unknown machine choice %d", c.Name, c.Pick)
	case c.Flex != nil && c.Order != OrderPriority:
		return nil, fmt.Errorf("policy %s: priority constants need the priority order, not %s", c.Name, c.Order)
	}
	b := &Backfill{
		name:  c.Name,
		depth: c.Depth,
		w:     waitQueue{order: c.Order},
		multi: true,
		pick:  c.Pick,
	}
	if c.Order == OrderPriority {
		b.flex = DefaultFlex()
		if c.Flex != nil {
			b.flex = *c.Flex
		}
		if err := b.flex.Check(); err != nil {
			return nil, fmt.Errorf("policy %s: %w", c.Name, err)
		}
	}
	b.machs, b.scan = machinesOf(c.Platform, c.Pick)
	b.profs = make([]*freeprofile.Profile, len(b.machs))
	for m, mc := range b.machs {
		b.profs[m] = freeprofile.New(mc.CPUs, math.Inf(-1))
	}
	b.over = make([]int, len(b.machs))
	return b, nil
}

func (b *Backfill) Name() string { return b.name }

// Depth is the reservation depth (Unlimited for conservative).
func (b *Backfill) Depth() int { return b.depth }

// Submit queues a job. A job that no machine can hold is not queued: it
// could never start, and the model reports it at the end of the run.
func (b *Backfill) Submit(now float64, j job.Info) {
	var slab *attrsSlab
	if b.multi || b.mf != nil {
		slab = &b.slab
	}
	e := newEntry(&j, slab)
	if !b.holdable(&e) {
		return
	}
	if b.mf != nil {
		b.mf.attach(&e, &j)
	}
	if b.w.order == OrderPriority {
		e.x.nx = b.fastestRuntime(&e)
		b.resort = true
	}
	base, off, n := basePtr(&b.w), offset(&b.w), len(b.w.q)
	i := b.w.insert(e)
	if i != len(b.w.q)-1 {
		b.arrivalsOnly = false // it went before jobs already tried
	}
	if b.ix.on {
		b.indexSubmitted(i, base, off, n)
	}
}

func (b *Backfill) Finish(now float64, id job.ID) {
	var r run
	if !b.running.Take(id, &r) {
		return
	}
	b.arrivalsOnly = false // even on time: the profile steps up at its end
	if b.mf != nil {
		b.mf.finished(id, now)
	}
	if b.w.order == OrderPriority {
		b.resort = true
	}
	b.ended(now, id, r)
}

// ended gives back what running job id (r) held: an own job's end
// (Finish) or a foreign job's (Release, foreign.go).
func (b *Backfill) ended(now float64, id job.ID, r run) {
	if r.overrun {
		b.over[r.m] -= r.procs
		b.nOver -= r.procs
		b.dirty = true
		return
	}
	switch {
	case now < r.estEnd: // early: its processors are free sooner than planned
		if b.ez != nil {
			b.ez.finishEarly(r.estEnd, id, r.procs)
		} else {
			p := b.profs[r.m]
			p.Advance(now)
			p.Release(now, r.estEnd, r.procs)
		}
		b.dirty = true
	case now > r.estEnd:
		// It overran with no pass in between: reservations planned on its
		// estimated end may now be stale.
		b.dirty = true
		b.mayStale = true
	}
}

func (b *Backfill) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	if b.multi && !b.checked {
		if err := sameMachines(b.machs, v.Platform()); err != nil {
			panic(fmt.Sprintf("policy %s: %v", b.name, err))
		}
		b.checked = true
	}
	if b.ez != nil {
		b.prepareIndex()
	}
	for _, p := range b.profs {
		p.Advance(now)
	}

	// Jobs running past their estimated end hold their processors for this
	// instant only ("could end at any moment").
	if b.ez != nil {
		for _, g := range b.ez.advance(now) {
			b.overran(g.id, g.end)
		}
	} else {
		for len(b.ends) > 0 && b.ends[0].At <= now {
			top := b.ends.Pop()
			b.overran(top.ID, top.At)
		}
	}
	if b.ez != nil && !b.av && len(b.w.q) == 0 {
		b.idlePass()
		return
	}
	var instant float64 // end of the instant [now, nextUp(now)): needed only for down CPUs and overruns
	if b.av || b.nOver > 0 {
		instant = freeprofile.Span(now, 0)
	}
	if b.av {
		b.availPass(now, v, instant)
	}
	if b.nOver > 0 {
		b.dirty = true
		if b.ez != nil {
			b.ez.over = b.nOver
			b.hooks.overPass()
		} else {
			for m, n := range b.over {
				if n > 0 {
					b.profs[m].Alloc(now, instant, n)
				}
			}
		}
	}
	if b.mf != nil {
		b.resort = true // multifactor: re-evaluated at every pass (multifactor.go)
	}
	if b.resort {
		// New priorities reorder the queue: re-place every reservation
		// (a full pass) rather than trust slots computed in another order.
		b.reprioritize(now)
		b.resort = false
		b.dirty = true
	}
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
	// (In FCFS order only a requeued job, back at its place after a
	// failure, moves others back: with unavailable CPUs, always.)
	if (b.w.order != OrderFCFS || b.av) && b.depth != Unlimited {
		for i := b.depth; i < len(q); i++ {
			if q[i].hasResv {
				b.unreserve(&q[i])
				b.dirty = true
			}
		}
	}

	b.openValid = false
	b.fails.reset() // see fitMemo
	b.kept.reset()  // see keptMemo
	full := b.dirty
	changed := false // a reservation moved or vanished: next pass is full too
	count, blocked, firstStart, nStarted := 0, false, -1, 0
	freeNow := -1 // the most CPUs free now on one machine; -1: not known
	single := len(b.machs) == 1
	memo := single && b.ez == nil && !b.hasWin && !b.hooks.keptMemoOff() // see keptMemo
	from := 0
	if b.arrivalsOnly && !b.hooks.shortcutOff() && !full && single && b.w.order == OrderFCFS && b.minResv > now && b.tested <= len(q) {
		// Arrivals only since the last pass, which tried every entry of
		// q[:b.tested]: skip them, they would fail again. Proof: an entry
		// that did not fit then had, in its window [t0, t0+d), a time p
		// with fewer free CPUs than it needs. Since then the profile has
		// only lost capacity (jobs started, reservations made; anything
		// that releases some - a completion, early or on time, an overrun,
		// a reservation moved - calls Finish or leaves the pass dirty),
		// and it steps up only at an end: of a running job (an end at or
		// before now means a completion, hence Finish, or an overrun,
		// hence dirty) or of a reservation (all start after now). So
		// either p >= now, inside the new window [now, now+d), or p < now
		// and the free CPUs at now are at most those at p: it still does
		// not fit. Reservations are kept (not dirty), so the held ones
		// count and block as before, and the new jobs are tried as the
		// full loop would try them.
		from = b.tested
		count, blocked = b.held, from > 0
		b.hooks.shortcutSkipped(from)
		if b.OnReserve != nil {
			for i := range q[:from] {
				if q[i].hasResv {
					b.notify(now, &q[i])
				}
			}
		}
	}
	minResv := math.Inf(1)
	broke := false // the loop stopped before the end of the queue
	for i := from; i < len(q); i++ {
		e := &q[i]
		if e.started {
			continue // a tombstone (easyindex.go)
		}
		if !full && e.hasResv && e.resv > now {
			// Nothing freed capacity since this slot was computed:
			// re-placing it would find the same slot.
			count++
			minResv = min(minResv, e.resv)
			blocked = true
			b.notify(now, e)
			continue
		}
		if count >= b.depth {
			if !b.openValid || freeNow < 0 {
				// Known until a job starts or a reservation at now is
				// lifted (both clear openValid).
				if b.ez != nil {
					freeNow, b.openValid = b.ez.freeNow(), true
				} else if single {
					freeNow, b.openValid = b.profs[0].FreeAt(now), true
				} else {
					freeNow = b.openMachines(now)
				}
			}
			if freeNow <= 0 {
				blocked = true
				broke = true
				break // nothing more can start, no reservation to make
			}
			if b.ix.on {
				// Jump to the next entry that may start now (or holds a
				// reservation): those between would not fit.
				lim, s1 := b.ez.indexBound(freeNow)
				if !b.ix.candidate(i, freeNow, lim, s1, now) {
					j := b.ix.next(q, i, freeNow, lim, s1, now)
					b.hooks.indexSkipped(j - i)
					blocked = true
					i = j - 1
					continue
				}
			}
			if e.Procs > freeNow {
				blocked = true
				continue
			}
		}
		old, oldM, had := e.resv, e.m, e.hasResv
		moved := false // the profile already holds its new reservation
		var s float64
		m := -1
		switch {
		case had && count < b.depth && old > now:
			// Where would it go with its own reservation lifted? Usually
			// the same slot: then the profiles are left untouched. (Its
			// slot is still feasible: everything placed since respected
			// it, and early ends only free room. At old == now, an
			// overrunning job may hold the processors: general path.)
			if memo && b.kept.holds(e.Procs, b.dur(e, int(oldM)), old) {
				s, m = old, int(oldM) // Replace's answer, known (keptMemo)
				b.spared++
			} else {
				s, m = b.replace(now, e)
				b.replaces++
				if memo {
					b.kept.set(e.Procs, b.dur(e, m), s)
				}
			}
			if s == old && m == int(oldM) {
				count++
				minResv = min(minResv, e.resv)
				blocked = true
				b.notify(now, e)
				continue
			}
			b.moves++
			if single && b.ez == nil {
				// Earlier on its machine (to start now, or as a
				// reservation): one change of the profile instead of a
				// release and an allocation. A start needs no fitNow:
				// Replace found room on [now, min(now+d, old)) and the
				// lifted span covers the rest.
				d := b.dur(e, m)
				b.profs[m].Move(old, freeprofile.Span(old, d), s, freeprofile.Span(s, d), e.Procs)
				e.hasResv = false
				b.fails.reset() // capacity freed: failures may fit now
				// (The kept memo holds this job's new start s < old: the
				// span freed from old on leaves it true.)
				moved = true
				break
			}
			b.unreserve(e)
			if s == now {
				m = b.fitNow(now, e) // it fits now: on the Pick machine
			}
		case had:
			b.unreserve(e)
			changed = true
			if count >= b.depth {
				blocked = true
				continue
			}
			s, m = b.earliest(now, e)
		default:
			if m = b.fitNow(now, e); m >= 0 {
				s = now
				break
			}
			if count >= b.depth {
				blocked = true
				continue
			}
			s, m = b.later(now, e)
		}
		if s == now {
			if b.hasWin {
				b.hz[m].Take(now+b.dur(e, m), e.Procs)
			}
			end := freeprofile.Span(now, b.dur(e, m))
			if b.ez != nil {
				b.ez.start(end, e.ID, e.Procs)
			} else if !moved {
				b.profs[m].Alloc(now, end, e.Procs)
			}
			b.openValid = false
			*b.running.Put(e.ID) = run{procs: e.Procs, estEnd: end, m: int32(m), start: now, x: e.x}
			if b.mf != nil {
				b.mf.started(e.ID, e.x.who, e.Procs, now)
			}
			if b.ez == nil {
				b.ends.Push(endheap.Item{At: end, ID: e.ID})
			}
			plan.StartOn(e.ID, reasonFor(blocked, now, &e.jobKey), m)
			e.started = true
			if b.ix.on {
				b.ix.set(i, e)
			}
			if firstStart < 0 {
				firstStart = i
			}
			nStarted++
			if had && (old != now || int(oldM) != m) {
				changed = true
			}
			continue
		}
		blocked = true
		if m < 0 {
			// No machine can hold it (Submit keeps such jobs out).
			continue
		}
		e.resv, e.m, e.hasResv = s, int32(m), true
		if b.ez != nil {
			b.ez.reserve(e.ID, s, freeprofile.Span(s, b.dur(e, m)), e.Procs)
			b.hooks.reservationsHeld(len(b.ez.resv))
			if b.ix.on {
				b.ix.set(i, e)
			}
		} else if !moved {
			b.profs[m].Alloc(s, freeprofile.Span(s, b.dur(e, m)), e.Procs)
		}
		count++
		minResv = min(minResv, s)
		if had && (old != s || int(oldM) != m) {
			changed = true
		}
		b.notify(now, e)
	}
	if b.av {
		for m, n := range b.down {
			if n > 0 {
				b.profs[m].Release(now, instant, n)
			}
		}
	}
	if b.ez != nil {
		b.ez.over = 0
	} else if b.nOver > 0 {
		for m, n := range b.over {
			if n > 0 {
				b.profs[m].Release(now, instant, n)
			}
		}
	}
	b.dirty = changed
	if firstStart >= 0 {
		b.dropStarted(firstStart, nStarted)
	}
	// Every entry left was tried; the skipped ones keep their
	// reservations, so minResv covers them too. After a stop for want of
	// free CPUs the entries not reached were not counted: no shortcut
	// (the next pass stops as fast).
	if from > 0 {
		minResv = min(minResv, b.minResv)
	}
	b.arrivalsOnly, b.tested, b.held, b.minResv = !broke, len(b.w.q), count, minResv
}

// idlePass is the rest of a pass of the EASY fast path (without
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

// overran marks job id, whose estimated end estEnd has passed, as
// overrunning if it is still running.
func (b *Backfill) overran(id job.ID, estEnd float64) {
	if r := b.running.Ptr(id); r != nil && !r.overrun && r.estEnd == estEnd {
		r.overrun = true
		b.mayStale = true
		b.over[r.m] += r.procs
		b.nOver += r.procs
	}
}

func (b *Backfill) unreserve(e *entry) {
	m := int(e.m)
	var start float64 // the profile's start: the pass's now
	if b.ez != nil {
		b.ez.unreserve(e.ID)
		start = b.ez.now
	} else {
		b.profs[m].Release(e.resv, freeprofile.Span(e.resv, b.dur(e, m)), e.Procs)
		start = b.profs[m].Start()
	}
	e.hasResv = false
	if b.ix.on {
		b.ix.set(b.posOf(e), e)
	}
	b.fails.reset() // capacity freed: failures may fit now
	b.kept.freed(e.resv)
	if e.resv <= start {
		b.openValid = false // CPUs free now changed
	}
}

// SetOnReserve sets OnReserve (policy.ReservationReporter): f is told of
// every reservation made or kept in a pass.
func (b *Backfill) SetOnReserve(f func(now float64, id job.ID, at float64)) { b.OnReserve = f }

func (b *Backfill) notify(now float64, e *entry) {
	if b.OnReserve != nil {
		b.OnReserve(now, e.ID, e.resv)
	}
}

// Queued is a waiting job as the last pass left it.
type Queued struct {
	ID job.ID
	// Priority is P(J) at the last re-sort (OrderPriority,
	// OrderMultifactor; 0 otherwise).
	Priority float64
	// Reserved: the job holds a reservation, on Machine from Start.
	Reserved bool
	Machine  int
	Start    float64
}

// Queue lists the waiting jobs in queue order with their reservations
// (for tests and inspection; a fresh slice).
func (b *Backfill) Queue() []Queued {
	out := make([]Queued, 0, len(b.w.q))
	for i := range b.w.q {
		e := &b.w.q[i]
		if e.started {
			continue // a tombstone (easyindex.go)
		}
		q := Queued{ID: e.ID, Reserved: e.hasResv}
		if b.w.order.byPriority() {
			q.Priority = e.x.prio
		}
		if e.hasResv {
			q.Machine, q.Start = int(e.m), e.resv
		}
		out = append(out, q)
	}
	return out
}
