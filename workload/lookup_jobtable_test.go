package workload

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/jobtable"
	"github.com/schedlab/schedlab/workload/swf"
)

// A job table opened as a trace (plain or gzip) gives the SWF jobs of
// its rows, and says once, at its end, how many ask for more than CPUs:
// job 2 asks for 2 nodes and a GPU, its Req; job 1 for 4 tasks on any
// nodes (nodes.FromProcs: Req nil).
func TestOpenTraceJobTable(t *testing.T) {
	const table = jobtable.Magic + "\n# MaxProcs: 8\n" +
		"id\tsubmit\truntime\tprocs\treq_time\tnodes\tgres_per_job\n" +
		"1\t0\t100\t4\t200\t0\t\n" +
		"2\t10\t50\t8\t-1\t2\tgpu:1\n"
	dir := t.TempDir()
	plain := filepath.Join(dir, "t.jobs")
	zipped := filepath.Join(dir, "t.jobs.gz")
	if err := os.WriteFile(plain, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(table))
	zw.Close()
	if err := os.WriteFile(zipped, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []actual.Job{
		{ID: 1, Submit: 0, Procs: 4, Runtime: 100, Request: 200, User: -1, Group: -1, ReqMem: -1, Partition: -1, QOS: -1},
		{ID: 2, Submit: 10, Procs: 8, Runtime: 50, Request: -1, User: -1, Group: -1, ReqMem: -1, Partition: -1, QOS: -1,
			Req: &nodes.Request{Nodes: 2, Tasks: 8, CPUsPerTask: 1, GRESPerJob: []nodes.GRES{{Name: "gpu", Count: 1}}}},
	}
	for _, p := range []string{plain, zipped} {
		var notice bytes.Buffer
		rd, err := OpenTraceNotify(p, &notice)
		if err != nil {
			t.Fatal(err)
		}
		src := swf.NewSource(rd, swf.Options{})
		if src.MaxProcs() != 8 {
			t.Errorf("%s: MaxProcs %d, want 8", p, src.MaxProcs())
		}
		var jobs []actual.Job
		for {
			j, err := src.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			jobs = append(jobs, j)
		}
		if _, err := src.Next(); err != io.EOF {
			t.Errorf("after the end: %v", err)
		}
		rd.Close()
		if !reflect.DeepEqual(jobs, want) {
			t.Errorf("%s: jobs %+v", p, jobs)
		}
		if got := notice.String(); got != "schedlab: "+p+": 1 of its 2 job(s) ask for more than CPUs (several nodes, GRES, exclusive nodes, a feature constraint or memory per node): the pool of CPUs ignores that and runs each job on its processors\n" {
			t.Errorf("%s: notice %q", p, got)
		}
	}
	// A bad row is the error of the trace's reading (here of its opening,
	// which reads up to the first job), at the table's line; so is a row
	// out of submit order.
	for _, c := range []struct{ rows, want string }{
		{"1\t0\tsoon\t1\n", ":3: column 3 (runtime): \"soon\": want seconds"},
		{"1\t5\t1\t1\n\n# c\n2\t4\t1\t1\n", ":6: column submit: 4 is before the previous job's 5"},
	} {
		bad := filepath.Join(dir, "bad.jobs")
		os.WriteFile(bad, []byte(jobtable.Magic+"\nid\tsubmit\truntime\tprocs\n"+c.rows), 0o644)
		rd, err := OpenTraceNotify(bad, nil)
		if err == nil {
			for err == nil {
				_, err = rd.Next()
			}
			rd.Close()
		}
		if err == nil || !bytes.HasPrefix([]byte(err.Error()), []byte(bad+c.want)) {
			t.Errorf("%q: %v", c.rows, err)
		}
	}
}
