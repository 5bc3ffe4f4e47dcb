package nodesref

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestEASYHeadNotDelayed: with exact estimates, EASY's head starts no
// later than the first reservation it gets. This holds on nodes as on a
// pool of CPUs as long as no request asks GRES per job: a backfilled job
// keeps off the reservation's cores, units and memory over its interval,
// and running jobs only end, so at the shadow time first fit in the same
// order meets the same candidates with the same shares, and takes the same
// nodes, the same lowest free ids. (GRES per job break it:
// TestHeadDelayedByPerJobGRES.)
func TestEASYHeadNotDelayed(t *testing.T) {
	checked := 0
	for seed := range 2000 {
		rng := rand.New(rand.NewPCG(uint64(seed), 41))
		nodes, jobs := randomNodes(rng), randomJobs(rng)
		for i := range jobs {
			jobs[i].Runtime = jobs[i].Estimate // exact estimates
			jobs[i].Req.GRESPerJob = nil
		}
		first := map[int]float64{}
		starts := simulate(nodes, jobs, EASY, func(j int, at float64) {
			if _, ok := first[j]; !ok {
				first[j] = at
			}
		})
		for j, at := range first {
			checked++
			if starts[j].Time > at {
				t.Fatalf("seed %d: job %d reserved at %v starts at %v\nnodes %+v\njobs %+v", seed, jobs[j].ID, at, starts[j].Time, nodes, jobs)
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d reservations checked", checked)
	}
}

// TestHeadDelayedByPerJobGRES: on nodes, GRES per job let a backfilled
// job delay a reserved job with exact estimates, under EASY and
// conservative alike. n0 has 2 GPUs,
// n1 1 GPU, 4 cores each.
//
//	id submit run est  request
//	 1   0    10  10   6 tasks on exactly 2 nodes
//	 2   1     5   5   2 tasks on exactly 2 nodes, 2 GPUs per job
//	 3   2   100 100   1 task, 1 GPU per node
//
// t=0: 1 takes n0 cores 0-3 and n1 cores 0-1. t=1: 2 finds n0 full; at 10
// it reserves n0 core 0 with both GPUs (n0 has them all, beyond its GPUs
// per node: none) and n1 core 0 with no GPU: the reservation names no unit
// of n1. t=2: 3 over [2,102): n0 is full, n1 has cores 2-3 and GPU 0
// unreserved: it starts. t=10: 1 ends, but a candidate needs a free unit
// of each GRES per job and n1 has none left: 2 waits until 3 ends at 102.
// Conservative: the same (3's place over [2,102) is beside 2's
// reservation, as in EASY).
func TestHeadDelayedByPerJobGRES(t *testing.T) {
	nodes := gpuNodes(0)
	nodes[1].GRES = map[string]int{"gpu": 1}
	two := Request{Nodes: 2, Tasks: 2, CPUsPerTask: 1, GRESPerJob: []GRESReq{{Name: "gpu", Count: 2}}}
	jobs := []Job{
		job(1, 0, 10, 10, Request{Nodes: 2, Tasks: 6, CPUsPerTask: 1}),
		job(2, 1, 5, 5, two),
		job(3, 2, 100, 100, gpus(tasks(1), 1)),
	}
	want := []Start{
		at(1, 0, on(0, 4, []int{0, 1, 2, 3}, 0, nil), on(1, 2, []int{0, 1}, 0, nil)),
		at(2, 102, on(0, 1, []int{0}, 0, gpu(0, 1)), on(1, 1, []int{0}, 0, nil)),
		at(3, 2, on(1, 1, []int{2}, 0, gpu(0))),
	}
	for _, p := range []Policy{EASY, Conservative} {
		var reserved []float64
		got := simulate(nodes, jobs, p, func(j int, at float64) {
			if j == 1 {
				reserved = append(reserved, at)
			}
		})
		if len(reserved) == 0 || reserved[0] != 10 {
			t.Fatalf("%v: job 2's reservations %v, want 10 first", p, reserved)
		}
		for i := range want {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("%v: job %d: got %s, want %s", p, want[i].ID, show(got[i]), show(want[i]))
			}
		}
	}
}

// TestReservationTakesTheCoresFreeNow: one node of 4 cores. The
// reservation takes the lowest free ids at the shadow time, which may be
// the cores free now, so a long job that the CPU pool's EASY would
// backfill on its extra processors waits on nodes.
//
//	id submit run est  request
//	 1   0     5   5   2 tasks
//	 2   0    10  10   2 tasks
//	 3   6     5   5   3 tasks (the head)
//	 4   6   100 100   1 task
//
// t=0: 1 on cores 0-1, 2 on cores 2-3. t=5: 1 ends. t=6: 3 does not fit
// (2 cores free); at 10 all 4 are free over [10,15): the reservation takes
// cores 0-2, among them both cores free now. 4 over [6,106): core 3 is
// held by 2, cores 0-2 by the reservation: it waits (the pool's EASY
// counts 4 - 3 = 1 extra processor at the shadow time and 2 free now, and
// would start it at 6). t=10: 3 takes cores 0-2, 4 core 3.
func TestReservationTakesTheCoresFreeNow(t *testing.T) {
	nodes := []Node{{Name: "c", Cores: 4, ThreadsPerCore: 1}}
	jobs := []Job{
		job(1, 0, 5, 5, tasks(2)),
		job(2, 0, 10, 10, tasks(2)),
		job(3, 6, 5, 5, tasks(3)),
		job(4, 6, 100, 100, tasks(1)),
	}
	want := []Start{
		at(1, 0, on(0, 2, []int{0, 1}, 0, nil)),
		at(2, 0, on(0, 2, []int{2, 3}, 0, nil)),
		at(3, 10, on(0, 3, []int{0, 1, 2}, 0, nil)),
		at(4, 10, on(0, 1, []int{3}, 0, nil)),
	}
	wantSchedule(t, nodes, jobs, EASY, want)
	wantSchedule(t, nodes, jobs, Conservative, want)
}
