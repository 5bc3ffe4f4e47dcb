package backfill_test

import (
	"math"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/backfill"
)

// EASY over two machines of different speed. m0: 4 CPUs at speed 1; m1:
// 6 CPUs at speed 2 (jobs run half their estimate there). Estimates are
// exact and at the reference speed 1.
//
//	t=0  J1 (3 CPUs, est 20): fits on both; the fastest is m1 -> [0, 10).
//	t=0  J2 (4 CPUs, est 40): m1 has 3 free; m0 has 4 -> [0, 40) on m0.
//	t=1  J3 (4 CPUs, est 8): fits nowhere (m0 0 free, m1 3). Earliest
//	     start: m0 at 40 (J2 ends), m1 at 10 (J1 ends: 3 + 3 free). It
//	     reserves m1: shadow time 10, extra CPUs 6 - 4 = 2.
//	t=2  J4 (3 CPUs, est 40): fits now only on m1 (3 free), but would end
//	     at 2 + 20 = 22 > 10 and needs 3 > 2 extra CPUs: refused.
//	t=2  J5 (2 CPUs, est 12): on m1 it ends at 2 + 6 = 8 <= 10: backfilled,
//	     [2, 8); ending before the shadow it uses no extra CPU.
//	t=3  J6 (1 CPU, est 100): on m1 it ends at 3 + 50 = 53 > 10 but needs
//	     1 <= 2 extra CPUs: backfilled, [3, 53); one extra CPU left.
//	t=8  J5 ends: m1 has 2 free, J4 (3) still does not fit.
//	t=10 J1 ends: J3 starts at its shadow time on m1 (5 free), [10, 14).
//	     J4 fits nowhere (m1 1 free, m0 0): it reserves m1 at 14 (m0
//	     would be 40).
//	t=14 J3 ends: J4 starts on m1, [14, 34).
func TestEASYTwoMachines(t *testing.T) {
	p := mustPlatform(t, platform.Machine{CPUs: 4, Speed: 1}, platform.Machine{CPUs: 6, Speed: 2})
	jobs := []actual.Job{exact(1, 0, 3, 20), exact(2, 0, 4, 40), exact(3, 1, 4, 8),
		exact(4, 2, 3, 40), exact(5, 2, 2, 12), exact(6, 3, 1, 100)}
	pol, err := declaredMulti("easy", p, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := newSpy(pol.(*backfill.Backfill))
	l := runOn(t, p, s, jobs)
	checkRuns(t, l, map[job.ID]ran{
		1: {start: 0, end: 10, machine: 1, reason: job.Immediate},
		2: {start: 0, end: 40, machine: 0, reason: job.Immediate},
		3: {start: 10, end: 14, machine: 1, reason: job.Reserved},
		4: {start: 14, end: 34, machine: 1, reason: job.Reserved},
		5: {start: 2, end: 8, machine: 1, reason: job.Backfilled},
		6: {start: 3, end: 53, machine: 1, reason: job.Backfilled},
	})
	// The reservation: J3 on m1 at 10 after the passes at 1, 2 and 3; J4
	// (refused at 2) waits behind it without one.
	for _, at := range []float64{1, 2, 3, 8} {
		q := s.after[at]
		if len(q) == 0 || q[0].ID != 3 || !q[0].Reserved || q[0].Machine != 1 || q[0].Start != 10 {
			t.Errorf("after the pass at %g: queue %+v, want J3 first, reserved on m1 at 10", at, q)
		}
	}
	if q := s.after[2]; !slices.Equal(ids(q), []job.ID{3, 4}) || q[1].Reserved {
		t.Errorf("after the pass at 2: queue %+v, want J3 (reserved), J4 (not)", q)
	}
	if q := s.after[10]; len(q) != 1 || q[0].ID != 4 || q[0].Machine != 1 || q[0].Start != 14 {
		t.Errorf("after the pass at 10: queue %+v, want J4 reserved on m1 at 14", q)
	}
}

// Strict FCFS over three machines. m0: 2 CPUs at speed 1; m1: 4 CPUs at
// speed 2; m2: 4 CPUs at speed 1.
//
//	t=0  J1 (3 CPUs, est 30): first machine in index order with 3 free:
//	     m1 -> [0, 15).
//	t=0  J2 (1 CPU, est 30): m0 comes first (m1, faster, also has a free
//	     CPU) -> [0, 30).
//	t=0  J3 (4 CPUs, est 20): m0 has 1 free, m1 1, m2 4 -> [0, 20) on m2.
//	t=1  J4 (2 CPUs, est 10): 1, 1 and 0 free: fits nowhere. The pass stops.
//	t=1  J5 (1 CPU, est 6) would fit on m0 or m1, but nothing passes J4.
//	t=15 J1 ends: J4 -> m0 has 1 free, m1 4: [15, 20) on m1; then J5 ->
//	     m0 [15, 21).
func TestFCFSThreeMachines(t *testing.T) {
	p := mustPlatform(t, platform.Machine{CPUs: 2}, platform.Machine{CPUs: 4, Speed: 2}, platform.Machine{CPUs: 4})
	jobs := []actual.Job{exact(1, 0, 3, 30), exact(2, 0, 1, 30), exact(3, 0, 4, 20), exact(4, 1, 2, 10), exact(5, 1, 1, 6)}
	pol, err := declaredMulti("fcfs", p, nil)
	if err != nil {
		t.Fatal(err)
	}
	l := runOn(t, p, pol, jobs)
	checkRuns(t, l, map[job.ID]ran{
		1: {start: 0, end: 15, machine: 1, reason: job.Immediate},
		2: {start: 0, end: 30, machine: 0, reason: job.Immediate},
		3: {start: 0, end: 20, machine: 2, reason: job.Immediate},
		4: {start: 15, end: 20, machine: 1, reason: job.Reserved},
		5: {start: 15, end: 21, machine: 0, reason: job.Reserved},
	})
}

// The three cases of the deadline term, by hand, with the defaults
// (agefactor 0.01, k 2, min 0.1, max 20, boostvalue 2), at now = 10 for
// three jobs submitted at 10 whose runtime on the fastest machine (speed
// 2) is half their Estimated; minext = 40.
//
//	J1: Estimated 40, Nxtime 20, Extime 30, deadline 1000:
//	    t_J = 1000 - 2 x 20 = 960 >= Extime             -> Min = 0.1
//	    wait-min 2 x 40/40 = 2;                 P = 0 + 0.1 + 2 = 2.1
//	J2: Estimated 60, Nxtime 30, Extime 40, deadline 60:
//	    t_J = 60 - 60 = 0 < 40 <= 60: on the line through (0, 0.1) and
//	    (60, 20): 0.1 + 19.9 x 40/60 = 13.3666...
//	    wait-min 2 x 40/60 = 1.3333...;         P = 14.7
//	J3: Estimated 80, Nxtime 40, Extime 50 > deadline 45 -> Min = 0.1
//	    wait-min 2 x 40/80 = 1;                 P = 1.1
func TestFlexiblePriorityByHand(t *testing.T) {
	f := backfill.DefaultFlex()
	for _, c := range []struct {
		name                   string
		deadline, est, nx      float64
		wantDeadline, wantWait float64
		wantP                  float64
	}{
		{"far from the deadline", 1000, 40, 20, 0.1, 2, 2.1},
		{"on the line", 60, 60, 30, 0.1 + 19.9*40.0/60, 2 * 40.0 / 60, 14.7},
		{"past the deadline", 45, 80, 40, 0.1, 1, 1.1},
		{"no deadline", 0, 40, 20, 0.1, 2, 2.1},
	} {
		got := f.Priority(10, 10, c.deadline, c.est, c.nx, 40)
		if got.Aging != 0 || !near(got.Deadline, c.wantDeadline) || !near(got.WaitMin, c.wantWait) || !near(got.P(), c.wantP) {
			t.Errorf("%s: %+v (P %g), want deadline term %g, wait-min %g, P %g", c.name, got, got.P(), c.wantDeadline, c.wantWait, c.wantP)
		}
	}
	// Aging: 0.01 per unit of time waited (100 -> 1); the line reaches Max
	// when Extime (110 + 10) is the deadline (t_J = 120 - 2 x 10 = 100).
	if got := f.Priority(110, 10, 120, 20, 10, 10); !near(got.Aging, 1) || !near(got.Deadline, 20) {
		t.Errorf("aging and the top of the line: %+v, want aging 1, deadline term 20", got)
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// Flexible backfilling through the model: the queue order the priorities
// give, and the reservation kept through an event. m0: 2 CPUs at speed 1,
// m1: 4 CPUs at speed 2; J1..J4 need 4 CPUs, so only m1 holds them, and
// their Nxtime is Estimated / 2.
//
//	t=0   B1 (4 CPUs, est 200) -> m1 [0, 100).
//	t=1   B2 (2 CPUs, est 99)  -> m1 is full; m0 [1, 100).
//	t=10  J1, J2, J3 arrive (TestFlexiblePriorityByHand): P = 2.1, 14.7,
//	      1.1. Order J2, J1, J3; none fits, J2 reserves m1 at 100.
//	t=20  J4 arrives (est 20, deadline 30; Nxtime 10, Extime 30 = its
//	      deadline: deadline term Max = 20; minext is now 20: wait-min 2).
//	      P: J4 0 + 20 + 2 = 22; J2 0.1 + (0.1 + 19.9 x 50/60) + 2 x 20/60
//	      = 17.45; J1 0.1 + 0.1 + 1 = 1.2; J3 0.1 + 0.1 + 0.5 = 0.7.
//	      J4 has the highest priority, but J2 holds the reservation: it
//	      stays first, on m1 at 100. Queue: J2, J4, J1, J3.
//	t=100 B1, B2 end. J2 (pinned) starts on m1 [100, 130). The others at
//	      100 (minext 20): J4 0.8 + 0.1 (Extime 110 > 30) + 2 = 2.9;
//	      J1 0.9 + 0.1 + 1 = 2.0; J3 0.9 + 0.1 + 0.5 = 1.5. J4 reserves
//	      m1 at 130.
//	t=130 J4 [130, 140); J1 reserves 140 (at 130: J1 1.2 + 0.1 + 2 = 3.3
//	      beats J3 1.2 + 0.1 + 1 = 2.3 with minext 40).
//	t=140 J1 [140, 160); t=160 J3 [160, 200).
//
// With the reservation not pinned, J4 takes it at t=20 (queue J4, J2,
// J1, J3) and starts at 100 [100, 110); at 110 J1 (1.0 + 0.1 + 2 = 3.1)
// beats J2 (1.0 + 0.1 + 2 x 40/60 = 2.43) and J3 (2.1): [110, 130); at 130
// J2 (1.2 + 0.1 + 2 = 3.3; minext 60) beats J3 (1.2 + 0.1 + 1.5 = 2.8):
// [130, 160); J3 [160, 200).
func TestFlexibleOrderAndStickyReservation(t *testing.T) {
	p := mustPlatform(t, platform.Machine{CPUs: 2, Speed: 1}, platform.Machine{CPUs: 4, Speed: 2})
	dl := func(j actual.Job, d float64) actual.Job { j.Deadline = d; return j }
	jobs := []actual.Job{exact(101, 0, 4, 200), exact(102, 1, 2, 99),
		dl(exact(1, 10, 4, 40), 1000), dl(exact(2, 10, 4, 60), 60), dl(exact(3, 10, 4, 80), 45),
		dl(exact(4, 20, 4, 20), 30)}
	for _, pin := range []bool{true, false} {
		f := backfill.DefaultFlex()
		f.Pin = pin
		pol, err := declaredMulti("flexible", p, &f)
		if err != nil {
			t.Fatal(err)
		}
		s := newSpy(pol.(*backfill.Backfill))
		l := runOn(t, p, s, jobs)

		q := s.after[10]
		if !slices.Equal(ids(q), []job.ID{2, 1, 3}) || !near(q[0].Priority, 14.7) || !near(q[1].Priority, 2.1) || !near(q[2].Priority, 1.1) ||
			!q[0].Reserved || q[0].Machine != 1 || q[0].Start != 100 {
			t.Errorf("pin %v: after the pass at 10: %+v, want J2 (14.7, reserved m1 at 100), J1 (2.1), J3 (1.1)", pin, q)
		}
		q = s.after[20]
		wantOrder, holder := []job.ID{2, 4, 1, 3}, job.ID(2)
		if !pin {
			wantOrder, holder = []job.ID{4, 2, 1, 3}, 4
		}
		if !slices.Equal(ids(q), wantOrder) || q[0].ID != holder || !q[0].Reserved || q[0].Machine != 1 || q[0].Start != 100 || q[1].Reserved {
			t.Errorf("pin %v: after the pass at 20: %+v, want order %v with J%d alone reserved on m1 at 100", pin, q, wantOrder, holder)
		}
		for _, x := range q {
			want := map[job.ID]float64{4: 22, 2: 17.45, 1: 1.2, 3: 0.7}[x.ID]
			if !near(x.Priority, want) {
				t.Errorf("pin %v: P(J%d) at 20 = %.15g, want %g", pin, x.ID, x.Priority, want)
			}
		}

		want := map[job.ID]ran{
			101: {start: 0, end: 100, machine: 1, reason: job.Immediate},
			102: {start: 1, end: 100, machine: 0, reason: job.Immediate},
			2:   {start: 100, end: 130, machine: 1, reason: job.Reserved},
			4:   {start: 130, end: 140, machine: 1, reason: job.Reserved},
			1:   {start: 140, end: 160, machine: 1, reason: job.Reserved},
			3:   {start: 160, end: 200, machine: 1, reason: job.Reserved},
		}
		if !pin {
			want[4] = ran{start: 100, end: 110, machine: 1, reason: job.Reserved}
			want[1] = ran{start: 110, end: 130, machine: 1, reason: job.Reserved}
			want[2] = ran{start: 130, end: 160, machine: 1, reason: job.Reserved}
		}
		checkRuns(t, l, want)
	}
}

// A machine holds a job only if it has the CPUs, the memory per CPU and
// the speed the job needs, for every policy. m0 (8 CPUs, speed 4, 1000 KB
// per CPU) is first and fastest; m1 (8 CPUs, speed 1, 4000 KB); m2 (2
// CPUs, speed 8, memory not modelled).
//
//	J1 (2 CPUs, 2000 KB per CPU): not m0 (memory). FCFS: m1 (first that
//	    holds it); EASY/Flexible: m2 (fastest that holds it).
//	J2 (4 CPUs, speed >= 2): m0 only (m1 too slow, m2 too small).
//	J3 (1 CPU, speed >= 5): m2 only; it is taken by J1 under EASY and
//	    Flexible, so J3 waits for it rather than use m0 or m1.
func TestCanHold(t *testing.T) {
	p := mustPlatform(t, platform.Machine{CPUs: 8, Speed: 4, Mem: 1000}, platform.Machine{CPUs: 8, Speed: 1, Mem: 4000},
		platform.Machine{CPUs: 2, Speed: 8})
	j1 := exact(1, 0, 2, 80)
	j1.Mem = 2000
	j2 := exact(2, 0, 4, 80)
	j2.Speed = 2
	j3 := exact(3, 0, 1, 80)
	j3.Speed = 5
	jobs := []actual.Job{j1, j2, j3}
	for _, c := range []struct {
		policy string
		want   map[job.ID]ran
	}{
		{"fcfs", map[job.ID]ran{
			1: {start: 0, end: 80, machine: 1, reason: job.Immediate},
			2: {start: 0, end: 20, machine: 0, reason: job.Immediate},
			3: {start: 0, end: 10, machine: 2, reason: job.Immediate}}},
		{"easy", map[job.ID]ran{
			1: {start: 0, end: 10, machine: 2, reason: job.Immediate},
			2: {start: 0, end: 20, machine: 0, reason: job.Immediate},
			3: {start: 10, end: 20, machine: 2, reason: job.Reserved}}},
		{"flexible", nil},
	} {
		pol, err := declaredMulti(c.policy, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		l := runOn(t, p, pol, jobs)
		want := c.want
		if want == nil {
			// Flexible: all three submitted at 0 with no deadline; minext 80
			// for all, so P ties at 0 + 0.1 + 2 and the order is by id: as
			// EASY.
			want = map[job.ID]ran{
				1: {start: 0, end: 10, machine: 2, reason: job.Immediate},
				2: {start: 0, end: 20, machine: 0, reason: job.Immediate},
				3: {start: 10, end: 20, machine: 2, reason: job.Reserved}}
		}
		checkRuns(t, l, want)
		for id, r := range l.runs {
			var info actual.Job
			for _, j := range jobs {
				if j.ID == id {
					info = j
				}
			}
			if !backfill.CanHold(p.Machine(r.machine), info.Info()) {
				t.Errorf("%s: job %d on m%d, which cannot hold it", c.policy, id, r.machine)
			}
		}
	}
}
