package testref

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/validate"
)

// randomWorkload draws 20-60 jobs with integer submit times (with ties),
// integer durations (some 0) and sizes 1..procs, in a shuffled slice with
// shuffled ids. Estimates are >= Duration unless overrun is set, in which
// case about a quarter of the jobs get an estimate below their duration.
func randomWorkload(r *rand.Rand, overrun bool) (jobs []Job, procs int) {
	procs = 4 + r.IntN(13)
	n := 20 + r.IntN(41)
	ids := r.Perm(n)
	t := 0
	for i := range n {
		t += r.IntN(6)
		dur := r.IntN(30)
		if r.IntN(10) == 0 {
			dur = 0
		}
		est := dur
		if r.IntN(3) > 0 {
			est += r.IntN(20)
		}
		if overrun && dur > 0 && r.IntN(4) == 0 {
			est = r.IntN(dur) // may be 0
		}
		p := 1 + r.IntN(procs)
		if r.IntN(2) == 0 {
			p = 1 + r.IntN(max(1, procs/3))
		}
		jobs = append(jobs, Job{ID: int64(ids[i] + 1), Submit: float64(t), Duration: float64(dur), Estimate: float64(est), Procs: p})
	}
	r.Shuffle(n, func(a, b int) { jobs[a], jobs[b] = jobs[b], jobs[a] })
	return jobs, procs
}

func rng(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5eed)) }

// checkSchedule checks a schedule independently of the simulators: every job
// starts, not before its submission, and the processors in use never exceed
// the machine (sweep of the half-open intervals [start, start+Duration),
// finishes before starts at equal times; zero-length jobs take no time). It
// also runs validate.Check on the same schedule.
func checkSchedule(t *testing.T, name string, jobs []Job, procs int, starts []float64) {
	t.Helper()
	type ev struct {
		t     float64
		delta int
	}
	var evs []ev
	for i, jb := range jobs {
		s := starts[i]
		if math.IsNaN(s) || s < jb.Submit {
			t.Fatalf("%s: job %d starts at %v, submitted at %v", name, jb.ID, s, jb.Submit)
		}
		if jb.Duration > 0 {
			evs = append(evs, ev{s, jb.Procs}, ev{s + jb.Duration, -jb.Procs})
		}
	}
	slices.SortFunc(evs, func(a, b ev) int {
		if a.t != b.t {
			if a.t < b.t {
				return -1
			}
			return 1
		}
		return a.delta - b.delta // negative (finish) first
	})
	used := 0
	for _, e := range evs {
		used += e.delta
		if used > procs {
			t.Fatalf("%s: %d processors in use at %v on a machine of %d", name, used, e.t, procs)
		}
	}

	in := make([]validate.Input, len(jobs))
	out := make([]validate.Rec, len(jobs))
	for i, jb := range jobs {
		in[i] = validate.Input{ID: jb.ID, Submit: jb.Submit, Runtime: jb.Duration, Request: jb.Estimate, Procs: jb.Procs}
		out[i] = validate.Rec{ID: jb.ID, Submit: jb.Submit, Start: starts[i], Finish: starts[i] + jb.Duration,
			Procs: jb.Procs, State: validate.StateCompleted}
	}
	if err := validate.Check(in, out, validate.Options{Procs: procs}); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// TestEASYEqualsBackfillDepth1 runs the literal EASY rule and the
// reservation rule with depth 1 on 500 random workloads, a third of them
// with jobs overrunning their estimates, and demands the same start times,
// start reasons, and head shadow times == head reservations.
func TestEASYEqualsBackfillDepth1(t *testing.T) {
	for seed := uint64(1); seed <= 500; seed++ {
		r := rng(seed)
		overrun := seed%3 == 0
		jobs, procs := randomWorkload(r, overrun)
		name := fmt.Sprintf("seed %d (overrun %v)", seed, overrun)

		es, er, shadows := EASYDetailed(jobs, procs)
		bs, br, res := BackfillDetailed(jobs, procs, 1)
		checkSchedule(t, name+" EASY", jobs, procs, es)
		for i := range jobs {
			if es[i] != bs[i] || er[i] != br[i] {
				t.Fatalf("%s: job %d: EASY starts %v (%s), Backfill(1) %v (%s)",
					name, jobs[i].ID, es[i], er[i], bs[i], br[i])
			}
		}
		// Under depth 1 only the blocked head holds a reservation, and it
		// is placed at the head's shadow time, once per pass.
		fromShadows := make([][]float64, len(jobs))
		for _, sh := range shadows {
			fromShadows[sh.Head] = append(fromShadows[sh.Head], sh.Shadow)
		}
		for i := range jobs {
			if !slices.Equal(fromShadows[i], res[i]) {
				t.Fatalf("%s: job %d: EASY shadows %v, Backfill(1) reservations %v",
					name, jobs[i].ID, fromShadows[i], res[i])
			}
		}
	}
}

// TestReservationsNeverMoveLater: without overruns, under conservative
// backfilling (and also the hybrid depths tried here) a job's successive
// reservations never increase and it starts no later than its last one.
func TestReservationsNeverMoveLater(t *testing.T) {
	for seed := uint64(1001); seed <= 1300; seed++ {
		r := rng(seed)
		jobs, procs := randomWorkload(r, false)
		for _, depth := range []int{Unlimited, 1, 2, 4} {
			name := fmt.Sprintf("seed %d depth %d", seed, depth)
			starts, reasons, res := BackfillDetailed(jobs, procs, depth)
			checkSchedule(t, name, jobs, procs, starts)
			for i, rs := range res {
				for k := 1; k < len(rs); k++ {
					if rs[k] > rs[k-1] {
						t.Fatalf("%s: job %d: reservation moved later: %v", name, jobs[i].ID, rs)
					}
				}
				if len(rs) > 0 && starts[i] > rs[len(rs)-1] {
					t.Fatalf("%s: job %d starts at %v after its last reservation %v",
						name, jobs[i].ID, starts[i], rs)
				}
				// A reserved job can still start "immediate": blocked
				// in the pass at its submit time t, it may start in a
				// later instant at the same t (after a zero-length job
				// completes). Otherwise it is not immediate.
				if len(rs) > 0 && reasons[i] == Immediate && starts[i] != jobs[i].Submit {
					t.Fatalf("%s: job %d: reason %s", name, jobs[i].ID, reasons[i])
				}
			}
		}
	}
}

// TestCapacityAllPolicies: no schedule of any simulator over-commits the
// machine or starts a job early, with and without overruns. Stalls (see
// TestStaleReservationStall) are counted, not failed, for depth >= 2 with
// overruns.
func TestCapacityAllPolicies(t *testing.T) {
	stalls := map[int]int{}
	for seed := uint64(2001); seed <= 2300; seed++ {
		r := rng(seed)
		overrun := seed%2 == 0
		jobs, procs := randomWorkload(r, overrun)
		name := fmt.Sprintf("seed %d (overrun %v)", seed, overrun)

		fcfs := FCFS(jobs, procs)
		checkSchedule(t, name+" FCFS", jobs, procs, fcfs)
		// Strict FCFS: start times are non-decreasing in queue order.
		order := make([]int, len(jobs))
		for i := range order {
			order[i] = i
		}
		slices.SortFunc(order, func(a, b int) int {
			if jobs[a].Submit != jobs[b].Submit {
				if jobs[a].Submit < jobs[b].Submit {
					return -1
				}
				return 1
			}
			return int(jobs[a].ID - jobs[b].ID)
		})
		for k := 1; k < len(order); k++ {
			if fcfs[order[k]] < fcfs[order[k-1]] {
				t.Fatalf("%s: FCFS starts job %d before job %d ahead of it", name, jobs[order[k]].ID, jobs[order[k-1]].ID)
			}
		}

		checkSchedule(t, name+" EASY", jobs, procs, EASY(jobs, procs))
		for _, depth := range []int{1, 2, 3, Unlimited} {
			starts, ok := tryBackfill(jobs, procs, depth)
			if !ok {
				stalls[depth]++
				t.Fatalf("%s depth %d: stalled", name, depth)
			}
			checkSchedule(t, fmt.Sprintf("%s depth %d", name, depth), jobs, procs, starts)
		}
	}
	t.Logf("stalls in 150 overrun workloads: depth 2: %d, depth 3: %d, unlimited: %d",
		stalls[2], stalls[3], stalls[Unlimited])
}

// tryBackfill runs Backfill and reports false if it stalled.
func tryBackfill(jobs []Job, procs, depth int) (starts []float64, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if s, _ := r.(string); !strings.Contains(s, "stalled") {
				panic(r)
			}
			starts, ok = nil, false
		}
	}()
	return Backfill(jobs, procs, depth), true
}

// TestDeterministic: the same input gives the same output, and the order of
// the input slice does not matter.
func TestDeterministic(t *testing.T) {
	r := rng(77)
	jobs, procs := randomWorkload(r, false)
	a := Conservative(jobs, procs)
	perm := r.Perm(len(jobs))
	shuffled := make([]Job, len(jobs))
	for i, p := range perm {
		shuffled[i] = jobs[p]
	}
	b := Conservative(shuffled, procs)
	for i, p := range perm {
		if b[i] != a[p] {
			t.Fatalf("job %d: %v after shuffling, %v before", jobs[p].ID, b[i], a[p])
		}
	}
}
