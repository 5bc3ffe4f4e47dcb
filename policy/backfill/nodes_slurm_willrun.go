package backfill

import (
	"math"
	"slices"

	"github.com/schedlab/schedlab/platform/nodes"
)

// Slurm's planned start of a job that cannot start now (docs/slurm.md,
// "Slurm's will-run test"): its backfill pass asks select/cons_tres's
// _will_run_test when the job could start on the nodes free of the
// pass's reservations, and that test ends the running jobs not one by
// one but in groups: sorted by end time, the first group is every job
// ending up to B + 30 s, B the first end rounded up to the clock's next
// 30 s (a job ending on the mark goes to the mark after); then the
// window doubles (bf_window_linear=N: grows by N s) until it takes in
// the next end, and the next group is every job ending up to B + the
// window, and so on. After each group the job is tried, and its start
// is the group's last end. So a reservation may lie later than the
// earliest time the job fits, and a lower-priority job may backfill
// before it where an exact plan would block it.

// slurmWillRunWindow is the will-run test's first window, seconds
// (cons_tres's _will_run_test: time_window = 30).
const slurmWillRunWindow = 30

// slurmEarliest is the first candidate start T, up to until, at which
// pr fits over [T, T+d) beside the running jobs and the pass's
// reservations (b.prof), writing the selection to b.cur: the candidates
// are the last end of each of the running jobs' groups (above) and the
// ends of the pass's reservations (where backfill.c's loop over
// start_res goes on, TRY_LATER). Under will_run exact every end of a
// hold is a candidate (Profile.EarliestBy).
func (b *NodePolicy) slurmEarliest(now, until, d float64, pr *nodes.Prepared) (float64, bool) {
	s := b.slurm
	if s.p.ExactWillRun {
		return b.prof.EarliestBy(now, until, d, pr, &b.cur)
	}
	ends := s.ends[:0]
	for _, slot := range b.runOf {
		if r := &b.runs[slot]; r.live {
			if _, z := b.prof.Interval(r.hold); z > now && !math.IsInf(z, 1) {
				ends = append(ends, z)
			}
		}
	}
	slices.Sort(ends)
	cands := s.cands[:0]
	if len(ends) > 0 {
		w := float64(slurmWillRunWindow)
		// The clock's next mark after the first end (Unix time: the
		// trace's start is SlurmParams.Origin).
		base := ends[0] + w - math.Mod(math.Mod(ends[0]+s.p.Origin, w)+w, w)
		for i := 0; i < len(ends); {
			j := i
			for j+1 < len(ends) && ends[j+1] <= base+w {
				j++
			}
			cands = append(cands, ends[j])
			i = j + 1
			for first := true; i < len(ends) && (first || ends[i] > base+w); first = false {
				if s.p.WindowLinear > 0 {
					w += s.p.WindowLinear
				} else {
					w *= 2
				}
			}
		}
	}
	for i := range b.resv {
		if h := b.resv[i].hold; h >= 0 {
			if _, z := b.prof.Interval(h); z > now {
				cands = append(cands, z)
			}
		}
	}
	slices.Sort(cands)
	s.ends, s.cands = ends, cands
	last := math.Inf(-1)
	for _, t := range cands {
		if t == last {
			continue
		}
		if t > until {
			break
		}
		last = t
		if b.prof.Select(t, nodes.Span(t, d), pr, &b.cur) {
			return t, true
		}
	}
	return 0, false
}
