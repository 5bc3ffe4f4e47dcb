package nodesref

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// running is a started job: it ends at end (start + Runtime) and, for
// planning, holds h until start + Estimate.
type running struct {
	job int
	end float64
	h   hold
}

// sim is the state of one simulation.
type sim struct {
	nodes   []Node
	jobs    []Job
	starts  []Start
	queue   []int // job indices, in queue order
	running []running
	now     float64
	// reserved, when not nil, is told every reservation made (tests).
	reserved func(job int, t float64)
}

// Simulate runs jobs on nodes under p and returns one Start per job, in
// the jobs' order. It panics on input outside the documented domain.
func Simulate(nodes []Node, jobs []Job, p Policy) []Start {
	return simulate(nodes, jobs, p, nil)
}

// simulate is Simulate, telling reserved (if not nil) the job and time of
// every reservation made.
func simulate(nodes []Node, jobs []Job, p Policy, reserved func(job int, t float64)) []Start {
	check(nodes, jobs, p)
	s := &sim{nodes: nodes, jobs: jobs, starts: make([]Start, len(jobs)), reserved: reserved}
	empty := during(nodes, nil, 0, 1)
	var arrivals []int // the jobs that can ever fit, in queue order
	for i, j := range jobs {
		s.starts[i].ID = j.ID
		if _, ok := allocate(nodes, empty, j.Req); !ok {
			s.starts[i].Never = true
			continue
		}
		arrivals = append(arrivals, i)
	}
	// The queue is ordered by submit, then by position in the input.
	slices.SortStableFunc(arrivals, func(a, b int) int { return cmp.Compare(jobs[a].Submit, jobs[b].Submit) })
	for len(arrivals) > 0 || len(s.queue) > 0 || len(s.running) > 0 {
		if len(arrivals) == 0 && len(s.running) == 0 {
			panic(fmt.Sprintf("nodesref: stalled at %v with %d jobs waiting", s.now, len(s.queue)))
		}
		// The next instant: the earliest submit or end.
		s.now = math.Inf(1)
		if len(arrivals) > 0 {
			s.now = jobs[arrivals[0]].Submit
		}
		for _, r := range s.running {
			s.now = min(s.now, r.end)
		}
		// Ends first, then submits, then one pass.
		s.running = slices.DeleteFunc(s.running, func(r running) bool { return r.end <= s.now })
		for len(arrivals) > 0 && jobs[arrivals[0]].Submit <= s.now {
			s.queue = append(s.queue, arrivals[0])
			arrivals = arrivals[1:]
		}
		switch p {
		case FCFS:
			s.fcfs()
		case EASY:
			s.easy()
		case Conservative:
			s.conservative()
		}
	}
	return s.starts
}

// holds are the running jobs' holds, each until its estimated end.
func (s *sim) holds() []hold {
	hs := make([]hold, 0, len(s.running))
	for _, r := range s.running {
		hs = append(hs, r.h)
	}
	return hs
}

// start starts job j now on uses.
func (s *sim) start(j int, uses []NodeUse) {
	jb := s.jobs[j]
	s.starts[j] = Start{ID: jb.ID, Time: s.now, Uses: uses}
	s.running = append(s.running, running{job: j, end: s.now + jb.Runtime,
		h: hold{from: s.now, to: s.now + jb.Estimate, exclusive: jb.Req.Exclusive, uses: uses}})
}

// reserve tells s.reserved of a reservation of job j at t (t > now).
func (s *sim) reserve(j int, t float64) {
	if s.reserved != nil && t > s.now {
		s.reserved(j, t)
	}
}

// fcfs starts the queue's head while it fits on what is free now.
func (s *sim) fcfs() {
	for len(s.queue) > 0 {
		j := s.queue[0]
		// Every running job holds its resources at now (it ends after now
		// and its estimated end is no earlier), so what is free now is
		// what is free over [now, next instant).
		free := during(s.nodes, s.holds(), s.now, math.Nextafter(s.now, math.Inf(1)))
		uses, ok := allocate(s.nodes, free, s.jobs[j].Req)
		if !ok {
			return
		}
		s.start(j, uses)
		s.queue = s.queue[1:]
	}
}

// easy is FCFS, then a reservation for the head at its shadow time, then
// every later job started now if it fits beside the running jobs and the
// reservation.
func (s *sim) easy() {
	s.fcfs()
	if len(s.queue) == 0 {
		return
	}
	head := s.jobs[s.queue[0]]
	shadow, resUses, ok := earliest(s.nodes, s.holds(), head.Req, s.now, head.Estimate)
	if !ok {
		panic(fmt.Sprintf("nodesref: job %d: no reservation at %v", head.ID, s.now))
	}
	s.reserve(s.queue[0], shadow)
	res := hold{from: shadow, to: shadow + head.Estimate, exclusive: head.Req.Exclusive, uses: resUses}
	waiting := []int{s.queue[0]}
	for _, j := range s.queue[1:] {
		jb := s.jobs[j]
		free := during(s.nodes, append(s.holds(), res), s.now, s.now+jb.Estimate)
		if uses, ok := allocate(s.nodes, free, jb.Req); ok {
			s.start(j, uses)
			continue
		}
		waiting = append(waiting, j)
	}
	s.queue = waiting
}

// conservative gives every waiting job, in queue order, its earliest
// (time, allocation) in the plan of the running jobs and the reservations
// made before it in this pass; a job whose time is now starts.
func (s *sim) conservative() {
	plan := s.holds()
	var waiting []int
	for _, j := range s.queue {
		jb := s.jobs[j]
		t, uses, ok := earliest(s.nodes, plan, jb.Req, s.now, jb.Estimate)
		if !ok {
			panic(fmt.Sprintf("nodesref: job %d: no reservation at %v", jb.ID, s.now))
		}
		s.reserve(j, t)
		plan = append(plan, hold{from: t, to: t + jb.Estimate, exclusive: jb.Req.Exclusive, uses: uses})
		if t == s.now {
			s.start(j, uses)
			continue
		}
		waiting = append(waiting, j)
	}
	s.queue = waiting
}
