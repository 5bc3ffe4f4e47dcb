package plan

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
)

// One Tabu search, worked by hand: a move accepted, then moves refused.
// Two machines of 2 CPUs; all four jobs arrive at t=0 (nothing starts
// between them: the pass comes after every arrival of the instant), and
// Tabu search runs after the 4th arrival only (EveryN, 4), so that the
// EG-EDF decisions before it can be followed alone.
func TestTabuMoveAcceptedAndRejected(t *testing.T) {
	h := newHarness(t, []platform.Machine{{CPUs: 2}, {CPUs: 2}}, Options{Tabu: true, Trigger: EveryN, Every: 4})
	var moves []Move
	h.p.OnMove = func(m Move) { moves = append(moves, m) }

	// Job 1 (1 CPU, 9, deadline 1: it can only miss). No gap; EDF ties
	// (makespan 9 either way): machine 0.
	h.submit(0, 1, 1, 9, 1)
	// Job 2 (1 CPU, 3): machine 0 {0x2}, makespan 9: before job 1 on the
	// other CPU, 2[0,3), job 1 stays at 0: gap.
	h.submit(0, 2, 1, 3, 0)
	// Job 3 (1 CPU, 6, deadline 8): on machine 0 positions 0 and 1 push
	// job 1 to 3; appended, {3, 9} -> 3[3,9), by the makespan: gap (it
	// misses its deadline there). Machine 1 is idle: no gap. S = 1.
	h.submit(0, 3, 1, 6, 8)
	h.wantPlan(0, "2[0,3) 1[0,9) 3[3,9)")
	// Job 4 (1 CPU, 6, deadline 3: it can only miss). Machine 0: every
	// position moves a job or ends after 9; machine 1 idle: S = 0. EDF:
	// machine 0 first (deadline 3 before all): 4[0,6) pushes jobs 1 and
	// 3, makespan 12: weight (9-12)/9 + 0 < 0; machine 1: 4[0,6), makespan
	// 9: weight 0. -> machine 1.
	//
	// Then Tabu search. planned = 4: budget 8, tabu list length 2.
	// makespan_old 9, nondelayed_old 1 (only job 2 meets its deadline).
	//  1. Delayed: machine 0 has 2 (jobs 1, 3), machine 1 has 1 (4).
	//     Machine 0, its last job 3 -> tabu [3]. Without it machine 0 is
	//     2[0,3) 1[0,9). Machine 1 {0x2}, makespan 6: 3[0,6) before job 4
	//     leaves job 4 at 0: gap; job 3 now meets its deadline 8:
	//     weight (9-9)/9 + (2-1)/1 = 1 > 0: ACCEPTED.
	//  2. Delayed: 1 on each machine; machine 0 (lower index), last job 1
	//     -> tabu [3 1]. Without it the makespan would fall to 6, but job
	//     1 (9) has no gap on machine 1 (makespan 6). Not moved.
	//  3. Machine 0 again (job 1 is tabu, job 2 is not): job 2 -> tabu
	//     [1 2]. Without it nondelayed falls to 1 and job 2 cannot raise
	//     it back above 2: no move can have a weight > 0.
	//  4. Machine 0 has only tabu jobs: machine 1, job 4 -> tabu [2 4].
	//     Machine 0 has a gap for it (appended, 4[3,9)), but job 4 misses
	//     its deadline there as here: weight 0: REJECTED.
	//  5. Job 1 left the tabu list: machine 0, job 1 -> tabu [4 1]; the
	//     schedule is the one of step 2: not moved.
	//  6. The delayed jobs (1 and 4) are all tabu: stop.
	h.submit(0, 4, 1, 6, 3)
	h.wantPlan(0, "2[0,3) 1[0,9)")
	h.wantPlan(1, "3[0,6) 4[0,6)")
	if len(moves) != 1 || moves[0] != (Move{Now: 0, ID: 3, From: 0, To: 1, Pos: 0, Weight: 1}) {
		t.Errorf("moves %+v, want job 3 from machine 0 to position 0 of machine 1 with weight 1", moves)
	}
	if s := h.p.Stats(); s.TabuRuns != 1 || s.TabuIterations != 5 || s.TabuMoves != 1 {
		t.Errorf("stats %+v: want 1 search of 5 iterations and 1 move", s)
	}
	if got := h.schedule(0); got != "2@0 1@0 3@1 4@1" {
		t.Errorf("t=0 starts %q", got)
	}
}

// When Tabu search runs: after every arrival, after every N-th, or at the
// first pass at or after each multiple of the interval.
func TestTabuTriggers(t *testing.T) {
	submitAll := func(h *harness) {
		for i := 1; i <= 10; i++ {
			now := float64(10 * i)
			h.submit(now, job.ID(i), 1, 5, 0)
			h.schedule(now)
			h.finish(now+5, job.ID(i))
			h.schedule(now + 5)
		}
	}
	for _, c := range []struct {
		o    Options
		runs int64
	}{
		{Options{Tabu: true}, 10},
		{Options{Tabu: true, Trigger: EveryN, Every: 3}, 3},       // arrivals 3, 6, 9
		{Options{Tabu: true, Trigger: Interval, Interval: 25}, 4}, // passes at 25, 50, 75, 100
		{Options{Tabu: true, Trigger: Interval, Interval: 12}, 8}, // 15, 25, 40, 50, 60, 75, 85, 100
	} {
		h := newHarness(t, []platform.Machine{{CPUs: 1}}, c.o)
		submitAll(h)
		if got := h.p.Stats().TabuRuns; got != c.runs {
			t.Errorf("%+v: %d Tabu searches, want %d", c.o, got, c.runs)
		}
	}
}

// With one planned job the default tabu list has length 0: the job never
// becomes tabu, and a move must not count it as tabu on either machine.
// White-box: the state (one late job on machine 0 that a gap of the
// faster machine 1 would end sooner) is set up directly.
func TestTabuListOfLengthZero(t *testing.T) {
	plat, _ := platform.New([]platform.Machine{{CPUs: 1, Speed: 1}, {CPUs: 2, Speed: 4}})
	p, err := NewTabu(plat, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Machine 1 runs job 1 (1 CPU) until 100: one CPU idle until 100.
	r := &entry{id: 1, procs: 1, est: 400, deadline: math.Inf(1), m: 1, running: true, start: 0, end: 100}
	p.ms[1].running, p.ms[1].okRunning, p.jobs[1] = []*entry{r}, 1, r
	// Job 2 (1 CPU, 200 at speed 1, deadline 1) planned on machine 0:
	// 2[0,200), late; the makespan is 200.
	j := &entry{id: 2, procs: 1, est: 200, deadline: 1, m: 0}
	p.ms[0].list, p.planned, p.jobs[2], p.nd = []*entry{j}, 1, j, 1
	p.replan(0, 0)
	p.replan(1, 0)
	var moves []Move
	p.OnMove = func(m Move) { moves = append(moves, m) }
	// W = 1: budget 2, tabu length 0. Iteration 1: job 2 into machine 1's
	// gap, 2[0,50) (still late): makespan 200 -> 100, weight 0.5 > 0.
	// Iteration 2: job 2 is still the only delayed job and not tabu;
	// machine 0 is idle (no gap): not moved.
	p.tabuSearch(0)
	if len(moves) != 1 || moves[0].Weight != 0.5 || p.Stats().TabuIterations != 2 {
		t.Errorf("moves %+v, stats %+v", moves, p.Stats())
	}
	if got := formatPlan(p.Plan(1)); got != "2[0,50)" {
		t.Errorf("machine 1 plan %q", got)
	}
	if p.ms[0].tabu != 0 || p.ms[1].tabu != 0 {
		t.Errorf("tabu counts %d, %d after the search", p.ms[0].tabu, p.ms[1].tabu)
	}
}

// pick: last-late, worked by hand on TestTabuMoveAcceptedAndRejected's
// jobs. Steps 1 and 2 are those of that test (jobs 3 and 1 are late and
// last on machine 0). Step 3: machine 0's only non-tabu job, job 2, meets
// its deadline, so it is not a candidate; machine 1's job 4 (late) is
// taken -> tabu [1 4]; its gap on machine 0 (appended, 4[3,9)) still
// misses deadline 3: weight 0, rejected. Step 4: the delayed jobs (1 and
// 4) are all tabu: stop after 3 iterations, not 5, with the same plans.
func TestTabuPicksLastLateJob(t *testing.T) {
	h := newHarness(t, []platform.Machine{{CPUs: 2}, {CPUs: 2}}, Options{Tabu: true, Trigger: EveryN, Every: 4, Pick: PickLastLate})
	var moves []Move
	h.p.OnMove = func(m Move) { moves = append(moves, m) }
	h.submit(0, 1, 1, 9, 1)
	h.submit(0, 2, 1, 3, 0)
	h.submit(0, 3, 1, 6, 8)
	h.submit(0, 4, 1, 6, 3)
	h.wantPlan(0, "2[0,3) 1[0,9)")
	h.wantPlan(1, "3[0,6) 4[0,6)")
	if len(moves) != 1 || moves[0] != (Move{Now: 0, ID: 3, From: 0, To: 1, Pos: 0, Weight: 1}) {
		t.Errorf("moves %+v, want job 3 from machine 0 to position 0 of machine 1 with weight 1", moves)
	}
	if s := h.p.Stats(); s.TabuRuns != 1 || s.TabuIterations != 3 || s.TabuMoves != 1 {
		t.Errorf("stats %+v: want 1 search of 3 iterations and 1 move", s)
	}
}
