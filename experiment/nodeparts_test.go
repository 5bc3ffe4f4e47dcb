package experiment

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/nodecheck"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/validate"
)

// The four nodes of testdata/nodeparts.swf: cpu1 cores 0-3, cpu2 4-7,
// gpu1 8-11, gpu2 12-15.
var fourNodes = []string{"cpu[1-2]:cores=4", "gpu[1-2]:cores=4:gres=gpu=2"}

// testdata/nodeparts.swf through a run: partitions named by the
// header (1 cpu, 2 gpu), each of two nodes, under EASY. Worked by hand
// (runtime = request; an SWF job of P processors is P tasks of one CPU
// on as few nodes as fit):
//
//	1 cpu t=0 8 procs 100 s: cpu1 and cpu2, [0, 100).
//	4 gpu t=0 4 procs 50 s: gpu1, [0, 50).
//	2 cpu t=1 4 procs: its two nodes are busy; waits although gpu2 is
//	  idle; reserved at 100, on cpu1 (0-3).
//	3 cpu t=2 2 procs: ends after 100 either way; at 100 beside 2 on
//	  cpu2 (4-5).
//	5 gpu t=3 6 procs 40 s: gpu2 is free (4 cores) but 6 need gpu1 too:
//	  reserved at 50, on gpu1 (8-11) and gpu2 (12-13), [50, 90).
//	6 gpu t=4 12 procs: more than its partition's 8 cores: refused at
//	  submission (jobs_rejected_maxcpus), though the platform has 16.
func TestNodePartitionsRun(t *testing.T) {
	out := t.TempDir()
	spec := RunSpec{Workload: WorkloadSpec{Trace: "testdata/nodeparts.swf"},
		Platform: PlatformSpec{Nodes: fourNodes, Partitions: []string{"cpu:nodes=cpu[1-2]", "gpu:nodes=gpu[1-2]"}},
		Policy:   PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: out, Check: true}}
	res, err := spec.Run()
	if err != nil {
		t.Fatal(err)
	}
	got := csvColumns(t, filepath.Join(out, "jobs.csv"), "job_id", "starting_time", "allocated_resources", "allocated_nodes", "partition")
	want := "4 0 8-11 gpu1 2\n5 50 8-13 gpu[1-2] 2\n1 0 0-7 cpu[1-2] 1\n3 100 4-5 cpu2 1\n2 100 0-3 cpu1 1\n"
	if got != want {
		t.Errorf("jobs.csv:\n%s\nwant\n%s", got, want)
	}
	p := res.Run.Partitions
	if p == nil || len(p.List) != 2 || p.RejectedMaxCPUs != 1 || p.Rejected != 1 {
		t.Fatalf("partitions %+v", p)
	}
	if a, b := p.List[0], p.List[1]; a.Nodes != "cpu[1-2]" || a.CPUs != "0-7" || a.Jobs != 3 || b.Nodes != "gpu[1-2]" || b.CPUs != "8-15" || b.Jobs != 2 {
		t.Errorf("partitions %+v %+v", a, b)
	}
}

// csvColumns is the named columns of a CSV file, a line a row, split
// on commas outside quotes and joined by spaces (quotes dropped).
func csvColumns(t *testing.T, path string, cols ...string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	split := func(line string) []string {
		var out []string
		var cur strings.Builder
		quoted := false
		for _, c := range line {
			switch {
			case c == '"':
				quoted = !quoted
			case c == ',' && !quoted:
				out = append(out, cur.String())
				cur.Reset()
			default:
				cur.WriteRune(c)
			}
		}
		return append(out, cur.String())
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	head := split(lines[0])
	var idx []int
	for _, c := range cols {
		k := -1
		for i, h := range head {
			if h == c {
				k = i
			}
		}
		if k < 0 {
			t.Fatalf("%s: no column %s", path, c)
		}
		idx = append(idx, k)
	}
	var b strings.Builder
	for _, l := range lines[1:] {
		f := split(l)
		var row []string
		for _, k := range idx {
			row = append(row, f[k])
		}
		b.WriteString(strings.Join(row, " ") + "\n")
	}
	return b.String()
}

// One partition of every node, the default (KTH names no partition),
// gives jobs.csv byte for byte as the run without partitions, under
// EASY and conservative, planned by counts and on nodes.
func TestNodePartitionOfAllNodesIsTheRun(t *testing.T) {
	first := int64(3000)
	if testing.Short() {
		first = 800
	}
	for _, planner := range []string{PlannerCounts, PlannerNodes} {
		for _, pol := range []string{"easy", "conservative"} {
			var csv [2][]byte
			for k, parts := range [][]string{nil, {"all:nodes=n[01-25]:default"}} {
				out := t.TempDir()
				spec := RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", First: first},
					Platform: PlatformSpec{Nodes: []string{"n[01-25]:cores=4"}, Partitions: parts},
					Policy:   PolicySpec{Name: pol, NodePlanner: planner}, Outputs: OutputSpec{Dir: out, Check: true}}
				if _, err := spec.Run(); err != nil {
					t.Fatalf("%s %s %v: %v", planner, pol, parts, err)
				}
				var err error
				if csv[k], err = os.ReadFile(filepath.Join(out, "jobs.csv")); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(csv[0], csv[1]) || len(csv[0]) < 1000 {
				t.Errorf("%s planner, %s: one partition of every node changes jobs.csv (%d and %d bytes)", planner, pol, len(csv[0]), len(csv[1]))
			}
		}
	}
}

// --check on nodes with partitions refuses a job held on a node of
// another partition (planted in what the run recorded).
func TestNodeCheckRefusesAJobOutsideItsPartition(t *testing.T) {
	ns, err := ParseNodes(fourNodes)
	if err != nil {
		t.Fatal(err)
	}
	r := nodes.Request{Tasks: 1, CPUsPerTask: 1}
	on := func(node, core int) *nodes.Allocation {
		return &nodes.Allocation{Nodes: []nodes.NodeAlloc{{Node: node, Tasks: 1, Cores: []int{core}}}}
	}
	c := &nodeCheck{ns: ns, submitted: 2}
	c.recs = []validate.NodeRec{nodecheck.Rec(ns, 1, 0, 10, r, on(0, 0)), nodecheck.Rec(ns, 2, 0, 10, r, on(2, 8))}
	c.recs[0].Allowed, c.recs[1].Allowed = []int{0, 1}, []int{2, 3}
	if err := c.check(); err != nil {
		t.Fatalf("a valid schedule refused: %v", err)
	}
	c.recs[1].Allowed = []int{0, 1} // job 2 said to be of partition cpu
	if err := c.check(); err == nil || !strings.Contains(err.Error(), "job 2: holds node gpu1, not a node of its partition") {
		t.Errorf("a job outside its partition: %v", err)
	}
}

// Each malformed partition on nodes is refused before the run, naming
// --partition, its text and what is wrong.
func TestNodePartitionErrors(t *testing.T) {
	for _, c := range []struct {
		nodes []string
		parts []string
		want  string
	}{
		{fourNodes, []string{"cpu:0-7"}, `--partition "cpu:0-7": on a platform of nodes a partition is a set of nodes: want NAME:nodes=HOSTLIST`},
		{fourNodes, []string{"cpu:nodes=cpu[1-3]"}, `--partition "cpu:nodes=cpu[1-3]": node cpu3 is not on the platform (cpu[1-2],gpu[1-2])`},
		{fourNodes, []string{"cpu:nodes="}, `--partition "cpu:nodes=": nodes: an empty set of nodes`},
		{fourNodes, []string{"cpu:nodes=cpu[1-2"}, `--partition "cpu:nodes=cpu[1-2": nodes: "cpu[1-2":`},
		{fourNodes, []string{"cpu:nodes=cpu[1-2]:maxcpus=x"}, `--partition "cpu:nodes=cpu[1-2]:maxcpus=x": maxcpus "x": want a positive integer`},
		{fourNodes, []string{"cpu:nodes=cpu[1-2]", "cpu:nodes=gpu[1-2]"}, `--partition "cpu:nodes=gpu[1-2]": partition cpu is given twice`},
		{fourNodes, []string{"1:nodes=cpu[1-2]", "cpu:nodes=gpu[1-2]"}, `partitions 1 and cpu both take the trace's partition 1`},
		{fourNodes, []string{"cpu:nodes=cpu[1-2]:default", "gpu:nodes=gpu[1-2]:default"}, `partitions cpu and gpu are both the default`},
		{nil, []string{"cpu:nodes=cpu[1-2]"}, `--partition "cpu:nodes=cpu[1-2]": a partition of nodes (nodes=HOSTLIST) needs a platform of nodes`},
	} {
		spec := RunSpec{Workload: WorkloadSpec{Trace: "testdata/nodeparts.swf"}, Platform: PlatformSpec{Nodes: c.nodes, Partitions: c.parts}, Policy: PolicySpec{Name: "easy"}}
		_, err := spec.Run()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.parts, err, c.want)
		}
	}
}

// A scenario with platform.nodes and platform.partitions runs, and
// computes what schedlab run computes with the same --nodes and
// --partition (testdata/nodeparts.swf, TestNodePartitionsRun's hand-worked
// run: mean wait (0 + 47 + 0 + 98 + 99) / 5 = 48.8 s).
func TestScenarioNodePartitionsMatchRun(t *testing.T) {
	src := `model: cluster
stop: trace
workload: {trace: testdata/nodeparts.swf}
platform:
  nodes: ["cpu[1-2]:cores=4", "gpu[1-2]:cores=4:gres=gpu=2"]
  partitions: ["cpu:nodes=cpu[1-2]", "gpu:nodes=gpu[1-2]"]
policy: {queue: easy}
`
	pts, err := scenario.Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got, err := RunReplication(pts[0].Scenario, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	want, err := (RunSpec{Workload: WorkloadSpec{Trace: "testdata/nodeparts.swf"},
		Platform: PlatformSpec{Nodes: fourNodes, Partitions: []string{"cpu:nodes=cpu[1-2]", "gpu:nodes=gpu[1-2]"}}, Policy: PolicySpec{Name: "easy"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	sameMetrics(t, got, want.Result)
	if want.Result.MeanWait != 48.8 {
		t.Errorf("mean wait %v, want 48.8", want.Result.MeanWait)
	}
}

// A job table (testdata/nodeparts.jobs) routes by its partition column,
// named by its header's "# Partition: N name" lines, with its requests:
// job 1 (cpu, 2 nodes, 8 tasks) fills cpu[1-2] from 0 to 100; job 2
// (cpu) waits for it until 100 while gpu2 is idle; job 4 (gpu, 1 node,
// 2 GPUs) takes gpu1 and its GPUs 0-1; job 7 (gpu, 1 GPU a node) gpu2
// and its first GPU, unit 2.
func TestNodePartitionsJobTable(t *testing.T) {
	out := t.TempDir()
	spec := RunSpec{Workload: WorkloadSpec{Trace: "testdata/nodeparts.jobs"},
		Platform: PlatformSpec{Nodes: fourNodes, Partitions: []string{"cpu:nodes=cpu[1-2]", "gpu:nodes=gpu[1-2]"}},
		Policy:   PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: out, Check: true}}
	if _, err := spec.Run(); err != nil {
		t.Fatal(err)
	}
	got := csvColumns(t, filepath.Join(out, "jobs.csv"), "job_id", "starting_time", "allocated_nodes", "allocated_gres", "partition")
	if want := "7 2 gpu2 gpu=2 2\n4 0 gpu1 gpu=0-1 2\n1 0 cpu[1-2]  1\n2 100 cpu1  1\n"; got != want {
		t.Errorf("jobs.csv:\n%s\nwant\n%s", got, want)
	}
}

// testdata/nodeparts.swf through a run with overlapping partitions:
// cpu = cpu[1-2],gpu1 (first in the configuration) and gpu = gpu[1-2]
// share gpu1 (cores 8-11), under EASY, with --check. Worked by hand
// (runtime = request):
//
//	1 cpu t=0 8 procs 100 s: cpu1 and cpu2 (0-7), [0, 100).
//	4 gpu t=0 4 procs 50 s: gpu1 (8-11), [0, 50): its partition passes
//	  after cpu's at the instant.
//	2 cpu t=1 4 procs 10 s: cpu's nodes are all busy (gpu1 by job 4,
//	  of gpu, which cpu's policy sees as a foreign job until 50):
//	  reserved at 50 on gpu1.
//	3 cpu t=2 2 procs 5 s: waits (EASY: one reservation).
//	5 gpu t=3 6 procs 40 s: gpu's reservation at 50, on gpu1 and gpu2
//	  (gpu's policy does not see cpu's reservation).
//	6 gpu t=4 12 procs: more than gpu's 8 cores: refused at submission.
//	t=50: job 4 ends; cpu passes first: job 2 on gpu1 (8-11), [50, 60);
//	  job 3 then reserved at 60. gpu: job 5 needs 6 cores, gpu2 has 4
//	  free: reserved at 60.
//	t=60: job 2 ends; cpu first: job 3 on gpu1 (8-9), [60, 65); gpu:
//	  job 5 on gpu1's 10-11 and gpu2's 12-15, [60, 100).
//
// Without the overlap (TestNodePartitionsRun) job 5 starts at 50 and
// job 2 at 100: the shared gpu1 serves cpu's queue at 50. Both node
// planners give it: on nodes (backfill.NodePolicy's foreign jobs) and
// by counts (policy/counts passing the foreign jobs' cores to the pool
// policy's policy.ForeignLoad).
func TestOverlappingNodePartitionsRun(t *testing.T) {
	for _, planner := range []string{PlannerNodes, PlannerCounts} {
		t.Run(planner, func(t *testing.T) { overlappingNodePartitionsRun(t, planner) })
	}
}

func overlappingNodePartitionsRun(t *testing.T, planner string) {
	out := t.TempDir()
	spec := RunSpec{Workload: WorkloadSpec{Trace: "testdata/nodeparts.swf"},
		Platform: PlatformSpec{Nodes: fourNodes, Partitions: []string{"cpu:nodes=cpu[1-2],gpu1", "gpu:nodes=gpu[1-2]"}},
		Policy:   PolicySpec{Name: "easy", NodePlanner: planner}, Outputs: OutputSpec{Dir: out, Check: true}}
	res, err := spec.Run()
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Run.NodePlanner; got != planner {
		t.Errorf("planned %q, want %q", got, planner)
	}
	got := csvColumns(t, filepath.Join(out, "jobs.csv"), "job_id", "starting_time", "allocated_resources", "allocated_nodes", "partition")
	want := "4 0 8-11 gpu1 2\n2 50 8-11 gpu1 1\n3 60 8-9 gpu1 1\n1 0 0-7 cpu[1-2] 1\n5 60 10-15 gpu[1-2] 2\n"
	if got != want {
		t.Errorf("jobs.csv:\n%s\nwant\n%s", got, want)
	}
	p := res.Run.Partitions
	if p == nil || len(p.List) != 2 || p.RejectedMaxCPUs != 1 {
		t.Fatalf("partitions %+v", p)
	}
	if a, b := p.List[0], p.List[1]; a.Nodes != "cpu[1-2],gpu1" || a.CPUs != "0-11" || a.Jobs != 3 || b.Nodes != "gpu[1-2]" || b.CPUs != "8-15" || b.Jobs != 2 {
		t.Errorf("partitions %+v %+v", a, b)
	}
}

// --check with overlapping partitions: node capacity is checked over
// the jobs of every partition at once, and each job against its own
// partition's nodes. Partition all = every node, gpu = gpu[1-2]; job 1
// (all) and job 2 (gpu) on gpu1 on distinct cores pass; on the same
// core they are refused (two partitions holding one core); job 2 on
// cpu1, outside gpu, is refused.
func TestNodeCheckOverlappingPartitions(t *testing.T) {
	ns, err := ParseNodes(fourNodes)
	if err != nil {
		t.Fatal(err)
	}
	r := nodes.Request{Tasks: 1, CPUsPerTask: 1}
	on := func(node, core int) *nodes.Allocation {
		return &nodes.Allocation{Nodes: []nodes.NodeAlloc{{Node: node, Tasks: 1, Cores: []int{core}}}}
	}
	mk := func(a1, a2 *nodes.Allocation) *nodeCheck {
		c := &nodeCheck{ns: ns, submitted: 2}
		c.recs = []validate.NodeRec{nodecheck.Rec(ns, 1, 0, 10, r, a1), nodecheck.Rec(ns, 2, 5, 10, r, a2)}
		c.recs[0].Allowed, c.recs[1].Allowed = []int{0, 1, 2, 3}, []int{2, 3}
		return c
	}
	if err := mk(on(2, 8), on(2, 9)).check(); err != nil {
		t.Fatalf("a valid schedule refused: %v", err)
	}
	if err := mk(on(2, 8), on(2, 8)).check(); err == nil || !strings.Contains(err.Error(), "job 2: starts at 5 on node gpu1 core 0, held by job 1") {
		t.Errorf("two partitions on one core: %v", err)
	}
	if err := mk(on(2, 8), on(0, 0)).check(); err == nil || !strings.Contains(err.Error(), "job 2: holds node cpu1, not a node of its partition") {
		t.Errorf("a job outside its partition: %v", err)
	}
}

// testdata/nodeparts.swf with partitions cpu = cpu[1-2] and gpu =
// gpu[1-2] under EASY and a reservation of gpu1 over [10, 60), through
// --check. Worked by hand (runtime = request):
//
//	1 cpu t=0 8 procs 100 s: cpu1 and cpu2 (0-7), [0, 100).
//	4 gpu t=0 4 procs 50 s: gpu1 would run into its window at 10:
//	  gpu2 (12-15), [0, 50).
//	2 cpu t=1 4 procs, 3 cpu t=2 2 procs: at 100, cpu1 (0-3) and cpu2
//	  (4-5): the window is not cpu's.
//	5 gpu t=3 6 procs 40 s: needs both gpu nodes; gpu1 is reserved until
//	  60: reserved at 60, gpu1 (8-11) and gpu2 (12-13), [60, 100).
//	6 gpu t=4 12 procs: refused (maxcpus).
func TestNodePartitionsReservationRun(t *testing.T) {
	out := t.TempDir()
	spec := RunSpec{Workload: WorkloadSpec{Trace: "testdata/nodeparts.swf"},
		Platform: PlatformSpec{Nodes: fourNodes, Partitions: []string{"cpu:nodes=cpu[1-2]", "gpu:nodes=gpu[1-2]"}, Avail: AvailSpec{Reservations: []string{"10:60:gpu1"}}},
		Policy:   PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: out, Check: true}}
	if _, err := spec.Run(); err != nil {
		t.Fatal(err)
	}
	got := csvColumns(t, filepath.Join(out, "jobs.csv"), "job_id", "starting_time", "allocated_resources", "allocated_nodes", "partition")
	want := "4 0 12-15 gpu2 2\n1 0 0-7 cpu[1-2] 1\n5 60 8-13 gpu[1-2] 2\n3 100 4-5 cpu2 1\n2 100 0-3 cpu1 1\n"
	if got != want {
		t.Errorf("jobs.csv:\n%s\nwant\n%s", got, want)
	}
}
