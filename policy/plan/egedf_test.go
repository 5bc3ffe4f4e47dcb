package plan

import (
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
)

// Hand-worked plans. Notation: a machine's free CPUs as the multiset of
// their free times, {2, 10x3} = one CPU free at 2, three at 10; a plan as
// id[start,end). Speed 1 and BM_est 1 unless stated, so a job's duration
// is its estimate.

// An earliest gap found (S = 1), then none anywhere and the EDF fallback
// decided by the weight.
func TestEarliestGapFoundAndEDFFallback(t *testing.T) {
	h := newHarness(t, []platform.Machine{{CPUs: 4}, {CPUs: 2}}, Options{})

	// t=0: job 1 (3 CPUs, 10). Idle machines have no gap (an empty plan
	// has no finite idle time), so EDF; only machine 0 holds 3 CPUs.
	h.submit(0, 1, 3, 10, 0)
	h.wantPlan(0, "1[0,10)")
	if got := h.schedule(0); got != "1@0" {
		t.Fatalf("t=0 starts %q", got)
	}

	// t=1: job 2 (4 CPUs, 5). Machine 0's CPUs: {1, 10x3}, makespan 10;
	// appended, job 2 would start at 10 and end at 15 > 10: no gap. EDF
	// appends it (no deadline). It does not fit now.
	h.submit(1, 2, 4, 5, 0)
	h.wantPlan(0, "2[10,15)")
	if got := h.schedule(1); got != "" {
		t.Fatalf("t=1 starts %q", got)
	}

	// t=2: job 3 (1 CPU, 5). Machine 0: {2, 10x3}, makespan 15. Before
	// job 2: job 3 takes the CPU free at 2 and runs [2,7); job 2 then sees
	// {7, 10x3} and still starts at 10: the earliest gap is position 0.
	// Machine 1 is idle (makespan = now): no gap. S = 1.
	h.submit(2, 3, 1, 5, 0)
	h.wantPlan(0, "3[2,7) 2[10,15)")
	if got := h.schedule(2); got != "3@0" {
		t.Fatalf("t=2 starts %q", got)
	}

	// t=3: job 4 (1 CPU, 9, deadline 20). Machine 0: {7, 10x3},
	// makespan 15: job 4 would start at 7 at the earliest and end at 16 >
	// 15, so no position is a gap (its start only grows along the list).
	// Machine 1 idle: no gap. S = 0: EDF on both machines.
	//   makespan_old = 15; nondelayed_old = 3 (jobs 1, 3 running and job
	//   2 planned, none has a deadline).
	//   machine 0: deadline 20 < job 2's (none): before job 2 -> 4[7,16),
	//     2[16,21); makespan 21, nondelayed 4:
	//     weight = (15-21)/15 + (4-3)/3 = -0.4 + 0.333 = -0.067.
	//   machine 1: 4[3,12); makespan stays 15, nondelayed 4:
	//     weight = 0 + 1/3 = 0.333.  -> machine 1.
	h.submit(3, 4, 1, 9, 20)
	h.wantPlan(0, "2[10,15)")
	h.wantPlan(1, "4[3,12)")
	if got := h.schedule(3); got != "4@1" {
		t.Fatalf("t=3 starts %q", got)
	}
	if s := h.p.Stats(); s.Gap != 1 || s.EDF != 3 {
		t.Errorf("stats %+v, want 1 gap decision and 3 EDF decisions", s)
	}

	// Jobs end at their estimated ends: nothing is replanned, job 2
	// starts at its planned 10 once jobs 1 and 3 are gone.
	h.finish(7, 3)
	if got := h.schedule(7); got != "" {
		t.Fatalf("t=7 starts %q", got)
	}
	h.finish(10, 1)
	if got := h.schedule(10); got != "2@0" {
		t.Fatalf("t=10 starts %q", got)
	}
}

// Gaps on both machines (S = 2): the higher weight wins over the lower
// index; equal weights go to the lower index.
func TestEarliestGapHighestWeightThenLowestIndex(t *testing.T) {
	// Machine 1 is twice as fast: a job of estimate p takes p on machine 0
	// and p/2 on machine 1.
	h := newHarness(t, []platform.Machine{{CPUs: 3, Speed: 1}, {CPUs: 3, Speed: 2}}, Options{})

	// t=0: job 1 (2 CPUs, 100). No gaps; EDF: machine 0 -> [0,100),
	// machine 1 -> [0,50). makespan_old = 0 (floored at 1e-13), so the
	// makespan term decides: machine 1.
	h.submit(0, 1, 2, 100, 0)
	h.wantPlan(1, "1[0,50)")
	// t=0: job 2 (2 CPUs, 60). Machine 1: {0x3}, job 1 planned [0,50),
	// makespan 50; before job 1 it would delay it, appended it ends at 80
	// > 50: no gap. Machine 0 idle. EDF: machine 0 -> [0,60), makespan
	// 60: (50-60)/50 + (2-1)/1 = 0.8; machine 1 -> [50,80): (50-80)/50 + 1
	// = 0.4. -> machine 0.
	h.submit(0, 2, 2, 60, 0)
	h.wantPlan(0, "2[0,60)")
	if got := h.schedule(0); got != "2@0 1@1" {
		t.Fatalf("t=0 starts %q", got)
	}

	// t=10: job 3 (1 CPU, 30, deadline 35). Each machine has one idle
	// CPU until its makespan: a gap.
	//   machine 0: {10, 60x2}, makespan 60: 3[10,40), misses (40 > 35).
	//   machine 1: {10, 50x2}, makespan 50: 3[10,25), meets.
	// makespan unchanged (60); nondelayed_old = 2 (jobs 1, 2):
	// weights 0 and 1/2 -> machine 1, although machine 0 comes first.
	h.submit(10, 3, 1, 30, 35)
	h.wantPlan(1, "3[10,25)")

	// t=10: job 4 (1 CPU, 20, no deadline).
	//   machine 0: {10, 60x2}: 4[10,30) ends by 60: gap at position 0.
	//   machine 1: {10, 50x2}: before job 3 it would push job 3 to 20;
	//     after job 3 ({25, 50x2}): 4[25,35) ends by 50: gap at 1.
	// Both weights are 0 + 1/3 -> the lower index, machine 0.
	h.submit(10, 4, 1, 20, 0)
	h.wantPlan(0, "4[10,30)")
	h.wantPlan(1, "3[10,25)")
	// One pass starts the heads that fit, machine by machine.
	if got := h.schedule(10); got != "4@0 3@1" {
		t.Fatalf("t=10 starts %q", got)
	}
}

// An earliest gap must move no other planned start: a position that
// leaves the next job in place but delays a later one is not a gap.
func TestEarliestGapChecksEveryLaterStart(t *testing.T) {
	h := newHarness(t, []platform.Machine{{CPUs: 2}}, Options{})
	// Nothing is started: all jobs arrive at t=0 and are only planned.
	h.submit(0, 1, 1, 9, 0) // 1[0,9)
	h.submit(0, 2, 1, 3, 0) // before job 1 on the other CPU: 2[0,3) 1[0,9)
	h.wantPlan(0, "2[0,3) 1[0,9)")
	// Job 3 (1 CPU, 6): {0x2}, makespan 9.
	//   position 0: 3[0,6); job 2 still starts at 0 (other CPU), but
	//     job 1 then sees {3, 6} and starts at 3: moved.
	//   position 1: {0, 3} after job 2: 3[0,6); job 1 sees {3, 6}: moved.
	//   position 2: {3, 9} after job 1: 3[3,9), ends by 9: the gap.
	h.submit(0, 3, 1, 6, 0)
	h.wantPlan(0, "2[0,3) 1[0,9) 3[3,9)")
	if s := h.p.Stats(); s.Gap != 2 {
		t.Errorf("stats %+v: want jobs 2 and 3 placed in gaps", s)
	}
}

// Equation 1 and its floors.
func TestWeight(t *testing.T) {
	for _, c := range []struct {
		msOld, msNew float64
		ndOld, ndNew int
		want         float64
	}{
		{100, 120, 4, 5, -0.2 + 0.25},
		{100, 100, 4, 4, 0},
		{100, 90, 4, 3, 0.1 - 0.25},
		{50, 50, 0, 1, 1},          // nondelayed_old 0: denominator 1
		{0, 10, 0, 0, -10 / 1e-13}, // makespan_old 0: denominator 1e-13
	} {
		if got := weight(c.msOld, c.msNew, c.ndOld, c.ndNew); math.Abs(got-c.want) > 1e-12*math.Abs(c.want)+1e-15 {
			t.Errorf("weight(%g, %g, %d, %d) = %g, want %g", c.msOld, c.msNew, c.ndOld, c.ndNew, got, c.want)
		}
	}
}

// Dispatch: only the head of a list starts, when it fits; a job planned
// behind a blocked head waits even when CPUs are idle (the plan is the
// schedule: no backfilling beyond the gaps EG-EDF chose).
func TestDispatchHeadsOnly(t *testing.T) {
	h := newHarness(t, []platform.Machine{{CPUs: 4}}, Options{})
	h.submit(0, 1, 2, 10, 0) // 1[0,10)
	if got := h.schedule(0); got != "1@0" {
		t.Fatalf("t=0 starts %q", got)
	}
	h.submit(1, 2, 4, 5, 0) // {1x2, 10x2}: appended, 2[10,15)
	// Job 3 (1 CPU, 20) at 2: {2x2, 10x2}. Position 0: 3[2,22), job 2
	// would wait for 22. Appended after job 2: 3[15,35) > 15. EDF: after
	// job 2. Two CPUs stay idle until 10.
	h.submit(2, 3, 1, 20, 0)
	h.wantPlan(0, "2[10,15) 3[15,35)")
	if got := h.schedule(2); got != "" {
		t.Fatalf("t=2 starts %q", got)
	}
	// Job 4 (2 CPUs, 7) at 3: {3x2, 10x2}; position 0: 4[3,10), job 2
	// still starts at 10: the gap. It starts at once.
	h.submit(3, 4, 2, 7, 0)
	if got := h.schedule(3); got != "4@0" {
		t.Fatalf("t=3 starts %q", got)
	}
	h.finish(10, 1)
	h.finish(10, 4)
	if got := h.schedule(10); got != "2@0" {
		t.Fatalf("t=10 starts %q", got)
	}
	h.finish(15, 2)
	if got := h.schedule(15); got != "3@0" {
		t.Fatalf("t=15 starts %q", got)
	}
}

// A job that ends before its estimate (not in the paper's exact model,
// possible with other estimates) replans its machine: the plan moves
// earlier.
func TestEarlyFinishReplans(t *testing.T) {
	h := newHarness(t, []platform.Machine{{CPUs: 2}}, Options{})
	h.submit(0, 1, 2, 10, 0)
	h.schedule(0)
	h.submit(1, 2, 2, 5, 0)
	h.wantPlan(0, "2[10,15)")
	h.finish(4, 1)
	h.wantPlan(0, "2[4,9)")
	if got := h.schedule(4); got != "2@0" {
		t.Fatalf("t=4 starts %q", got)
	}
}

// Jobs that end at the same instant leave the same plan whatever the
// order of their Finish calls.
func TestSameInstantEndsInAnyOrder(t *testing.T) {
	for _, order := range [][2]job.ID{{1, 2}, {2, 1}} {
		h := newHarness(t, []platform.Machine{{CPUs: 4}}, Options{})
		h.submit(0, 1, 1, 10, 0) // 1[0,10)
		h.submit(0, 2, 2, 10, 0) // {0x4}: before job 1, 2[0,10) 1[0,10)
		h.schedule(0)
		h.submit(1, 3, 4, 5, 30) // {1, 10x3}: no gap, EDF: 3[10,15)
		h.submit(1, 4, 1, 4, 0)  // position 0: 4[1,5), job 3 stays at 10
		h.schedule(1)
		h.finish(5, 4)
		h.finish(10, order[0])
		h.finish(10, order[1])
		if got := h.plan(0) + " | " + h.schedule(10); got != "3[10,15) | 3@0" {
			t.Errorf("order %v: %q", order, got)
		}
		if h.p.Nondelayed() != 4 || h.p.FinishedOnTime() != 3 {
			t.Errorf("order %v: nondelayed %d, finished on time %d; want 4 and 3", order, h.p.Nondelayed(), h.p.FinishedOnTime())
		}
	}
}

// A job no machine can hold is left unplaced (the model rejects such jobs
// before they reach a policy; the policy does not rely on it).
func TestJobLargerThanEveryMachine(t *testing.T) {
	h := newHarness(t, []platform.Machine{{CPUs: 2}, {CPUs: 3}}, Options{Tabu: true})
	h.submit(0, 1, 4, 10, 0)
	if got := h.schedule(0); got != "" {
		t.Fatalf("starts %q", got)
	}
	if s := h.p.Stats(); s.Unplaced != 1 || s.Decisions != 1 {
		t.Errorf("stats %+v, want 1 unplaced", s)
	}
}

func TestOptionsValidation(t *testing.T) {
	plat := platform.MustSites([]int{2, 2})
	for _, c := range []struct {
		o    Options
		want string // "" = valid
	}{
		{Options{}, ""},
		{Options{Tabu: true}, ""},
		{Options{Tabu: true, Iterations: 50, TabuLength: 4, Trigger: EveryN, Every: 10}, ""},
		{Options{Tabu: true, Trigger: Interval, Interval: 300}, ""},
		{Options{Tabu: true, Iterations: -1, TabuLength: -2}, "iterations -1 < 0 (0 means 2 x planned jobs); tabu length -2 < 0"},
		{Options{Tabu: true, Order: OrderRandom}, "machine order random needs a *rand.Rand"},
		{Options{Tabu: true, Order: 7}, "unknown machine order Order(7)"},
		{Options{Tabu: true, Trigger: Interval}, "trigger interval needs a finite interval > 0 (got 0)"},
		{Options{Tabu: true, Trigger: EachArrival, Every: 3}, "trigger each-arrival takes no period"},
		{Options{Tabu: true, Trigger: 9}, "unknown trigger Trigger(9)"},
		{Options{Iterations: 10}, "tabu options set without Tabu"},
	} {
		_, err := NewEGEDF(plat, c.o, nil)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%+v: %v", c.o, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: error %v, want one containing %q", c.o, err, c.want)
		}
	}
}

// Weight ties: with the rule as written the lowest machine index wins;
// with Ties = TieEnd the machine where the job ends first.
func TestWeightTies(t *testing.T) {
	for _, tc := range []struct {
		ties Ties
		want string
	}{{TieIndex, "2@0"}, {TieEnd, "2@1"}} {
		h := newHarness(t, []platform.Machine{{CPUs: 2, Speed: 200}, {CPUs: 2, Speed: 400}, {CPUs: 4, Speed: 200}}, Options{Ties: tc.ties})
		// t=0: job 1 (4 CPUs, Estimated 1000 at BM_est 200): only machine
		// 2 holds it: 1[0,1000) there, makespan 1000, nondelayed 1 (no
		// deadline counts as met).
		h.procs[1] = 4
		h.p.Submit(0, job.Info{ID: 1, Submit: 0, Procs: 4, Estimate: 1000, BMEst: 200})
		if got := h.schedule(0); got != "1@2" {
			t.Fatalf("%v: t=0 starts %q", tc.ties, got)
		}
		// t=1: job 2 (1 CPU, Estimated 100 at BM_est 200, no deadline).
		// No gap: machines 0 and 1 are idle (makespan = now), machine 2
		// is full until 1000 = its makespan. EDF on each:
		//   machine 0: 2[1,101)   makespan 1000, nondelayed 2: w = 0 + 1/1 = 1
		//   machine 1: 2[1,51)    (100 x 200/400 = 50)          w = 1
		//   machine 2: 2[1000,1100) makespan 1100: w = -100/1000 + 1 = 0.9
		// Machines 0 and 1 tie at 1: index -> 0; earliest end (51) -> 1.
		h.procs[2] = 1
		h.p.Submit(1, job.Info{ID: 2, Submit: 1, Procs: 1, Estimate: 100, BMEst: 200})
		if got := h.schedule(1); got != tc.want {
			t.Errorf("ties %v: t=1 starts %q, want %q", tc.ties, got, tc.want)
		}
	}
	if _, err := ParseTies("nearest"); err == nil || !strings.Contains(err.Error(), `"nearest"`) {
		t.Errorf("ParseTies(nearest): %v", err)
	}
}

// Tail gaps: an idle machine offers its CPUs at once. Machine 1 lacks the
// memory of jobs 1 and 2, so they go to machine 0 whatever the rule.
func TestTailGaps(t *testing.T) {
	for _, tc := range []struct {
		gaps Gaps
		ties Ties
		want string // job 3's start at t=1
	}{
		{GapFinite, TieIndex, ""}, {GapFinite, TieEnd, ""},
		{GapTail, TieIndex, ""}, {GapTail, TieEnd, "3@1"},
	} {
		h := newHarness(t, []platform.Machine{{CPUs: 2, Mem: 1000}, {CPUs: 2, Mem: 100}}, Options{Gaps: tc.gaps, Ties: tc.ties})
		// t=0: job 1 (2 CPUs, 10) runs [0,10) on machine 0; job 2 (1 CPU,
		// 20) is planned [10,30) there (no finite gap: it ends after the
		// makespan 10; EDF or the tail gap, machine 0 alone).
		sub := func(now float64, id job.ID, procs int, est, mem float64) {
			h.procs[id] = procs
			h.p.Submit(now, job.Info{ID: id, Submit: now, Procs: procs, Estimate: est, Mem: mem})
		}
		sub(0, 1, 2, 10, 200)
		sub(0, 2, 1, 20, 200)
		h.wantPlan(0, "1[0,10) 2[10,30)")
		if got := h.schedule(0); got != "1@0" {
			t.Fatalf("%v/%v: t=0 starts %q", tc.gaps, tc.ties, got)
		}
		// t=1: job 3 (1 CPU, 5, no memory). Machine 0: before job 2 it
		// runs [10,15) and job 2 still starts at 10 (the other CPU):
		// a finite gap, weight 0 + 1/2 (nondelayed 2 -> 3). Machine 1 is
		// idle: no finite gap; its tail gives [1,6), makespan still 30,
		// the same weight: a tie, won by machine 0 (index) or by the
		// earlier end 6 < 15 (end).
		sub(1, 3, 1, 5, 0)
		if got := h.schedule(1); got != tc.want {
			t.Errorf("gaps %v, ties %v: t=1 starts %q, want %q", tc.gaps, tc.ties, got, tc.want)
		}
	}
}

// suitable: deadline, worked by hand: a gap where the job would miss its
// deadline is not suitable, so EDF insertion decides; a job without a
// deadline still takes a gap. The jobs of TestTabuMoveAcceptedAndRejected.
func TestSuitableDeadlineRejectsLateGap(t *testing.T) {
	for _, tc := range []struct {
		suit       Suitable
		m0, m1     string // plans after job 3
		gaps, edfs int64
	}{
		// any: job 3 takes machine 0's gap 3[3,9) and misses its deadline 8.
		{SuitAny, "2[0,3) 1[0,9) 3[3,9)", "", 2, 1},
		// deadline: that gap ends at 9 > 8, not suitable; machine 1 is idle
		// (no finite gap): S = 0, EDF on both machines.
		//   makespan_old 9, nondelayed_old 1 (job 2; job 1 misses).
		//   machine 0: deadline 8 goes before job 2 (none): 3[0,6),
		//     2[0,3), 1[3,12); makespan 12, nondelayed 2 (3 and 2):
		//     weight (9-12)/9 + (2-1)/1 = 0.667.
		//   machine 1: 3[0,6); makespan 9, nondelayed 2: weight 1.
		//   -> machine 1, where job 3 meets its deadline.
		{SuitDeadline, "2[0,3) 1[0,9)", "3[0,6)", 1, 2},
	} {
		h := newHarness(t, []platform.Machine{{CPUs: 2}, {CPUs: 2}}, Options{Suitable: tc.suit})
		// Job 1 (1 CPU, 9, deadline 1: it can only miss): no gap, EDF
		// ties (makespan 9 either way): machine 0.
		h.submit(0, 1, 1, 9, 1)
		// Job 2 (1 CPU, 3, no deadline): before job 1 on the other CPU,
		// 2[0,3), job 1 stays at 0: a gap, suitable under both rules.
		h.submit(0, 2, 1, 3, 0)
		h.wantPlan(0, "2[0,3) 1[0,9)")
		// Job 3 (1 CPU, 6, deadline 8): machine 0's earliest gap is
		// appended, {3, 9} -> 3[3,9).
		h.submit(0, 3, 1, 6, 8)
		h.wantPlan(0, tc.m0)
		h.wantPlan(1, tc.m1)
		if s := h.p.Stats(); s.Gap != tc.gaps || s.EDF != tc.edfs {
			t.Errorf("suitable %v: stats %+v, want %d gap and %d EDF decisions", tc.suit, s, tc.gaps, tc.edfs)
		}
	}
}
