package backfill

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
)

// Pick chooses, among the machines on which a job fits now, the one it
// starts on. (A reservation always goes to the machine where the job can
// start earliest, ties to the lowest index, whatever the Pick.)
type Pick uint8

const (
	// PickFirst: the first machine in index order (FCFS in klusacek-2008
	// and the authors' Alea).
	PickFirst Pick = iota
	// PickFastest: the fastest machine (largest BM), ties to the lowest
	// index: "the first most powerful available machine" (EASY and
	// Flexible backfilling in klusacek-2008).
	PickFastest
)

func (p Pick) String() string {
	if p == PickFastest {
		return "fastest"
	}
	return "first"
}

// CanHold reports whether machine m can ever run job j: it has at least
// j.Procs CPUs, enough memory per CPU when both the machine's and the
// job's are known, and at least the speed the job requires when it
// requires one. These are the checks the central-queue model applies to
// every start.
func CanHold(m platform.Machine, j job.Info) bool {
	return holds(&m, j.Procs, j.Mem, j.Speed)
}

func holds(m *platform.Machine, procs int, mem, speed float64) bool {
	return m.Holds(procs, mem, speed)
}

// Fastest returns the fastest machine of p that can hold j (ties: lowest
// index), or -1 if none can.
func Fastest(p platform.Platform, j job.Info) int {
	best := -1
	for m := 0; m < p.Machines(); m++ {
		mc := p.Machine(m)
		if CanHold(mc, j) && (best < 0 || mc.BM() > p.Machine(best).BM()) {
			best = m
		}
	}
	return best
}

// machinesOf copies the machines of p and returns them with the order in
// which pick tries them.
func machinesOf(p platform.Platform, pick Pick) ([]platform.Machine, []int32) {
	ms := make([]platform.Machine, p.Machines())
	scan := make([]int32, len(ms))
	for m := range ms {
		ms[m] = p.Machine(m)
		scan[m] = int32(m)
	}
	if pick == PickFastest {
		slices.SortStableFunc(scan, func(a, b int32) int { return cmp.Compare(ms[b].BM(), ms[a].BM()) })
	}
	return ms, scan
}

// sameMachines reports whether the engine's machines are those of p.
func sameMachines(ms []platform.Machine, p platform.Platform) error {
	if p.Machines() != len(ms) {
		return fmt.Errorf("built for %d machines, runs on %d", len(ms), p.Machines())
	}
	for m := range ms {
		if p.Machine(m) != ms[m] {
			return fmt.Errorf("machine %d is %+v, built for %+v", m, p.Machine(m), ms[m])
		}
	}
	return nil
}

// can reports whether machine m can hold waiting job e.
func (b *Backfill) can(m int, e *entry) bool {
	mem, speed := e.needs()
	return holds(&b.machs[m], e.Procs, mem, speed)
}

// dur is e's estimated runtime on machine m: Estimate x BM_est / BM_m,
// computed exactly as the model computes actual durations. With BM_est
// unset (one-machine policies) and a reference-speed machine it is the
// estimate itself.
func (b *Backfill) dur(e *entry, m int) float64 {
	if e.x == nil {
		return e.Estimate // one reference machine: Duration(Estimate, 0)
	}
	return b.machs[m].Duration(e.Estimate, e.x.bmEst)
}

// fastestRuntime is e's estimated runtime on the fastest machine that can
// hold it (+Inf if none can).
func (b *Backfill) fastestRuntime(e *entry) float64 {
	best := -1
	for m := range b.machs {
		if b.can(m, e) && (best < 0 || b.machs[m].BM() > b.machs[best].BM()) {
			best = m
		}
	}
	if best < 0 {
		return math.Inf(1)
	}
	return b.dur(e, best)
}

// holdable reports whether some machine can hold e.
func (b *Backfill) holdable(e *entry) bool {
	for m := range b.machs {
		if b.can(m, e) {
			return true
		}
	}
	return false
}

// openMachines lists, in Pick order, the machines with a CPU free at now
// in the profile (the only ones where a job can start now), and returns
// the largest free count among them.
func (b *Backfill) openMachines(now float64) int {
	b.open = b.open[:0]
	most := 0
	for _, m := range b.scan {
		if f := b.profs[m].FreeAt(now); f > 0 {
			b.open = append(b.open, m)
			most = max(most, f)
		}
	}
	b.openValid = true
	return most
}

// fitNow returns the machine on which e starts if it starts now: the
// first in Pick order among those that can hold it and on which it fits
// now in the profile (reservations in place); -1 if there is none. On a
// machine without reservations "fits now" is "enough free CPUs now"; on a
// machine with an EASY reservation it is the EASY condition.
func (b *Backfill) fitNow(now float64, e *entry) int {
	if len(b.machs) == 1 { // one machine: the cluster's hot path
		d := b.dur(e, 0)
		if !b.hooks.fitMemoOff() && b.fails.fails(e.Procs, d) {
			b.hooks.memoHit()
			return -1
		}
		var fits bool
		if b.ez != nil {
			fits = b.ez.fits(e.Procs, d)
		} else {
			fits = b.profs[0].Fits(now, e.Procs, d)
		}
		if !fits || !b.clearNow(now, 0, e.Procs, d) {
			b.fails.add(e.Procs, d)
			return -1
		}
		if b.can(0, e) {
			return 0
		}
		return -1
	}
	if !b.openValid {
		b.openMachines(now)
	}
	for _, m := range b.open {
		p := b.profs[m]
		if b.can(int(m), e) && p.FreeAt(now) >= e.Procs && p.Fits(now, e.Procs, b.dur(e, int(m))) && b.clearNow(now, int(m), e.Procs, b.dur(e, int(m))) {
			return int(m)
		}
	}
	return -1
}

// earliest returns where e goes, reservations in place: (now, the Pick
// machine) if it fits now somewhere, else later.
func (b *Backfill) earliest(now float64, e *entry) (float64, int) {
	if m := b.fitNow(now, e); m >= 0 {
		return now, m
	}
	return b.later(now, e)
}

// later returns, for a job that fits nowhere now, its earliest start over
// the machines that can hold it and that machine (ties: lowest index);
// +Inf and -1 if no machine can hold it.
func (b *Backfill) later(now float64, e *entry) (float64, int) {
	best, bm := math.Inf(1), -1
	for m := range b.machs {
		if !b.can(m, e) {
			continue
		}
		var s float64
		if b.ez != nil {
			s = b.ez.earliest(e.Procs, b.dur(e, m), math.Inf(1))
		} else {
			s = b.profs[m].Earliest(now, e.Procs, b.dur(e, m))
			if s <= now && !b.clearNow(now, m, e.Procs, b.dur(e, m)) {
				s = b.profs[m].Earliest(afterNow(now), e.Procs, b.dur(e, m))
			}
		}
		if s < best {
			best, bm = s, m
		}
	}
	return best, bm
}

// replace answers "where would e's reservation go if re-placed?" without
// changing the profiles: the earliest start over the machines, e's own
// reservation lifted (profile.Replace on its machine), ties to the lowest
// index.
func (b *Backfill) replace(now float64, e *entry) (float64, int) {
	own := int(e.m)
	if b.ez != nil {
		return b.ez.earliest(e.Procs, b.dur(e, own), e.resv), own
	}
	best, bm := b.profs[own].Replace(now, e.Procs, b.dur(e, own), e.resv), own
	if best <= now && !b.clearNow(now, own, e.Procs, b.dur(e, own)) {
		best = b.profs[own].Replace(afterNow(now), e.Procs, b.dur(e, own), e.resv)
	}
	if len(b.machs) == 1 {
		return best, bm
	}
	for m := range b.machs {
		if m == own || !b.can(m, e) {
			continue
		}
		s := b.profs[m].Earliest(now, e.Procs, b.dur(e, m))
		if s <= now && !b.clearNow(now, m, e.Procs, b.dur(e, m)) {
			s = b.profs[m].Earliest(afterNow(now), e.Procs, b.dur(e, m))
		}
		if s < best || (s == best && m < bm) {
			best, bm = s, m
		}
	}
	return best, bm
}
