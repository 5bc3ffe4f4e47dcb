package backfill

// fitMemo remembers, within a pass on one machine, requests that did not
// fit now: (procs, duration) pairs for which Profile.Fits(now, procs, d)
// was false. Fits is monotone: a request of at least as many CPUs for at
// least as long does not fit either, as long as the profile has lost no
// capacity since (its window [now, now+d) covers the failed one's, and it
// needs more in each segment). Within a pass the profile only loses
// capacity (jobs start, reservations are made) except where a reservation
// is lifted (unreserve), which clears the memo, as does the start of each
// pass. A long queue of jobs that fit by CPU count but not by time (the
// reservation in the way) then costs a few comparisons per job instead of
// a walk over the profile.
type fitMemo struct {
	n     int
	next  int // the slot to overwrite when full
	procs [fitMemoSize]int
	dur   [fitMemoSize]float64
}

const fitMemoSize = 8

func (f *fitMemo) reset() { f.n, f.next = 0, 0 }

// fails reports whether (procs, d) is known not to fit.
func (f *fitMemo) fails(procs int, d float64) bool {
	for i := range f.n {
		if procs >= f.procs[i] && d >= f.dur[i] {
			return true
		}
	}
	return false
}

// add records that (procs, d) did not fit. A failure it implies is
// replaced; when the memo is full the oldest slot goes.
func (f *fitMemo) add(procs int, d float64) {
	for i := range f.n {
		if procs <= f.procs[i] && d <= f.dur[i] {
			f.procs[i], f.dur[i] = procs, d
			return
		}
	}
	if f.n < fitMemoSize {
		f.procs[f.n], f.dur[f.n] = procs, d
		f.n++
		return
	}
	f.procs[f.next], f.dur[f.next] = procs, d
	f.next = (f.next + 1) % fitMemoSize
}
