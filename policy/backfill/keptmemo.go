package backfill

// keptMemo remembers, within a pass on one machine, the last held
// reservation the profile's Replace placed: its CPUs, duration and
// start. Replace(now, p, d, s0) answers the earliest t >= now such that
// [t, min(Span(t, d), s0)) has at least p free CPUs everywhere, s0 if
// there is none (the reservation's own slot; the profile holds it). So an
// answer s means: every t in [now, s) has, before s, an instant with
// fewer than p free (for s < s0 too: Span(t, d) grows with t, so a short
// instant at or after s in t's window would lie in s's window as well,
// and s would not be an answer). A later reservation at the same start s0 = s asking
// for at least as many CPUs (p' >= p) for at least as long (d' >= d)
// sees, for every such t, a window reaching at least as far before s
// (min(Span(t, d'), s) >= min(Span(t, d), s)) and the same short instant:
// Replace would answer s0, so it is kept without asking. This holds while
// the profile loses capacity only (jobs start, reservations are made) and
// while what is freed lies at or after s: a reservation lifted from old
// (unreserve) frees [old, ...), and freed lifts the memo if old < s. (A
// reservation moved earlier frees its old span too, but the memo then
// holds its own new start, before that span.) The start of each pass
// clears it.
//
// On RICC-2010 with 8192 CPUs, most of a conservative pass's
// re-placements are such repeats (jobs of an array queued side by side,
// reserved at one start): the memo answers about four in five of them
// (docs/performance.md, "Issue 30, fifth round").
type keptMemo struct {
	ok    bool
	procs int
	d, s  float64
}

func (k *keptMemo) reset() { k.ok = false }

// holds reports whether a reservation of procs CPUs for d from s is known
// to stay at s.
func (k *keptMemo) holds(procs int, d, s float64) bool {
	return k.ok && s == k.s && procs >= k.procs && d >= k.d
}

// set records that Replace placed a reservation of procs CPUs for d at s.
func (k *keptMemo) set(procs int, d, s float64) {
	k.ok, k.procs, k.d, k.s = true, procs, d, s
}

// freed tells the memo that capacity was freed from old on.
func (k *keptMemo) freed(old float64) {
	if old < k.s {
		k.ok = false
	}
}
