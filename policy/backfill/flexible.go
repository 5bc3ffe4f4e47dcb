package backfill

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
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

// Param describes one option of a policy, as data for a registry.
type Param struct {
	Name string // as in scenario files
	// Type is "float" or "bool".
	Type string
	// Default as written in a scenario file.
	Default string
	// Min is the smallest value a float may take (-Inf: any finite value).
	Min float64
	Doc string
}

// FlexParamList describes FlexParams' fields in documentation order, with
// DefaultFlex()'s values as defaults; Set takes these names.
func FlexParamList() []Param {
	d := DefaultFlex()
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return []Param{
		{Name: "agefactor", Type: "float", Default: f(d.AgeFactor), Min: 0,
			Doc: "aging: priority += agefactor x time waited"},
		{Name: "deadline_k", Type: "float", Default: f(d.K), Min: 0,
			Doc: "the deadline term rises from deadline - deadline_k x Nxtime (Nxtime: runtime on the fastest machine that can hold the job)"},
		{Name: "deadline_max", Type: "float", Default: f(d.Max), Min: math.Inf(-1),
			Doc: "the deadline term reached when the estimated end meets the deadline (>= deadline_min)"},
		{Name: "deadline_min", Type: "float", Default: f(d.Min), Min: math.Inf(-1),
			Doc: "the deadline term far from the deadline, past it, or without one"},
		{Name: "boostvalue", Type: "float", Default: f(d.Boost), Min: 0,
			Doc: "wait minimisation: priority += boostvalue x shortest Estimated in the queue / Estimated"},
		{Name: "pin_reservation", Type: "bool", Default: strconv.FormatBool(d.Pin),
			Doc: "the job holding the reservation stays first through events (false: re-sorted like the others)"},
	}
}

// Set sets the constant called name (FlexParamList's names) from its
// scenario text.
func (f *FlexParams) Set(name, value string) error {
	if name == "pin_reservation" {
		v, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("flexible backfilling: pin_reservation %q: want true or false", value)
		}
		f.Pin = v
		return nil
	}
	var dst *float64
	switch name {
	case "agefactor":
		dst = &f.AgeFactor
	case "deadline_k":
		dst = &f.K
	case "deadline_max":
		dst = &f.Max
	case "deadline_min":
		dst = &f.Min
	case "boostvalue":
		dst = &f.Boost
	default:
		return fmt.Errorf("flexible backfilling: unknown constant %q", name)
	}
	v, err := strconv.ParseFloat(value, 64)
	if err != nil {
		return fmt.Errorf("flexible backfilling: %s %q: not a number", name, value)
	}
	*dst = v
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

// reprioritize computes every waiting job's priority at now and sorts the
// queue: with Pin, the jobs holding a reservation first, in their current
// order; then by priority, largest first, ties by (submit time, job id).
func (b *Backfill) reprioritize(now float64) {
	q := b.w.q
	if b.mf != nil {
		// Nothing pinned: when the order changed, every reservation is
		// planned anew in the new order, as Slurm's backfill plans every
		// job in priority order at each cycle.
		if b.mf.sort(now, q) {
			b.rebuild = true
		}
		return
	}
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
