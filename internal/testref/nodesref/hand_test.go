package nodesref

import (
	"fmt"
	"reflect"
	"testing"
)

// gpuNodes is the platform of the hand-worked cases: n0 and n1, each of 4
// cores (1 thread), memMB of memory and 2 untyped GPUs; n1 has the
// feature "big".
func gpuNodes(memMB int64) []Node {
	return []Node{
		{Name: "n0", Cores: 4, ThreadsPerCore: 1, MemMB: memMB, GRES: map[string]int{"gpu": 2}, Weight: 1},
		{Name: "n1", Cores: 4, ThreadsPerCore: 1, MemMB: memMB, GRES: map[string]int{"gpu": 2}, Features: []string{"big"}, Weight: 1},
	}
}

// tasks is a request of n tasks of one CPU.
func tasks(n int) Request { return Request{Tasks: n, CPUsPerTask: 1} }

// gpus adds c GPUs per node.
func gpus(r Request, c int) Request {
	r.GRESPerNode = []GRESReq{{Name: "gpu", Count: c}}
	return r
}

func job(id int64, submit, runtime, estimate float64, r Request) Job {
	return Job{ID: id, Submit: submit, Runtime: runtime, Estimate: estimate, Req: r}
}

// on is one NodeUse; gres is "kind", units..., or nil.
func on(node, ntasks int, cores []int, mem int64, gres map[string][]int) NodeUse {
	return NodeUse{Node: node, Tasks: ntasks, Cores: cores, MemMB: mem, GRES: gres}
}

func at(id int64, t float64, uses ...NodeUse) Start { return Start{ID: id, Time: t, Uses: uses} }

func gpu(units ...int) map[string][]int { return map[string][]int{"gpu": units} }

func wantSchedule(t *testing.T, nodes []Node, jobs []Job, p Policy, want []Start) {
	t.Helper()
	got := Simulate(nodes, jobs, p)
	if len(got) != len(want) {
		t.Fatalf("%v: %d starts, want %d", p, len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Errorf("%v: job %d:\n got %s\nwant %s", p, want[i].ID, show(got[i]), show(want[i]))
		}
	}
}

func show(s Start) string {
	if s.Never {
		return fmt.Sprintf("never (%+v)", s)
	}
	return fmt.Sprintf("t=%v %+v", s.Time, s.Uses)
}

// TestGPUJobWaitsCPUJobBackfills: 2 nodes x 4 cores x 2 GPUs.
//
//	id submit run est  request
//	 1   0    10  10   1 task, 1 GPU per node
//	 2   0    10  10   1 task, 2 GPUs per node
//	 3   1     5   5   1 task, 2 GPUs per node (the blocked head)
//	 4   2    20  20   2 tasks
//	 5   3    20  20   1 task, 1 GPU (ends after the shadow time)
//	 6   3     5   5   1 task, 1 GPU (ends before it)
//
// t=0: 1 on n0 core 0, gpu 0; 2 does not fit n0 (1 GPU free): n1 core 0,
// gpus 0-1. t=1: 3 needs 2 GPUs on one node: none now; candidate times 1,
// 10 (ends of 1 and 2): at 10 over [10,15) n0 is free: reservation n0
// core 0, gpus 0-1 (the shadow time is 10). t=2: 4 over [2,22): n0 cores
// 1-3 are free beside 1 and the reservation (core 0): 4 takes n0 cores
// 1-2 and starts, past the shadow time, on the reserved node. t=3: 5 over
// [3,23): n0's free gpu 1 is reserved from 10, n1's are held: waits. 6
// over [3,8): n0 gpu 1 is free until 10 and core 3 is free: starts. t=8:
// 6 ends; nothing starts (3 still needs gpu 0). t=10: 1 and 2 end: 3
// starts on its reservation; 5 takes n1 core 0, gpu 0.
//
// FCFS: 3 blocks the queue until 10; then 3 (n0 core 0, gpus 0-1), 4 (n0
// cores 1-2), 5 (n1 core 0, gpu 0), 6 (n0 has no GPU left: n1 core 1,
// gpu 1) all start at 10. Conservative gives the EASY schedule: 5's
// reservation at 10 is on n1 (n0's GPUs are reserved for 3 over
// [10,15)), which leaves 6 its place over [3,8).
func TestGPUJobWaitsCPUJobBackfills(t *testing.T) {
	nodes := gpuNodes(0)
	jobs := []Job{
		job(1, 0, 10, 10, gpus(tasks(1), 1)),
		job(2, 0, 10, 10, gpus(tasks(1), 2)),
		job(3, 1, 5, 5, gpus(tasks(1), 2)),
		job(4, 2, 20, 20, tasks(2)),
		job(5, 3, 20, 20, gpus(tasks(1), 1)),
		job(6, 3, 5, 5, gpus(tasks(1), 1)),
	}
	easy := []Start{
		at(1, 0, on(0, 1, []int{0}, 0, gpu(0))),
		at(2, 0, on(1, 1, []int{0}, 0, gpu(0, 1))),
		at(3, 10, on(0, 1, []int{0}, 0, gpu(0, 1))),
		at(4, 2, on(0, 2, []int{1, 2}, 0, nil)),
		at(5, 10, on(1, 1, []int{0}, 0, gpu(0))),
		at(6, 3, on(0, 1, []int{3}, 0, gpu(1))),
	}
	wantSchedule(t, nodes, jobs, EASY, easy)
	wantSchedule(t, nodes, jobs, Conservative, easy)
	wantSchedule(t, nodes, jobs, FCFS, []Start{
		easy[0], easy[1], easy[2],
		at(4, 10, on(0, 2, []int{1, 2}, 0, nil)),
		at(5, 10, on(1, 1, []int{0}, 0, gpu(0))),
		at(6, 10, on(1, 1, []int{1}, 0, gpu(1))),
	})
}

// TestExclusive: the same nodes with 16000 MB each.
//
//	id submit run est  request
//	 1   0    10  10   1 task
//	 2   1    10  10   1 task, exclusive
//	 3   2     5   5   1 task
//	 4   3     5   5   1 task, exclusive
//	 5   4    20  20   1 task
//	 6   4     3   3   1 task
//
// t=0: 1 on n0 core 0. t=1: 2 needs a node that runs no job: n1, all its
// cores and memory. t=2: 3: n1 is held whole: n0 core 1. t=3: 4 finds no
// idle node. EASY: candidate times 3, 7 (3's end), 10 (1's), 11 (2's): at
// 7 n0 still runs 1 over [7,12); at 10 n0 is idle over [10,15): 4 reserves
// n0 whole. t=4: 5 over [4,24) overlaps the reservation (n0 held whole)
// and n1 is held whole: waits; 6 over [4,7) ends before the shadow time:
// n0 core 2. t=10: 1 ends, 4 starts on n0; 5 (head) waits for n1. t=11: 2
// ends: 5 on n1 core 0.
//
// FCFS: 4 waits until 10, 5 and 6 behind it; at 10 4 takes n0; n1 is held
// by 2 until 11: at 11 5 takes n1 core 0 and 6 core 1.
func TestExclusive(t *testing.T) {
	nodes := gpuNodes(16000)
	x := tasks(1)
	x.Exclusive = true
	jobs := []Job{
		job(1, 0, 10, 10, tasks(1)),
		job(2, 1, 10, 10, x),
		job(3, 2, 5, 5, tasks(1)),
		job(4, 3, 5, 5, x),
		job(5, 4, 20, 20, tasks(1)),
		job(6, 4, 3, 3, tasks(1)),
	}
	all := []int{0, 1, 2, 3}
	easy := []Start{
		at(1, 0, on(0, 1, []int{0}, 0, nil)),
		at(2, 1, on(1, 1, all, 16000, nil)),
		at(3, 2, on(0, 1, []int{1}, 0, nil)),
		at(4, 10, on(0, 1, all, 16000, nil)),
		at(5, 11, on(1, 1, []int{0}, 0, nil)),
		at(6, 4, on(0, 1, []int{2}, 0, nil)),
	}
	wantSchedule(t, nodes, jobs, EASY, easy)
	wantSchedule(t, nodes, jobs, FCFS, []Start{
		easy[0], easy[1], easy[2], easy[3], easy[4],
		at(6, 11, on(1, 1, []int{1}, 0, nil)),
	})
}

// TestMemory: the same nodes with 8000 MB each; memory per node unless
// said.
//
//	id submit run est  request
//	 1   0    10  10   1 task, 6000 MB
//	 2   1     7   7   1 task, 4000 MB
//	 3   2    10  10   2 tasks on exactly 1 node, 1500 MB per CPU
//	 4   3     5   5   1 task, 2001 MB
//	 5   3   100 100   1 task, 1000 MB
//	 6   3   100 100   1 task, 1000 MB, constraint "big" (n1 only)
//
// t=0: 1 on n0 (2000 MB left). t=1: 2 does not fit n0's memory: n1 (4000
// left). t=2: 3 needs 2 tasks on one node: n0 can take 2000/1500 = 1 task
// (below its share of 2), n1 4000/1500 = 2: n1 cores 1-2, 3000 MB. t=3
// (EASY): 4 fits neither node's memory now (2000, 1000 free); candidate
// times 3, 8 (2's end), 10, 12: at 8 over [8,13) n1 holds 3's 3000 MB: 4
// reserves n1 core 0, 2001 MB. 5 over [3,103): n0 has 2000 MB free: core
// 1. 6 over [3,103) on n1: the memory held is the peak at one instant,
// 7000 MB at 3 (2 and 3) and 5001 MB from 8 (3 and the reservation), not
// their sum 9001: 1000 MB are free, and core 3: starts. t=8: 2 ends: 4
// takes n1 core 0 (3 and 6 hold 4000 MB).
func TestMemory(t *testing.T) {
	nodes := gpuNodes(8000)
	mem := func(r Request, mb int64) Request { r.MemPerNodeMB = mb; return r }
	three := Request{Nodes: 1, Tasks: 2, CPUsPerTask: 1, MemPerCPUMB: 1500}
	big := mem(tasks(1), 1000)
	big.Constraint = "big"
	jobs := []Job{
		job(1, 0, 10, 10, mem(tasks(1), 6000)),
		job(2, 1, 7, 7, mem(tasks(1), 4000)),
		job(3, 2, 10, 10, three),
		job(4, 3, 5, 5, mem(tasks(1), 2001)),
		job(5, 3, 100, 100, mem(tasks(1), 1000)),
		job(6, 3, 100, 100, big),
	}
	wantSchedule(t, nodes, jobs, EASY, []Start{
		at(1, 0, on(0, 1, []int{0}, 6000, nil)),
		at(2, 1, on(1, 1, []int{0}, 4000, nil)),
		at(3, 2, on(1, 2, []int{1, 2}, 3000, nil)),
		at(4, 8, on(1, 1, []int{0}, 2001, nil)),
		at(5, 3, on(0, 1, []int{1}, 1000, nil)),
		at(6, 3, on(1, 1, []int{3}, 1000, nil)),
	})
}

// TestTwoNodes (FCFS): the same nodes without memory.
//
//	id submit run est  request
//	 1   0    10  10   6 tasks on exactly 2 nodes
//	 2   1     5   5   2 tasks, 3 GPUs per job
//	 3   1     5   5   2 tasks on exactly 2 nodes, 3 GPUs per job
//	 4   2     3   3   2 tasks of 2 CPUs on 1 to 2 nodes
//
// 1: n0's share is ceil(6/2) = 3, it takes 4 (leaving one task for the
// second node); n1 takes 2. 2 never fits: on the empty platform n0 takes
// both tasks and has only 2 GPUs (no node is added for GRES alone). 3 at
// t=1: n0 is full; n1 takes 1 task (leaving one for the node still
// needed) and no second node is free: waits. t=10: 3 takes n0 core 0 and
// n1 core 0, GPUs n0 0-1 then n1 0. 4: n0 has 3 free cores, 1 task of 2
// cores, share ceil(2/2) = 1: cores 1-2; n1 the same.
func TestTwoNodes(t *testing.T) {
	nodes := gpuNodes(0)
	six := Request{Nodes: 2, Tasks: 6, CPUsPerTask: 1}
	perJob := func(r Request) Request { r.GRESPerJob = []GRESReq{{Name: "gpu", Count: 3}}; return r }
	jobs := []Job{
		job(1, 0, 10, 10, six),
		job(2, 1, 5, 5, perJob(tasks(2))),
		job(3, 1, 5, 5, perJob(Request{Nodes: 2, Tasks: 2, CPUsPerTask: 1})),
		job(4, 2, 3, 3, Request{Nodes: 1, MaxNodes: 2, Tasks: 2, CPUsPerTask: 2}),
	}
	wantSchedule(t, nodes, jobs, FCFS, []Start{
		at(1, 0, on(0, 4, []int{0, 1, 2, 3}, 0, nil), on(1, 2, []int{0, 1}, 0, nil)),
		{ID: 2, Never: true},
		at(3, 10, on(0, 1, []int{0}, 0, gpu(0, 1)), on(1, 1, []int{0}, 0, gpu(0))),
		at(4, 10, on(0, 1, []int{1, 2}, 0, nil), on(1, 1, []int{1, 2}, 0, nil)),
	})
}

// TestConservativeHand: 2 nodes x 4 cores x 2 GPUs; every reservation is
// recomputed at every pass.
//
//	id submit run est  request
//	 1   0    10  10   4 tasks on 1 node
//	 2   0     4   6   2 tasks, 2 GPUs per node (ends 2 before its estimate)
//	 3   1     5   5   3 tasks
//	 4   1     8   8   1 task, 1 GPU per node
//	 5   2     3   3   2 tasks
//	 6   3     1   1   1 task
//
// t=0: 1 on n0 cores 0-3; 2 on n1 cores 0-1, GPUs 0-1.
// t=1: 3 over [1,6): n1 has 2 cores free, 3 tasks need 3: times 1, 6, 10;
// at 6 n1 is free over [6,11): reservation n1 cores 0-2. 4: no GPU before
// 6; at 6 over [6,14) n1 core 3 and GPU 0 (3 holds cores 0-2).
// t=2: 3 and 4 as at 1; 5 over [2,5) takes n1 cores 2-3 (the reservations
// start at 6): starts.
// t=3: 3 over [3,8) and at 5 over [5,10) (2 holds cores 0-1 until 6): no;
// at 6: n1 cores 0-2 again; 4 at 6 n1 core 3; 6 over [3,4): n0 and n1
// full; at 5 (5's end) over [5,6): n1 cores 2-3 free (2 holds 0-1, the
// reservations start at 6): reservation n1 core 2.
// t=4: 2 ends early. 3: at 4 over [4,9) n1 has cores 0-1 (5 holds 2-3):
// no; at 5 over [5,10): n1 cores 0-2. 4: at 4, 5 n1 is full (5, then 3's
// reservation and 5 until 5); at 5 over [5,13): core 3, GPU 0. 6 over
// [4,5): n1 cores 0-1 are free (3's reservation starts at 5): starts on
// core 0.
// t=5: 5 and 6 end: 3 starts on n1 cores 0-2, 4 on core 3 and GPU 0.
func TestConservativeHand(t *testing.T) {
	nodes := gpuNodes(0)
	jobs := []Job{
		job(1, 0, 10, 10, Request{Nodes: 1, Tasks: 4, CPUsPerTask: 1}),
		job(2, 0, 4, 6, gpus(tasks(2), 2)),
		job(3, 1, 5, 5, tasks(3)),
		job(4, 1, 8, 8, gpus(tasks(1), 1)),
		job(5, 2, 3, 3, tasks(2)),
		job(6, 3, 1, 1, tasks(1)),
	}
	wantSchedule(t, nodes, jobs, Conservative, []Start{
		at(1, 0, on(0, 4, []int{0, 1, 2, 3}, 0, nil)),
		at(2, 0, on(1, 2, []int{0, 1}, 0, gpu(0, 1))),
		at(3, 5, on(1, 3, []int{0, 1, 2}, 0, nil)),
		at(4, 5, on(1, 1, []int{3}, 0, gpu(0))),
		at(5, 2, on(1, 2, []int{2, 3}, 0, nil)),
		at(6, 4, on(1, 1, []int{0}, 0, nil)),
	})
}

// TestZeroRuntime: one node of one core. 1 runs 0 (estimate 5) from 0;
// 2, submitted at 0 after it, does not fit in the pass that starts 1
// (1 holds the core, and under EASY or conservative is planned to until
// 5), but 1 ends at 0, another instant at the same time, whose pass
// starts 2 at 0. 3 (submitted at 0) waits for 2 until 1.
func TestZeroRuntime(t *testing.T) {
	nodes := []Node{{Name: "c", Cores: 1, ThreadsPerCore: 1}}
	jobs := []Job{job(1, 0, 0, 5, tasks(1)), job(2, 0, 1, 1, tasks(1)), job(3, 0, 1, 1, tasks(1))}
	for _, p := range []Policy{FCFS, EASY, Conservative} {
		wantSchedule(t, nodes, jobs, p, []Start{
			at(1, 0, on(0, 1, []int{0}, 0, nil)),
			at(2, 0, on(0, 1, []int{0}, 0, nil)),
			at(3, 1, on(0, 1, []int{0}, 0, nil)),
		})
	}
}

// TestInvalidInputPanics: input outside the documented domain panics.
func TestInvalidInputPanics(t *testing.T) {
	nodes := []Node{{Name: "c", Cores: 1, ThreadsPerCore: 1}}
	bad := map[string]Job{
		"estimate 0":            job(1, 0, 0, 0, tasks(1)),
		"estimate below run":    job(1, 0, 2, 1, tasks(1)),
		"no tasks":              job(1, 0, 1, 1, Request{CPUsPerTask: 1}),
		"more nodes than tasks": job(1, 0, 1, 1, Request{Nodes: 2, Tasks: 1, CPUsPerTask: 1}),
		"max below min":         job(1, 0, 1, 1, Request{Nodes: 2, MaxNodes: 1, Tasks: 2, CPUsPerTask: 1}),
		"memory both ways":      job(1, 0, 1, 1, Request{Tasks: 1, CPUsPerTask: 1, MemPerNodeMB: 1, MemPerCPUMB: 1}),
		"GRES count 0":          job(1, 0, 1, 1, gpus(tasks(1), 0)),
		"mixed constraint":      job(1, 0, 1, 1, Request{Tasks: 1, CPUsPerTask: 1, Constraint: "a|b&c"}),
	}
	for name, j := range bad {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			Simulate(nodes, []Job{j}, FCFS)
		}()
	}
}
