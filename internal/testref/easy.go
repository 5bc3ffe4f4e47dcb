package testref

import (
	"math"
	"slices"
)

// Shadow records one EASY pass in which the head of the queue did not fit.
type Shadow struct {
	Time   float64 // time of the pass
	Head   int     // index (into the input slice) of the blocked head
	Shadow float64 // the head's shadow time
	Extra  int     // extra processors at the shadow time, before backfilling
}

// EASY is EASY backfilling (Lifka), written literally from docs/scheduling.md.
func EASY(jobs []Job, procs int) []float64 {
	starts, _, _ := EASYDetailed(jobs, procs)
	return starts
}

// EASYDetailed is EASY and also returns the start reason of every job and
// one Shadow per pass in which the head of the queue did not fit, in pass
// order.
func EASYDetailed(jobs []Job, procs int) (starts []float64, reasons []string, shadows []Shadow) {
	s := simulate(jobs, procs, func(s *sim) {
		if sh, ok := easyPass(s); ok {
			shadows = append(shadows, sh)
		}
	})
	return s.starts, s.reasons, shadows
}

// freeAtEstimated is the number of processors free at time t in the picture
// made of the running jobs only: every running job whose (clamped)
// estimated end is after t still holds its processors.
func (s *sim) freeAtEstimated(t float64) int {
	n := s.procs
	for _, r := range s.running {
		if s.estEnd(r) > t {
			n -= s.jobs[r.job].Procs
		}
	}
	return n
}

func easyPass(s *sim) (Shadow, bool) {
	// "at each scheduling pass start jobs from the head of the queue while
	// they fit" (fit now: actual free processors).
	for len(s.waiting) > 0 && s.jobs[s.waiting[0]].Procs <= s.free() {
		head := s.waiting[0]
		s.start(head, s.headReason(head))
	}
	if len(s.waiting) == 0 {
		return Shadow{}, false
	}

	// "if the head does not fit, its shadow time is the earliest time at
	// which enough processors are free given the estimated ends of running
	// jobs" — count processors released at each (clamped) estimated end,
	// in time order.
	head := s.waiting[0]
	need := s.jobs[head].Procs
	var ends []float64
	for _, r := range s.running {
		ends = append(ends, s.estEnd(r))
	}
	slices.Sort(ends)
	shadow := math.NaN()
	for _, t := range ends {
		if s.freeAtEstimated(t) >= need {
			shadow = t
			break
		}
	}
	if math.IsNaN(shadow) {
		panic("naive: internal error: no shadow time although all running jobs end")
	}
	// "and the extra processors are those free at the shadow time beyond
	// what the head needs"
	extra := s.freeAtEstimated(shadow) - need
	rec := Shadow{Time: s.now, Head: head, Shadow: shadow, Extra: extra}

	// "then each later queued job, in queue order, starts now if it fits
	// now and either now + estimate <= shadow time or it needs no more than
	// the extra processors"
	later := slices.Clone(s.waiting[1:])
	for _, k := range later {
		p := s.jobs[k].Procs
		if p > s.free() {
			continue
		}
		endsByShadow := s.now+s.jobs[k].Estimate <= shadow
		if endsByShadow || p <= extra {
			s.start(k, Backfilled)
			// "a backfilled job whose estimated end is after the shadow
			// time uses up that many extra processors, one ending by the
			// shadow time uses none."
			if !endsByShadow {
				extra -= p
			}
		}
	}
	return rec, true
}
