package matrix_test

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/policy/matrix"
)

// Timed schedules of 5-8 jobs on 2-4 CPUs, worked by hand from the rules
// (docs/scheduling.md, docs/papers/hafshejani2012.md): at each instant the
// ends come first, then the arrivals, then one pass; a thread starts on
// the lowest free CPU; a thread is backfilled when an earlier job of its
// window has more threads than its row number (1-based), i.e. still has a
// thread behind it in the thread queue. JiTr below is thread r (0-based)
// of job i; "CPUc a-b" is the CPU it runs on and its start and end.

type thr struct {
	cpu        int32
	start, end float64
}

func wantThreads(t *testing.T, name string, res result, want map[job.ID]thr) {
	t.Helper()
	got := map[job.ID]thr{}
	for _, th := range res.threads.ths {
		got[th.id] = thr{th.cpu, th.start, th.end}
	}
	for id, w := range want {
		p, r := id.Thread()
		if g, ok := got[id]; !ok || g != w {
			t.Errorf("%s: J%dt%d = %+v, want %+v", name, p, r, g, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: %d threads ended, want %d", name, len(got), len(want))
	}
}

func wantWindows(t *testing.T, name string, got []matrix.Window, want []matrix.Window) {
	t.Helper()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(got); i++ {
		g, w := got[i], want[i]
		ok = g.At == w.At && slices.Equal(g.Jobs, w.Jobs) && g.N == w.N && g.Rows == w.Rows
	}
	if !ok {
		t.Errorf("%s: windows %+v, want %+v", name, got, want)
	}
}

func th(j job.ID, r int) job.ID { return job.ThreadID(j, r) }

// Lazy windows, 6 jobs on 3 CPUs (jobs: threads x runtime):
// J1 t=0 2x4; J2 t=0 3x2; J3 t=0 1x3; J4 t=0 2x1; J5 t=1 1x2; J6 t=3 2x2.
//
// t=0: waiting J1(2) J2(3) J3(1) J4(2). n = 2: window J1 J2; J2 has 3 > 2,
// n = 3: window J1 J2 J3 (J3 has 1 <= 3). Window 1 = {J1,J2,J3}, n = 3,
// 3 rows. Thread queue: J1t0 J2t0 J3t0 | J1t1 J2t1 | J2t2. Backfilled:
// J2t0 and J3t0 (J1, earlier, has a second thread behind them); J1t1,
// J2t1, J2t2 not (no earlier job has a thread in a later row).
// J1t0 CPU0 0-4, J2t0 CPU1 0-2, J3t0 CPU2 0-3. J4 waits outside.
// t=1: J5 arrives; no CPU free.
// t=2: J2t0 ends (CPU1): J1t1 CPU1 2-6.
// t=3: J3t0 ends (CPU2), J6 arrives: J2t1 CPU2 3-5.
// t=4: J1t0 ends (CPU0): J2t2 CPU0 4-6. The thread queue is empty but no
// CPU is free: no window.
// t=5: J2t1 ends (CPU2). Queue empty, CPU free: waiting J4(2) J5(1) J6(2);
// n = 2: window J4 J5, none larger. Window 2 = {J4,J5}, n = 2, 2 rows.
// Queue: J4t0 J5t0 | J4t1; J5t0 backfilled (J4 has a thread behind it).
// J4t0 CPU2 5-6.
// t=6: J1t1 (CPU1), J2t2 (CPU0), J4t0 (CPU2) end. J5t0 CPU0 6-8, J4t1
// CPU1 6-7; queue empty, CPU2 free: window 3 = {J6}, n = 2 (min(2, 1 job)),
// 2 rows; J6t0 CPU2 6-8.
// t=7: J4t1 ends (CPU1): J6t1 CPU1 7-9.
//
// Jobs: J1 0-6 on CPUs 0,1 (immediate); J2 0-6 on 1,2,0 (backfilled);
// J3 0-3 on 2 (backfilled); J4 5-7 on 2,1 (reserved: submitted at 0);
// J5 6-8 on 0 (backfilled); J6 6-9 on 2,1 (reserved).
// CPU time: 2x4 + 3x2 + 3 + 2x1 + 2 + 2x2 = 25.
func TestMatrixHandLazySixJobs(t *testing.T) {
	jobs := []actual.Job{mk(1, 0, 4, 2), mk(2, 0, 2, 3), mk(3, 0, 3, 1), mk(4, 0, 1, 2), mk(5, 1, 2, 1), mk(6, 3, 2, 2)}
	res := run(t, jobs, 3, matrix.Options{})
	wantWindows(t, "lazy", res.windows, []matrix.Window{
		{At: 0, Jobs: []job.ID{1, 2, 3}, N: 3, Rows: 3},
		{At: 5, Jobs: []job.ID{4, 5}, N: 2, Rows: 2},
		{At: 6, Jobs: []job.ID{6}, N: 2, Rows: 2},
	})
	wantThreads(t, "lazy", res, map[job.ID]thr{
		th(1, 0): {0, 0, 4}, th(2, 0): {1, 0, 2}, th(3, 0): {2, 0, 3},
		th(1, 1): {1, 2, 6}, th(2, 1): {2, 3, 5}, th(2, 2): {0, 4, 6},
		th(4, 0): {2, 5, 6}, th(5, 0): {0, 6, 8}, th(4, 1): {1, 6, 7},
		th(6, 0): {2, 6, 8}, th(6, 1): {1, 7, 9},
	})
	wantJobs(t, "lazy", res.jobs, map[job.ID]jobRec{
		1: {0, 6, "0-1", job.Immediate, 2},
		2: {0, 6, "0-2", job.Backfilled, 3},
		3: {0, 3, "2", job.Backfilled, 1},
		4: {5, 7, "1-2", job.Reserved, 2},
		5: {6, 8, "0", job.Backfilled, 1},
		6: {6, 9, "1-2", job.Reserved, 2},
	})
	if res.work != 25 {
		t.Errorf("work %g, want 25", res.work)
	}
}

// Eager and fixed:3 windows, 6 jobs on 4 CPUs:
// J1 t=0 3x4; J2 t=0 2x2; J3 t=1 1x3; J4 t=1 4x1; J5 t=2 2x2; J6 t=2 1x1.
//
// Eager (every pass forms all waiting jobs into windows first):
// t=0: waiting J1(3) J2(2): n = 3, window J1 J2 (only 2 wait), none
// larger: {J1,J2}, n = 3, 3 rows. Queue J1t0 J2t0 | J1t1 J2t1 | J1t2;
// J2t0 and J2t1 backfilled (J1 has 3 threads). J1t0 CPU0 0-4, J2t0 CPU1
// 0-2, J1t1 CPU2 0-4, J2t1 CPU3 0-2. Queue left: J1t2.
// t=1: J3(1) J4(4) arrive; no CPU free, but the pass forms {J3} (n = 1)
// then {J4} (n = 4, 4 rows). Queue: J1t2 J3t0 J4t0 J4t1 J4t2 J4t3.
// t=2: J2t0, J2t1 end (CPU1, CPU3); J5(2) J6(1) arrive: {J5,J6}, n = 2,
// 2 rows, queued J5t0 J6t0 | J5t1 (J6t0 backfilled). J1t2 CPU1 2-6, J3t0
// CPU3 2-5.
// t=4: J1t0, J1t1 end (CPU0, CPU2): J4t0 CPU0 4-5, J4t1 CPU2 4-5.
// t=5: J3t0, J4t0, J4t1 end (CPU 3, 0, 2): J4t2 CPU0 5-6, J4t3 CPU2 5-6,
// J5t0 CPU3 5-7.
// t=6: J1t2, J4t2, J4t3 end (CPU 1, 0, 2): J6t0 CPU0 6-7, J5t1 CPU1 6-8.
// Jobs: J1 0-6 on 0,2,1 (immediate); J2 0-2 on 1,3 (backfilled); J3 2-5
// on 3 (reserved); J4 4-6 on 0,2,0,2 (reserved); J5 5-8 on 3,1
// (reserved: first thread of its window); J6 6-7 on 0 (backfilled).
//
// fixed:3 (windows of 3 jobs, formed lazily):
// t=0: {J1,J2} (only 2 wait), N = 3, 3 rows: same queue and starts as
// eager. t=1: no CPU free, nothing (the thread queue still holds J1t2).
// t=2: J2t0, J2t1 end (CPU1, CPU3): J1t2 CPU1 2-6; queue empty, CPU3
// free: window {J3,J4,J5} (J6 waits), N = 3, 4 rows. Queue: J3t0 J4t0
// J5t0 | J4t1 J5t1 | J4t2 | J4t3. Backfilled: J5t0, J5t1 (J4 has 4
// threads); J4t0 not (J3 has 1, not > 1). J3t0 CPU3 2-5.
// t=4: J1t0, J1t1 end (CPU0, CPU2): J4t0 CPU0 4-5, J5t0 CPU2 4-6.
// t=5: J3t0, J4t0 end (CPU3, CPU0): J4t1 CPU0 5-6, J5t1 CPU3 5-7.
// t=6: J1t2, J5t0, J4t1 end (CPU 1, 2, 0): J4t2 CPU0 6-7, J4t3 CPU1 6-7;
// queue empty, CPU2 free: window {J6}, N = 3, 1 row; J6t0 CPU2 6-7.
// Jobs: J1, J2, J3 as eager; J4 4-7 on 0,0,0,1 (reserved); J5 4-7 on 2,3
// (backfilled); J6 6-7 on 2 (reserved).
// CPU time either way: 3x4 + 2x2 + 3 + 4x1 + 2x2 + 1 = 28.
func TestMatrixHandEagerFixedSixJobs(t *testing.T) {
	jobs := []actual.Job{mk(1, 0, 4, 3), mk(2, 0, 2, 2), mk(3, 1, 3, 1), mk(4, 1, 1, 4), mk(5, 2, 2, 2), mk(6, 2, 1, 1)}

	eager := run(t, jobs, 4, matrix.Options{Rule: matrix.Eager})
	wantWindows(t, "eager", eager.windows, []matrix.Window{
		{At: 0, Jobs: []job.ID{1, 2}, N: 3, Rows: 3},
		{At: 1, Jobs: []job.ID{3}, N: 1, Rows: 1},
		{At: 1, Jobs: []job.ID{4}, N: 4, Rows: 4},
		{At: 2, Jobs: []job.ID{5, 6}, N: 2, Rows: 2},
	})
	wantThreads(t, "eager", eager, map[job.ID]thr{
		th(1, 0): {0, 0, 4}, th(2, 0): {1, 0, 2}, th(1, 1): {2, 0, 4}, th(2, 1): {3, 0, 2},
		th(1, 2): {1, 2, 6}, th(3, 0): {3, 2, 5},
		th(4, 0): {0, 4, 5}, th(4, 1): {2, 4, 5},
		th(4, 2): {0, 5, 6}, th(4, 3): {2, 5, 6}, th(5, 0): {3, 5, 7},
		th(6, 0): {0, 6, 7}, th(5, 1): {1, 6, 8},
	})
	wantJobs(t, "eager", eager.jobs, map[job.ID]jobRec{
		1: {0, 6, "0-2", job.Immediate, 3},
		2: {0, 2, "1 3", job.Backfilled, 2},
		3: {2, 5, "3", job.Reserved, 1},
		4: {4, 6, "0 2", job.Reserved, 4},
		5: {5, 8, "1 3", job.Reserved, 2},
		6: {6, 7, "0", job.Backfilled, 1},
	})

	fixed := run(t, jobs, 4, matrix.Options{Rule: matrix.Fixed, N: 3})
	wantWindows(t, "fixed:3", fixed.windows, []matrix.Window{
		{At: 0, Jobs: []job.ID{1, 2}, N: 3, Rows: 3},
		{At: 2, Jobs: []job.ID{3, 4, 5}, N: 3, Rows: 4},
		{At: 6, Jobs: []job.ID{6}, N: 3, Rows: 1},
	})
	wantThreads(t, "fixed:3", fixed, map[job.ID]thr{
		th(1, 0): {0, 0, 4}, th(2, 0): {1, 0, 2}, th(1, 1): {2, 0, 4}, th(2, 1): {3, 0, 2},
		th(1, 2): {1, 2, 6}, th(3, 0): {3, 2, 5},
		th(4, 0): {0, 4, 5}, th(5, 0): {2, 4, 6},
		th(4, 1): {0, 5, 6}, th(5, 1): {3, 5, 7},
		th(4, 2): {0, 6, 7}, th(4, 3): {1, 6, 7}, th(6, 0): {2, 6, 7},
	})
	wantJobs(t, "fixed:3", fixed.jobs, map[job.ID]jobRec{
		1: {0, 6, "0-2", job.Immediate, 3},
		2: {0, 2, "1 3", job.Backfilled, 2},
		3: {2, 5, "3", job.Reserved, 1},
		4: {4, 7, "0-1", job.Reserved, 4},
		5: {4, 7, "2-3", job.Backfilled, 2},
		6: {6, 7, "2", job.Reserved, 1},
	})
	for _, r := range []result{eager, fixed} {
		if r.work != 28 {
			t.Errorf("work %g, want 28", r.work)
		}
	}
}
