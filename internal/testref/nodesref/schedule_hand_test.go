package nodesref

import (
	"math"
	"reflect"
	"testing"
)

// The hand-worked cases of spec v1 run on gpuNodes(0): n0 and n1
// (n[1-2]:cores=4:gres=gpu=2 of the spec's examples, numbered 0 and 1),
// 4 cores of 1 thread, 2 untyped GPUs, memory not modelled.

// onNodes asks for n tasks of one CPU on exactly k nodes.
func onNodes(n, k int) Request { return Request{Tasks: n, CPUsPerTask: 1, Nodes: k} }

func wantSched(t *testing.T, nodes []Node, jobs []Job, p Sched, want []Start) {
	t.Helper()
	got := Schedule(nodes, jobs, p)
	if len(got) != len(want) {
		t.Fatalf("%v: %d starts, want %d", p, len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("%v: job %d:\n got %s\nwant %s", p, want[i].ID, show(got[i]), show(want[i]))
		}
	}
}

func c(ids ...int) []int { return ids }

// EASY: the GPU job waits while cores are free, and a CPU job backfills.
func TestScheduleGPUWaitsCPUBackfills(t *testing.T) {
	jobs := []Job{
		job(1, 0, 10, 10, gpus(tasks(1), 2)), // n0: core 0, gpus 0-1
		job(2, 0, 10, 10, gpus(tasks(1), 2)), // n0 has no GPU left: n1 core 0, gpus 0-1
		// No GPU free now: the head. Candidate times: 10 (jobs 1 and 2).
		// Over [10, 15) n0 is free: reservation n0, 1 core, 1 GPU.
		job(3, 0, 5, 5, gpus(tasks(1), 1)),
		// Over [0, 20): n0's peak is 1 core (job 1 until 10, then the
		// reservation), n1's 1 core: 3 + 3 free; any number of nodes:
		// n0 takes 3 tasks (cores 1-3), n1 1 (core 1). It starts now.
		job(4, 0, 20, 20, tasks(4)),
	}
	// At 10 jobs 1 and 2 end; job 3 over [10, 15): n0 has core 0 and both
	// GPUs free (job 4 holds cores 1-3): it starts on core 0, GPU 0.
	wantSched(t, gpuNodes(0), jobs, SchedEASY, []Start{
		at(1, 0, on(0, 1, c(0), 0, gpu(0, 1))),
		at(2, 0, on(1, 1, c(0), 0, gpu(0, 1))),
		at(3, 10, on(0, 1, c(0), 0, gpu(0))),
		at(4, 0, on(0, 3, c(1, 2, 3), 0, nil), on(1, 1, c(1), 0, nil)),
	})
}

// EASY's repair: a long job backfills onto the reserved node because the
// head still fits at its shadow time on the other node.
func TestScheduleEASYRepair(t *testing.T) {
	jobs := []Job{
		job(1, 0, 10, 10, onNodes(2, 1)), // n0 cores 0-1
		job(2, 0, 10, 10, onNodes(4, 1)), // n0 has 2 free: n1 cores 0-3
		// The head: no node has 4 cores free now. Candidate time 10: over
		// [10, 20) n0 is free (first in order): reservation n0 x 4.
		job(3, 0, 10, 10, onNodes(4, 1)),
		// Fit now over [0, 30): n0's peak is 4 (job 1, then the
		// reservation), n1's 4: no. Repair: without the reservation n0
		// has 2 free: tentative n0 x 2 over [0, 30). The reservation
		// [10, 20) overlaps it: placed again at 10 beside the tentative
		// hold, n0 has 2 free, n1 is free (job 2 ends at 10): n1. The job
		// starts now on n0's cores 2-3.
		job(4, 0, 30, 30, onNodes(2, 1)),
	}
	// At 10 jobs 1 and 2 end; the head over [10, 20): n0 has 2 free (job
	// 4), n1 4: n1 cores 0-3, as re-placed.
	want := []Start{
		at(1, 0, on(0, 2, c(0, 1), 0, nil)),
		at(2, 0, on(1, 4, c(0, 1, 2, 3), 0, nil)),
		at(3, 10, on(1, 4, c(0, 1, 2, 3), 0, nil)),
		at(4, 0, on(0, 2, c(2, 3), 0, nil)),
	}
	wantSched(t, gpuNodes(0), jobs, SchedEASY, want)
	// Without a reservation to repair (first fit, depth 0) the job starts
	// now as well, and the head starts at 10 on n1 likewise.
	wantSched(t, gpuNodes(0), jobs, SchedFirstFit, want)
}

// The repair fails: the other node is busy at the shadow time.
func TestScheduleEASYRepairFails(t *testing.T) {
	jobs := []Job{
		job(1, 0, 10, 10, onNodes(2, 1)), // n0 cores 0-1
		job(2, 0, 30, 30, onNodes(4, 1)), // n1 cores 0-3 until 30
		// Head: candidate times 10, 30; at 10 over [10, 20) n0 is free:
		// reservation n0 x 4.
		job(3, 0, 10, 10, onNodes(4, 1)),
		// Fit now over [0, 30): no (n0 peak 4, n1 4). Repair: tentative
		// n0 x 2 (cores free now); the reservation placed again at 10
		// beside it: n0 has 2 free, n1 is held by job 2 until 30: fails.
		// EASY has its one reservation: the job waits.
		job(4, 0, 30, 30, onNodes(2, 1)),
	}
	// At 10 job 1 ends: the head starts on n0 (cores 0-3) until 20; job 4
	// gets the reservation: candidate times 20 (job 3), 30 (job 2); at 20
	// n0 is free. At 20 job 3 ends and job 4 starts on n0 cores 0-1.
	wantSched(t, gpuNodes(0), jobs, SchedEASY, []Start{
		at(1, 0, on(0, 2, c(0, 1), 0, nil)),
		at(2, 0, on(1, 4, c(0, 1, 2, 3), 0, nil)),
		at(3, 10, on(0, 4, c(0, 1, 2, 3), 0, nil)),
		at(4, 20, on(0, 2, c(0, 1), 0, nil)),
	})
}

// Conservative with three reservations: the third one blocks a job that
// EASY backfills.
func TestScheduleConservative(t *testing.T) {
	jobs := []Job{
		job(1, 0, 10, 10, onNodes(4, 1)), // n0 cores 0-3 until 10
		job(2, 0, 20, 20, onNodes(2, 1)), // n1 cores 0-1 until 20
		// R1: candidate times 10, 20; at 10 over [10, 20) n0 is free.
		job(3, 0, 10, 10, onNodes(4, 1)),
		// R2: at 10 n0 is R1's, n1 has 2 free; at 20 over [20, 30) n0.
		job(4, 0, 10, 10, onNodes(4, 1)),
		// R3 (3 cores): at 10 over [10, 25) n0 is R1's then R2's, n1 has
		// 2 free; at 20 over [20, 35) n0 is R2's, n1 is free: n1 x 3.
		job(5, 0, 15, 15, onNodes(3, 1)),
		// Over [0, 25): n1's peak is 3 (job 2's 2, then R3's 3): 1 free;
		// n0 is held. Repair: tentative n1 x 2 over [0, 25); R1 (n0)
		// stays on n0, R2 likewise; R3 over [20, 35) beside the tentative
		// hold: n1 has 2 free, n0 is R2's: fails. R4: candidate times 10,
		// 20, 30, 35: at 30 over [30, 55) n0 is free.
		job(6, 0, 25, 25, onNodes(2, 1)),
	}
	// At 10 (job 1 ends): job 3 starts on n0; job 4 is reserved at 20 on
	// n0, job 5 at 20 on n1, job 6 (over [10, 35) n1's peak is 3; the
	// repair fails again on job 5's reservation) at 30 on n0. At 20 (jobs
	// 2, 3 end): jobs 4 (n0) and 5 (n1 cores 0-2) start; job 6 over
	// [20, 45) finds n0 held, n1 with 1 core: reserved at 30 on n0. At 30
	// job 4 ends: job 6 starts on n0 cores 0-1.
	wantSched(t, gpuNodes(0), jobs, SchedConservative, []Start{
		at(1, 0, on(0, 4, c(0, 1, 2, 3), 0, nil)),
		at(2, 0, on(1, 2, c(0, 1), 0, nil)),
		at(3, 10, on(0, 4, c(0, 1, 2, 3), 0, nil)),
		at(4, 20, on(0, 4, c(0, 1, 2, 3), 0, nil)),
		at(5, 20, on(1, 3, c(0, 1, 2), 0, nil)),
		at(6, 30, on(0, 2, c(0, 1), 0, nil)),
	})
	// EASY holds only R1: over [0, 25) n1 has 2 cores free and job 6
	// starts at 0 on n1 cores 2-3.
	got := Schedule(gpuNodes(0), jobs, SchedEASY)
	if w := at(6, 0, on(1, 2, c(2, 3), 0, nil)); !reflect.DeepEqual(got[5], w) {
		t.Errorf("EASY: job 6: got %s, want %s", show(got[5]), show(w))
	}
	// Backfill depth 2 holds R1 and R2: job 5 gets none, and job 6 starts
	// at 0 as under EASY.
	got = Schedule(gpuNodes(0), jobs, SchedBackfill(2))
	if w := at(6, 0, on(1, 2, c(2, 3), 0, nil)); !reflect.DeepEqual(got[5], w) {
		t.Errorf("depth 2: job 6: got %s, want %s", show(got[5]), show(w))
	}
}

// An exclusive job: it holds every core of its node, is held off nodes
// with jobs, and its reservation moves by the repair.
func TestScheduleExclusive(t *testing.T) {
	excl := func(r Request) Request { r.Exclusive = true; return r }
	jobs := []Job{
		job(1, 0, 10, 10, tasks(1)),       // n0 core 0
		job(2, 0, 10, 10, excl(tasks(1))), // n0 runs a job: n1, all 4 cores
		job(3, 0, 5, 5, tasks(1)),         // n1 is held whole: n0 core 1
		// Head: n0 runs jobs, n1 is held whole. Candidate times 5 (job 3),
		// 10: over [5, 10) n0 still runs job 1, n1 is held whole; at 10
		// n0 is free: reservation n0 (exclusive) over [10, 15).
		job(4, 0, 5, 5, excl(tasks(1))),
		// Over [0, 5): n0 has 2 cores free, the reservation does not
		// overlap: n0 core 2.
		job(5, 0, 5, 5, tasks(1)),
		// Over [0, 20): the exclusive reservation holds n0 whole, n1 is
		// held whole. Repair: tentative n0 (core 3); the reservation at
		// [10, 15) again: n0 now has a job, n1 is free (job 2 ends at 10):
		// n1. The job starts now.
		job(6, 0, 20, 20, tasks(1)),
	}
	// At 5 jobs 3 and 5 end; job 4 over [5, 10): n0 runs jobs 1 and 6, n1
	// is held whole: reserved at 10 on n1 (n0 runs job 6 until 20). At 10
	// jobs 1 and 2 end: job 4 starts on n1, every core.
	wantSched(t, gpuNodes(0), jobs, SchedEASY, []Start{
		at(1, 0, on(0, 1, c(0), 0, nil)),
		at(2, 0, on(1, 1, c(0, 1, 2, 3), 0, nil)),
		at(3, 0, on(0, 1, c(1), 0, nil)),
		at(4, 10, on(1, 1, c(0, 1, 2, 3), 0, nil)),
		at(5, 0, on(0, 1, c(2), 0, nil)),
		at(6, 0, on(0, 1, c(3), 0, nil)),
	})
}

// A 2-node job: shares and block distribution on counts.
func TestScheduleTwoNodes(t *testing.T) {
	jobs := []Job{
		job(1, 0, 10, 10, onNodes(3, 1)), // n0 cores 0-2
		// 4 tasks on exactly 2 nodes: n0 has 1 core free, below its share
		// ceil(4/2) = 2: skipped; n1 takes 3 (one left for a second node),
		// and no node is left: it does not fit. Reservation at 10 over
		// [10, 20): n0 takes 3, n1 the last one.
		job(2, 0, 10, 10, onNodes(4, 2)),
		// Over [0, 5): n0 has 1 core, n1 4 (the reservation starts at 10):
		// n1 cores 0-1.
		job(3, 0, 5, 5, onNodes(2, 1)),
		// Over [0, 20): n0's peak 3, n1's 2 (job 3, then 1 reserved): 1 and
		// 2 free. Repair: without the reservation n1 still has only 2: no.
		job(4, 0, 20, 20, onNodes(3, 1)),
	}
	// At 5 job 3 ends. The head over [5, 15) does not fit (n0 has 1 core
	// until 10); reserved at 10 as before. Job 4 over [5, 25): n1's peak
	// is 1 (the reservation): 3 free: n1 cores 0-2. At 10 job 1 ends: the
	// head over [10, 20): n0 takes 3 tasks (cores 0-2), n1 the last on its
	// free core 3.
	wantSched(t, gpuNodes(0), jobs, SchedEASY, []Start{
		at(1, 0, on(0, 3, c(0, 1, 2), 0, nil)),
		at(2, 10, on(0, 3, c(0, 1, 2), 0, nil), on(1, 1, c(3), 0, nil)),
		at(3, 0, on(1, 2, c(0, 1), 0, nil)),
		at(4, 5, on(1, 3, c(0, 1, 2), 0, nil)),
	})
}

// FCFS strict ends the pass at the head; first fit goes on.
func TestScheduleFCFSStops(t *testing.T) {
	jobs := []Job{
		job(1, 0, 10, 10, onNodes(4, 1)), // n0
		job(2, 0, 10, 10, tasks(8)),      // needs both nodes: waits
		job(3, 0, 1, 1, tasks(1)),        // n1 is free
	}
	// FCFS: job 3 waits behind job 2; at 10 job 2 takes n0 and n1 (4 + 4
	// tasks) until 20, then job 3 on n0 core 0.
	wantSched(t, gpuNodes(0), jobs, SchedFCFS, []Start{
		at(1, 0, on(0, 4, c(0, 1, 2, 3), 0, nil)),
		at(2, 10, on(0, 4, c(0, 1, 2, 3), 0, nil), on(1, 4, c(0, 1, 2, 3), 0, nil)),
		at(3, 20, on(0, 1, c(0), 0, nil)),
	})
	// First fit: job 3 starts at 0 on n1 core 0 and ends at 1; job 2
	// starts at 10.
	wantSched(t, gpuNodes(0), jobs, SchedFirstFit, []Start{
		at(1, 0, on(0, 4, c(0, 1, 2, 3), 0, nil)),
		at(2, 10, on(0, 4, c(0, 1, 2, 3), 0, nil), on(1, 4, c(0, 1, 2, 3), 0, nil)),
		at(3, 0, on(1, 1, c(0), 0, nil)),
	})
}

// SJF orders the queue by estimate: the short job gets the reservation.
func TestScheduleSJF(t *testing.T) {
	jobs := []Job{
		job(1, 0, 10, 10, tasks(8)), // the whole platform until 10
		job(2, 1, 30, 30, tasks(8)),
		job(3, 1, 5, 5, tasks(8)),
	}
	// At 1, sjf: job 3 (estimate 5) before job 2 (30); FCFS strict: job 3
	// starts at 10, job 2 at 15.
	p := SchedFCFS
	p.Order = BySJF
	got := Schedule(gpuNodes(0), jobs, p)
	if got[1].Time != 15 || got[2].Time != 10 {
		t.Errorf("sjf: jobs 2, 3 at %v, %v; want 15, 10", got[1].Time, got[2].Time)
	}
	got = Schedule(gpuNodes(0), jobs, SchedFCFS)
	if got[1].Time != 10 || got[2].Time != 40 {
		t.Errorf("fcfs: jobs 2, 3 at %v, %v; want 10, 40", got[1].Time, got[2].Time)
	}
}

// Zero estimates: a hold of span(t, 0) covers its instant. Job 1 takes
// the platform at 0 and ends at 0; job 2, over [0, span(0, 0)), does not
// fit beside it in the pass where job 1 starts; job 1's end at 0 comes
// as an event of its own, and the pass after it starts job 2 at 0.
func TestScheduleZeroEstimate(t *testing.T) {
	if got := span(3, 0); !(got > 3) || got != math.Nextafter(3, math.Inf(1)) {
		t.Fatalf("span(3, 0) = %v", got)
	}
	if span(3, 2) != 5 {
		t.Fatalf("span(3, 2) = %v", span(3, 2))
	}
	jobs := []Job{job(1, 0, 0, 0, tasks(8)), job(2, 0, 0, 0, tasks(8))}
	for _, p := range []Sched{SchedFCFS, SchedEASY, SchedConservative} {
		got := Schedule(gpuNodes(0), jobs, p)
		if got[0].Time != 0 || got[1].Time != 0 || len(got[1].Uses) != 2 {
			t.Errorf("%v: %s, %s", p, show(got[0]), show(got[1]))
		}
	}
	// With estimate 0 but a busy platform: the two zero-length holds of
	// one instant cannot share a core.
	f := freeOver(gpuNodes(0), []chold{{from: 0, to: span(0, 0), amts: []amount{{node: 0, cores: 4}}}}, 0, span(0, 0))
	if f[0].freeCores() != 0 || f[1].freeCores() != 4 {
		t.Errorf("free cores over [0, 0+): %d, %d", f[0].freeCores(), f[1].freeCores())
	}
}

// The peak over an interval samples the hold boundaries inside it: two
// holds that do not overlap each other count once each.
func TestFreeOverPeak(t *testing.T) {
	nodes := gpuNodes(8000)
	a := chold{from: 0, to: 10, amts: []amount{{node: 0, cores: 2, mem: 3000, units: map[string]int{"gpu": 1}}}}
	b := chold{from: 10, to: 20, amts: []amount{{node: 0, cores: 3, mem: 2000, units: map[string]int{"gpu": 2}}}}
	d := chold{from: 5, to: 15, amts: []amount{{node: 0, cores: 1, mem: 4000}}}
	// Over [0, 20): at 0 a (2 cores, 3000); at 5 a + d (3, 7000, 1 GPU);
	// at 10 b + d (4, 6000, 2 GPUs); at 15 b (3, 2000).
	f := freeOver(nodes, []chold{a, b, d}, 0, 20)[0]
	free := 0
	for _, h := range f.unit["gpu"] {
		if !h {
			free++
		}
	}
	if f.freeCores() != 0 || f.memHeld != 7000 || free != 0 || !f.busy || f.whole {
		t.Errorf("over [0, 20): %d cores free, %d MB held, %d GPUs free, busy %v whole %v", f.freeCores(), f.memHeld, free, f.busy, f.whole)
	}
	// Over [15, 20): only b.
	f = freeOver(nodes, []chold{a, b, d}, 15, 20)[0]
	if f.freeCores() != 1 || f.memHeld != 2000 {
		t.Errorf("over [15, 20): %d cores free, %d MB held", f.freeCores(), f.memHeld)
	}
	// Over [20, 30): nothing; n1 never anything.
	if f := freeOver(nodes, []chold{a, b, d}, 20, 30); f[0].busy || f[0].freeCores() != 4 || f[1].busy {
		t.Errorf("over [20, 30): %+v", f)
	}
}
