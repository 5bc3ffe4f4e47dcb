package backfill

import (
	"math"

	"github.com/schedlab/schedlab/policy"
)

// Unavailable CPUs (policy.AvailabilityPlanner; docs/availability.md).
//
// An announced window is planned like a reservation that never moves:
// its CPU count is taken from its machine's profile over [start, end),
// so no job is planned to hold those CPUs then, and a job whose estimate
// would cross the window on too few remaining CPUs neither starts nor
// backfills. The profile counts CPUs; a window names them, so a start
// now also needs enough idle CPUs clear of every window until the job's
// estimated end (policy.Horizons, exactly the model's choice of CPUs).
// When the count fits now but the clear CPUs do not, the job is planned
// to start "at any moment" (just after now), as behind a job that overran
// its estimate, and re-planned at every pass.
//
// CPUs that are down (a failure) are held for the current instant only,
// like the processors of a job past its estimated end: their return is
// not announced, so a reservation is never pushed back for them, and
// jobs only start on the CPUs that are up.
//
// With unavailability every pass is a full pass (no arrivals-only
// shortcut), and EASY runs on the profile planner rather than on its
// fast path.

// PlanAvailability is called once by the model before the first job.
func (b *Backfill) PlanAvailability(ws []policy.Window) {
	b.av = true
	if b.pl.profiles() == nil {
		b.pl = plannerFor(b, planProfile) // the EASY planner keeps no profile
	}
	b.down = make([]int, len(b.machs))
	b.hz = make([]policy.Horizons, len(b.machs))
	profs := b.pl.profiles()
	for _, w := range ws {
		profs[w.Machine].Alloc(w.Start, w.End, w.CPUs.Count())
		b.hasWin = true
	}
}

// availPass reads the pass's down CPUs and horizons and holds the down
// CPUs for the instant.
func (b *Backfill) availPass(now float64, v policy.Machines, instant float64) {
	av := v.(policy.AvailabilityView)
	profs := b.pl.profiles()
	for m := range b.machs {
		b.down[m] = av.Down(m)
		if b.down[m] > 0 {
			profs[m].Alloc(now, instant, b.down[m])
		}
		if b.hasWin {
			b.hz[m].Load(av, m)
		}
	}
	b.dirty, b.mayStale, b.arrivalsOnly = true, true, false
}

// releaseDown gives back, at the end of the pass, the down CPUs held for
// the instant.
func (b *Backfill) releaseDown(now, instant float64) {
	profs := b.pl.profiles()
	for m, n := range b.down {
		if n > 0 {
			profs[m].Release(now, instant, n)
		}
	}
}

// clearNow reports whether procs idle CPUs of machine m are clear of
// every window until now + d.
func (b *Backfill) clearNow(now float64, m, procs int, d float64) bool {
	return !b.hasWin || b.hz[m].Clear(now+d) >= procs
}

// afterNow is the first instant after now.
func afterNow(now float64) float64 { return math.Nextafter(now, math.Inf(1)) }
