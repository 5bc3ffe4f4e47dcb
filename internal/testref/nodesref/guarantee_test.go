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
