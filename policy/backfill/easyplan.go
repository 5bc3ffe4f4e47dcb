package backfill

import (
	"math"

	"github.com/schedlab/schedlab/freeprofile"
	"github.com/schedlab/schedlab/job"
)

// easyPlanner is the planner of EASY on one machine (depth 1, FCFS or
// SJF order, no announced windows nor down CPUs: PlanAvailability puts a
// profilePlanner in its place). It keeps no availability profile: the
// running jobs and the reservations answer the pass's questions
// (easyProf, easyfast.go), and on long queues a segment tree over the
// queue lets the pass jump over the jobs that cannot start (queueIndex,
// easyindex.go).
type easyPlanner struct {
	b  *Backfill
	z  *easyProf
	ix queueIndex
}

func (p *easyPlanner) begin(now float64) ([]runEnd, bool) {
	p.prepareIndex()
	return p.z.advance(now), p.ix.on
}

func (p *easyPlanner) profiles() []*freeprofile.Profile { return nil }

func (p *easyPlanner) holdOver(now, instant float64) {
	p.z.over = p.b.nOver
	p.b.hooks.overPass()
}

func (p *easyPlanner) releaseOver(now, instant float64) { p.z.over = 0 }

func (p *easyPlanner) freeNow(now float64) int { return p.z.freeNow() }

// jump: the next entry that may start now (or holds a reservation): those
// between would not fit.
func (p *easyPlanner) jump(q []entry, i, free int, now float64) int {
	lim, s1 := p.z.indexBound(free)
	if p.ix.candidate(i, free, lim, s1, now) {
		return i
	}
	return p.ix.next(q, i, free, lim, s1, now)
}

func (p *easyPlanner) fitNow(now float64, e *entry) int {
	d, known := p.b.failsNow(e)
	if known {
		return -1
	}
	return p.b.fitOne(now, e, d, p.z.fits(e.Procs, d))
}

func (p *easyPlanner) later(now float64, e *entry) (float64, int) {
	if !p.b.can(0, e) {
		return math.Inf(1), -1
	}
	if s := p.z.earliest(e.Procs, p.b.dur(e, 0), math.Inf(1)); s < math.Inf(1) {
		return s, 0
	}
	return math.Inf(1), -1
}

// replace: the windows end by e's own start, so its reservation is never
// in them (easyProf.earliest).
func (p *easyPlanner) replace(now float64, e *entry) (float64, int) {
	own := int(e.m)
	p.b.replaces++
	return p.z.earliest(e.Procs, p.b.dur(e, own), e.resv), own
}

func (p *easyPlanner) moveEarlier(e *entry, s float64, m int) bool { return false }

func (p *easyPlanner) start(now float64, i int, e *entry, m int, end float64, moved bool) {
	p.z.start(end, e.ID, e.Procs)
	if p.ix.on {
		p.ix.set(i, e)
	}
}

func (p *easyPlanner) reserve(i int, e *entry, moved bool) {
	p.z.reserve(e.ID, e.resv, freeprofile.Span(e.resv, p.b.dur(e, int(e.m))), e.Procs)
	p.b.hooks.reservationsHeld(len(p.z.resv))
	if p.ix.on {
		p.ix.set(i, e)
	}
}

func (p *easyPlanner) unreserve(e *entry) float64 {
	p.z.unreserve(e.ID)
	e.hasResv = false
	if p.ix.on {
		p.ix.set(p.posOf(e), e)
	}
	return p.z.now
}

func (p *easyPlanner) add(now float64, id job.ID, m, procs int, end float64) {
	p.z.start(end, id, procs)
}

// lift: a job not yet past its end is in run until advance finds it.
func (p *easyPlanner) lift(now float64, id job.ID, m, procs int, estEnd float64) {
	p.z.finishEarly(estEnd, id, procs)
}

func (p *easyPlanner) submitted(i int, base *entry, off, n int) {
	if p.ix.on {
		p.indexSubmitted(i, base, off, n)
	}
}

func (p *easyPlanner) idleShortcut() bool { return true }
