package slurm

import (
	"bytes"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/jobtable"
	"github.com/schedlab/schedlab/workload/swf"
)

// testdata/requests.txt is an export with NNodes, ReqNodes, ReqTRES,
// AllocTRES and Constraints; the records and requests below are worked
// out by hand from it (first submission 2024-03-01T00:00:00 UTC).
//   - 200: 16 CPUs on 2 nodes (NNodes 2, ReqNodes 2: exactly 2), ReqMem
//     4Gn: 4096 MB a node, and in SWF 4,194,304 KB / 8 CPUs a node =
//     524,288 KB a CPU; ReqTRES asks gres/gpu=4 (any type; AllocTRES
//     says it got a100s): gpu:4 a job; constraint a100&ib.
//   - 201: 24 CPUs, ReqNodes 1 but NNodes 3: nodes 1-3; 1000Mc: 1000 MB a
//     CPU (1,024,000 KB in SWF); ReqTRES has no GRES, so AllocTRES's
//     (gres/gpu=2 is the sum of gres/gpu:v100=2): gpu:v100:2; its
//     constraint [rack1|rack2] (Slurm's matching OR) is left out,
//     counted; energy is ignored.
//   - 202: no ReqMem: the ReqTRES mem=16G over its 2 nodes (NNodes 2,
//     ReqTRES node=2), 8192 MB a node (SWF field 10 unknown, -1, as
//     ReqMem is the SWF's source); gres/gpumem=40G is an amount, not a
//     count: gpu:a100:2,nvme:1; a limit of 30 minutes; FAILED: status 0.
//   - 203: 4 CPUs on 1 node; ReqMem 2G (newer sacct's per-node form
//     without a suffix): 2048 MB a node, 524,288 KB a CPU; no TRES.
func TestRequests(t *testing.T) {
	r := read(t, "testdata/requests.txt", Options{})
	recs := []swf.Record{
		{JobNumber: 200, Submit: 0, Wait: 10, Run: 3600, AllocProcs: 16, AvgCPU: -1, UsedMem: -1, ReqProcs: 16, ReqTime: 7200, ReqMem: 524288, Status: 1, User: 1, Group: 1, Exec: -1, Queue: 1, Partition: 1, PrecedingJob: -1, ThinkTime: -1},
		{JobNumber: 201, Submit: 60, Wait: 60, Run: 1800, AllocProcs: 24, AvgCPU: -1, UsedMem: -1, ReqProcs: 24, ReqTime: 3600, ReqMem: 1024000, Status: 1, User: 2, Group: 2, Exec: -1, Queue: 1, Partition: 2, PrecedingJob: -1, ThinkTime: -1},
		{JobNumber: 202, Submit: 120, Wait: 0, Run: 600, AllocProcs: 8, AvgCPU: -1, UsedMem: -1, ReqProcs: 8, ReqTime: 1800, ReqMem: -1, Status: 0, User: 1, Group: 1, Exec: -1, Queue: 2, Partition: 1, PrecedingJob: -1, ThinkTime: -1},
		{JobNumber: 203, Submit: 180, Wait: 30, Run: 60, AllocProcs: 4, AvgCPU: -1, UsedMem: -1, ReqProcs: 4, ReqTime: 600, ReqMem: 524288, Status: 1, User: 2, Group: 2, Exec: -1, Queue: 1, Partition: 2, PrecedingJob: -1, ThinkTime: -1},
	}
	reqs := []nodes.Request{
		{Nodes: 2, Tasks: 16, CPUsPerTask: 1, MemPerNodeMB: 4096, GRESPerJob: []nodes.GRES{{Name: "gpu", Count: 4}}, Constraint: "a100&ib"},
		{Nodes: 1, MaxNodes: 3, Tasks: 24, CPUsPerTask: 1, MemPerCPUMB: 1000, GRESPerJob: []nodes.GRES{{Name: "gpu", Type: "v100", Count: 2}}},
		{Nodes: 2, Tasks: 8, CPUsPerTask: 1, MemPerNodeMB: 8192, GRESPerJob: []nodes.GRES{{Name: "gpu", Type: "a100", Count: 2}, {Name: "nvme", Count: 1}}, Constraint: "(ib|opa)&amd"},
		{Nodes: 1, Tasks: 4, CPUsPerTask: 1, MemPerNodeMB: 2048},
	}
	if r.Len() != len(recs) || !r.HasRequests {
		t.Fatalf("%d jobs, HasRequests %v", r.Len(), r.HasRequests)
	}
	for i := range recs {
		if got := r.Record(i); got != recs[i] {
			t.Errorf("record %d:\n got %+v\nwant %+v", i, got, recs[i])
		}
		got := r.Request(i)
		if !reflect.DeepEqual(got, reqs[i]) {
			t.Errorf("request %d:\n got %s (%+v)\nwant %s", i, got, got, reqs[i])
		}
		if err := got.Check(); err != nil {
			t.Errorf("request %d: %v", i, err)
		}
	}
	if want := map[string]int64{"constraints schedlab does not read (Slurm's [a|b] matching OR, counts a*2, or another syntax)": 1}; !reflect.DeepEqual(r.Unread, want) {
		t.Errorf("unread %v", r.Unread)
	}
}

// An export without any request column: HasRequests false, and each
// job's request its CPUs as tasks, with its memory.
func TestRequestsWithout(t *testing.T) {
	r := read(t, "testdata/quirks.txt", Options{})
	if r.HasRequests {
		t.Error("HasRequests without the columns")
	}
	if got, want := r.Request(0), (nodes.Request{Tasks: 4, CPUsPerTask: 1, MemPerNodeMB: 4000}); !reflect.DeepEqual(got, want) {
		t.Errorf("job 100: %+v, want %+v", got, want)
	}
	if got, want := r.Request(1), (nodes.Request{Tasks: 8, CPUsPerTask: 1, MemPerCPUMB: 500}); !reflect.DeepEqual(got, want) {
		t.Errorf("job 101: %+v, want %+v", got, want)
	}
}

func TestTRESErrors(t *testing.T) {
	const head = "JobIDRaw|Submit|Start|End|Timelimit|NCPUS|State|ReqTRES|AllocTRES|ReqNodes\n"
	const times = "1|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|10|4|COMPLETED|"
	for _, c := range []struct{ line, want string }{
		{"cpu=x||", `x.txt:2: column ReqTRES: cpu=x: want a whole number`},
		{"|gres/gpu=many|", `x.txt:2: column AllocTRES: gres/gpu=many: want a count`},
		{"|gres/g$u=1|", `column AllocTRES: gres/g$u=1: "g$u": byte '$'`},
		{"gres/gpu=2000000000||", `gres/gpu=2000000000: want 1..4194304`},
		{"mem||", `column ReqTRES: "mem": want TYPE=COUNT items`},
		{"mem=lots||", `column ReqTRES: mem=lots: "lots" is not a memory size`},
		{"||-1", `column ReqNodes: "-1" is not a node count`},
	} {
		_, err := ReadSacct(strings.NewReader(head+times+c.line+"\n"), "x.txt", Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.line, err, c.want)
		}
	}
}

// A '|' in Constraints (Slurm's OR) and in JobName on one line: the
// share-out that reads is taken (the most '|' to Constraints that leave
// a valid line).
func TestPipeInNameAndConstraints(t *testing.T) {
	const in = "JobIDRaw|JobName|Submit|Start|End|Timelimit|NCPUS|State|Constraints\n" +
		"1|a|b|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|10|4|COMPLETED|ib|opa\n" +
		"2|c|2024-01-01T00:00:00|2024-01-01T00:00:00|2024-01-01T00:01:00|10|4|COMPLETED|(x|y)&z\n"
	r, err := ReadSacct(strings.NewReader(in), "x.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"ib|opa", "(x|y)&z"} {
		if got := r.Request(i).Constraint; got != want {
			t.Errorf("job %d: constraint %q, want %q", i+1, got, want)
		}
	}
}

// The job table of an import reads back as its records and requests,
// with WriteSWF's header lines as comments; RequestCounts counts what
// SWF cannot hold (200 and 202: 2 nodes, GRES, a constraint, memory per
// node; 201: GRES on 1-3 nodes, memory per CPU; 203 fits a CPU pool).
func TestWriteJobTable(t *testing.T) {
	r := read(t, "testdata/requests.txt", Options{})
	var buf bytes.Buffer
	if err := r.WriteJobTable(&buf, 64, "requests.txt"); err != nil {
		t.Fatal(err)
	}
	jr, err := jobtable.NewReader(&buf, "t.jobs")
	if err != nil {
		t.Fatal(err)
	}
	if c := jr.Comments(); len(c) < 3 || c[0] != "Version: 2.2" || !slices.Contains(c, "MaxProcs: 64") || !slices.Contains(c, "User 1: alice") {
		t.Errorf("comments %q", c)
	}
	for i := range r.Len() {
		row, err := jr.Next()
		if err != nil {
			t.Fatal(err)
		}
		if want := (jobtable.Row{Record: r.Record(i), Request: r.Request(i)}); !reflect.DeepEqual(row, want) {
			t.Errorf("row %d:\n got %+v\nwant %+v", i, row, want)
		}
	}
	if _, err := jr.Next(); err != io.EOF {
		t.Errorf("after the rows: %v", err)
	}
	if got, want := r.RequestCounts(), (RequestCounts{Beyond: 3, GRES: 3, MultiNode: 2, Constraint: 2, MemPerNode: 2}); got != want {
		t.Errorf("counts %+v, want %+v", got, want)
	}
}

// sacct --json: allocation_nodes is NNodes, tres/requested and
// tres/allocated (gres named gpu or gpu:TYPE; mem in MB) ReqTRES and
// AllocTRES, constraints Constraints. The 2-node job of 16 CPUs with
// 4000 MB a node asks 4000 MB / 8 CPUs = 512,000 KB a CPU in SWF.
func TestRequestsJSON(t *testing.T) {
	const in = `{"jobs": [{"job_id": 7, "user": "u", "allocation_nodes": {"set": true, "infinite": false, "number": 2},
	  "constraints": "a100&ib", "state": {"current": ["COMPLETED"]},
	  "required": {"CPUs": 16, "memory_per_node": {"set": true, "number": 4000}},
	  "time": {"submission": 1700000000, "start": 1700000000, "end": 1700000060, "elapsed": 60, "limit": {"set": true, "number": 10}},
	  "tres": {"allocated": [{"type": "cpu", "name": "", "count": 16}, {"type": "node", "count": 2}, {"type": "gres", "name": "gpu", "count": 4}, {"type": "gres", "name": "gpu:a100", "count": 4}],
	           "requested": [{"type": "cpu", "count": 16}, {"type": "mem", "count": 8000}, {"type": "node", "count": 2}]}}]}`
	r, err := ReadSacct(strings.NewReader(in), "x.json", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Record(0).ReqMem; got != 512000 {
		t.Errorf("ReqMem %v KB a CPU, want 512000", got)
	}
	want := nodes.Request{Nodes: 2, Tasks: 16, CPUsPerTask: 1, MemPerNodeMB: 4000, GRESPerJob: []nodes.GRES{{Name: "gpu", Type: "a100", Count: 4}}, Constraint: "a100&ib"}
	if got := r.Request(0); !reflect.DeepEqual(got, want) {
		t.Errorf("request %s, want %s", got, want)
	}
	_, err = ReadSacct(strings.NewReader(strings.Replace(in, `"name": "gpu", "count": 4`, `"name": "gpu", "count": "x"`, 1)), "x.json", Options{})
	if err == nil || !strings.Contains(err.Error(), "field tres/allocated (gres)") {
		t.Errorf("a bad count: %v", err)
	}
}

// Slurm 22.05's sacct -P (the real multi-node Slurm of
// cmd/schedlab/launch's TestSlurmPolicyNodesForReal) writes ReqMem as
// the job's total, its ReqTRES mem=: a job of 15 tasks of 100 MB
// (sbatch -N 8 -n 15 --mem-per-cpu=100) has ReqMem 1500M, so a node's
// share is 1500 / 8 = 187.5, 188 MB a node (read as per node, 1500 MB a
// node fits no node of 1,000 MB); one of 3 tasks on one node has 300M,
// 300 MB a node; one with --mem=800 on one node 800M. SWF's field is
// per CPU: 1500 MB / 15 = 102,400 KB; 300 / 3 = 102,400 KB; 800 MB
// for 1 CPU = 819,200 KB.
func TestRequestMemoryTotal2205(t *testing.T) {
	const in = "JobIDRaw|JobID|JobName|User|Group|Partition|QOS|Submit|Start|End|Elapsed|Timelimit|NCPUS|ReqCPUS|ReqMem|State|NNodes|ReqNodes|ReqTRES|AllocTRES\n" +
		"1|1|j1|root|root|batch|normal|2026-12-03T12:29:00|2026-12-03T12:29:01|2026-12-03T12:29:12|00:00:11|00:01:00|15|15|1500M|COMPLETED|8|8|billing=15,cpu=15,mem=1500M,node=8|billing=15,cpu=15,mem=1500M,node=8\n" +
		"1.batch|1.batch|batch|||||2026-12-03T12:29:01|2026-12-03T12:29:01|2026-12-03T12:29:12|00:00:11||4|4||COMPLETED|1|1||cpu=4,mem=400M,node=1\n" +
		"2|2|j2|root|root|batch|normal|2026-12-03T12:29:00|2026-12-03T12:29:01|2026-12-03T12:29:06|00:00:05|00:03:00|3|3|300M|COMPLETED|1|1|billing=3,cpu=3,mem=300M,node=1|billing=3,cpu=3,mem=300M,node=1\n" +
		"3|3|j3|root|root|batch|normal|2026-12-03T12:29:02|2026-12-03T12:29:12|2026-12-03T12:29:24|00:00:12|00:01:00|1|1|800M|COMPLETED|1|1|billing=1,cpu=1,mem=800M,node=1|billing=1,cpu=1,mem=800M,node=1\n"
	r, err := ReadSacct(strings.NewReader(in), "acct.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []nodes.Request{
		{Nodes: 8, Tasks: 15, CPUsPerTask: 1, MemPerNodeMB: 188},
		{Nodes: 1, Tasks: 3, CPUsPerTask: 1, MemPerNodeMB: 300},
		{Nodes: 1, Tasks: 1, CPUsPerTask: 1, MemPerNodeMB: 800},
	}
	wantKB := []float64{102400, 102400, 819200}
	if r.Len() != len(want) {
		t.Fatalf("%d jobs, want %d", r.Len(), len(want))
	}
	for i := range want {
		if got := r.Request(i); !reflect.DeepEqual(got, want[i]) {
			t.Errorf("job %d: request %+v, want %+v", i+1, got, want[i])
		}
		if got := r.Record(i).ReqMem; got != wantKB[i] {
			t.Errorf("job %d: SWF memory %v KB a CPU, want %v", i+1, got, wantKB[i])
		}
	}
}
