package backfill

import (
	"math"

	"github.com/schedlab/schedlab/freeprofile"
	"github.com/schedlab/schedlab/job"
)

// easyProf answers, for the one-machine engine at depth 1 (EASY, in FCFS
// or SJF order), the questions the pass asks of the availability profile
// (FreeAt now, Fits now, Earliest, Replace) from the running jobs and the
// reservations themselves, with no profile kept. The answers are the
// profile's exactly (see the package doc for why).
//
// The free processors at a time t >= now are
//
//	free(t) = F(t) - R(t)
//	F(t)    = total - (processors of running jobs with estimated end > t)
//	          - (processors of overrunning jobs, at t = now only)
//	R(t)    = processors of the reservations [s, e) with s <= t < e
//
// which is what the profile holds: running jobs are allocated [start,
// estimated end), an overrunning job the instant [now, nextUp(now)) of the
// pass, a reservation [s, Span(s, d)). F never decreases after now, so
// free steps down only at a reservation's start: the least free count over
// a window [t, e) is at t or at a reservation start inside it, and the
// earliest start of a window is now or a time at which free steps up (an
// estimated end, nextUp(now), a reservation's end).
type easyProf struct {
	total int
	now   float64 // the pass's time (the profile's Start)
	over  int     // processors of overrunning jobs, held at now (during a pass)
	run   []runEnd
	base  []runEnd // run's whole backing array (run is a window of it)
	busy  int      // processors of the jobs in run
	resv  []fastResv
}

// runEnd is a running job not known to be past its estimated end. run is
// sorted by end; it may keep, until the next advance, a job that finished
// at or after its estimated end (such a job adds nothing after now).
type runEnd struct {
	end   float64
	id    job.ID
	procs int
}

// fastResv is a reservation [s, e) of procs processors; fAt is F(s) when
// s > now: total minus the processors of running jobs ending after s.
type fastResv struct {
	id    job.ID
	s, e  float64
	procs int
	fAt   int
}

func newEasyProf(total int) *easyProf {
	return &easyProf{total: total, now: math.Inf(-1)}
}

// advance forgets the running jobs whose estimated end is at or before now
// and returns them (valid until the next start): each finished or overran,
// and the engine counts the latter in over. run thus finds overruns as
// the engine's heap of estimated ends does.
func (z *easyProf) advance(now float64) []runEnd {
	z.now = now
	k := 0
	for k < len(z.run) && z.run[k].end <= now {
		z.busy -= z.run[k].procs
		k++
	}
	gone := z.run[:k]
	z.run = z.run[k:]
	return gone
}

// search returns the index of the first job in run ending at or after t.
func (z *easyProf) search(t float64) int {
	lo, hi := 0, len(z.run)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if z.run[m].end < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// start records a job started now for the span [now, end).
func (z *easyProf) start(end float64, id job.ID, procs int) {
	z.busy += procs
	for i := range z.resv {
		if end > z.resv[i].s {
			z.resv[i].fAt -= procs
		}
	}
	n := len(z.run)
	// The first job ending after end: equal ends keep their start order.
	i := n
	if n > 0 && z.run[n-1].end > end {
		lo, hi := 0, n
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if z.run[m].end <= end {
				lo = m + 1
			} else {
				hi = m
			}
		}
		i = lo
	}
	// Move the shorter side: the jobs before i one place to the left when
	// base has room before run, else the jobs from i one to the right.
	if off := cap(z.base) - cap(z.run); i < n-i && off > 0 {
		z.run = z.base[off-1 : off+n]
		copy(z.run, z.run[1:i+1])
		z.run[i] = runEnd{end: end, id: id, procs: procs}
		return
	}
	if n == cap(z.run) {
		z.grow(n + 1)
	}
	z.run = z.run[:n+1]
	copy(z.run[i+1:], z.run[i:n])
	z.run[i] = runEnd{end: end, id: id, procs: procs}
}

// grow makes room for m jobs, moving run to the front of base when that
// leaves a quarter of it free, else into a new array of twice m.
func (z *easyProf) grow(m int) {
	if m+m/4 <= cap(z.base) {
		z.run = z.base[:copy(z.base[:cap(z.base)], z.run)]
		return
	}
	nb := make([]runEnd, len(z.run), 2*m)
	copy(nb, z.run)
	z.base, z.run = nb, nb
}

// finishEarly removes a job that completed before its estimated end.
func (z *easyProf) finishEarly(end float64, id job.ID, procs int) {
	for i := z.search(end); i < len(z.run) && z.run[i].end == end; i++ {
		if z.run[i].id == id {
			// Close the gap from the shorter side.
			if n := len(z.run); i < n-1-i {
				copy(z.run[1:i+1], z.run[:i])
				z.run = z.run[1:]
			} else {
				copy(z.run[i:], z.run[i+1:])
				z.run = z.run[:n-1]
			}
			z.busy -= procs
			for k := range z.resv {
				if end > z.resv[k].s {
					z.resv[k].fAt += procs
				}
			}
			return
		}
	}
	panic("backfill: a running job is missing from the fast path's list")
}

// reserve records e's reservation [s, end) of procs processors.
func (z *easyProf) reserve(id job.ID, s, end float64, procs int) {
	f := z.total - z.busy
	for i := 0; i < len(z.run) && z.run[i].end <= s; i++ {
		f += z.run[i].procs
	}
	z.resv = append(z.resv, fastResv{id: id, s: s, e: end, procs: procs, fAt: f})
}

// unreserve removes id's reservation.
func (z *easyProf) unreserve(id job.ID) {
	for i := range z.resv {
		if z.resv[i].id == id {
			z.resv = append(z.resv[:i], z.resv[i+1:]...)
			return
		}
	}
	panic("backfill: a reservation is missing from the fast path's list")
}

// reserved is R(t).
func (z *easyProf) reserved(t float64) int {
	n := 0
	for i := range z.resv {
		if r := &z.resv[i]; r.s <= t && t < r.e {
			n += r.procs
		}
	}
	return n
}

// freeNow is the profile's FreeAt(now).
func (z *easyProf) freeNow() int {
	f := z.total - z.busy - z.over
	if len(z.resv) > 0 {
		f -= z.reserved(z.now)
	}
	return f
}

// ok reports whether procs processors are free on all of [t, end), given
// f = F(t), t >= now: free at t and at every reservation start inside.
func (z *easyProf) ok(t float64, f, procs int, end float64) bool {
	if len(z.resv) == 0 {
		return f >= procs
	}
	if f-z.reserved(t) < procs {
		return false
	}
	for i := range z.resv {
		if r := &z.resv[i]; t < r.s && r.s < end && r.fAt-z.reserved(r.s) < procs {
			return false
		}
	}
	return true
}

// fits is the profile's Fits(now, procs, d).
func (z *easyProf) fits(procs int, d float64) bool {
	return z.ok(z.now, z.total-z.busy-z.over, procs, freeprofile.Span(z.now, d))
}

// earliest returns the earliest t in [now, limit) at which procs
// processors are free on [t, min(Span(t, d), limit)), or limit if there
// is none: with limit +Inf, the profile's Earliest(now, procs, d); with
// limit the start s0 of the job's own reservation, the profile's
// Replace(now, procs, d, s0) (the windows end by s0, so the job's own
// reservation is never in them).
func (z *easyProf) earliest(procs int, d, limit float64) float64 {
	t := z.now
	f := z.total - z.busy - z.over
	over := z.over
	i := 0
	for t < limit {
		end := freeprofile.Span(t, d)
		if end > limit {
			end = limit
		}
		if z.ok(t, f, procs, end) {
			return t
		}
		// The next time free may step up.
		next := math.Inf(1)
		if over > 0 {
			next = math.Nextafter(z.now, math.Inf(1))
		}
		if i < len(z.run) && z.run[i].end < next {
			next = z.run[i].end
		}
		for k := range z.resv {
			if e := z.resv[k].e; e > t && e < next {
				next = e
			}
		}
		if next == math.Inf(1) {
			break
		}
		t = next
		if over > 0 {
			f += over
			over = 0
		}
		for i < len(z.run) && z.run[i].end <= t {
			f += z.run[i].procs
			i++
		}
	}
	return limit
}
