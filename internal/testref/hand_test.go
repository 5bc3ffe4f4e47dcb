package testref

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// j builds a job: id, submit, duration, estimate, procs.
func j(id int64, submit, dur, est float64, procs int) Job {
	return Job{ID: id, Submit: submit, Duration: dur, Estimate: est, Procs: procs}
}

// byID returns the result of job id, given results indexed like jobs.
func byID[T any](t *testing.T, jobs []Job, res []T) map[int64]T {
	t.Helper()
	m := make(map[int64]T, len(jobs))
	for i, jb := range jobs {
		m[jb.ID] = res[i]
	}
	return m
}

func wantStarts(t *testing.T, name string, jobs []Job, got []float64, want map[int64]float64) {
	t.Helper()
	g := byID(t, jobs, got)
	for id, w := range want {
		if g[id] != w {
			t.Errorf("%s: job %d starts at %v, want %v", name, id, g[id], w)
		}
	}
	if len(want) != len(jobs) {
		t.Fatalf("%s: test lists %d expectations for %d jobs", name, len(want), len(jobs))
	}
}

// TestFCFSHand: machine of 4 processors. The slice is deliberately not in
// queue order.
//
//	id submit dur est procs
//	 1    0   10  10   2
//	 2    1    5   5   3
//	 3    2    2   2   1
//	 4    3    4   4   2
//	 5   12    3   3   4
//	 6   12    0   0   4
//	 7   12    0   0   4
//
// t=0:  1 arrives, 4 free: 1 starts (ends 10); 2 free.
// t=1:  2 (3 procs) arrives; 2 free: does not fit, stop.
// t=2:  3 (1 proc) arrives; head 2 still does not fit, and strict FCFS stops
//
//	there, so 3 waits although it would fit.
//
// t=3:  4 arrives; nothing starts.
// t=10: 1 completes; 4 free: 2 starts (ends 15, 1 free), 3 starts (ends 12,
//
//	0 free), 4 (2) does not fit.
//
// t=12: 3 completes (1 free); 5, 6, 7 arrive. Queue 4,5,6,7; 4 does not fit.
// t=15: 2 completes (4 free): 4 starts (ends 19, 2 free); 5 (4) does not fit.
// t=19: 4 completes: 5 starts (ends 22); 6 does not fit.
// t=22: 5 completes: 6 starts; it has Duration 0, so it completes at 22 in
//
//	another instant at the same time, whose pass starts 7; 7 completes in
//	a third instant at 22.
func TestFCFSHand(t *testing.T) {
	jobs := []Job{
		j(5, 12, 3, 3, 4),
		j(1, 0, 10, 10, 2),
		j(7, 12, 0, 0, 4),
		j(3, 2, 2, 2, 1),
		j(2, 1, 5, 5, 3),
		j(6, 12, 0, 0, 4),
		j(4, 3, 4, 4, 2),
	}
	wantStarts(t, "FCFS", jobs, FCFS(jobs, 4), map[int64]float64{
		1: 0, 2: 10, 3: 10, 4: 15, 5: 19, 6: 22, 7: 22,
	})
}

// easyHand is the EASY example, machine of 10 processors.
//
//	id submit dur est procs
//	 1    0   10  10   6
//	 2    0   20  20   3
//	 3    1    5   5   8
//	 4    2    3   8   1
//	 5    3   30  30   1
//	 6    3   10  10   2
//	 7    4    5   5   2
//	 8    4   10 100   2
//
// t=0:  1 starts (est end 10), 2 starts (est end 20); 1 free.
// t=1:  3 (8) arrives, does not fit (1 free). Shadow: at 10 job 1 releases
//
//	6 -> 7 free < 8; at 20 job 2 releases 3 -> 10 free >= 8: shadow 20,
//	extra 10-8 = 2.
//
// t=2:  4 arrives; shadow 20, extra 2. 4 fits now (1 free) and 2+8=10 <= 20:
//
//	backfilled at 2 (ends 5, est end 10).
//
// t=3:  5, 6 arrive. 0 free. Shadow: ends 10 (job 1), 10 (job 4), 20 (job 2):
//
//	free at 10 = 10-3 = 7, at 20 = 10: shadow 20, extra 2. Nothing fits.
//
// t=4:  7, 8 arrive. Same shadow 20, extra 2; 0 free, nothing starts.
// t=5:  4 completes, 1 free. Shadow: ends 10 (1), 20 (2): 20, extra 2.
//
//	5 (1 proc) fits now; 5+30 = 35 > 20 but 1 <= extra 2: backfilled at 5,
//	extra 1. 6, 7, 8 do not fit (0 free).
//
// t=10: 1 completes: 10-3-1 = 6 free. 3 (8) does not fit. Shadow: ends 20
//
//	(2, 3 procs), 35 (5, 1 proc): free at 20 = 9 >= 8: shadow 20, extra 1.
//	6 (2): fits, 10+10 = 20 <= 20: backfilled at 10 (4 free).
//	7 (2): fits, 10+5 = 15 <= 20: backfilled at 10 (2 free).
//	8 (2): fits now, but 10+100 > 20 and 2 > extra 1: waits.
//
// t=15: 7 completes, 2 free. Shadow 20 (ends 20: 2 and 6; 35: 5): free at 20
//
//	= 9: shadow 20, extra 1. 8 still too wide for extra 1.
//
// t=20: 2 and 6 complete: 9 free. 3 starts (ends 25), 1 free. Head 8 (2) does
//
//	not fit. Shadow: ends 25 (3, 8 procs), 35 (5): free at 25 = 9: shadow
//	25, extra 7.
//
// t=25: 3 completes, 9 free: 8 starts.
var easyHand = []Job{
	j(1, 0, 10, 10, 6),
	j(2, 0, 20, 20, 3),
	j(3, 1, 5, 5, 8),
	j(4, 2, 3, 8, 1),
	j(5, 3, 30, 30, 1),
	j(6, 3, 10, 10, 2),
	j(7, 4, 5, 5, 2),
	j(8, 4, 10, 100, 2),
}

func TestEASYHand(t *testing.T) {
	starts, reasons, shadows := EASYDetailed(easyHand, 10)
	wantStarts(t, "EASY", easyHand, starts, map[int64]float64{
		1: 0, 2: 0, 3: 20, 4: 2, 5: 5, 6: 10, 7: 10, 8: 25,
	})
	wantReasons := map[int64]string{
		1: Immediate, 2: Immediate, 3: Reserved, 4: Backfilled,
		5: Backfilled, 6: Backfilled, 7: Backfilled, 8: Reserved,
	}
	gr := byID(t, easyHand, reasons)
	for id, w := range wantReasons {
		if gr[id] != w {
			t.Errorf("job %d: reason %q, want %q", id, gr[id], w)
		}
	}
	// Head indices: job 3 is index 2, job 8 index 7.
	wantShadows := []Shadow{
		{1, 2, 20, 2}, {2, 2, 20, 2}, {3, 2, 20, 2}, {4, 2, 20, 2},
		{5, 2, 20, 2}, {10, 2, 20, 1}, {15, 2, 20, 1}, {20, 7, 25, 7},
	}
	if !slices.Equal(shadows, wantShadows) {
		t.Errorf("shadows\n got %v\nwant %v", shadows, wantShadows)
	}
	// The reservation rule with depth 1 gives the same schedule.
	if b := Backfill(easyHand, 10, 1); !slices.Equal(b, starts) {
		t.Errorf("Backfill(1) = %v, EASY = %v", b, starts)
	}
}

// TestEASYOverrunHand: machine of 4 processors; job 1 runs past its
// estimate.
//
//	id submit dur est procs
//	 1    0   10   5   4
//	 2    1    2   2   2
//	 3    6    1   1   1
//
// t=0:  1 starts; the scheduler believes it ends at 5.
// t=1:  2 (2) does not fit (0 free). Shadow: at 5 job 1 releases 4: shadow 5,
//
//	extra 2.
//
// t=6:  3 arrives. Job 1's estimated end 5 <= 6, so it "could end at any
//
//	moment": Nextafter(6, +Inf). Shadow = Nextafter(6), extra 2. 3 does
//	not fit now (0 free).
//
// t=10: 1 completes: 2 starts (reserved), then 3 is the head and fits:
//
//	starts at 10, also "reserved" (nobody ahead of it is waiting).
func TestEASYOverrunHand(t *testing.T) {
	jobs := []Job{j(1, 0, 10, 5, 4), j(2, 1, 2, 2, 2), j(3, 6, 1, 1, 1)}
	starts, reasons, shadows := EASYDetailed(jobs, 4)
	wantStarts(t, "EASY", jobs, starts, map[int64]float64{1: 0, 2: 10, 3: 10})
	if want := []string{Immediate, Reserved, Reserved}; !slices.Equal(reasons, want) {
		t.Errorf("reasons %v, want %v", reasons, want)
	}
	want := []Shadow{{1, 1, 5, 2}, {6, 1, math.Nextafter(6, math.Inf(1)), 2}}
	if !slices.Equal(shadows, want) {
		t.Errorf("shadows\n got %v\nwant %v", shadows, want)
	}
	_, _, res := BackfillDetailed(jobs, 4, 1)
	if !slices.Equal(res[1], []float64{5, math.Nextafter(6, math.Inf(1))}) {
		t.Errorf("Backfill(1) reservations of job 2: %v", res[1])
	}
}

// TestConservativeHand shows compression: machine of 4 processors; job 1
// ends early (estimate 10, runs 6).
//
//	id submit dur est procs
//	 1    0    6  10   3
//	 2    1    4   5   2
//	 3    2    3   3   1
//	 4    3    5   8   2
//	 5    4    2   2   4
//	 6    4    1   1   1
//
// Picture notation: job [from,to) procs.
//
// t=0: 1 starts (est end 10).
// t=1: 2: avail at 1 = 1 < 2; candidate 10: [10,15) avail 4 -> reserve 10.
// t=2: 2: re-placed at 10. 3: [2,5) avail 1 >= 1 (10 is outside): starts at
//
//	2, backfilled (2 is blocked). Est end 5.
//
// t=3: 2: candidates 3 (avail 0), 5 ([5,10): avail 1 < 2), 10 (avail 4)
//
//	-> 10. 4 (2 procs, est 8): 3 no, 5 no (avail 1), 10: [10,18) avail
//	4-2 = 2 at 10, 4 at 15 -> reserve 10.
//
// t=4: 5 and 6 arrive. 2 -> 10 (with 4's reservation at 10 there are still
//
//	2 free). 4 -> 10. 5 (4 procs): 4 no, 5 no, 10 no, 15: avail 2 (job 4)
//	no, 18 -> reserve 18. 6 (1 proc, est 1): 4: avail 0 no; 5: [5,6) avail
//	4-3 = 1 -> reserve 5.
//
// t=5: 3 completes. 2: 5: avail 4-3-1(6's reservation) = 0; 6: 1; 10: 2
//
//	-> 10. 4 -> 10. 5 -> 18. 6: its reservation removed, [5,6) avail 1:
//	starts at 5, backfilled.
//
// t=6: 1 (early) and 6 complete; nothing runs. 2: [6,11): avail 4 at 6,
//
//	2 at 10 (4's reservation) -> starts at 6, reserved. 4: [6,14): avail
//	2 at 6 (job 2), 4 at 11 -> starts at 6, reserved. 5: 6 no, 11 (end of
//	2's estimate): avail 2 no, 14: -> reserve 14 (moved earlier from 18).
//
// t=10: 2 completes (est 11). 5: 10: avail 2 no; 14 -> reserve 14.
// t=11: 4 completes (est 14): 5 starts at 11, reserved.
func TestConservativeHand(t *testing.T) {
	jobs := []Job{
		j(1, 0, 6, 10, 3),
		j(2, 1, 4, 5, 2),
		j(3, 2, 3, 3, 1),
		j(4, 3, 5, 8, 2),
		j(5, 4, 2, 2, 4),
		j(6, 4, 1, 1, 1),
	}
	starts, reasons, res := BackfillDetailed(jobs, 4, Unlimited)
	wantStarts(t, "Conservative", jobs, starts, map[int64]float64{
		1: 0, 2: 6, 3: 2, 4: 6, 5: 11, 6: 5,
	})
	if want := []string{Immediate, Reserved, Backfilled, Reserved, Reserved, Backfilled}; !slices.Equal(reasons, want) {
		t.Errorf("reasons %v, want %v", reasons, want)
	}
	wantRes := [][]float64{
		nil,
		{10, 10, 10, 10, 10},
		nil,
		{10, 10, 10},
		{18, 18, 14, 14},
		{5},
	}
	for i := range jobs {
		if !slices.Equal(res[i], wantRes[i]) {
			t.Errorf("job %d: reservations %v, want %v", jobs[i].ID, res[i], wantRes[i])
		}
	}
	if c := Conservative(jobs, 4); !slices.Equal(c, starts) {
		t.Errorf("Conservative = %v, BackfillDetailed = %v", c, starts)
	}
}

// TestEASYvsConservativeHand: machine of 6 processors, exact estimates.
// EASY backfills job 4 into the extra processors and so delays job 3, which
// conservative backfilling protects with a reservation.
//
//	id submit dur est procs
//	 1    0   10  10   4
//	 2    1   10  10   4
//	 3    2   10  10   6
//	 4    3   25  25   2
//
// EASY:
//
//	t=0:  1 starts (2 free).
//	t=1:  2 blocked; shadow 10 (job 1 releases 4 -> 6 free), extra 2.
//	t=2:  3 (6) does not fit now.
//	t=3:  4 (2): fits now (2 free); 3+25 = 28 > 10 but 2 <= extra 2:
//	      backfilled at 3.
//	t=10: 1 completes, 4 free: 2 starts (0 free). Head 3: ends 20 (job 2)
//	      -> 4 free < 6, 28 (job 4) -> 6: shadow 28.
//	t=20: 2 completes; 3 still needs 6 (job 4 holds 2).
//	t=28: 4 completes: 3 starts.
//
// Conservative:
//
//	t=1:  2 reserved at 10 ([10,20) 4 procs).
//	t=2:  2 -> 10. 3: 2 (avail 2), 10 (avail 2) no; 20 -> reserve 20.
//	t=3:  2 -> 10; 3 -> 20. 4 (2 procs, est 25): 3: [3,28) hits 3's
//	      reservation at 20 (avail 0); 10: same; 20: no; 30: reserve 30.
//	t=10: 1 completes: 2 starts. 3 -> 20. 4 -> 30.
//	t=20: 2 completes: 3 starts. 4: avail 0 until 30 -> 30.
//	t=30: 3 completes: 4 starts.
//
// Depth 2 gives the conservative schedule: at t=3 jobs 2 and 3 hold the
// two reservations and job 4 waits unreserved (it does not fit now); at
// t=10 job 2 starts, so 3 and 4 are the first two blocked jobs and job 4
// is reserved at 30 from then on.
func TestEASYvsConservativeHand(t *testing.T) {
	jobs := []Job{
		j(1, 0, 10, 10, 4),
		j(2, 1, 10, 10, 4),
		j(3, 2, 10, 10, 6),
		j(4, 3, 25, 25, 2),
	}
	easy := map[int64]float64{1: 0, 2: 10, 3: 28, 4: 3}
	cons := map[int64]float64{1: 0, 2: 10, 3: 20, 4: 30}
	wantStarts(t, "EASY", jobs, EASY(jobs, 6), easy)
	wantStarts(t, "Backfill(1)", jobs, Backfill(jobs, 6, 1), easy)
	wantStarts(t, "Conservative", jobs, Conservative(jobs, 6), cons)
	wantStarts(t, "Backfill(2)", jobs, Backfill(jobs, 6, 2), cons)

	_, _, res := BackfillDetailed(jobs, 6, Unlimited)
	want := [][]float64{nil, {10, 10, 10}, {20, 20, 20}, {30, 30, 30}}
	for i := range jobs {
		if !slices.Equal(res[i], want[i]) {
			t.Errorf("job %d: reservations %v, want %v", jobs[i].ID, res[i], want[i])
		}
	}
	_, _, res2 := BackfillDetailed(jobs, 6, 2)
	want2 := [][]float64{nil, {10, 10, 10}, {20, 20, 20}, {30, 30}}
	for i := range jobs {
		if !slices.Equal(res2[i], want2[i]) {
			t.Errorf("depth 2: job %d: reservations %v, want %v", jobs[i].ID, res2[i], want2[i])
		}
	}
}

// TestZeroEstimateHand: a job of estimate 0 occupies its start instant.
// Machine of 2 processors.
//
//	id submit dur est procs
//	 1    0    5   5   1
//	 2    1    0   0   2
//	 3    1    0   0   1
//
// t=1: 2 (2 procs) blocked: shadow 5 (job 1's estimated end), extra 0.
//
//	3 (1 proc, estimate 0): fits now (1 free); 1+0 <= 5: backfilled at 1.
//	Its span is [1, Nextafter(1)): for conservative it fits against 2's
//	reservation [5, Nextafter(5)) as well. 3 has Duration 0, so it
//	completes at 1 in a second instant at time 1, where 2 is still blocked.
//
// t=5: 1 completes: 2 starts at 5 and completes at 5 in a second instant.
func TestZeroEstimateHand(t *testing.T) {
	jobs := []Job{j(1, 0, 5, 5, 1), j(2, 1, 0, 0, 2), j(3, 1, 0, 0, 1)}
	want := map[int64]float64{1: 0, 2: 5, 3: 1}
	wantStarts(t, "EASY", jobs, EASY(jobs, 2), want)
	wantStarts(t, "Conservative", jobs, Conservative(jobs, 2), want)
	_, _, shadows := EASYDetailed(jobs, 2)
	wantSh := []Shadow{{1, 1, 5, 0}, {1, 1, 5, 0}}
	if !slices.Equal(shadows, wantSh) {
		t.Errorf("shadows %v, want %v", shadows, wantSh)
	}
}

// TestStaleReservationDropped: with depth >= 2 and a job overrunning its
// estimate, a later job's reservation can lie in the past. Read without
// step 0 of the pass, it would block the head on an idle machine forever.
// Machine of 4 processors:
//
//	id submit dur est procs
//	 1    0  100  10   4
//	 2    0   50  50   4
//	 3    0  500 500   2
//
// t=0:   1 starts (believed to end at 10). 2 -> reserved [10,60). 3: 10 no
// (2's reservation), 60: reserve [60,560).
// No event until 1 really completes at 100. Step 0 drops both stale
// reservations (10 and 60 < 100): 2 fits now and starts at 100 (to 150);
// 3 reserves 150 and starts then. Every depth gives the same schedule.
func TestStaleReservationDropped(t *testing.T) {
	jobs := []Job{j(1, 0, 100, 10, 4), j(2, 0, 50, 50, 4), j(3, 0, 500, 500, 2)}
	for _, d := range []int{1, 2, Unlimited} {
		wantStarts(t, fmt.Sprintf("Backfill(%d)", d), jobs, Backfill(jobs, 4, d), map[int64]float64{1: 0, 2: 100, 3: 150})
	}
}

func TestInvalidInputPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"procs 0":        func() { FCFS(nil, 0) },
		"job too wide":   func() { EASY([]Job{j(1, 0, 1, 1, 5)}, 4) },
		"negative dur":   func() { Conservative([]Job{j(1, 0, -1, 1, 1)}, 4) },
		"NaN estimate":   func() { Conservative([]Job{j(1, 0, 1, math.NaN(), 1)}, 4) },
		"depth 0":        func() { Backfill(nil, 4, 0) },
		"infinite start": func() { FCFS([]Job{j(1, math.Inf(1), 1, 1, 1)}, 4) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
