package backfill

import (
	"fmt"
	"math"

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
// availability profile. Schedule is the driver (pass.go) over a queue
// order and a reservation planner chosen when the engine is built. See
// the package doc for the exact pass.
type Backfill struct {
	name  string
	depth int
	w     waitQueue

	machs []platform.Machine
	// pl plans the reservations (planner.go): chosen when the engine is
	// built; ord orders the queue before each pass (order.go).
	pl    planner
	ord   queueOrder
	scan  []int32   // the machines in the order Pick tries them
	multi bool      // built over a platform (NewBackfillMulti)
	slab  attrsSlab // multi: the jobs' attributes
	pick  Pick
	flex  FlexParams   // OrderPriority: the priority function's constants
	mf    *multifactor // OrderMultifactor: its state (multifactor.go)

	// openValid: the CPUs free now (and, over several machines, the
	// machines with one) are known since they last changed.
	openValid bool
	resort    bool      // OrderPriority: a submission or completion since the last sort
	scratch   []entry   // OrderPriority: scratch for the sort
	keys      []prioKey // OrderPriority: scratch for the sort

	running idmap.Map[job.ID, run]
	over    []int // per machine: processors held by jobs past their estimated end
	nOver   int   // their sum

	// dirty: capacity may have been freed since the last pass, so held
	// reservations must be re-placed rather than kept.
	dirty bool
	// rebuild: a running job's estimated end moved later (Reestimate), so
	// held reservations may no longer be feasible: the next pass lifts
	// them all and places them again in queue order.
	rebuild bool
	checked bool // a multi-machine engine compared its machines with the view's

	// The arrivals-only shortcut (see shortcut, pass.go): after a pass, the queue's
	// first tested entries all were tried (or could not be, no CPU being
	// free) and stay where the pass left them; held of them hold
	// reservations, the earliest starting at minResv. arrivalsOnly: since
	// that pass, jobs were only appended (no Finish, no insertion before
	// the end).
	arrivalsOnly bool
	tested, held int
	minResv      float64
	// mayStale: a running job overran its estimate since the last step 0,
	// so a reservation may have been passed over (see dropStale).
	mayStale bool
	// benchmarks: held reservations re-placed in dirty passes (Replace
	// queries), how many of them moved, and how many the kept memo kept
	// without a query
	replaces, moves, spared int64

	fails fitMemo  // one machine: requests that did not fit now, this pass
	kept  keptMemo // profilePlanner: the last reservation Replace placed, this pass

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
	kind := planAuto
	if withProfile {
		kind = planProfile
	}
	return newBackfillPlanned(name, procs, depth, order, kind)
}

// newBackfillPlanned is NewBackfill with the planner kind (tests).
func newBackfillPlanned(name string, procs, depth int, order Order, kind planKind) *Backfill {
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
		ord:   orderFor(order),
	}
	b.pl = plannerFor(b, kind)
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
	return newBackfillMulti(c, planAuto)
}

// newBackfillMulti is NewBackfillMulti with the planner kind (tests).
func newBackfillMulti(c MultiConfig, kind planKind) (*Backfill, error) {
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
		ord:   orderFor(c.Order),
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
	b.over = make([]int, len(b.machs))
	b.pl = plannerFor(b, kind)
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
	b.pl.submitted(i, base, off, n)
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
		b.pl.lift(now, id, int(r.m), r.procs, r.estEnd)
		b.dirty = true
	case now > r.estEnd:
		// It overran with no pass in between: reservations planned on its
		// estimated end may now be stale.
		b.dirty = true
		b.mayStale = true
	}
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

// unreserve lifts e's reservation.
func (b *Backfill) unreserve(e *entry) {
	start := b.pl.unreserve(e) // the plan's start: the pass's now
	b.fails.reset()            // capacity freed: failures may fit now
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
