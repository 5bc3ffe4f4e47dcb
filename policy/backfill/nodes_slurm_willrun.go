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
//
// Within a pass, until a job starts, the groups stay and holds are only
// added (reservations), so that a request of cores only
// (nodes.Prepared.CoresOnly) that failed at every candidate before T,
// for no more cores and no longer, fails there too: slurmEarliest
// remembers each such answer (slurmFail) and, for a later request it
// covers, tries before T only the ends of the reservations made since.
// The answer is the same (TestSlurmMemoChangesNothing); a queue of
// like jobs is then read once per pass instead of once per job.
func (b *NodePolicy) slurmEarliest(now, until, d float64, pr *nodes.Prepared) (float64, bool) {
	s := b.slurm
	if s.p.ExactWillRun {
		return b.prof.EarliestBy(now, until, d, pr, &b.cur)
	}
	if !s.groupsOK {
		s.groups = b.runGroups(now, s.groups[:0])
		s.groupsOK = true
	}
	cands := append(s.cands[:0], s.groups...)
	for i := range b.resv {
		if h := b.resv[i].hold; h >= 0 {
			if _, z := b.prof.Interval(h); z > now {
				cands = append(cands, z)
			}
		}
	}
	slices.Sort(cands)
	s.cands = cands
	memo := pr.CoresOnly() && !s.noMemo
	below, nres := math.Inf(-1), 0
	if memo {
		for _, f := range s.fails {
			if pr.MinCores >= f.cores && d >= f.d && f.below > below {
				below, nres = f.below, f.nres
			}
		}
	}
	fresh := s.fresh[:0] // the ends of the reservations made since
	if !math.IsInf(below, -1) {
		for i := nres; i < len(b.resv); i++ {
			if h := b.resv[i].hold; h >= 0 {
				if _, z := b.prof.Interval(h); z > now && z < below {
					fresh = append(fresh, z)
				}
			}
		}
	}
	s.fresh = fresh
	last := math.Inf(-1)
	for _, t := range cands {
		if t == last {
			continue
		}
		if t > until {
			break
		}
		last = t
		if t < below && !slices.Contains(fresh, t) {
			s.memoSkips++
			continue // failed for a request it covers, with fewer holds
		}
		if b.prof.Select(t, nodes.Span(t, d), pr, &b.cur) {
			if memo {
				s.remember(slurmFail{cores: pr.MinCores, d: d, below: t, nres: len(b.resv)})
			}
			return t, true
		}
	}
	if memo {
		s.remember(slurmFail{cores: pr.MinCores, d: d, below: math.Nextafter(until, math.Inf(1)), nres: len(b.resv)})
	}
	return 0, false
}

// runGroups appends to out the candidate starts the running jobs'
// groups give at now (above), in increasing order.
func (b *NodePolicy) runGroups(now float64, out []float64) []float64 {
	s := b.slurm
	ends := s.ends[:0]
	for _, slot := range b.runOf {
		if r := &b.runs[slot]; r.live {
			if _, z := b.prof.Interval(r.hold); z > now && !math.IsInf(z, 1) {
				ends = append(ends, z)
			}
		}
	}
	slices.Sort(ends)
	s.ends = ends
	if len(ends) == 0 {
		return out
	}
	w := float64(slurmWillRunWindow)
	// The clock's next mark after the first end (Unix time: the
	// trace's start is SlurmParams.Origin).
	base := ends[0] + w - math.Mod(math.Mod(ends[0]+s.p.Origin, w)+w, w)
	for i := 0; i < len(ends); {
		j := i
		for j+1 < len(ends) && ends[j+1] <= base+w {
			j++
		}
		out = append(out, ends[j])
		i = j + 1
		for first := true; i < len(ends) && (first || ends[i] > base+w); first = false {
			if s.p.WindowLinear > 0 {
				w += s.p.WindowLinear
			} else {
				w *= 2
			}
		}
	}
	return out
}

// slurmFail is slurmEarliest's answer for a request of cores only: it
// failed at every candidate before below (a success there, or past
// until: none) for cores cores over d seconds, when the pass had nres
// reservations.
type slurmFail struct {
	cores int
	d     float64
	below float64
	nres  int
}

// slurmMaxFails bounds the failures a pass remembers (the oldest go).
const slurmMaxFails = 32

func (s *slurmState) remember(f slurmFail) {
	for i, g := range s.fails {
		if g.cores == f.cores && g.d == f.d {
			s.fails[i] = f // the later answer covers as much, with more holds
			return
		}
	}
	if len(s.fails) == slurmMaxFails {
		s.fails = append(s.fails[:0], s.fails[1:]...)
	}
	s.fails = append(s.fails, f)
}

// willRunReset forgets slurmEarliest's groups and failures: at the
// start of a backfill pass and when one of its jobs starts.
func (s *slurmState) willRunReset() {
	s.groupsOK = false
	s.fails = s.fails[:0]
}
