package backfill

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/freeprofile"
	"github.com/schedlab/schedlab/job"
)

func sameLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d lines with the fast path, %d with the profile", what, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: line %d is %s with the fast path, %s with the profile", what, i, got[i], want[i])
		}
	}
}

// easyProf answers as the profile does, on random sequences of starts,
// early completions, reservations (several at once, some in the past),
// their removal, overrunning processors at the current instant and time
// advancing: FreeAt(now), Fits(now, p, d), Earliest(now, p, d) and
// Replace(now, p, d, s0) for a reservation held.
func TestEasyProfAnswersAsProfile(t *testing.T) {
	var several, replaces, withOver, stale int
	for seed := uint64(1); seed <= 300; seed++ {
		r := rand.New(rand.NewPCG(seed, 31))
		total := 1 + r.IntN(20)
		z := newEasyProf(total)
		p := freeprofile.New(total, math.Inf(-1))
		type runJob struct {
			end   float64
			procs int
		}
		type res struct {
			s, e, d float64
			procs   int
		}
		running := map[job.ID]runJob{}
		resvs := map[job.ID]res{}
		now := 0.0
		p.Advance(now)
		z.advance(now)
		next := job.ID(1)
		dur := func() float64 {
			switch r.IntN(5) {
			case 0:
				return 0
			case 1:
				return float64(r.IntN(4)) + 0.5
			}
			return float64(r.IntN(30))
		}
		for step := range 400 {
			if r.IntN(4) == 0 {
				now += float64(r.IntN(6))
				p.Advance(now)
				z.advance(now)
				for id, j := range running {
					if j.end <= now {
						delete(running, id) // ended or overran
					}
				}
			}
			over := 0
			if r.IntN(5) == 0 {
				over = 1 + r.IntN(total)
				p.Alloc(now, freeprofile.Span(now, 0), over)
				z.over = over
			}
			switch r.IntN(6) {
			case 0, 1: // start
				d, procs := dur(), 1+r.IntN(total)
				end := freeprofile.Span(now, d)
				p.Alloc(now, end, procs)
				z.start(end, next, procs)
				running[next] = runJob{end, procs}
				next++
			case 2: // early completion
				for id, j := range running {
					p.Release(now, j.end, j.procs)
					z.finishEarly(j.end, id, j.procs)
					delete(running, id)
					break
				}
			case 3: // reserve
				if len(resvs) < 3 {
					s := now + float64(1+r.IntN(20))
					d, procs := dur(), 1+r.IntN(total)
					e := freeprofile.Span(s, d)
					p.Alloc(s, e, procs)
					z.reserve(next, s, e, procs)
					resvs[next] = res{s, e, d, procs}
					next++
				}
			case 4: // lift
				for id, v := range resvs {
					p.Release(v.s, v.e, v.procs)
					z.unreserve(id)
					delete(resvs, id)
					break
				}
			}
			if len(resvs) >= 2 {
				several++
			}
			if over > 0 {
				withOver++
			}
			for _, v := range resvs {
				if v.s < now {
					stale++
				}
			}
			if got, want := z.freeNow(), p.FreeAt(now); got != want {
				t.Fatalf("seed %d step %d: freeNow %d, profile %d (%s)", seed, step, got, want, p)
			}
			for range 5 {
				procs, d := 1+r.IntN(total), dur()
				if got, want := z.fits(procs, d), p.Fits(now, procs, d); got != want {
					t.Fatalf("seed %d step %d: fits(%d, %g) %v, profile %v (%s)", seed, step, procs, d, got, want, p)
				}
				if got, want := z.earliest(procs, d, math.Inf(1)), p.Earliest(now, procs, d); got != want {
					t.Fatalf("seed %d step %d: earliest(%d, %g) %v, profile %v (%s)", seed, step, procs, d, got, want, p)
				}
			}
			for _, v := range resvs {
				if v.s <= now {
					continue // Replace is asked only of reservations ahead
				}
				d := v.d
				replaces++
				if got, want := z.earliest(v.procs, d, v.s), p.Replace(now, v.procs, d, v.s); got != want {
					t.Fatalf("seed %d step %d: replace(%d, %g, %g) %v, profile %v (%s)", seed, step, v.procs, d, v.s, got, want, p)
				}
			}
			if over > 0 {
				p.Release(now, freeprofile.Span(now, 0), over)
				z.over = 0
			}
		}
	}
	if several < 10000 || replaces < 10000 || withOver < 10000 || stale < 1000 {
		t.Fatalf("not exercised: %d steps with several reservations, %d Replace asked, %d steps with overrunning CPUs, %d stale reservations",
			several, replaces, withOver, stale)
	}
	t.Logf("%d steps with several reservations, %d Replace asked, %d steps with overrunning CPUs, %d stale reservations", several, replaces, withOver, stale)
}
