package workload

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/jobtable"
	"github.com/schedlab/schedlab/workload/slurm"
	"github.com/schedlab/schedlab/workload/swf"
)

// readJobs reads the trace at path through OpenTrace and a Source.
func readJobs(t *testing.T, path string, opt swf.Options) ([]actual.Job, swf.Counts) {
	t.Helper()
	rd, err := OpenTraceNotify(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	src := swf.NewSource(rd, opt)
	var jobs []actual.Job
	for {
		j, err := src.Next()
		if err == io.EOF {
			return jobs, src.Counts()
		}
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
}

// TestOpenTraceRequests: a job table's jobs carry their rows' requests
// through OpenTrace, a multi-node GPU job its request, a job of tasks of
// one CPU and nothing else nil; the rows skipped by the Source (unknown
// run time, unknown submit time, no processors) or rejected (larger
// than the machine) take their requests with them, so that no request
// lands on the wrong job; comment and blank lines between rows do not
// shift them either.
func TestOpenTraceRequests(t *testing.T) {
	const table = jobtable.Magic + "\n# MaxProcs: 64\n" +
		"id\tsubmit\truntime\tprocs\tnodes\tmax_nodes\ttasks\tcpus_per_task\tmem_per_node_mb\tgres_per_node\tgres_per_job\tconstraint\texclusive\n" +
		"1\t0\t100\t32\t4\t0\t8\t4\t65536\tgpu:a100:4\t\ta100&ib\t1\n" + // multi-node GPU job
		"2\t1\t-1\t8\t2\t0\t0\t0\t0\t\tgpu:7\t\t0\n" + // run time unknown: skipped
		"\n# a comment\n" +
		"3\t2\t50\t8\t0\t0\t0\t0\t0\t\t\t\t0\n" + // 8 tasks of one CPU: nil
		"4\t-1\t50\t8\t1\t0\t0\t0\t0\t\tgpu:5\t\t0\n" + // submit unknown: skipped
		"5\t3\t50\t128\t2\t0\t0\t0\t0\t\tgpu:6\t\t0\n" + // more than MaxProcs: rejected
		"6\t4\t50\t-1\t0\t0\t0\t0\t0\t\t\t\t0\n" + // no processors: skipped
		"7\t5\t60\t16\t1\t2\t16\t1\t0\t\tgpu:v100:2\t\t0\n" + // 1-2 nodes, 2 GPUs a job
		"8\t6\t70\t4\t1\t0\t4\t1\t0\t\t\t\t0\n" // exactly one node: not FromProcs
	path := filepath.Join(t.TempDir(), "r.jobs")
	if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	jobs, counts := readJobs(t, path, swf.Options{})
	want := map[int64]*nodes.Request{
		1: {Nodes: 4, Tasks: 8, CPUsPerTask: 4, MemPerNodeMB: 65536, GRESPerNode: []nodes.GRES{{Name: "gpu", Type: "a100", Count: 4}}, Constraint: "a100&ib", Exclusive: true},
		3: nil,
		7: {Nodes: 1, MaxNodes: 2, Tasks: 16, CPUsPerTask: 1, GRESPerJob: []nodes.GRES{{Name: "gpu", Type: "v100", Count: 2}}},
		8: {Nodes: 1, Tasks: 4, CPUsPerTask: 1},
	}
	if len(jobs) != len(want) || counts.SkippedNoRuntime != 1 || counts.SkippedNoSubmit != 1 || counts.SkippedNoProcs != 1 || counts.Rejected != 1 {
		t.Fatalf("%d jobs, counts %+v; want 4 jobs, one skipped of each kind, one rejected", len(jobs), counts)
	}
	for _, j := range jobs {
		w, ok := want[int64(j.ID)]
		if !ok {
			t.Errorf("job %d: not expected", j.ID)
			continue
		}
		if !reflect.DeepEqual(j.Req, w) {
			t.Errorf("job %d: Req %v, want %v", j.ID, j.Req, w)
		}
	}
	// Clamped, job 5 keeps its request (128 CPUs asked), on 64 procs.
	jobs, _ = readJobs(t, path, swf.Options{Clamp: true})
	if len(jobs) != 5 || jobs[2].ID != 5 || jobs[2].Procs != 64 ||
		!reflect.DeepEqual(jobs[2].Req, &nodes.Request{Nodes: 2, Tasks: 128, CPUsPerTask: 1, GRESPerJob: []nodes.GRES{{Name: "gpu", Count: 6}}}) {
		t.Errorf("clamped: %+v", jobs)
	}
}

// TestOpenTraceSWFNoRequests: a plain SWF trace's jobs have no request.
func TestOpenTraceSWFNoRequests(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.swf")
	os.WriteFile(path, []byte("1 0 -1 10 4 -1 -1 4 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"), 0o644)
	jobs, _ := readJobs(t, path, swf.Options{})
	if len(jobs) != 1 || jobs[0].Req != nil {
		t.Fatalf("jobs %+v", jobs)
	}
}

// TestImportedRequests: the sacct export of docs/nodes.md
// (slurm/testdata/requests.txt) imported as a job table and read back by
// OpenTrace gives its jobs the requests worked out by hand there: job
// 200 nodes=2 ntasks=16 mem=4096M gpus=gpu:4 constraint=a100&ib, job 201
// nodes=1-3 ntasks=24 mem-per-cpu=1000M gpus=gpu:v100:2 (its constraint
// [rack1|rack2] left out); 202 and 203 as workload/slurm's TestRequests.
// Their SWF fields are those of the SWF import of the same export.
func TestImportedRequests(t *testing.T) {
	f, err := os.Open(filepath.Join("slurm", "testdata", "requests.txt"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := slurm.ReadSacct(f, "requests.txt", slurm.Options{})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var table, trace bytes.Buffer
	if err := res.WriteJobTable(&table, 64, "requests.txt"); err != nil {
		t.Fatal(err)
	}
	if err := res.WriteSWF(&trace, 64, "requests.txt"); err != nil {
		t.Fatal(err)
	}
	tpath, spath := filepath.Join(dir, "acct.jobs"), filepath.Join(dir, "acct.swf")
	os.WriteFile(tpath, table.Bytes(), 0o644)
	os.WriteFile(spath, trace.Bytes(), 0o644)
	jobs, _ := readJobs(t, tpath, swf.Options{})
	swfJobs, _ := readJobs(t, spath, swf.Options{})
	want := []nodes.Request{
		{Nodes: 2, Tasks: 16, CPUsPerTask: 1, MemPerNodeMB: 4096, GRESPerJob: []nodes.GRES{{Name: "gpu", Count: 4}}, Constraint: "a100&ib"},
		{Nodes: 1, MaxNodes: 3, Tasks: 24, CPUsPerTask: 1, MemPerCPUMB: 1000, GRESPerJob: []nodes.GRES{{Name: "gpu", Type: "v100", Count: 2}}},
		{Nodes: 2, Tasks: 8, CPUsPerTask: 1, MemPerNodeMB: 8192, GRESPerJob: []nodes.GRES{{Name: "gpu", Type: "a100", Count: 2}, {Name: "nvme", Count: 1}}, Constraint: "(ib|opa)&amd"},
		{Nodes: 1, Tasks: 4, CPUsPerTask: 1, MemPerNodeMB: 2048},
	}
	if len(jobs) != len(want) || len(swfJobs) != len(want) {
		t.Fatalf("%d jobs from the table, %d from the SWF import; want %d", len(jobs), len(swfJobs), len(want))
	}
	for i, j := range jobs {
		if int(j.ID) != [...]int{200, 201, 202, 203}[i] || j.Req == nil || !reflect.DeepEqual(*j.Req, want[i]) {
			t.Errorf("job %d: Req %v, want %v", j.ID, j.Req, want[i])
		}
		if i < 2 {
			if s := j.Req.String(); s != [...]string{"nodes=2 ntasks=16 mem=4096M gpus=gpu:4 constraint=a100&ib", "nodes=1-3 ntasks=24 mem-per-cpu=1000M gpus=gpu:v100:2"}[i] {
				t.Errorf("job %d: %s", j.ID, s)
			}
		}
		j.Req = nil
		if !reflect.DeepEqual(j, swfJobs[i]) {
			t.Errorf("job %d: %+v, the SWF import's %+v", j.ID, j, swfJobs[i])
		}
	}
}
