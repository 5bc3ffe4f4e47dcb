package backfill

import (
	"math"

	"github.com/schedlab/schedlab/freeprofile"
	"github.com/schedlab/schedlab/internal/endheap"
	"github.com/schedlab/schedlab/job"
)

// planner holds the plan a pass works on - the running jobs' estimated
// ends and the reservations, per machine - and answers the pass's
// questions about it: how many CPUs are free now, whether a job fits now
// and where, its earliest start later, where a held reservation would go
// if re-placed. The driver (pass.go) decides; the planner only plans and
// records. One planner is chosen when the policy is built (plannerFor),
// never per pass:
//
//   - profilePlanner: one machine, an availability profile
//     (freeprofile.Profile). The reference: every other planner must give
//     its schedules (plan_diff_test.go). It moves a reservation that goes
//     earlier in one change of the profile, and keeps the memo of
//     re-placements (keptmemo.go).
//   - multiPlanner: the machines of a platform, one profile each; a job
//     that fits now is looked for only on the machines with a free CPU.
//   - easyPlanner: EASY (depth 1, FCFS or SJF order) on one machine,
//     without a profile (easyfast.go), with the queue index on long
//     queues (easyindex.go).
//
// A planner keeps a pointer to its engine for what the planners share:
// the machines (dur, can), the announced windows (clearNow), the memo of
// failed fits (one machine), the counters and test hooks. What it owns is
// its plan. The engine's entries are passed in; a planner changes only
// their reservation flag (unreserve, moveEarlier).
//
// Calls per pass: begin, holdOver and releaseOver once; per waiting job
// the driver tries, at most a few of freeNow, jump, fitNow, later and
// replace, and one of start, reserve, unreserve (a jump over the entries
// that cannot start is one call, whatever it skips); dropStarted once.
// The planners' inner loops (over the machines, the running jobs, the
// index) make no interface call.
type planner interface {
	// begin starts a pass at now: it advances the plan to now and returns
	// the running jobs it held whose estimated end is at or before now
	// (each finished or overran; valid until the next start), and whether
	// the queue index is in use for this pass (jump).
	begin(now float64) (ended []runEnd, indexed bool)
	// profiles returns the availability profiles, one per machine (nil:
	// the planner keeps none). Unavailable CPUs are planned on them
	// (avail.go).
	profiles() []*freeprofile.Profile
	// holdOver holds the processors of the overrunning jobs (b.over) for
	// the instant [now, instant); releaseOver gives them back at the end
	// of the pass (called at every pass).
	holdOver(now, instant float64)
	releaseOver(now, instant float64)
	// freeNow returns the most CPUs free now on one machine.
	freeNow(now float64) int
	// jump returns, with the index in use, the first queue index j >= i
	// whose entry may start now with free CPUs free or must be visited
	// (i itself if entry i may).
	jump(q []entry, i, free int, now float64) int
	// fitNow returns the machine on which e starts if it starts now
	// (reservations in place), -1 if none.
	fitNow(now float64, e *entry) int
	// later returns, for a job that fits nowhere now, its earliest start
	// and that machine (ties: lowest index); +Inf and -1 if none.
	later(now float64, e *entry) (float64, int)
	// replace returns where e's held reservation would go if re-placed,
	// without changing the plan.
	replace(now float64, e *entry) (float64, int)
	// moveEarlier moves e's reservation to s on machine m (s earlier,
	// m its machine) in one change of the plan and lifts e's flag; false:
	// not supported, the driver unreserves and places again.
	moveEarlier(e *entry, s float64, m int) bool
	// start records e (queue index i, e.started set) started now on m
	// until end; moved: the plan already holds it (moveEarlier).
	start(now float64, i int, e *entry, m int, end float64, moved bool)
	// reserve records e's reservation (e.resv, e.m, e.hasResv set).
	reserve(i int, e *entry, moved bool)
	// unreserve lifts e's reservation from the plan and clears its flag;
	// it returns the plan's start (the pass's now).
	unreserve(e *entry) float64
	// add records a running job on machine m until end (Occupy,
	// Reestimate); lift removes what running job id (procs CPUs on m,
	// estimated end estEnd) holds from now on (an early end, Reestimate).
	// (Values, not a *run: a pointer passed through the interface would
	// move the caller's run to the heap, an allocation per job.)
	add(now float64, id job.ID, m, procs int, end float64)
	lift(now float64, id job.ID, m, procs int, estEnd float64)
	// submitted follows the insertion of a job at queue index i (base,
	// off, n: the queue before it, see indexSubmitted).
	submitted(i int, base *entry, off, n int)
	// dropStarted removes the n entries started in a pass, the first at
	// queue index from.
	dropStarted(from, n int)
	// idleShortcut reports whether a pass over an empty queue may skip to
	// its end state (idlePass).
	idleShortcut() bool
}

// planKind names a planner, for the constructors' tests.
type planKind uint8

const (
	planAuto    planKind = iota // the one the options call for
	planProfile                 // profilePlanner (one machine)
	planMulti                   // multiPlanner
	planEasy                    // easyPlanner
)

// plannerFor returns the planner of b as built (machines, depth, order):
// the EASY fast path where it applies, else the profile planner on one
// machine, else the multi-machine planner. kind forces one (tests); the
// EASY planner only where it applies.
func plannerFor(b *Backfill, kind planKind) planner {
	easy := len(b.machs) == 1 && !b.multi && b.depth == 1 && (b.w.order == OrderFCFS || b.w.order == OrderSJF)
	switch {
	case kind == planEasy || (kind == planAuto && easy):
		if !easy {
			panic("backfill: the EASY planner needs EASY in FCFS or SJF order on one machine")
		}
		return &easyPlanner{b: b, z: newEasyProf(b.machs[0].CPUs)}
	case kind == planMulti || (kind == planAuto && len(b.machs) > 1):
		return &multiPlanner{profileSet: newProfileSet(b)}
	}
	return &profilePlanner{profileSet: newProfileSet(b)}
}

// profileSet is what the profile planners share: an availability profile
// per machine (running jobs from their start to their estimated end,
// reservations over their span) and the heap of estimated ends that finds
// overruns.
type profileSet struct {
	b     *Backfill
	profs []*freeprofile.Profile
	ends  endheap.Heap // running jobs by estimated end
	gone  []runEnd     // scratch: begin's answer
}

func newProfileSet(b *Backfill) profileSet {
	ps := profileSet{b: b, profs: make([]*freeprofile.Profile, len(b.machs))}
	for m, mc := range b.machs {
		ps.profs[m] = freeprofile.New(mc.CPUs, math.Inf(-1))
	}
	return ps
}

func (p *profileSet) begin(now float64) ([]runEnd, bool) {
	for _, pr := range p.profs {
		pr.Advance(now)
	}
	p.gone = p.gone[:0]
	for len(p.ends) > 0 && p.ends[0].At <= now {
		top := p.ends.Pop()
		p.gone = append(p.gone, runEnd{end: top.At, id: top.ID})
	}
	return p.gone, false
}

func (p *profileSet) profiles() []*freeprofile.Profile { return p.profs }

func (p *profileSet) holdOver(now, instant float64) {
	for m, n := range p.b.over {
		if n > 0 {
			p.profs[m].Alloc(now, instant, n)
		}
	}
}

func (p *profileSet) releaseOver(now, instant float64) {
	if p.b.nOver == 0 {
		return
	}
	for m, n := range p.b.over {
		if n > 0 {
			p.profs[m].Release(now, instant, n)
		}
	}
}

func (p *profileSet) jump(q []entry, i, free int, now float64) int { return i }

func (p *profileSet) later(now float64, e *entry) (float64, int) {
	b := p.b
	best, bm := math.Inf(1), -1
	for m := range b.machs {
		if !b.can(m, e) {
			continue
		}
		s := p.profs[m].Earliest(now, e.Procs, b.dur(e, m))
		if s <= now && !b.clearNow(now, m, e.Procs, b.dur(e, m)) {
			s = p.profs[m].Earliest(afterNow(now), e.Procs, b.dur(e, m))
		}
		if s < best {
			best, bm = s, m
		}
	}
	return best, bm
}

// replaceOwn is Replace on e's own machine: where its reservation would
// go there if re-placed.
func (p *profileSet) replaceOwn(now float64, e *entry) float64 {
	b, own := p.b, int(e.m)
	s := p.profs[own].Replace(now, e.Procs, b.dur(e, own), e.resv)
	if s <= now && !b.clearNow(now, own, e.Procs, b.dur(e, own)) {
		s = p.profs[own].Replace(afterNow(now), e.Procs, b.dur(e, own), e.resv)
	}
	return s
}

func (p *profileSet) moveEarlier(e *entry, s float64, m int) bool { return false }

func (p *profileSet) start(now float64, i int, e *entry, m int, end float64, moved bool) {
	if !moved {
		p.profs[m].Alloc(now, end, e.Procs)
	}
	p.ends.Push(endheap.Item{At: end, ID: e.ID})
}

func (p *profileSet) reserve(i int, e *entry, moved bool) {
	if !moved {
		m := int(e.m)
		p.profs[m].Alloc(e.resv, freeprofile.Span(e.resv, p.b.dur(e, m)), e.Procs)
	}
}

func (p *profileSet) unreserve(e *entry) float64 {
	m := int(e.m)
	p.profs[m].Release(e.resv, freeprofile.Span(e.resv, p.b.dur(e, m)), e.Procs)
	e.hasResv = false
	return p.profs[m].Start()
}

func (p *profileSet) add(now float64, id job.ID, m, procs int, end float64) {
	pr := p.profs[m]
	pr.Advance(now)
	pr.Alloc(now, end, procs)
	p.ends.Push(endheap.Item{At: end, ID: id}) // with Reestimate: the old item is ignored when it surfaces
}

func (p *profileSet) lift(now float64, id job.ID, m, procs int, estEnd float64) {
	if estEnd > now {
		pr := p.profs[m]
		pr.Advance(now)
		pr.Release(now, estEnd, procs)
	}
}

func (p *profileSet) submitted(i int, base *entry, off, n int) {}
func (p *profileSet) dropStarted(from, n int)                  { p.b.w.compact(from, n) }
func (p *profileSet) idleShortcut() bool                       { return false }

// profilePlanner plans on the availability profile of one machine: the
// reference planner.
type profilePlanner struct{ profileSet }

func (p *profilePlanner) freeNow(now float64) int { return p.profs[0].FreeAt(now) }

func (p *profilePlanner) fitNow(now float64, e *entry) int {
	d, known := p.b.failsNow(e)
	if known {
		return -1
	}
	return p.b.fitOne(now, e, d, p.profs[0].Fits(now, e.Procs, d))
}

// replace is replaceOwn, answered by the kept memo where it knows the
// answer (keptmemo.go; not with announced windows).
func (p *profilePlanner) replace(now float64, e *entry) (float64, int) {
	b, own := p.b, int(e.m)
	memo := !b.hasWin && !b.hooks.keptMemoOff()
	if memo && b.kept.holds(e.Procs, b.dur(e, own), e.resv) {
		b.spared++
		return e.resv, own
	}
	s := p.replaceOwn(now, e)
	b.replaces++
	if memo {
		b.kept.set(e.Procs, b.dur(e, own), s)
	}
	return s, own
}

// moveEarlier: one change of the profile instead of a release and an
// allocation. A start needs no fitNow: Replace found room on [now,
// min(now+d, old)) and the lifted span covers the rest. (The kept memo
// holds this job's new start s < old: the span freed from old on leaves
// it true.)
func (p *profilePlanner) moveEarlier(e *entry, s float64, m int) bool {
	d, old := p.b.dur(e, m), e.resv
	p.profs[m].Move(old, freeprofile.Span(old, d), s, freeprofile.Span(s, d), e.Procs)
	e.hasResv = false
	p.b.fails.reset() // capacity freed: failures may fit now
	return true
}

// multiPlanner plans on the profiles of several machines.
type multiPlanner struct {
	profileSet
	open []int32 // the machines with a free CPU now, in Pick order (b.openValid)
}

// freeNow lists, in Pick order, the machines with a CPU free at now (the
// only ones where a job can start now), and returns the largest free
// count among them.
func (p *multiPlanner) freeNow(now float64) int {
	p.open = p.open[:0]
	most := 0
	for _, m := range p.b.scan {
		if f := p.profs[m].FreeAt(now); f > 0 {
			p.open = append(p.open, m)
			most = max(most, f)
		}
	}
	p.b.openValid = true
	return most
}

// fitNow: the first machine in Pick order among those that can hold e
// and on which it fits now (on a machine without reservations, enough
// free CPUs now; with an EASY reservation, the EASY condition).
func (p *multiPlanner) fitNow(now float64, e *entry) int {
	b := p.b
	if !b.openValid {
		p.freeNow(now)
	}
	for _, m := range p.open {
		pr := p.profs[m]
		if b.can(int(m), e) && pr.FreeAt(now) >= e.Procs && pr.Fits(now, e.Procs, b.dur(e, int(m))) && b.clearNow(now, int(m), e.Procs, b.dur(e, int(m))) {
			return int(m)
		}
	}
	return -1
}

// replace: the earliest start over the machines, e's own reservation
// lifted on its machine, ties to the lowest index.
func (p *multiPlanner) replace(now float64, e *entry) (float64, int) {
	b, own := p.b, int(e.m)
	best, bm := p.replaceOwn(now, e), own
	b.replaces++
	for m := range b.machs {
		if m == own || !b.can(m, e) {
			continue
		}
		s := p.profs[m].Earliest(now, e.Procs, b.dur(e, m))
		if s <= now && !b.clearNow(now, m, e.Procs, b.dur(e, m)) {
			s = p.profs[m].Earliest(afterNow(now), e.Procs, b.dur(e, m))
		}
		if s < best || (s == best && m < bm) {
			best, bm = s, m
		}
	}
	return best, bm
}

// failsNow returns e's duration on machine 0 and whether the fit memo
// knows it does not fit now (one machine).
func (b *Backfill) failsNow(e *entry) (float64, bool) {
	d := b.dur(e, 0)
	if !b.hooks.fitMemoOff() && b.fails.fails(e.Procs, d) {
		b.hooks.memoHit()
		return d, true
	}
	return d, false
}

// fitOne is fitNow on one machine, given the plan's answer fits to "does
// e fit now for d": the windows must let it start too, and a failure is
// remembered.
func (b *Backfill) fitOne(now float64, e *entry, d float64, fits bool) int {
	if !fits || !b.clearNow(now, 0, e.Procs, d) {
		b.fails.add(e.Procs, d)
		return -1
	}
	if b.can(0, e) {
		return 0
	}
	return -1
}
