package plan

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// entry is a job the policy knows: planned (waiting in a machine's list),
// running, or unplaced (no machine can hold it).
type entry struct {
	id       job.ID
	submit   float64
	procs    int
	est      float64 // estimate at speed bmEst
	bmEst    float64
	deadline float64 // absolute; +Inf when the job has none
	mem      float64
	speed    float64

	m       int  // machine, -1 when unplaced
	running bool // started (start is actual, end estimated)
	tabu    bool // in the current Tabu search's tabu list
	// failed is the plan version at which a Tabu move of this job found
	// no machine with a positive weight (see tabuSearch).
	failed     uint64
	start, end float64
}

// meets: the (planned or estimated) end is by the deadline.
func (e *entry) meets() bool { return e.end <= e.deadline }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// machine is one machine's part of the schedule.
type machine struct {
	spec    platform.Machine
	running []*entry // started jobs, in start order
	list    []*entry // planned jobs, in list order
	// ms is the machine's makespan at the last replan: the latest CPU free
	// time once every listed job is placed (never before the time of that
	// replan). max(ms, now) is the makespan at any later now until the
	// plan changes.
	ms        float64
	late      int // listed jobs whose planned end is after their deadline
	okPlanned int // listed jobs that meet their deadline
	okRunning int // running jobs whose estimated end meets their deadline
	tabu      int // listed jobs in the tabu list
}

// Stats are deterministic counts of the policy's work.
type Stats struct {
	Decisions int64 // EG-EDF decisions: one per job submitted
	Gap       int64 // decisions that used an earliest gap (S >= 1)
	EDF       int64 // decisions by the EDF fallback (S = 0)
	Unplaced  int64 // jobs no machine can hold (never started)
	// PlanEvals counts list-scheduling passes over one machine: a full
	// (re)plan, a tentative plan (an EDF insertion, a machine without the
	// job Tabu search moves away), the forward pass of an earliest-gap
	// search and each insertion position it checks. See the package doc.
	PlanEvals      int64
	TabuRuns       int64 // Tabu searches triggered (with or without planned jobs)
	TabuIterations int64 // iterations over all searches
	TabuMoves      int64 // moves accepted
}

// Move describes a move accepted by Tabu search (Planner.OnMove).
type Move struct {
	Now      float64
	ID       job.ID
	From, To int     // machines
	Pos      int     // the job's position in To's list
	Weight   float64 // > 0 by the rule
}

// Planned is one job of a machine's plan.
type Planned struct {
	ID         job.ID
	Start, End float64
}

// Planner is EG-EDF, optionally followed by Tabu search; see the package
// doc for the rules. Build it with NewEGEDF or NewTabu.
type Planner struct {
	name string
	opt  Options
	rnd  *rand.Rand

	ms   []machine
	jobs map[job.ID]*entry // planned and running jobs, for Finish (never iterated)

	finishedOK int // jobs that finished by their deadline
	nd         int // nondelayed: finishedOK + sum of okRunning + okPlanned
	planned    int // jobs in the machines' lists
	arrivals   int
	nextTick   float64 // next Interval trigger

	stats Stats

	// Tabu search state.
	ver      uint64   // plan version (bumped by Tabu searches and accepted moves)
	tabuList []*entry // FIFO, oldest first
	perm     []int    // machine order
	order    []int    // machines by delayed jobs (byLate)

	f, g, h freeTimes // scratch

	// OnMove, when set, is called for every move Tabu search accepts
	// (tests check that no move has a weight <= 0).
	OnMove func(Move)
}

// NewEGEDF returns EG-EDF over the machines of p, with Tabu search when
// o.Tabu is set. r is used only by the random machine order and may be nil
// otherwise.
func NewEGEDF(p platform.Platform, o Options, r *rand.Rand) (*Planner, error) {
	if err := o.validate(r != nil); err != nil {
		return nil, err
	}
	if o.Trigger == EveryN && o.Every == 0 {
		o.Every = 1
	}
	pol := &Planner{name: "eg-edf", opt: o, rnd: r, jobs: make(map[job.ID]*entry)}
	if o.Tabu {
		pol.name = "tabu"
	}
	pol.ms = make([]machine, p.Machines())
	pol.perm = make([]int, p.Machines())
	for m := range pol.ms {
		pol.ms[m].spec = p.Machine(m)
		pol.perm[m] = m
	}
	pol.nextTick = o.Interval
	return pol, nil
}

// NewTabu is NewEGEDF with o.Tabu set.
func NewTabu(p platform.Platform, o Options, r *rand.Rand) (*Planner, error) {
	o.Tabu = true
	return NewEGEDF(p, o, r)
}

// Name is "eg-edf" or "tabu".
func (p *Planner) Name() string { return p.name }

// Stats returns the counts so far.
func (p *Planner) Stats() Stats { return p.stats }

// PlanEvaluations is the deterministic count of plan evaluations so far
// (Stats().PlanEvals), the policy's decision cost.
func (p *Planner) PlanEvaluations() int64 { return p.stats.PlanEvals }

// Plan returns machine m's planned (waiting) jobs in list order with their
// planned start and end; valid until the next call to the policy.
func (p *Planner) Plan(m int) []Planned {
	out := make([]Planned, len(p.ms[m].list))
	for i, e := range p.ms[m].list {
		out[i] = Planned{e.id, e.start, e.end}
	}
	return out
}

// Nondelayed is the current nondelayed count: jobs finished by their
// deadline, plus running and planned jobs whose (planned) end is by it.
func (p *Planner) Nondelayed() int { return p.nd }

// FinishedOnTime is the number of jobs that finished by their deadline.
func (p *Planner) FinishedOnTime() int { return p.finishedOK }

func (p *Planner) dur(e *entry, m int) float64 { return p.ms[m].spec.Duration(e.est, e.bmEst) }

// suitable: machine m can hold e (CPUs, and memory and speed when both
// sides state them, as the model checks).
func (p *Planner) suitable(e *entry, m int) bool {
	return p.ms[m].spec.Holds(e.procs, e.mem, e.speed)
}

// makespan is the latest planned end over all machines, never before now.
func (p *Planner) makespan(now float64) float64 {
	ms := now
	for m := range p.ms {
		ms = max(ms, p.ms[m].ms)
	}
	return ms
}

// weight is the paper's Equation 1 with the floors of the package doc.
func weight(msOld, msNew float64, ndOld, ndNew int) float64 {
	return (msOld-msNew)/max(msOld, minMakespan) + float64(ndNew-ndOld)/float64(max(ndOld, 1))
}

// minMakespan is the floor of the makespan denominator (Alea's).
const minMakespan = 1e-13

// initFree sets f to machine m's CPU free times at now: each running job's
// CPUs at its estimated end (now if it is past it), the others at now.
func (p *Planner) initFree(m int, now float64, f *freeTimes) {
	f.reset()
	mc := &p.ms[m]
	busy := 0
	for _, r := range mc.running {
		f.add(max(r.end, now), r.procs)
		busy += r.procs
	}
	f.add(now, mc.spec.CPUs-busy)
}

// replan recomputes machine m's plan at now (list scheduling of its list)
// and its counts.
func (p *Planner) replan(m int, now float64) {
	p.stats.PlanEvals++
	mc := &p.ms[m]
	f := &p.f
	p.initFree(m, now, f)
	ok, late := 0, 0
	for _, e := range mc.list {
		d := p.dur(e, m)
		e.start = f.place(e.procs, d)
		e.end = e.start + d
		if e.meets() {
			ok++
		} else {
			late++
		}
	}
	mc.ms = f.last()
	p.nd += ok - mc.okPlanned
	mc.okPlanned, mc.late = ok, late
}

// ensure replans every machine whose plan is stale: a planned start
// before now, possible only when a running job overran its estimate (a
// plan made earlier is otherwise still exact at now: see the package
// doc).
func (p *Planner) ensure(now float64) {
	for m := range p.ms {
		if l := p.ms[m].list; len(l) > 0 && l[0].start < now {
			p.replan(m, now)
		}
	}
}

// tentative plans machine m at now as if ins were inserted before
// position at of its list (ins nil: no insertion) and position skip
// removed (-1: none), without changing anything. It returns the makespan,
// the number of listed jobs (ins included) meeting their deadline, and
// ins's planned end (0 without ins).
func (p *Planner) tentative(m int, now float64, ins *entry, at, skip int) (ms float64, ok int, insEnd float64) {
	p.stats.PlanEvals++
	mc := &p.ms[m]
	f := &p.f
	p.initFree(m, now, f)
	place := func(e *entry) float64 {
		d := p.dur(e, m)
		end := f.place(e.procs, d) + d
		ok += b2i(end <= e.deadline)
		return end
	}
	for k := 0; k <= len(mc.list); k++ {
		if k == at && ins != nil {
			insEnd = place(ins)
		}
		if k < len(mc.list) && k != skip {
			place(mc.list[k])
		}
	}
	return f.last(), ok, insEnd
}

// earliestGap finds EG(J, m) at now: the first position of m's list where
// J can be inserted without moving any other planned start and ending by
// the machine's makespan. It returns the position and J's planned start
// and end there.
func (p *Planner) earliestGap(m int, now float64, j *entry) (pos int, s, e float64, ok bool) {
	mc := &p.ms[m]
	d := p.dur(j, m)
	horizon := max(mc.ms, now)
	if p.opt.Gaps == GapTail {
		horizon = math.Inf(1)
	}
	if now+d > horizon {
		return 0, 0, 0, false // J cannot end by the makespan anywhere
	}
	p.stats.PlanEvals++
	f := &p.f
	p.initFree(m, now, f)
	n := len(mc.list)
	for i := 0; i <= n; i++ {
		s = f.kth(j.procs)
		e = s + d
		if e > horizon {
			return 0, 0, 0, false // J's start only grows with the position
		}
		if i == n {
			return n, s, e, true
		}
		if s <= mc.list[i].start && p.keeps(m, f, i, j.procs, d) {
			return i, s, e, true
		}
		x := mc.list[i]
		f.place(x.procs, p.dur(x, m))
	}
	panic("unreachable")
}

// keeps reports whether inserting a job of q CPUs and duration d before
// position i of machine m's list, with f the CPU free times before
// position i, leaves every later planned start unchanged. It replays the
// rest of the list from f with and without the job and stops at the first
// moved start (no) or as soon as the two free-time multisets agree (yes:
// every later start is then the same).
func (p *Planner) keeps(m int, f *freeTimes, i, q int, d float64) bool {
	p.stats.PlanEvals++
	l := p.ms[m].list
	g, h := &p.g, &p.h
	g.copyFrom(f)
	g.place(q, d)
	h.copyFrom(f)
	for k := i; k < len(l); k++ {
		if g.equal(h) {
			return true
		}
		x := l[k]
		dx := p.dur(x, m)
		if g.place(x.procs, dx) != x.start {
			return false
		}
		h.place(x.procs, dx)
	}
	return true
}

// insertAt puts j into machine m's list at pos with the given planned
// times; the caller guarantees that no other planned start moves.
func (p *Planner) insertAt(m, pos int, j *entry, s, e float64) {
	mc := &p.ms[m]
	mc.list = slices.Insert(mc.list, pos, j)
	j.m, j.start, j.end = m, s, e
	p.planned++
	if j.meets() {
		mc.okPlanned++
		p.nd++
	} else {
		mc.late++
	}
	mc.ms = max(mc.ms, e)
}

// edfPos is the position of j in machine m's list by EDF: before the
// first job with a later deadline (no deadline is +Inf).
func (p *Planner) edfPos(m int, j *entry) int {
	for i, x := range p.ms[m].list {
		if x.deadline > j.deadline {
			return i
		}
	}
	return len(p.ms[m].list)
}

// Submit places the new job by EG-EDF, then runs Tabu search if it is
// triggered.
func (p *Planner) Submit(now float64, ji job.Info) {
	dl := ji.Deadline
	if dl == 0 {
		dl = math.Inf(1)
	}
	j := &entry{id: ji.ID, submit: ji.Submit, procs: ji.Procs, est: ji.Estimate, bmEst: ji.BMEst,
		deadline: dl, mem: ji.Mem, speed: ji.Speed, m: -1}
	p.stats.Decisions++
	p.arrivals++
	if p.place(now, j) {
		p.jobs[j.id] = j
	} else {
		p.stats.Unplaced++
	}
	if p.opt.Tabu && (p.opt.Trigger == EachArrival || p.opt.Trigger == EveryN && p.arrivals%p.opt.Every == 0) {
		p.tabuSearch(now)
	}
}

// place is one EG-EDF decision for j at now; false if no machine can
// hold j.
func (p *Planner) place(now float64, j *entry) bool {
	p.ensure(now)
	msOld, ndOld := p.makespan(now), p.nd
	// Earliest gaps. A gap insertion moves no other start and ends by the
	// machine's makespan, so the weight can only differ by whether j meets
	// its deadline: once a candidate is held, a machine where j cannot
	// meet it cannot win, and a candidate with the best possible weight
	// ends the scan (the rule's outcome, computed with less work).
	//
	// With TieEnd a tie goes to the earlier end: a held candidate is
	// then beaten only by a weight as high and an earlier end, and j's
	// end on m is at least now + its duration there.
	//
	// With SuitDeadline a gap where j would end after its deadline does
	// not suit j: j's end on m is at least now + its duration there, and
	// the earliest gap is the one where it ends first (planned starts
	// never decrease along a list), so only that gap needs the test.
	byEnd, tail := p.opt.Ties == TieEnd, p.opt.Gaps == GapTail
	byDL := p.opt.Suitable == SuitDeadline
	best, bestPos := -1, 0
	var bestS, bestE, bestW float64
	wMeet := weight(msOld, msOld, ndOld, ndOld+1)
	for m := range p.ms {
		if !p.suitable(j, m) {
			continue
		}
		lo := now + p.dur(j, m)
		if byDL && lo > j.deadline {
			continue
		}
		if best >= 0 {
			// Finite gaps end by the makespan: a machine where j misses
			// its deadline scores 0 <= the held weight. Tail gaps may
			// raise the makespan, so only the best possible weight
			// ends the scan.
			if (bestW >= wMeet || !tail && lo > j.deadline) && (!byEnd || lo >= bestE) {
				continue
			}
		}
		pos, s, e, ok := p.earliestGap(m, now, j)
		if !ok || byDL && e > j.deadline {
			continue
		}
		w := weight(msOld, max(msOld, e), ndOld, ndOld+b2i(e <= j.deadline))
		if best < 0 || w > bestW || byEnd && w == bestW && e < bestE {
			best, bestPos, bestS, bestE, bestW = m, pos, s, e, w
		}
	}
	if best >= 0 {
		p.stats.Gap++
		p.insertAt(best, bestPos, j, bestS, bestE)
		return true
	}
	// No (suitable) gap anywhere: EDF insertion on every machine that can
	// hold j.
	top, second, topM := now, now, -1 // the two largest machine makespans
	for m := range p.ms {
		switch ms := p.ms[m].ms; {
		case ms > top:
			top, second, topM = ms, top, m
		case ms > second:
			second = ms
		}
	}
	for m := range p.ms {
		if !p.suitable(j, m) {
			continue
		}
		pos := p.edfPos(m, j)
		msM, ok, end := p.tentative(m, now, j, pos, -1)
		others := top
		if m == topM {
			others = second
		}
		w := weight(msOld, max(others, msM), ndOld, ndOld-p.ms[m].okPlanned+ok)
		if best < 0 || w > bestW || byEnd && w == bestW && end < bestE {
			best, bestPos, bestW, bestE = m, pos, w, end
		}
	}
	if best < 0 {
		return false
	}
	p.stats.EDF++
	mc := &p.ms[best]
	mc.list = slices.Insert(mc.list, bestPos, j)
	j.m = best
	p.planned++
	p.replan(best, now)
	return true
}

// Finish removes a running job; its machine is replanned only if it ended
// at another time than its estimated end.
func (p *Planner) Finish(now float64, id job.ID) {
	e, ok := p.jobs[id]
	if !ok || !e.running {
		return
	}
	delete(p.jobs, id)
	mc := &p.ms[e.m]
	i := slices.Index(mc.running, e)
	mc.running = slices.Delete(mc.running, i, i+1)
	if e.meets() {
		mc.okRunning--
		p.nd--
	}
	if now <= e.deadline {
		p.finishedOK++
		p.nd++
	}
	if now != e.end {
		p.replan(e.m, now)
	}
}

// Schedule starts, on every machine, the head of its list while it fits
// in the machine's free CPUs (Tabu search first when its Interval trigger
// is due).
func (p *Planner) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	if p.opt.Tabu && p.opt.Trigger == Interval && now >= p.nextTick {
		p.tabuSearch(now)
		p.nextTick = (math.Floor(now/p.opt.Interval) + 1) * p.opt.Interval
	}
	for m := range p.ms {
		mc := &p.ms[m]
		if len(mc.list) == 0 {
			continue
		}
		free := v.Free(m)
		n, stale := 0, false
		for n < len(mc.list) && mc.list[n].procs <= free {
			e := mc.list[n]
			free -= e.procs
			reason := job.Reserved
			if now == e.submit {
				reason = job.Immediate
			}
			plan.StartOn(e.id, reason, m)
			if e.meets() {
				mc.okPlanned--
				p.nd--
			} else {
				mc.late--
			}
			if e.start != now {
				stale = true // only when estimates are not exact
			}
			e.start, e.end, e.running = now, now+p.dur(e, m), true
			if e.meets() {
				mc.okRunning++
				p.nd++
			}
			mc.running = append(mc.running, e)
			n++
		}
		if n > 0 {
			p.planned -= n
			mc.list = slices.Delete(mc.list, 0, n)
			if stale {
				p.replan(m, now)
			}
		}
	}
}
