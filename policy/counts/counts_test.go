package counts

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/workload"
)

// started is one job's start as a run reports it.
type started struct {
	at     float64
	reason job.StartReason
	cores  []int // on nodes: the global core ids it holds
}

type recorder struct {
	engine.NopListener
	got map[job.ID]started
}

func (r *recorder) JobStarted(now float64, s engine.Start) {
	var cores []int
	if s.Alloc != nil {
		for _, na := range s.Alloc.Nodes {
			cores = append(cores, na.Cores...)
		}
	}
	r.got[s.Job.ID] = started{now, s.Reason, cores}
}

// checked wraps a Scheduler and checks, at every pass, that the cores it
// counts free are the view's, summed over the nodes.
type checked struct {
	*Scheduler
	t      testing.TB
	passes int
}

func (c *checked) Schedule(now float64, v policy.NodeView, plan *policy.Plan) {
	sum := 0
	for id := range v.Nodes().Len() {
		sum += v.FreeCores(id)
	}
	if sum != c.Free() {
		c.t.Fatalf("t=%g: %d cores free on the nodes, the scheduler counts %d", now, sum, c.Free())
	}
	c.passes++
	c.Scheduler.Schedule(now, v, plan)
}

func onNodes(t testing.TB, ns *nodes.Nodes, pool policy.QueueScheduler, jobs []actual.Job) (map[job.ID]started, error) {
	t.Helper()
	s, err := New(pool, ns)
	if err != nil {
		t.Fatal(err)
	}
	return runNodes(t, ns, &checked{Scheduler: s, t: t}, jobs)
}

func runNodes(t testing.TB, ns *nodes.Nodes, pol policy.NodeScheduler, jobs []actual.Job) (map[job.ID]started, error) {
	t.Helper()
	rec := &recorder{got: map[job.ID]started{}}
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: pol, Source: workload.FromSlice(slices.Clone(jobs)), Listener: rec})
	if err != nil {
		t.Fatal(err)
	}
	return rec.got, c.Run()
}

func onPool(t testing.TB, cpus int, pool policy.QueueScheduler, jobs []actual.Job) map[job.ID]started {
	t.Helper()
	p, err := platform.Cluster(cpus)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{got: map[job.ID]started{}}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: p, Policy: pool, Source: workload.FromSlice(slices.Clone(jobs)), Listener: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return rec.got
}

// EASY by counts on 2 nodes of 2 cores (n1: cores 0-1, n2: 2-3), each
// job's runtime its estimate:
//
//	job  submit  tasks  estimate
//	1    0       3      10
//	2    1       2      5
//	3    2       1      4
//	4    3       1      20   (a request of 1 task; its Procs, 8, are not what it asks)
//
// t=0: job 1 starts, the rule gives it n1 (0, 1) and n2 (2); 1 core free.
// t=1: job 2 needs 2: it is the head, reserved at 10 (job 1's end).
// t=2: job 3 ends at 6 <= 10: backfilled on the free core, 3.
// t=3: job 4 asks 1 core, none is free: it waits.
// t=6: job 3 ends; job 4 would end at 26 > 10, but at 10 the 4 cores
// less job 2's 2 leave 2 (the extra processors): backfilled, core 3.
// t=10: job 1 ends; job 2 starts on n1 (0, 1), the first fit.
// The pool of 4 CPUs (job 4 of 1 CPU there) starts every job at the same
// time for the same reason.
func TestEASYByCountsHandWorked(t *testing.T) {
	ns := nodestest.Must(t, "n[1-2]:cores=2")
	jobs := []actual.Job{
		{ID: 1, Submit: 0, Procs: 3, Runtime: 10, Estimate: 10, Request: -1},
		{ID: 2, Submit: 1, Procs: 2, Runtime: 5, Estimate: 5, Request: -1},
		{ID: 3, Submit: 2, Procs: 1, Runtime: 4, Estimate: 4, Request: -1},
		{ID: 4, Submit: 3, Procs: 8, Runtime: 20, Estimate: 20, Request: -1, Req: &nodes.Request{Tasks: 1, CPUsPerTask: 1}},
	}
	got, err := onNodes(t, ns, backfill.NewBackfill("easy", 4, 1, backfill.OrderFCFS), jobs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[job.ID]struct {
		at    float64
		cores []int
	}{1: {0, []int{0, 1, 2}}, 2: {10, []int{0, 1}}, 3: {2, []int{3}}, 4: {6, []int{3}}}
	for id, w := range want {
		if g := got[id]; g.at != w.at || !slices.Equal(g.cores, w.cores) {
			t.Errorf("job %d: starts at %g on cores %v, want %g on %v", id, g.at, g.cores, w.at, w.cores)
		}
	}
	pool := jobs[:3:3]
	pool = append(pool, jobs[3])
	pool[3].Procs, pool[3].Req = 1, nil
	for id, p := range onPool(t, 4, backfill.NewBackfill("easy", 4, 1, backfill.OrderFCFS), pool) {
		if g := got[id]; g.at != p.at || g.reason != p.reason {
			t.Errorf("job %d: starts at %g (%v) on nodes, %g (%v) on the pool", id, g.at, g.reason, p.at, p.reason)
		}
	}
}

// On random node shapes (threads too: a task of one CPU holds a core)
// and random jobs of cores alone, every pool policy by counts starts
// every job at the time and for the reason of the pool of the
// platform's cores, and the free cores it counts are the nodes'
// (checked).
func TestByCountsIsThePool(t *testing.T) {
	shapes := []string{"n[1-4]:cores=3", "a[1-2]:cores=4:threads=2", "n[1-7]:cores=1", "x[1-3]:cores=2:sockets=2:mem=8G:gres=gpu=2"}
	type mk func(cpus int) policy.QueueScheduler
	pols := map[string]mk{
		"fcfs":     func(int) policy.QueueScheduler { return backfill.NewFCFS() },
		"firstfit": func(int) policy.QueueScheduler { return backfill.NewFirstFit(backfill.OrderFCFS) },
		"easy":     func(c int) policy.QueueScheduler { return backfill.NewBackfill("easy", c, 1, backfill.OrderFCFS) },
		"easy-sjf": func(c int) policy.QueueScheduler { return backfill.NewBackfill("easy", c, 1, backfill.OrderSJF) },
		"conservative": func(c int) policy.QueueScheduler {
			return backfill.NewBackfill("conservative", c, backfill.Unlimited, backfill.OrderFCFS)
		},
		"backfill-2": func(c int) policy.QueueScheduler { return backfill.NewBackfill("backfill-2", c, 2, backfill.OrderFCFS) },
	}
	for seed := range 20 {
		ns := nodestest.Must(t, shapes[seed%len(shapes)])
		cpus := ns.Cores()
		r := rand.New(rand.NewPCG(uint64(seed), 40))
		var jobs []actual.Job
		at := 0.0
		for i := range 60 {
			at += float64(r.IntN(8))
			est := float64(1 + r.IntN(50))
			run := est
			if r.IntN(3) == 0 {
				run = float64(1 + r.IntN(int(est)))
			}
			jobs = append(jobs, actual.Job{ID: job.ID(i + 1), Submit: at, Procs: 1 + r.IntN(cpus), Runtime: run, Estimate: est, Request: -1})
		}
		for name, mk := range pols {
			got, err := onNodes(t, ns, mk(cpus), jobs)
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, name, err)
			}
			want := onPool(t, cpus, mk(cpus), jobs)
			if len(got) != len(want) {
				t.Fatalf("seed %d %s: %d jobs started on nodes, %d on the pool", seed, name, len(got), len(want))
			}
			for id, w := range want {
				if g := got[id]; g.at != w.at || g.reason != w.reason {
					t.Errorf("seed %d %s on %s: job %d starts at %g (%v), on the pool at %g (%v)", seed, name, ns, id, g.at, g.reason, w.at, w.reason)
				}
			}
		}
	}
}

// A job that asks for more than cores stops the run with an error
// naming it: the pool's plan would not hold for it.
func TestByCountsRefusesMoreThanCores(t *testing.T) {
	ns := nodestest.Must(t, "n[1-2]:cores=2:gres=gpu=1")
	jobs := []actual.Job{
		{ID: 1, Submit: 0, Procs: 1, Runtime: 10, Estimate: 10, Request: -1},
		{ID: 7, Submit: 1, Procs: 1, Runtime: 10, Estimate: 10, Request: -1,
			Req: &nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []nodes.GRES{{Name: "gpu", Count: 1}}}},
	}
	_, err := onNodes(t, ns, backfill.NewBackfill("easy", 4, 1, backfill.OrderFCFS), jobs)
	if err == nil || !strings.Contains(err.Error(), "job 7 asks for more than cores") {
		t.Fatalf("err = %v, want job 7 refused", err)
	}
}

// Overlapping partitions of nodes planned by counts: A holds every
// node, B the nodes from a random one on (they share those); random
// jobs of cores alone go to either. At every pass of each partition the
// cores its scheduler counts free are those its view shows free, other
// partitions' jobs on its nodes taken out (checked: what OccupyNodes
// and ReleaseNodes keep); every job starts, on its partition's cores,
// and the model (which checks each start against the platform's state)
// runs the workload through, under fcfs, firstfit, easy and
// conservative.
func TestByCountsOverlappingPartitions(t *testing.T) {
	shapes := []string{"n[1-4]:cores=3", "a[1-2]:cores=4:threads=2", "n[1-7]:cores=1", "x[1-3]:cores=2:sockets=2:mem=8G:gres=gpu=2"}
	pols := map[string]func(cpus int) policy.QueueScheduler{
		"fcfs":     func(int) policy.QueueScheduler { return backfill.NewFCFS() },
		"firstfit": func(int) policy.QueueScheduler { return backfill.NewFirstFit(backfill.OrderFCFS) },
		"easy":     func(c int) policy.QueueScheduler { return backfill.NewBackfill("easy", c, 1, backfill.OrderFCFS) },
		"conservative": func(c int) policy.QueueScheduler {
			return backfill.NewBackfill("conservative", c, backfill.Unlimited, backfill.OrderFCFS)
		},
	}
	for seed := range 20 {
		ns := nodestest.Must(t, shapes[seed%len(shapes)])
		r := rand.New(rand.NewPCG(uint64(seed), 43))
		all := make([]int, ns.Len())
		for i := range all {
			all[i] = i
		}
		sets := [][]int{all, all[r.IntN(ns.Len()):]}
		var cores [2]int
		var allowed [2]map[int]bool
		for k, ids := range sets {
			allowed[k] = map[int]bool{}
			for _, id := range ids {
				nd := ns.Node(id)
				cores[k] += nd.Cores()
				for c := nd.FirstCore; c < nd.FirstCore+nd.Cores(); c++ {
					allowed[k][c] = true
				}
			}
		}
		var jobs []actual.Job
		at := 0.0
		for i := range 60 {
			at += float64(r.IntN(6))
			est := float64(1 + r.IntN(50))
			run := est
			if r.IntN(3) == 0 {
				run = float64(1 + r.IntN(int(est)))
			}
			k := r.IntN(2)
			jobs = append(jobs, actual.Job{ID: job.ID(i + 1), Submit: at, Procs: 1 + r.IntN(cores[k]), Runtime: run, Estimate: est, Request: -1, Partition: int32(k)})
		}
		for name, mk := range pols {
			var ps []engine.NodePartition
			var wrapped []*checked
			for k, ids := range sets {
				sub, err := engine.PartitionNodes(ns, ids)
				if err != nil {
					t.Fatal(err)
				}
				s, err := New(mk(sub.Cores()), sub)
				if err != nil {
					t.Fatal(err)
				}
				c := &checked{Scheduler: s, t: t}
				wrapped = append(wrapped, c)
				ps = append(ps, engine.NodePartition{Name: string(rune('A' + k)), Nodes: ids, Numbers: []int32{int32(k)}, Policy: c})
			}
			rec := &recorder{got: map[job.ID]started{}}
			c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Partitions: ps, Source: workload.FromSlice(slices.Clone(jobs)), Listener: rec})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Run(); err != nil {
				t.Fatalf("seed %d %s: %v", seed, name, err)
			}
			if len(rec.got) != len(jobs) {
				t.Fatalf("seed %d %s: %d of %d jobs started", seed, name, len(rec.got), len(jobs))
			}
			for _, j := range jobs {
				for _, core := range rec.got[j.ID].cores {
					if !allowed[j.Partition][core] {
						t.Fatalf("seed %d %s: job %d of partition %d holds core %d, not of its partition", seed, name, j.ID, j.Partition, core)
					}
				}
			}
			if wrapped[0].passes == 0 || wrapped[1].passes == 0 {
				t.Fatalf("seed %d %s: a partition never passed", seed, name)
			}
		}
	}
}
