package testref

import (
	"fmt"
	"math"
	"slices"
)

// Job is one job of a workload.
type Job struct {
	ID       int64
	Submit   float64
	Duration float64 // actual time it occupies processors, >= 0
	Estimate float64 // what the scheduler believes, >= 0
	Procs    int     // 1..machine size
}

// Unlimited as a reservation depth gives conservative backfilling.
const Unlimited = math.MaxInt

// Start reasons returned by EASYDetailed and BackfillDetailed.
const (
	Immediate  = "immediate"  // started at its submit time, nobody ahead waiting
	Backfilled = "backfilled" // started while a job ahead of it is still waiting
	Reserved   = "reserved"   // started later than its submit time, nobody ahead waiting
)

// running is a job that occupies processors.
type running struct {
	job   int     // index into sim.jobs
	start float64 // when it started
	end   float64 // actual end: start + Duration (the scheduler never reads it)
}

// sim is the state shared by all simulators: the clock, the queue, the
// running jobs and the results. The scheduling pass is a function of it.
type sim struct {
	jobs    []Job
	procs   int
	now     float64
	waiting []int // indices into jobs, in queue order
	running []running
	starts  []float64
	reasons []string
	sjf     bool // queue order by (Estimate, Submit, ID) instead of (Submit, ID)
}

// queueLess is the queue order: "Queue order: (Submit, ID) ascending", or
// with sjf shortest estimate first, then (Submit, ID). Equal keys are
// ordered by input index so that the order is total and the result
// deterministic.
func (s *sim) queueLess(a, b int) bool {
	ja, jb := s.jobs[a], s.jobs[b]
	if s.sjf && ja.Estimate != jb.Estimate {
		return ja.Estimate < jb.Estimate
	}
	return arrivalLess(s.jobs, a, b)
}

// arrivalLess is the arrival order, (Submit, ID, input index).
func arrivalLess(jobs []Job, a, b int) bool {
	ja, jb := jobs[a], jobs[b]
	if ja.Submit != jb.Submit {
		return ja.Submit < jb.Submit
	}
	if ja.ID != jb.ID {
		return ja.ID < jb.ID
	}
	return a < b
}

// arrivalOrder is the jobs' indexes in arrival order (arrivalLess).
func arrivalOrder(jobs []Job) []int {
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case arrivalLess(jobs, a, b):
			return -1
		case arrivalLess(jobs, b, a):
			return 1
		}
		return 0
	})
	return order
}

func (s *sim) queueCmp(a, b int) int {
	switch {
	case s.queueLess(a, b):
		return -1
	case s.queueLess(b, a):
		return 1
	}
	return 0
}

func checkInput(jobs []Job, procs int) {
	if procs < 1 {
		panic(fmt.Sprintf("naive: machine size %d < 1", procs))
	}
	for i, j := range jobs {
		bad := ""
		switch {
		case j.Procs < 1 || j.Procs > procs:
			bad = fmt.Sprintf("procs %d outside 1..%d", j.Procs, procs)
		case math.IsNaN(j.Submit) || math.IsInf(j.Submit, 0):
			bad = fmt.Sprintf("submit %v", j.Submit)
		case !(j.Duration >= 0) || math.IsInf(j.Duration, 0):
			bad = fmt.Sprintf("duration %v", j.Duration)
		case !(j.Estimate >= 0) || math.IsInf(j.Estimate, 0):
			bad = fmt.Sprintf("estimate %v", j.Estimate)
		}
		if bad != "" {
			panic(fmt.Sprintf("naive: job %d (index %d): %s", j.ID, i, bad))
		}
	}
}

// simulate runs the event loop and calls pass once per instant.
func simulate(jobs []Job, procs int, pass func(s *sim)) *sim {
	return simulateOrder(jobs, procs, false, pass)
}

func simulateOrder(jobs []Job, procs int, sjf bool, pass func(s *sim)) *sim {
	checkInput(jobs, procs)
	s := &sim{
		sjf:     sjf,
		jobs:    jobs,
		procs:   procs,
		starts:  make([]float64, len(jobs)),
		reasons: make([]string, len(jobs)),
	}
	for i := range s.starts {
		s.starts[i] = math.NaN()
	}
	// "Jobs arrive at Submit": the jobs sorted by arrival, consumed in order.
	arrivals := arrivalOrder(jobs)
	next := 0 // arrivals[next] is the next job to arrive

	for next < len(arrivals) || len(s.waiting) > 0 || len(s.running) > 0 {
		// "Then go to the next instant = the smallest future completion
		// or arrival time." A job of Duration 0 started by the last pass
		// completes at the current time, which makes the next instant
		// have the same time: "that is another instant at the same time t".
		t := math.Inf(1)
		if next < len(arrivals) {
			t = jobs[arrivals[next]].Submit
		}
		for _, r := range s.running {
			t = min(t, r.end)
		}
		if math.IsInf(t, 1) {
			panic(fmt.Sprintf("naive: stalled at time %v: %d jobs waiting (first: job %d), "+
				"none running, no arrival left; stale reservations block the queue",
				s.now, len(s.waiting), jobs[s.waiting[0]].ID))
		}
		s.now = t

		// "At an instant t: first all completions at t (a job started at
		// s ends at s + Duration)".
		var still []running
		for _, r := range s.running {
			if r.end > t {
				still = append(still, r)
			}
		}
		s.running = still

		// "then all arrivals with Submit == t join the queue".
		for next < len(arrivals) && jobs[arrivals[next]].Submit == t {
			s.waiting = append(s.waiting, arrivals[next])
			next++
		}
		slices.SortFunc(s.waiting, s.queueCmp)

		// "then ONE scheduling pass."
		pass(s)
	}
	return s
}

// free is the actual number of free processors:
// "actual free processors = procs − Σ running procs".
func (s *sim) free() int {
	n := s.procs
	for _, r := range s.running {
		n -= s.jobs[r.job].Procs
	}
	return n
}

// start starts waiting job j now.
func (s *sim) start(j int, reason string) {
	if s.jobs[j].Procs > s.free() {
		panic(fmt.Sprintf("naive: internal error: job %d started at %v on %d free processors, needs %d",
			s.jobs[j].ID, s.now, s.free(), s.jobs[j].Procs))
	}
	k := slices.Index(s.waiting, j)
	if k < 0 {
		panic(fmt.Sprintf("naive: internal error: job %d started but not waiting", s.jobs[j].ID))
	}
	s.waiting = slices.Delete(s.waiting, k, k+1)
	s.running = append(s.running, running{job: j, start: s.now, end: s.now + s.jobs[j].Duration})
	s.starts[j] = s.now
	s.reasons[j] = reason
}

// headReason is the reason of a job started while no job ahead of it waits:
// "immediate" if now == its Submit, else "reserved".
func (s *sim) headReason(j int) string {
	if s.now == s.jobs[j].Submit {
		return Immediate
	}
	return Reserved
}

// estEnd is the scheduler's view of when running job r ends: "The scheduler
// knows running jobs only by their estimated end: start + Estimate. If that
// is <= now (the job runs past its estimate), the scheduler treats its
// estimated end as math.Nextafter(now, +Inf)". This also covers a job of
// Estimate 0 started now ("A span of length 0 ... occupying the processors
// at its start instant": [now, Nextafter(now)).)
func (s *sim) estEnd(r running) float64 {
	e := r.start + s.jobs[r.job].Estimate
	if e <= s.now {
		e = math.Nextafter(s.now, math.Inf(1))
	}
	return e
}

// spanEnd is the end of the span of a job with estimate d placed at s:
// "[s, s+d) if d > 0 and [s, Nextafter(s,+Inf)) if d == 0". A positive d so
// small that s+d rounds to s is treated like d == 0, so that every span is
// non-empty.
func spanEnd(s, d float64) float64 {
	e := s + d
	if e <= s {
		e = math.Nextafter(s, math.Inf(1))
	}
	return e
}

// FCFS is strict first-come-first-served: "in queue order, start jobs while
// the head fits now (actual free processors = procs − Σ running procs);
// stop at the first that does not fit."
func FCFS(jobs []Job, procs int) []float64 {
	s := simulate(jobs, procs, func(s *sim) {
		for len(s.waiting) > 0 {
			head := s.waiting[0]
			if s.jobs[head].Procs > s.free() {
				break // "stop at the first that does not fit"
			}
			s.start(head, s.headReason(head))
		}
	})
	return s.starts
}
