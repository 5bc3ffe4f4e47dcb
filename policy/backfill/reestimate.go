package backfill

import (
	"math"

	"github.com/schedlab/schedlab/freeprofile"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

var _ policy.Reestimator = (*Backfill)(nil)

// Reestimate implements policy.Reestimator: running job id's estimated
// runtime becomes estimate (from its start, at its BMEst speed), so its
// estimated end becomes start + its duration on its machine, exactly as
// if it had started with that estimate. A job that was overrunning its
// old estimate is a running job again, held until the new end, on the
// fast path (easyProf) as on the profiles; a job whose old end has passed
// but whose overrun no pass has noticed yet (still in the fast path's
// list or the heap of ends) is moved as well. A new end not after now
// leaves the job overrunning.
//
// An end that moves later takes processors the reservations may count
// on: the next pass lifts every reservation and places them again in
// queue order (rebuild). One that moves earlier frees processors, as an
// early completion does: the next pass re-places the reservations
// (dirty), which can only move them earlier.
//
// An unknown id (not running: never started, or already finished) and
// an estimate that is negative, NaN or +Inf are ignored. With no call,
// nothing in the engine changes.
func (b *Backfill) Reestimate(now float64, id job.ID, estimate float64) {
	r := b.running.Ptr(id)
	if r == nil || !(estimate >= 0) || math.IsInf(estimate, 1) {
		return
	}
	m := int(r.m)
	d := estimate // one reference machine: Duration(estimate, 0)
	if r.x != nil {
		d = b.machs[m].Duration(estimate, r.x.bmEst)
	}
	end := freeprofile.Span(r.start, d)
	if r.overrun && end <= now {
		r.estEnd = end // still past its end: nothing held changes
		return
	}
	if !r.overrun && end == r.estEnd {
		return
	}
	b.dirty = true
	b.arrivalsOnly = false
	later := r.overrun || end > r.estEnd
	// Lift what the job holds now.
	if r.overrun {
		b.over[m] -= r.procs
		b.nOver -= r.procs
		r.overrun = false
	} else {
		b.pl.lift(now, id, m, r.procs, r.estEnd)
	}
	r.estEnd = end
	if end <= now {
		// Past its new end already: overrunning, as the pass would find.
		r.overrun = true
		b.mayStale = true
		b.over[m] += r.procs
		b.nOver += r.procs
		return
	}
	b.pl.add(now, id, m, r.procs, end)
	if later {
		b.rebuild = true
	}
}
