package cli

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// An imported sacct export with ReqTRES/AllocTRES (typed GPUs), NNodes
// and Constraints runs on a GPU cluster under EASY and conservative, and
// every start is the one worked out by hand from the allocation rule
// (docs/nodes.md): nodes in (weight, id) order, block distribution
// leaving a task for each node still needed, GRES per job from the
// chosen nodes in order, lowest free ids.
//
//   - 200 (t=0): 2 nodes exactly, 16 tasks, 4096 MB a node, gpus=gpu:4,
//     a100&ib: gpu1 takes 15 tasks (16 - the one left for gpu2) and its
//     4 a100; gpu2 1 task: cores 0-14 and 16.
//   - 201 (t=60): 1-3 nodes, 24 tasks, 1000 MB a CPU, gpus=gpu:v100:2:
//     only v1, v2 have a v100; v1 holds all 24 tasks: cores 32-55.
//   - 202 (t=120): 2 nodes, 8 tasks, gpu:a100:2 and nvme:1 a job,
//     (ib|opa)&amd: only gpu1, gpu2 match and gpu1's a100 are all held by
//     200, so it waits, reserved at 200's estimated end (7200); at 3600 200
//     ends and 202 takes gpu1 (7 tasks, a100 0-1, nvme 0) and gpu2 (1).
//   - 203 (t=180): 1 node, 4 tasks, 2048 MB: gpu1 has one core free, so
//     gpu2, cores 17-20; it ends (780 by its estimate) before 202's
//     reservation, so it backfills under both policies.
func TestSacctGPUClusterRuns(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "..", "workload", "slurm", "testdata", "requests.txt")
	tab := filepath.Join(dir, "r.jobs")
	run(t, 0, "trace", "import", src, "--from", "sacct", "--out", tab, "--procs", "64")
	want := map[string]string{
		"200": "0,0-14 16,gpu[1-2],gpu:a100=0-3",
		"201": "60,32-55,v1,gpu:v100=0-1",
		"202": "3600,0-6 16,gpu[1-2],gpu:a100=0-1;nvme=0",
		"203": "180,17-20,gpu2,",
	}
	// On a node of 64 cores, 1 GB and nothing else, no job fits (GPUs,
	// features; 203's 2 GB): the run says so.
	if _, stderr := run(t, 1, "run", "--trace", tab, "--policy", "easy", "--no-out", "--nodes", "n1:cores=64:mem=1G"); !strings.Contains(stderr, "4 fit no node of the platform (1 nodes, 64 cores, 64 CPUs, 1024 MB) even with every node free") {
		t.Errorf("no job fits: %s", stderr)
	}
	for _, pol := range []string{"easy", "conservative"} {
		out := filepath.Join(dir, pol)
		_, stderr := run(t, 0, "run", "--trace", tab, "--policy", pol, "--check", "--out", out,
			"--nodes", "gpu[1-2]:cores=16:mem=64G:gres=gpu:a100=4,nvme=1:features=a100,ib,amd",
			"--nodes", "v[1-2]:cores=32:mem=128G:gres=gpu:v100=2",
			"--nodes", "cpu[1-4]:cores=16:mem=64G")
		if strings.Contains(stderr, "ignores") {
			t.Errorf("%s: the pool's notice on a run on nodes: %s", pol, stderr)
		}
		b, err := os.ReadFile(filepath.Join(out, "jobs.csv"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		head := strings.Split(lines[0], ",")
		col := map[string]int{}
		for i, h := range head {
			col[h] = i
		}
		got := map[string]string{}
		for _, l := range lines[1:] {
			f := strings.Split(l, ",")
			got[f[col["job_id"]]] = strings.Join([]string{f[col["starting_time"]], f[col["allocated_resources"]], f[col["allocated_nodes"]], f[col["allocated_gres"]]}, ",")
		}
		for id, w := range want {
			if got[id] != w {
				t.Errorf("%s: job %s started %q, want %q", pol, id, got[id], w)
			}
		}
		sum, err := os.ReadFile(filepath.Join(out, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		// 202 waits 3,480 s while gpu2's four a100 are idle: 3.87 GPU-hours.
		for _, w := range []string{`"idle_gpu_hours_while_gpu_jobs_wait": 3.866666666666`, `"gpu_jobs_mean_wait": 1160`, `"nodes": "8 nodes, 160 cores, 160 CPUs, 655360 MB, 8 gpu:a100, 4 gpu:v100, 2 nvme"`} {
			if !strings.Contains(string(sum), w) {
				t.Errorf("%s: summary.json lacks %s:\n%s", pol, w, sum)
			}
		}
	}
}

// --power on nodes is watts per node, linear in the node's load (its
// cores held over its cores): the GPU cluster run above, worked by hand
// with 100 W idle and 300 W computing a node (200 W above idle):
// 203 holds 4 of gpu2's 16 cores for 60 s: 0.25 x 200 x 60 = 3,000 J;
// 201 24 of v1's 32 for 1,800 s: 270,000 J; 200 15 of gpu1's 16 cores and
// 1 of gpu2's, 15/16 + 1/16 = 1 node for 3,600 s: 720,000 J; 202 (7 + 1)/16
// for 600 s: 60,000 J. The machine: 8 nodes x 100 W x 4,200 s + the jobs'
// 1,053,000 J = 4,413,000 J.
func TestPowerPerNode(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "..", "workload", "slurm", "testdata", "requests.txt")
	tab := filepath.Join(dir, "r.jobs")
	run(t, 0, "trace", "import", src, "--from", "sacct", "--out", tab, "--procs", "64")
	out := filepath.Join(dir, "out")
	stdout, _ := run(t, 0, "run", "--trace", tab, "--policy", "easy", "--out", out, "--power", "100:300",
		"--nodes", "gpu[1-2]:cores=16:mem=64G:gres=gpu:a100=4,nvme=1:features=a100,ib,amd",
		"--nodes", "v[1-2]:cores=32:mem=128G:gres=gpu:v100=2",
		"--nodes", "cpu[1-4]:cores=16:mem=64G")
	if !strings.Contains(stdout, "300 W computing a node, linear in its load") {
		t.Errorf("summary line: %s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], ",") {
		col[h] = i
	}
	want := map[string]string{"203": "3000", "201": "270000", "200": "720000", "202": "60000"}
	for _, l := range lines[1:] {
		f := strings.Split(l, ",")
		if id := f[col["job_id"]]; f[col["consumed_energy"]] != want[id] {
			t.Errorf("job %s: consumed_energy %s, want %s", id, f[col["consumed_energy"]], want[id])
		}
	}
	sum, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`"total_j": 4413000`, `"nodes": 8,`, `"peak_w": 1200`} {
		if !strings.Contains(string(sum), w) {
			t.Errorf("summary.json lacks %s", w)
		}
	}
}

// --slurm-conf FILE --slurm-nodes runs on the file's nodes (NodeName
// lines) and partitions (PartitionName lines). site.conf's partition all
// shares every node with batch and gpu: it is kept (overlapping
// partitions), its keys not modelled said; its gpu partition is routed
// by name, which KTH's header (no Partition lines) cannot do: exit 2,
// naming it.
func TestSlurmConfNodes(t *testing.T) {
	conf := filepath.Join("..", "..", "..", "platform", "slurmconf", "testdata", "site.conf")
	_, stderr := run(t, 2, "run", "--trace", "KTH-SP2-1996-2.1-cln.swf.gz", "--policy", "easy", "--slurm-conf", conf, "--slurm-nodes")
	if strings.Contains(stderr, "left out") {
		t.Errorf("a partition left out:\n%s", stderr)
	}
	for _, w := range []string{"partition all (", "not on nodes: ",
		"partition gpu (", "not on nodes: AllowQos=normal,high (names; a trace's are numbers), TRESBillingWeights",
		`--partition "gpu:nodes=gpu[01-10]:maxtime=86400:tier=2": the trace's header names no partitions`} {
		if !strings.Contains(stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr)
		}
	}
	run(t, 2, "run", "--trace", "KTH-SP2-1996-2.1-cln.swf.gz", "--slurm-conf", conf, "--slurm-nodes", "--nodes", "n1:cores=1")
}

// A slurm.conf of two partitions on nodes (testdata/nodeparts), worked
// by hand. cpu1 cores 0-3 and cpu2 4-7 weigh 10, cpu3 8-11 and cpu4
// 12-15 weigh 1, gpu1 16-19 and gpu2 20-23 weigh 5. batch is cpu[1-4]
// (the default, MaxTime 1 h), gpu is gpu[1-2] (MaxTime 30 min, PriorityTier
// 2: listed first; disjoint partitions, so the order changes no start).
//
//	1 batch t=0 4 procs, 100 s: cpu3, the first of the lightest nodes.
//	2 gpu   t=0 4 procs: gpu1.
//	3 batch t=1 12 procs, 50 s: cpu4, then cpu1 and cpu2 (weight 10).
//	4 (none: the default batch) t=2 4 procs: batch is full; waits
//	  until 3 ends at 51, while gpu2 is idle; then cpu4.
//	5 batch t=3 requests 7200 s > MaxTime: refused at submission.
//	6 gpu   t=4 2 procs: gpu2 (gpu1 is full), cores 20-21.
func TestSlurmConfNodePartitions(t *testing.T) {
	dir := filepath.Join("testdata", "nodeparts")
	out := filepath.Join(t.TempDir(), "out")
	stdout, stderr := run(t, 0, "run", "--trace", filepath.Join(dir, "parts.swf"), "--policy", "easy", "--slurm-conf", filepath.Join(dir, "slurm.conf"), "--slurm-nodes", "--check", "--out", out)
	if !strings.Contains(stderr, "partitions served by PriorityTier, highest first, not in the file's order: gpu (PriorityTier=2), batch (PriorityTier=0)") {
		t.Errorf("stderr: %s", stderr)
	}
	if !strings.Contains(stdout, "partitions: gpu (nodes gpu[1-2]) 2 jobs; batch (nodes cpu[1-4]) 3 jobs; 1 job(s) refused at submission (0 of no partition given, 1 above maxtime") ||
		!strings.Contains(stdout, "partitions kept: every job on nodes of its partition") {
		t.Errorf("stdout: %s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	col := map[string]int{}
	for i, h := range strings.Split(lines[0], ",") {
		col[h] = i
	}
	got := map[string]string{}
	for _, l := range lines[1:] {
		l = strings.ReplaceAll(l, `"cpu[1-2,4]"`, "cpu[1-2;4]") // the one quoted hostlist
		f := strings.Split(l, ",")
		got[f[col["job_id"]]] = f[col["starting_time"]] + " " + f[col["allocated_resources"]] + " " + f[col["allocated_nodes"]]
	}
	want := map[string]string{"1": "0 8-11 cpu3", "2": "0 16-19 gpu1", "3": "1 0-7 12-15 cpu[1-2;4]", "4": "51 12-15 cpu4", "6": "4 20-21 gpu2"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("jobs.csv: %v\nwant %v", got, want)
	}
}

// --slurm-conf FILE --slurm-nodes --policy slurm takes the policy's
// options from the file: on the eleven jobs of docs/slurm.md ("Slurm's
// backfill against EASY") with bf_interval=1,bf_resolution=1 the starts
// are those worked out by hand in policy/backfill's TestSlurmDocsWorkload
// (job 6 at 80 with job 5, job 11 at 157); a --set beats the file
// (bf_interval 30: job 3 is backfilled at the pass 30 s after the one
// at 2, at 32); sched/builtin runs the main scheduler alone (job 3 after
// job 2, at 50). What the policy leaves out is said on stderr.
func TestSlurmConfPolicy(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.swf")
	js := [][4]int{ // submit, CPUs, limit, run
		{0, 3, 180, 40}, {2, 4, 60, 10}, {4, 1, 120, 20},
		{60, 2, 180, 20}, {61, 3, 60, 10}, {63, 1, 240, 20},
		{110, 2, 60, 27}, {111, 1, 180, 30}, {112, 4, 60, 10}, {113, 3, 60, 10}, {115, 1, 120, 15},
	}
	var b strings.Builder
	b.WriteString("; MaxProcs: 4\n")
	for i, j := range js {
		fmt.Fprintf(&b, "%d %d -1 %d %d -1 -1 %d %d -1 1 1 1 -1 -1 -1 -1 -1\n", i+1, j[0], j[3], j[1], j[1], j[2])
	}
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	conf := func(lines string) string {
		p := filepath.Join(dir, "slurm.conf")
		if err := os.WriteFile(p, []byte("NodeName=n1 CPUs=4\n"+lines), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	starts := func(out string) string {
		f, err := os.Open(filepath.Join(out, "jobs.csv"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		rows, err := csv.NewReader(f).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		col := slices.Index(rows[0], "starting_time")
		s := make([]string, len(js))
		for _, r := range rows[1:] {
			id, err := strconv.Atoi(r[0])
			if err != nil || id < 1 || id > len(js) {
				t.Fatalf("jobs.csv: job %q", r[0])
			}
			s[id-1] = r[0] + "@" + r[col]
		}
		return strings.Join(s, " ")
	}
	c := conf("SchedulerType=sched/backfill\nSchedulerParameters=bf_interval=1,bf_resolution=1,bf_continue\n")
	out := filepath.Join(dir, "a")
	_, stderr := run(t, 0, "run", "--trace", trace, "--policy", "slurm", "--slurm-conf", c, "--slurm-nodes", "--out", out)
	if want := "1@0 2@40 3@4 4@60 5@80 6@80 7@110 8@111 9@147 10@137 11@157"; starts(out) != want {
		t.Errorf("starts %s, want %s", starts(out), want)
	}
	if !strings.Contains(stderr, "policy slurm: SchedulerParameters bf_continue: without effect in a simulation") {
		t.Errorf("stderr %s", stderr)
	}
	out = filepath.Join(dir, "b")
	run(t, 0, "run", "--trace", trace, "--policy", "slurm", "--slurm-conf", c, "--slurm-nodes", "--set", "bf_interval=30", "--out", out)
	if got := strings.Fields(starts(out))[2]; got != "3@32" {
		t.Errorf("bf_interval 30: %s, want 3@32", got)
	}
	c = conf("SchedulerType=sched/builtin\n")
	out = filepath.Join(dir, "c")
	run(t, 0, "run", "--trace", trace, "--policy", "slurm", "--slurm-conf", c, "--slurm-nodes", "--out", out)
	if got := strings.Fields(starts(out))[:3]; strings.Join(got, " ") != "1@0 2@40 3@50" {
		t.Errorf("sched/builtin: %v, want 1@0 2@40 3@50", got)
	}
	// On the pool of CPUs the policy is refused, saying what to give.
	_, stderr = run(t, 1, "run", "--trace", trace, "--policy", "slurm", "--procs", "4", "--no-out")
	if !strings.Contains(stderr, "--slurm-nodes") {
		t.Errorf("on the pool: %s", stderr)
	}
}

// --slurm-qos FILE: the QOS table's limits of the trace's QOS (names
// from its header's Queue lines) hold and refuse jobs as
// policy/backfill's TestSlurmQOSLimitsByHand works out: high has
// MaxJobsPU 1 and MaxWall 30 minutes; job 2 (user 1) waits for job 1
// (user 1) to end at 50 while job 3 (user 2) starts at 2; job 4's limit
// of an hour is refused at submission. What the table leaves out is
// said on stderr; without --policy slurm the flag is refused.
func TestSlurmQOSFile(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.swf")
	if err := os.WriteFile(trace, []byte("; MaxProcs: 4\n; MaxQueues: 2\n; Queue: 1 high\n; Queue: 2 normal\n"+
		"1 0 -1 50 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n2 1 -1 10 1 -1 -1 1 100 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"3 2 -1 10 2 -1 -1 2 100 -1 1 2 1 -1 1 -1 -1 -1\n4 3 -1 10 1 -1 -1 1 3600 -1 1 3 1 -1 1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	qos := filepath.Join(dir, "qos.txt")
	if err := os.WriteFile(qos, []byte("Name|Priority|MaxJobsPU|MaxSubmitPU|MaxWall|MaxTRESPU|GrpTRES|Preempt|PreemptMode\n"+
		"normal|0|||||||cluster\nhigh|10|1||00:30:00|cpu=8,gres/gpu=2||normal|requeue\nextra|0|2|||||\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "o")
	stdout, stderr := run(t, 0, "run", "--trace", trace, "--policy", "slurm", "--nodes", "n1:cores=4", "--set", "bf_interval=1", "--set", "bf_resolution=1", "--slurm-qos", qos, "--out", out)
	if !strings.Contains(stdout, "1 job(s) refused by the policy at submission") {
		t.Errorf("stdout:\n%s", stdout)
	}
	f, err := os.Open(filepath.Join(out, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(rows[0], "starting_time")
	got := map[string]string{}
	for _, r := range rows[1:] {
		got[r[0]] = r[col]
	}
	if want := map[string]string{"1": "0", "2": "50", "3": "2"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("starts %v, want %v", got, want)
	}
	for _, s := range []string{
		"QOS extra: not among the trace's QOS", "Priority: the QOS priorities count under priority/multifactor only"} {
		if !strings.Contains(stderr, s) {
			t.Errorf("stderr lacks %q:\n%s", s, stderr)
		}
	}
	// A malformed table names its file, line and column.
	if err := os.WriteFile(qos, []byte("Name|MaxWall\nhigh|soon\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr = run(t, 1, "run", "--trace", trace, "--policy", "slurm", "--nodes", "n1:cores=4", "--slurm-qos", qos, "--no-out")
	if !strings.Contains(stderr, "qos.txt:2: MaxWall") {
		t.Errorf("stderr %s", stderr)
	}
}

// --slurm-qos on partitions of nodes (a site's slurm.conf always has
// them): the QOS limits span the partitions and each partition's policy
// refuses at submission what its QOS forbids. Two nodes of 4 cores, a
// partition on each (trace partitions 1 and 2); QOS high (1) of
// MaxJobsPU 1 and MaxWall 30 min. Worked by hand: job 1 (user 1,
// partition 1) starts at 0; job 2 (user 1, partition 2, whose node is
// free) is held by the per-user limit across partitions until job 1
// ends at 50; job 3 (user 2, partition 2) starts at 2; job 4 asks 1 h,
// past MaxWall: refused.
func TestSlurmQOSOnPartitions(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.swf")
	if err := os.WriteFile(trace, []byte("; MaxProcs: 8\n; MaxQueues: 2\n; Queue: 1 high\n; Queue: 2 normal\n"+
		"1 0 -1 50 1 -1 -1 1 100 -1 1 1 1 -1 1 1 -1 -1\n2 1 -1 10 1 -1 -1 1 100 -1 1 1 1 -1 1 2 -1 -1\n"+
		"3 2 -1 10 2 -1 -1 2 100 -1 1 2 1 -1 1 2 -1 -1\n4 3 -1 10 1 -1 -1 1 3600 -1 1 3 1 -1 1 1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	qos := filepath.Join(dir, "qos.txt")
	if err := os.WriteFile(qos, []byte("Name|Priority|MaxJobsPU|MaxSubmitPU|MaxWall|MaxTRESPU|GrpTRES|Preempt|PreemptMode\n"+
		"normal|0|||||||cluster\nhigh|10|1||00:30:00|||||\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "o")
	stdout, _ := run(t, 0, "run", "--trace", trace, "--policy", "slurm", "--nodes", "n[1-2]:cores=4", "--partition", "1:nodes=n1", "--partition", "2:nodes=n2",
		"--set", "bf_interval=1", "--set", "bf_resolution=1", "--slurm-qos", qos, "--out", out)
	if !strings.Contains(stdout, "1 job(s) refused by the policy at submission") {
		t.Errorf("stdout:\n%s", stdout)
	}
	b, err := os.ReadFile(filepath.Join(out, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	start, nodes := slices.Index(rows[0], "starting_time"), slices.Index(rows[0], "allocated_nodes")
	got := map[string]string{}
	for _, r := range rows[1:] {
		got[r[0]] = r[start] + "@" + r[nodes]
	}
	if want := map[string]string{"1": "0@n1", "2": "50@n2", "3": "2@n2"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("starts %v, want %v", got, want)
	}
}

// --set sched_latency=S draws from --seed and --replication (so both
// are accepted with it): the same seed gives the same jobs.csv, another
// replication another; without it --seed is refused as unused.
func TestSlurmLatencySeeded(t *testing.T) {
	dir := t.TempDir()
	base := []string{"run", "--trace", "KTH-SP2-1996-2.1-cln.swf.gz", "--to", "1996-10-08T00:00:00", "--policy", "slurm", "--nodes", "n[1-25]:cores=4", "--set", "sched_latency=2", "--seed", "3"}
	csvOf := func(name string, extra ...string) string {
		out := filepath.Join(dir, name)
		run(t, 0, append(append(slices.Clone(base), extra...), "--out", out)...)
		b, err := os.ReadFile(filepath.Join(out, "jobs.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	a, b, c := csvOf("a"), csvOf("b"), csvOf("c", "--replication", "1")
	if a != b {
		t.Error("the same seed gave two jobs.csv")
	}
	if a == c {
		t.Error("replication 1 gave replication 0's jobs.csv")
	}
	_, stderr := run(t, 2, "run", "--trace", "KTH-SP2-1996-2.1-cln.swf.gz", "--policy", "slurm", "--nodes", "n[1-25]:cores=4", "--seed", "3", "--no-out")
	if !strings.Contains(stderr, "the slurm policy's sched_latency; --policy slurm without them uses no seed") {
		t.Errorf("stderr %s", stderr)
	}
}

// PriorityTier orders the partitions of a slurm.conf (testdata/tiers),
// worked by hand. One node n1 of 4 CPUs in two partitions, batch
// (PriorityTier 1, first in the file) and high (PriorityTier 2); every
// job asks 4 CPUs, runs 10 s (limit 100): job 1 batch at 0, job 2 high
// at 0, job 3 batch at 1, job 4 high at 2. Under --policy slurm:
//
//   - slurm.conf: high passes first. At 0 job 2 starts and job 1 waits;
//     jobs 3 and 4 wait. At 10 (job 2's end) high passes first: job 4
//     starts; at 20 job 1, at 30 job 3. Starts 20, 0, 30, 10: Slurm's,
//     whose one queue puts every job of the higher tier first (job 2,
//     then job 4 when it is submitted, then jobs 1 and 3).
//   - equal.conf, both tiers 1: at each instant the partition whose
//     oldest waiting job is the oldest passes first (Slurm's one queue
//     by priority, the submission order under priority/basic): at 0 job
//     1 (batch, id 1) before job 2; at 10 job 2 (high, submitted at 0)
//     before job 3 (batch, at 1): job 2 starts; at 20 job 3, at 30 job
//     4. Starts 0, 10, 20, 30, as Slurm's. In the file's order (batch
//     always first) they were 0, 20, 10, 30.
func TestSlurmConfPriorityTier(t *testing.T) {
	dir := filepath.Join("testdata", "tiers")
	starts := func(conf string) (string, string) {
		t.Helper()
		out := filepath.Join(t.TempDir(), "out")
		_, stderr := run(t, 0, "run", "--trace", filepath.Join(dir, "tiers.swf"), "--policy", "slurm", "--slurm-conf", filepath.Join(dir, conf), "--slurm-nodes", "--check", "--out", out)
		b, err := os.ReadFile(filepath.Join(out, "jobs.csv"))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		col := map[string]int{}
		for i, h := range strings.Split(lines[0], ",") {
			col[h] = i
		}
		got := map[string]string{}
		for _, l := range lines[1:] {
			f := strings.Split(l, ",")
			got[f[col["job_id"]]] = f[col["starting_time"]]
		}
		return fmt.Sprint(got["1"], " ", got["2"], " ", got["3"], " ", got["4"]), stderr
	}
	got, stderr := starts("slurm.conf")
	if got != "20 0 30 10" {
		t.Errorf("slurm.conf: starts %s, want 20 0 30 10", got)
	}
	if !strings.Contains(stderr, "partitions served by PriorityTier, highest first, not in the file's order: high (PriorityTier=2), batch (PriorityTier=1)") {
		t.Errorf("stderr: %s", stderr)
	}
	got, stderr = starts("equal.conf")
	if got != "0 10 20 30" {
		t.Errorf("equal.conf: starts %s, want 0 10 20 30", got)
	}
	if strings.Contains(stderr, "PriorityTier") {
		t.Errorf("stderr: %s", stderr)
	}
}
