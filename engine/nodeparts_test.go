package engine_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/nodecheck"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
)

// nodePolicy builds the node policy name (fcfs, easy, conservative)
// for ns.
func nodePolicy(t testing.TB, name string, ns *nodes.Nodes) policy.NodeScheduler {
	t.Helper()
	c := backfill.NodeConfig{Name: name, Nodes: ns, Order: backfill.OrderFCFS}
	switch name {
	case "fcfs":
		c.Strict = true
	case "easy":
		c.Depth = 1
	case "conservative":
		c.Depth = backfill.Unlimited
	default:
		t.Fatalf("policy %s", name)
	}
	p, err := backfill.NewNodePolicy(c)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// npart is a partition of the nodes named by hostlist, under policy pol,
// taking the trace's partition numbers nums.
func npart(t testing.TB, ns *nodes.Nodes, name, hostlist, pol string, nums ...int32) engine.NodePartition {
	t.Helper()
	names, err := nodes.Expand(hostlist)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int
	for _, n := range names {
		id, ok := ns.Lookup(n)
		if !ok {
			t.Fatalf("no node %s", n)
		}
		ids = append(ids, id)
	}
	sub, err := engine.PartitionNodes(ns, ids)
	if err != nil {
		t.Fatal(err)
	}
	return engine.NodePartition{Name: name, Nodes: ids, Numbers: nums, Policy: nodePolicy(t, pol, sub)}
}

func runNodeParts(t testing.TB, ns *nodes.Nodes, ps []engine.NodePartition, jobs []actual.Job) (*nodeLog, error) {
	t.Helper()
	l := newNodeLog(t, ns)
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Partitions: ps, Source: workload.FromSlice(jobs), Listener: l})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run()
	if err == nil && c.Stats().Jobs != int64(len(jobs)) {
		t.Fatalf("%d jobs submitted, want %d", c.Stats().Jobs, len(jobs))
	}
	return l, err
}

// inPart is job j of trace partition num.
func inPart(j actual.Job, num int32) actual.Job {
	j.Partition = num
	return j
}

// Two partitions on four nodes, worked by hand. cpu1 owns cores 0-3,
// cpu2 4-7, gpu1 8-11 and GPUs 0-1, gpu2 12-15 and GPUs 2-3. Partition
// cpu (trace number 1) is cpu[1-2] under strict FCFS; gpu (2) is
// gpu[1-2] under EASY. Runtimes are the estimates.
//
//	J1 cpu t=0 8 tasks, 100 s: cpu1 and cpu2 whole, [0, 100).
//	J4 gpu t=0 4 tasks + 2 GPUs a node, 50 s: gpu1 whole, [0, 50).
//	J2 cpu t=1 4 tasks, 10 s: its partition is full; it waits although
//	   gpu2 is idle (without partitions it would start at 1 on gpu2).
//	J3 cpu t=2 2 tasks, 5 s: strict FCFS keeps it behind J2.
//	J5 gpu t=3 2 nodes, 2 tasks, 1 GPU a node, 40 s: gpu1 is busy until
//	   50: reserved at 50 (its partition's first end; J1's end at 100
//	   is not its partition's).
//	J6 gpu t=4 1 task + 1 GPU, 20 s: ends at 24, before the shadow time:
//	   backfilled on gpu2 (core 12, GPU 2).
//	J7 gpu t=5 2 tasks, 100 s: ends after the shadow time, but at 50
//	   gpu2 still has 2 cores and 2 GPUs beside it for J5: backfilled on
//	   gpu2's free cores 13-14.
//	t=50: J4 ends; J5 starts on gpu1 (core 8, GPU 0) and gpu2 (core 12,
//	   GPU 2, free since J6 ended at 24), [50, 90).
//	t=100: J1 ends; J2 starts on cpu1 (cores 0-3) and J3 on cpu2 (4-5).
func TestNodePartitionsHandWorked(t *testing.T) {
	ns := mustNodes(t, "cpu[1-2]:cores=4", "gpu[1-2]:cores=4:gres=gpu=2")
	ps := []engine.NodePartition{npart(t, ns, "cpu", "cpu[1-2]", "fcfs", 1), npart(t, ns, "gpu", "gpu[1-2]", "easy", 2)}
	tasks := func(n int) nodes.Request { return nodes.Request{Tasks: n, CPUsPerTask: 1} }
	jobs := []actual.Job{
		inPart(nj(1, 0, 100, 100, tasks(8)), 1),
		inPart(nj(4, 0, 50, 50, nodes.Request{Nodes: 1, Tasks: 4, CPUsPerTask: 1, GRESPerNode: gpus(2)}), 2),
		inPart(nj(2, 1, 10, 10, tasks(4)), 1),
		inPart(nj(3, 2, 5, 5, tasks(2)), 1),
		inPart(nj(5, 3, 40, 40, nodes.Request{Nodes: 2, Tasks: 2, CPUsPerTask: 1, GRESPerNode: gpus(1)}), 2),
		inPart(nj(6, 4, 20, 20, nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: gpus(1)}), 2),
		inPart(nj(7, 5, 100, 100, tasks(2)), 2),
	}
	l, err := runNodeParts(t, ns, ps, jobs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[job.ID]struct {
		start  float64
		reason job.StartReason
		alloc  string
	}{
		1: {0, job.Immediate, "cpu1:0-3/t4 cpu2:4-7/t4"},
		4: {0, job.Immediate, "gpu1:8-11/t4/gpu:0 1"},
		6: {4, job.Backfilled, "gpu2:12/gpu:2"},
		7: {5, job.Backfilled, "gpu2:13-14/t2"},
		5: {50, job.Reserved, "gpu1:8/gpu:0 gpu2:12/gpu:2"},
		2: {100, job.Reserved, "cpu1:0-3/t4"},
		3: {100, job.Reserved, "cpu2:4-5/t2"},
	}
	for id, w := range want {
		x := l.runs[id]
		if x == nil {
			t.Fatalf("job %d did not run", id)
		}
		if got := allocText(ns, x.alloc); x.start != w.start || x.reason != w.reason || got != w.alloc {
			t.Errorf("job %d: start %g %v on %s, want %g %v on %s", id, x.start, x.reason, got, w.start, w.reason, w.alloc)
		}
	}
	if err := validate.CheckNodes(nodecheck.Caps(ns), nodeRecs(ns, l)); err != nil {
		t.Fatal(err)
	}
	// Without partitions (EASY over the four nodes) J2 starts at once
	// on the idle gpu2: the partitions made it wait.
	l, err = runNodes(t, ns, nodePolicy(t, "easy", ns), jobs, false)
	if err != nil {
		t.Fatal(err)
	}
	if x := l.runs[2]; x.start != 1 || allocText(ns, x.alloc) != "gpu2:12-15/t4" {
		t.Errorf("without partitions job 2 starts at %g on %s, want 1 on gpu2:12-15/t4", x.start, allocText(ns, x.alloc))
	}
}

// One partition of every node, taking every job, is the run without
// partitions, job for job and core for core, under EASY and
// conservative (and strict FCFS), on random platforms and workloads.
func TestNodePartitionOfAllNodesIsPlain(t *testing.T) {
	runs := 40
	if testing.Short() {
		runs = 10
	}
	for seed := 0; seed < runs; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		ns := randomNodes(t, r)
		jobs := randomNodeJobs(ns, r, 60)
		for i := range jobs {
			jobs[i].Partition = -1
		}
		ids := make([]int, ns.Len())
		for i := range ids {
			ids[i] = i
		}
		for _, pol := range []string{"fcfs", "easy", "conservative"} {
			plain, err := runNodes(t, ns, nodePolicy(t, pol, ns), jobs, false)
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, pol, err)
			}
			sub, err := engine.PartitionNodes(ns, ids)
			if err != nil {
				t.Fatal(err)
			}
			ps := []engine.NodePartition{{Name: "all", Nodes: ids, Default: true, Policy: nodePolicy(t, pol, sub)}}
			parted, err := runNodeParts(t, ns, ps, jobs)
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, pol, err)
			}
			if a, b := runsText(ns, plain), runsText(ns, parted); a != b {
				t.Fatalf("seed %d %s: one partition of every node differs from the plain run:\n%s\n---\n%s", seed, pol, a, b)
			}
		}
	}
}

// Random platforms cut into 2 or 3 partitions of random nodes, random
// workloads routed to them: every run passes the independent checker,
// and every job holds nodes of its own partition only; a job said to be
// of another partition is reported (planted).
func TestNodePartitionsRandomKept(t *testing.T) {
	planted := 0
	for seed := 0; seed < 40; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 12))
		ns := randomNodes(t, r)
		if ns.Len() < 2 {
			continue
		}
		k := min(2+r.IntN(2), ns.Len())
		of := make([]int, ns.Len()) // the partition of each node
		for i := range of {
			of[i] = i % k // every partition has a node when k <= nodes
			if i >= k {
				of[i] = r.IntN(k)
			}
		}
		var ps []engine.NodePartition
		for p := 0; p < k; p++ {
			var ids []int
			for i, o := range of {
				if o == p {
					ids = append(ids, i)
				}
			}
			sub, err := engine.PartitionNodes(ns, ids)
			if err != nil {
				t.Fatal(err)
			}
			pol := []string{"fcfs", "easy", "conservative"}[r.IntN(3)]
			ps = append(ps, engine.NodePartition{Name: string(rune('a' + p)), Nodes: ids, Numbers: []int32{int32(p)}, Policy: nodePolicy(t, pol, sub)})
		}
		// keep the jobs that fit their partition (the runner drops the
		// others before the model)
		var jobs []actual.Job
		for _, j := range randomNodeJobs(ns, r, 80) {
			j.Partition = int32(r.IntN(k))
			sub, _ := engine.PartitionNodes(ns, ps[j.Partition].Nodes)
			q := nodes.FromProcs(j.Procs)
			if j.Req != nil {
				q = *j.Req
			}
			if nodes.Fits(sub, q) {
				jobs = append(jobs, j)
			}
		}
		l, err := runNodeParts(t, ns, ps, jobs)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		recs := nodeRecs(ns, l)
		for i := range recs {
			recs[i].Allowed = ps[l.runs[job.ID(recs[i].ID)].job.Partition].Nodes
		}
		if err := validate.CheckNodes(nodecheck.Caps(ns), recs); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		// Planted: the first job's partition said to be another one.
		if len(recs) == 0 {
			continue
		}
		x := &recs[0]
		other := ps[(l.runs[job.ID(x.ID)].job.Partition+1)%int32(k)]
		x.Allowed = other.Nodes
		err = validate.CheckNodes(nodecheck.Caps(ns), recs)
		if want := "not a node of its partition"; err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("seed %d: a job outside its partition: %v, want %q", seed, err, want)
		}
		planted++
	}
	if planted < 20 {
		t.Fatalf("%d workloads of 40 tested: too few", planted)
	}
}

// blindNodes is a node policy that does not implement
// policy.NodeForeignLoad (only NodeScheduler's methods are promoted).
type blindNodes struct{ policy.NodeScheduler }

// What the model refuses: partitions sharing a node under a policy
// that cannot see foreign jobs (named), two
// partitions taking one number, two defaults, an empty set, a node off
// the platform, a job no partition takes or too large for its
// partition, a start outside its partition.
func TestNodePartitionErrors(t *testing.T) {
	ns := mustNodes(t, "n[1-4]:cores=2")
	mk := func(ps ...engine.NodePartition) error {
		_, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Partitions: ps, Source: workload.FromSlice(nil)})
		return err
	}
	a, b := npart(t, ns, "a", "n[1-2]", "easy", 1), npart(t, ns, "b", "n[2-4]", "easy", 2)
	if err := mk(a, b); err != nil {
		t.Errorf("overlap under easy: %v", err)
	}
	b.Policy = blindNodes{b.Policy} // sees no foreign job
	err := mk(a, b)
	if !errors.Is(err, engine.ErrNoNodeForeignLoad) || !strings.Contains(err.Error(), "partitions a and b share node n2, and policy easy cannot run there") {
		t.Errorf("overlap under a policy without NodeForeignLoad: %v", err)
	}
	b = npart(t, ns, "b", "n[3-4]", "easy", 1)
	if err := mk(a, b); err == nil || !strings.Contains(err.Error(), "partitions a and b both take the trace's partition 1") {
		t.Errorf("one number twice: %v", err)
	}
	a.Default, b.Default, b.Numbers = true, true, []int32{2}
	if err := mk(a, b); err == nil || !strings.Contains(err.Error(), "partitions a and b are both the default") {
		t.Errorf("two defaults: %v", err)
	}
	b.Default = false
	e := b
	e.Nodes = nil
	if err := mk(a, e); err == nil || !strings.Contains(err.Error(), "partition b: no nodes") {
		t.Errorf("empty: %v", err)
	}
	e.Nodes = []int{7}
	if err := mk(a, e); err == nil || !strings.Contains(err.Error(), "partition b: node id 7: the platform has 4 nodes") {
		t.Errorf("off the platform: %v", err)
	}
	if _, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: nodePolicy(t, "easy", ns), Partitions: []engine.NodePartition{a}, Source: workload.FromSlice(nil)}); err == nil {
		t.Error("a policy beside partitions: no error")
	}
	// jobs: partition 3 is none; 5 tasks do not fit b's 4 cores
	run := func(j actual.Job) error {
		a, b := npart(t, ns, "a", "n[1-2]", "easy", 1), npart(t, ns, "b", "n[3-4]", "easy", 2)
		c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Partitions: []engine.NodePartition{a, b}, Source: workload.FromSlice([]actual.Job{j})})
		if err != nil {
			t.Fatal(err)
		}
		return c.Run()
	}
	if err := run(inPart(nj(1, 0, 1, 1, nodes.Request{Tasks: 1, CPUsPerTask: 1}), 3)); err == nil || !strings.Contains(err.Error(), "partition 3 is none of the run's partitions") {
		t.Errorf("no partition: %v", err)
	}
	if err := run(inPart(nj(1, 0, 1, 1, nodes.Request{Tasks: 5, CPUsPerTask: 1}), 2)); err == nil || !strings.Contains(err.Error(), "fits no set of the nodes of partition b") {
		t.Errorf("too large: %v", err)
	}
	// a policy naming a node that is not its partition's: its node 2 is
	// no node of a partition of two nodes
	bad := &scripted{waiting: map[job.ID]bool{}, decide: func(p *policy.Plan) {
		p.Starts = append(p.Starts, policy.Start{ID: 2, Reason: job.Immediate,
			Alloc: &nodes.Allocation{Nodes: []nodes.NodeAlloc{{Node: 2, Tasks: 1, Cores: []int{4}}}}})
	}}
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Partitions: []engine.NodePartition{{Name: "a", Nodes: []int{0, 1}, Default: true, Policy: bad}},
		Source: workload.FromSlice([]actual.Job{inPart(nj(2, 0, 1, 1, nodes.Request{Tasks: 1, CPUsPerTask: 1}), -1)})})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err == nil || !strings.Contains(err.Error(), "policy scripted at t=0: partition a: start job 2: the allocation does not satisfy") {
		t.Errorf("a start off the partition: %v", err)
	}
}

// PartitionNodes keeps each group's attributes and the order of ids.
func TestPartitionNodes(t *testing.T) {
	ns := mustNodes(t, "a[1-3]:cores=2:mem=1G:weight=5", "g[1-2]:cores=4:gres=gpu:a100=2:features=x")
	sub, err := engine.PartitionNodes(ns, []int{4, 0, 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sub.String(), ns.String(); got == want {
		t.Fatalf("sub %s is the platform", got)
	}
	for i, name := range []string{"a1", "a3", "g2"} {
		nd, od := sub.Node(i), ns.Node(map[string]int{"a1": 0, "a3": 2, "g2": 4}[name])
		if nd.Name != name || nd.Cores() != od.Cores() || nd.MemMB != od.MemMB || nd.Weight != od.Weight ||
			strings.Join(nd.Features(), ",") != strings.Join(od.Features(), ",") || len(nd.GRES()) != len(od.GRES()) {
			t.Errorf("node %d: %+v, want as %+v", i, nd, od)
		}
	}
	if _, err := engine.PartitionNodes(ns, []int{1, 1}); err == nil || !strings.Contains(err.Error(), "node a2 given twice") {
		t.Errorf("twice: %v", err)
	}
}

// relText writes an allocation by node name, with each node's cores and
// GRES units counted within the node, so that runs on a partition's
// platform and on the whole platform compare.
func relText(ns *nodes.Nodes, a nodes.Allocation) string {
	var b strings.Builder
	for _, na := range a.Nodes {
		nd := ns.Node(na.Node)
		fmt.Fprintf(&b, "%s/t%d/m%d:", nd.Name, na.Tasks, na.MemMB)
		for _, c := range na.Cores {
			fmt.Fprintf(&b, " %d", c-nd.FirstCore)
		}
		for _, g := range na.GRES {
			first, _ := ns.FirstGRES(na.Node, g.Kind)
			fmt.Fprintf(&b, " %s", g.Kind)
			for _, u := range g.Units {
				fmt.Fprintf(&b, " %d", u-first)
			}
		}
		b.WriteString(";")
	}
	return b.String()
}

// A run over disjoint partitions is, job for job, the runs of each
// partition's jobs alone on a platform of its nodes (the same starts,
// ends, reasons, nodes, and cores and GRES units within each node):
// random platforms, partitions and workloads, under strict FCFS, EASY
// and conservative.
func TestNodePartitionsAreIndependentClusters(t *testing.T) {
	tested := 0
	for seed := 0; seed < 30; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 13))
		ns := randomNodes(t, r)
		if ns.Len() < 2 {
			continue
		}
		k := min(2+r.IntN(2), ns.Len())
		ids := make([][]int, k)
		for i := 0; i < ns.Len(); i++ {
			p := i % k
			if i >= k {
				p = r.IntN(k)
			}
			ids[p] = append(ids[p], i)
		}
		subs := make([]*nodes.Nodes, k)
		for p := range subs {
			var err error
			if subs[p], err = engine.PartitionNodes(ns, ids[p]); err != nil {
				t.Fatal(err)
			}
		}
		var jobs []actual.Job
		per := make([][]actual.Job, k)
		for _, j := range randomNodeJobs(ns, r, 60) {
			j.Partition = int32(r.IntN(k))
			q := nodes.FromProcs(j.Procs)
			if j.Req != nil {
				q = *j.Req
			}
			if nodes.Fits(subs[j.Partition], q) {
				jobs = append(jobs, j)
				per[j.Partition] = append(per[j.Partition], j)
			}
		}
		for _, pol := range []string{"fcfs", "easy", "conservative"} {
			var ps []engine.NodePartition
			for p := range subs {
				ps = append(ps, engine.NodePartition{Name: fmt.Sprint(p), Nodes: ids[p], Numbers: []int32{int32(p)}, Policy: nodePolicy(t, pol, subs[p])})
			}
			whole, err := runNodeParts(t, ns, ps, jobs)
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, pol, err)
			}
			for p := range subs {
				alone, err := runNodes(t, subs[p], nodePolicy(t, pol, subs[p]), per[p], false)
				if err != nil {
					t.Fatalf("seed %d %s partition %d alone: %v", seed, pol, p, err)
				}
				for _, j := range per[p] {
					a, w := alone.runs[j.ID], whole.runs[j.ID]
					at := fmt.Sprintf("%g-%g %v %s", a.start, a.end, a.reason, relText(subs[p], a.alloc))
					wt := fmt.Sprintf("%g-%g %v %s", w.start, w.end, w.reason, relText(ns, w.alloc))
					if at != wt {
						t.Fatalf("seed %d %s job %d: alone %s, among the partitions %s", seed, pol, j.ID, at, wt)
					}
				}
			}
			tested++
		}
	}
	if tested < 60 {
		t.Fatalf("%d runs compared: too few", tested)
	}
}
