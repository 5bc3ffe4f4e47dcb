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

// earliest returns where e goes, reservations in place: (now, the Pick
// machine) if it fits now somewhere, else later.
func (b *Backfill) earliest(now float64, e *entry) (float64, int) {
	if m := b.pl.fitNow(now, e); m >= 0 {
		return now, m
	}
	return b.pl.later(now, e)
}
