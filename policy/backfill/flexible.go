package backfill

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/job"
)

// FlexParams are the constants of Flexible backfilling's priority
// (klusacek-2008 Sect. 3.1; the paper's hand-tuned values are
// DefaultFlex()).
type FlexParams struct {
	AgeFactor float64 // aging: AgeFactor x (now - submit)
	K         float64 // the deadline term starts rising at deadline - K x Nxtime
	Max, Min  float64 // the deadline term lies between Min and Max
	Boost     float64 // wait minimisation: Boost x minext / Estimated
	// Pin keeps the job that holds the reservation first in the queue,
	// whatever the new priorities ("the reservation for the first queued
	// job is maintained through events"); false re-sorts it like the
	// others (it then loses the reservation if another job goes first).
	Pin bool
}

// DefaultFlex returns the paper's values: agefactor 0.01, k 2, max 20,
// min 0.1, boostvalue 2, and the reservation pinned.
func DefaultFlex() FlexParams {
	return FlexParams{AgeFactor: 0.01, K: 2, Max: 20, Min: 0.1, Boost: 2, Pin: true}
}

// Check reports constants that make no priority: not finite, a negative
// factor, or Max below Min.
func (f FlexParams) Check() error {
	var probs []string
	for _, p := range []struct {
		name     string
		v        float64
		positive bool
	}{{"agefactor", f.AgeFactor, true}, {"deadline_k", f.K, true}, {"deadline_max", f.Max, false}, {"deadline_min", f.Min, false}, {"boostvalue", f.Boost, true}} {
		switch {
		case math.IsNaN(p.v) || math.IsInf(p.v, 0):
			probs = append(probs, fmt.Sprintf("%s is %g (must be finite)", p.name, p.v))
		case p.positive && p.v < 0:
			probs = append(probs, fmt.Sprintf("%s is %g (must be >= 0)", p.name, p.v))
		}
	}
	if f.Max < f.Min {
		probs = append(probs, fmt.Sprintf("deadline_max %g is below deadline_min %g", f.Max, f.Min))
	}
	if len(probs) > 0 {
		return fmt.Errorf("flexible backfilling: %s", strings.Join(probs, "; "))
	}
	return nil
}

// Terms are the three heuristics of a Flexible priority.
type Terms struct {
	Aging, Deadline, WaitMin float64
}

// P is the priority: the sum of the terms.
func (t Terms) P() float64 { return t.Aging + t.Deadline + t.WaitMin }

// Priority computes the terms of P(J) at time now for a job submitted at
// submit, with deadline (0: none) and Estimated (at its BM_est) estimate;
// nx is its runtime on the fastest machine that can hold it (Nxtime) and
// minext the smallest Estimated in the queue.
//
//	Aging    = AgeFactor x (now - submit)
//	Extime   = now + nx;  t = deadline - K x nx
//	Deadline = Min                                          no deadline, Extime <= t or Extime > deadline
//	         = Min + (Max - Min) x (Extime - t) / (deadline - t)   t < Extime <= deadline
//	WaitMin  = Boost x minext / estimate   (Boost when the estimate is 0)
func (f FlexParams) Priority(now, submit, deadline, estimate, nx, minext float64) Terms {
	t := Terms{Aging: f.AgeFactor * (now - submit), Deadline: f.Min}
	if deadline != 0 {
		ext := now + nx
		tj := deadline - f.K*nx
		if tj < ext && ext <= deadline {
			t.Deadline = f.Min + (f.Max-f.Min)*(ext-tj)/(deadline-tj)
		}
	}
	if estimate > 0 {
		t.WaitMin = f.Boost * minext / estimate
	} else {
		t.WaitMin = f.Boost // the shortest job (minext is 0 too)
	}
	return t
}

// reprioritize computes every waiting job's Flexible priority at now and
// sorts the queue: with Pin, the jobs holding a reservation first, in
// their current order; then by priority, largest first, ties by (submit
// time, job id).
func (b *Backfill) reprioritize(now float64) {
	q := b.w.q
	if len(q) == 0 {
		return
	}
	minext := math.Inf(1)
	for i := range q {
		minext = min(minext, q[i].Estimate)
	}
	k := 0 // q[:k]: the pinned jobs
	if b.flex.Pin {
		for k < len(q) && q[k].hasResv {
			k++
		}
		if slices.ContainsFunc(q[k:], func(e entry) bool { return e.hasResv }) {
			// Stable partition: reserved jobs to the front, in order.
			b.scratch = b.scratch[:0]
			for i := k; i < len(q); i++ {
				if q[i].hasResv {
					q[k] = q[i]
					k++
				} else {
					b.scratch = append(b.scratch, q[i])
				}
			}
			copy(q[k:], b.scratch)
		}
	}
	// Sort small keys (built in the last order: nearly sorted), then move
	// each entry once, if any moves.
	keys := b.keys[:0]
	for i := range q {
		e := &q[i]
		e.x.prio = b.flex.Priority(now, e.Submit, e.x.deadline, e.Estimate, e.x.nx, minext).P()
		if i >= k {
			keys = append(keys, prioKey{prio: e.x.prio, submit: e.Submit, id: e.ID, at: int32(i)})
		}
	}
	slices.SortFunc(keys, func(a, c prioKey) int {
		switch {
		case a.prio > c.prio:
			return -1
		case a.prio < c.prio:
			return 1
		case a.submit < c.submit:
			return -1
		case a.submit > c.submit:
			return 1
		}
		return cmp.Compare(a.id, c.id)
	})
	b.keys = keys
	moved := false
	for i, key := range keys {
		if int(key.at) != k+i {
			moved = true
			break
		}
	}
	if !moved {
		return
	}
	b.scratch = b.scratch[:0]
	for _, key := range keys {
		b.scratch = append(b.scratch, q[key.at])
	}
	copy(q[k:], b.scratch)
}

// prioKey is what the priority sort compares, and where the entry is.
type prioKey struct {
	prio, submit float64
	id           job.ID
	at           int32
}
