package testref

import (
	"fmt"
	"slices"
)

// Conservative is conservative backfilling (Mu'alem & Feitelson):
// Backfill with unlimited reservation depth.
func Conservative(jobs []Job, procs int) []float64 {
	return Backfill(jobs, procs, Unlimited)
}

// Backfill is backfilling with reservation depth depth >= 1: 1 is EASY,
// Unlimited (math.MaxInt) is conservative.
func Backfill(jobs []Job, procs int, depth int) []float64 {
	starts, _, _ := BackfillDetailed(jobs, procs, depth)
	return starts
}

// BackfillDetailed is Backfill and also returns the start reason of every
// job and, per job, the sequence of reservation times it was given, one
// entry per pass that gave it one (so an unchanged reservation appears once
// per pass).
func BackfillDetailed(jobs []Job, procs, depth int) (starts []float64, reasons []string, reservations [][]float64) {
	return backfillOrder(jobs, procs, depth, false)
}

// BackfillSJF is BackfillDetailed with the queue in shortest-estimate-first
// order: (Estimate, Submit, ID).
func BackfillSJF(jobs []Job, procs, depth int) (starts []float64, reasons []string, reservations [][]float64) {
	return backfillOrder(jobs, procs, depth, true)
}

func backfillOrder(jobs []Job, procs, depth int, sjf bool) (starts []float64, reasons []string, reservations [][]float64) {
	if depth < 1 {
		panic(fmt.Sprintf("naive: reservation depth %d < 1", depth))
	}
	b := &backfill{
		depth:   depth,
		has:     make([]bool, len(jobs)),
		at:      make([]float64, len(jobs)),
		history: make([][]float64, len(jobs)),
	}
	s := simulateOrder(jobs, procs, sjf, b.pass)
	return s.starts, s.reasons, b.history
}

// backfill holds the reservations: "Each waiting job may hold a
// reservation (a start time) from earlier passes."
type backfill struct {
	depth   int
	has     []bool    // has[j]: job j holds a reservation
	at      []float64 // at[j]: its start time, if has[j]
	history [][]float64
}

// span is one interval of the availability picture: [from, to) with procs
// processors taken.
type span struct {
	from, to float64
	procs    int
}

// picture is the scheduler's view at s.now: running jobs by their
// (clamped) estimated span and every current reservation.
func (b *backfill) picture(s *sim) []span {
	var p []span
	for _, r := range s.running {
		p = append(p, span{r.start, s.estEnd(r), s.jobs[r.job].Procs})
	}
	for _, j := range s.waiting {
		if b.has[j] {
			p = append(p, span{b.at[j], spanEnd(b.at[j], s.jobs[j].Estimate), s.jobs[j].Procs})
		}
	}
	return p
}

// availAt is "Availability at time τ (the scheduler's picture) = procs −
// Σ procs of running jobs whose (clamped) estimated span covers τ − Σ procs
// of reserved jobs whose reserved span covers τ."
func availAt(pic []span, procs int, tau float64) int {
	n := procs
	for _, sp := range pic {
		if sp.from <= tau && tau < sp.to {
			n -= sp.procs
		}
	}
	return n
}

// fits is "Job j fits at time s = availability >= j.Procs for every τ in
// j's span starting at s." Availability is piecewise constant and changes
// only at the ends of the picture's spans, so it is enough to look at s
// itself and at every span boundary inside (s, end).
func fits(pic []span, procs int, s, estimate float64, need int) bool {
	end := spanEnd(s, estimate)
	taus := []float64{s}
	for _, sp := range pic {
		for _, x := range []float64{sp.from, sp.to} {
			if s < x && x < end {
				taus = append(taus, x)
			}
		}
	}
	for _, tau := range taus {
		if availAt(pic, procs, tau) < need {
			return false
		}
	}
	return true
}

// earliest is "Earliest slot for j at now = the smallest s >= now at which
// j fits; candidate s values are now and every (clamped) end time of a
// running job or reserved span after now."
func earliest(pic []span, procs int, now float64, j Job) float64 {
	cands := []float64{now}
	for _, sp := range pic {
		if sp.to > now {
			cands = append(cands, sp.to)
		}
	}
	slices.Sort(cands)
	for _, c := range cands {
		if fits(pic, procs, c, j.Estimate, j.Procs) {
			return c
		}
	}
	// After the last end of the picture the whole machine is free and
	// Procs <= procs, so this cannot happen.
	panic(fmt.Sprintf("naive: internal error: no slot for job %d", j.ID))
}

func (b *backfill) pass(s *sim) {
	// "0. A reservation whose start time is before now is stale (its job
	// did not start when planned, which happens only when a running job
	// overran its estimate): it is dropped."
	for _, j := range s.waiting {
		if b.has[j] && b.at[j] < s.now {
			b.has[j] = false
		}
	}

	// "1. Walk the waiting jobs in queue order with an index i = 0,1,2,...;
	// any job with i >= d that holds a reservation loses it."
	for i, j := range s.waiting {
		if i >= b.depth && b.has[j] {
			b.has[j] = false
		}
	}

	// "2. count = 0, blocked = false. For each waiting job j in queue
	// order:"
	count, blocked := 0, false
	for _, j := range slices.Clone(s.waiting) {
		// "if j holds a reservation, remove it (it no longer counts in
		// availability);"
		b.has[j] = false
		// "s = earliest slot for j at now (with all other current
		// reservations and running jobs counted);"
		at := earliest(b.picture(s), s.procs, s.now, s.jobs[j])
		if at == s.now {
			// "if s == now: start j now (it is now running with estimated
			// end now + Estimate, clamped as above)" — the clamping is
			// done by estEnd whenever the picture is drawn.
			// Reason: "backfilled" if blocked was true when it started,
			// otherwise "immediate" if now == its Submit, else "reserved".
			if blocked {
				s.start(j, Backfilled)
			} else {
				s.start(j, s.headReason(j))
			}
			continue
		}
		// "else: blocked = true, and if count < d: give j the reservation
		// s and count++ (else j waits with no reservation)."
		blocked = true
		if count < b.depth {
			b.has[j] = true
			b.at[j] = at
			b.history[j] = append(b.history[j], at)
			count++
		}
	}
}
