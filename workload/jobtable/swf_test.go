package jobtable

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/swf"
)

// TestSWFReader: a table read as SWF gives the SWF jobs of its records
// with their rows' requests, the header from its comments, and the count of rows beyond a CPU pool
// once, at the end.
func TestSWFReader(t *testing.T) {
	text := strings.Replace(example, "gpu:a100:2\t \t", "gpu:a100:2\t\t", 1)
	r, err := NewReader(strings.NewReader(text), "t.jobs")
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	var rows, beyond int64
	sr, err := swf.NewReader(NewSWFReader(r, func(n, b int64) { calls++; rows, beyond = n, b }), "t.jobs")
	if err != nil {
		t.Fatal(err)
	}
	if mp := sr.Header().MaxProcs; mp != 64 {
		t.Fatalf("MaxProcs %d, want 64 (from the comment line)", mp)
	}
	src := swf.NewSource(sr, swf.Options{})
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
	want := []actual.Job{
		// the recorded waits: 10 s and 0 s; job 9 records none
		// and the rows' requests; job 9's is 3 tasks of one CPU: nil
		{ID: 7, Submit: 0, Procs: 16, Runtime: 3600, Request: 7200, User: 1, Group: 2, ReqMem: 262144, Mem: 262144, Partition: 1, QOS: 1, Recorded: true, RecordedWait: 10,
			Req: &nodes.Request{Nodes: 2, Tasks: 16, CPUsPerTask: 1, MemPerNodeMB: 4096, GRESPerNode: []nodes.GRES{{Name: "gpu", Type: "a100", Count: 2}}, Constraint: "ib&a100", Exclusive: true}},
		{ID: 8, Submit: 5.5, Procs: 8, Runtime: 60, Request: -1, User: -1, Group: -1, ReqMem: -1, Partition: -1, QOS: -1, Recorded: true,
			Req: &nodes.Request{Nodes: 1, MaxNodes: 2, Tasks: 4, CPUsPerTask: 2, MemPerCPUMB: 1000, GRESPerJob: []nodes.GRES{{Name: "gpu", Count: 1}}, Constraint: "(ib|opa)&amd"}},
		{ID: 9, Submit: 6, Procs: 3, Runtime: 1, Request: -1, User: -1, Group: -1, ReqMem: -1, Partition: -1, QOS: -1},
	}
	if !reflect.DeepEqual(jobs, want) {
		t.Fatalf("jobs\n%+v\nwant\n%+v", jobs, want)
	}
	if calls != 1 || rows != 3 || beyond != 2 {
		t.Fatalf("whenDone called %d times with %d rows, %d beyond; want once, 3, 2", calls, rows, beyond)
	}
}

// TestSWFReaderOrder: rows out of submit order are an error at the
// table's line.
func TestSWFReaderOrder(t *testing.T) {
	text := Magic + "\nid\tsubmit\truntime\tprocs\n1\t10\t1\t1\n2\t-1\t1\t1\n3\t9\t1\t1\n"
	r, err := NewReader(strings.NewReader(text), "t.jobs")
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(NewSWFReader(r, nil))
	var pe *ParseError
	if err == nil || err.Error() != "column submit: 9 is before the previous job's 10: the rows must come in submit order" ||
		!errors.As(err, &pe) || pe.Line != 5 {
		t.Fatalf("unsorted: %v", err)
	}
	// The SWF text so far has the table's 4 lines before the bad one: a
	// note, blank lines, job 1 on line 3 and job 2 on line 4.
	if want := "; Note: converted from the schedlab job table t.jobs\n\n1 10 -1 1 1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n2 -1 -1 1 1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"; string(out) != want {
		t.Fatalf("SWF text %q", out)
	}
}

// FuzzReader: no input makes the Reader panic; every row it reads is
// written by a Writer without error and reads back equal.
func FuzzReader(f *testing.F) {
	f.Add([]byte(strings.Replace(example, "gpu:a100:2\t \t", "gpu:a100:2\t\t", 1)))
	f.Add([]byte(head + "1\t0\t1\t2\t1\tgpu:a:1\ta&b\t1\t0\t7\t2\n"))
	f.Add([]byte(Magic + "\r\nid\tsubmit\truntime\tprocs\tname\r\n1\t0\t1\t-1\tx y\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data), "f")
		if err != nil {
			return
		}
		var buf bytes.Buffer
		w := NewWriter(&buf)
		var rows []Row
		for len(rows) < 1000 {
			row, err := r.Next()
			if err != nil {
				break
			}
			if err := w.Write(row); err != nil {
				t.Fatalf("row read but not written: %v (%+v)", err, row)
			}
			rows = append(rows, row)
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		r2, err := NewReader(&buf, "again")
		if err != nil {
			t.Fatalf("written table not read: %v", err)
		}
		for i, want := range rows {
			got, err := r2.Next()
			if err != nil {
				t.Fatalf("row %d: %v", i, err)
			}
			if want.Request.Tasks == 0 { // the zero request reads back as the job's processors
				got.Request = want.Request
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("row %d read back\n%+v\nwant\n%+v", i, got, want)
			}
		}
		if _, err := r2.Next(); err != io.EOF {
			t.Fatalf("after the rows: %v", err)
		}
	})
}

// TestRequestAt: the requests of rows written ahead of the SWF reading
// wait in line order; asking for a line drops those of earlier lines
// (records a Source skipped, or did not ask for) and gives nil for a
// line without one (a row of tasks of one CPU), never a later line's.
func TestRequestAt(t *testing.T) {
	var b strings.Builder
	b.WriteString(Magic + "\nid\tsubmit\truntime\tprocs\tgres_per_job\n")
	const n = 300
	for i := 1; i <= n; i++ {
		g := ""
		if i%3 != 0 {
			g = fmt.Sprintf("gpu:%d", i)
		}
		fmt.Fprintf(&b, "%d\t%d\t1\t1\t%s\n", i, i, g)
	}
	r, err := NewReader(strings.NewReader(b.String()), "t.jobs")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSWFReader(r, nil)
	if _, err := io.ReadAll(s); err != nil { // every row written ahead
		t.Fatal(err)
	}
	if got := len(s.reqs); got != n-n/3 {
		t.Fatalf("%d requests waiting, want %d", got, n-n/3)
	}
	// Row i is on line i+2. Ask for every fifth row only.
	for i := 5; i <= n; i += 5 {
		q := s.RequestAt(i + 2)
		if i%3 == 0 {
			if q != nil {
				t.Fatalf("row %d: %v, want nil", i, q)
			}
			continue
		}
		if q == nil || !reflect.DeepEqual(*q, nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerJob: []nodes.GRES{{Name: "gpu", Count: i}}}) {
			t.Fatalf("row %d: %v", i, q)
		}
	}
	if s.head != len(s.reqs) || s.RequestAt(n+3) != nil {
		t.Errorf("left %d of %d", s.head, len(s.reqs))
	}
}

// TestRequestsStream: read through swf.Reader and Source, the requests
// waiting stay within the reader's look-ahead (here one row), and each
// job gets its own.
func TestRequestsStream(t *testing.T) {
	var b strings.Builder
	b.WriteString(Magic + "\nid\tsubmit\truntime\tprocs\tgres_per_job\n")
	const n = 5000
	for i := 1; i <= n; i++ {
		run := "1"
		if i%7 == 0 {
			run = "-1" // skipped by the Source
		}
		fmt.Fprintf(&b, "%d\t%d\t%s\t1\tgpu:%d\n", i, i, run, i)
	}
	r, err := NewReader(strings.NewReader(b.String()), "t.jobs")
	if err != nil {
		t.Fatal(err)
	}
	s := NewSWFReader(r, nil)
	sr, err := swf.NewReader(s, "t.jobs")
	if err != nil {
		t.Fatal(err)
	}
	src := swf.NewSource(sr, swf.Options{})
	jobs, most := 0, 0
	for {
		j, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		jobs++
		if j.Req == nil || j.Req.GRESPerJob[0].Count != int(j.ID) {
			t.Fatalf("job %d: %v", j.ID, j.Req)
		}
		most = max(most, len(s.reqs)-s.head, cap(s.reqs))
	}
	if jobs != n-n/7 || most > 128 {
		t.Errorf("%d jobs, up to %d requests held", jobs, most)
	}
}
