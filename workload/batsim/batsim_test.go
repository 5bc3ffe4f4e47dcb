package batsim

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/jobtable"
	"github.com/schedlab/schedlab/workload/swf"
)

func readFile(t *testing.T, path string) *Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := Read(f, path)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// rec is an imported record: the fields Batsim does not carry are -1.
func rec(num int64, submit, run float64, procs int, req float64, status int) swf.Record {
	return swf.Record{JobNumber: num, Submit: submit, Wait: -1, Run: run, AllocProcs: procs, AvgCPU: -1, UsedMem: -1,
		ReqProcs: procs, ReqTime: req, ReqMem: -1, Status: status, User: -1, Group: -1, Exec: -1, Queue: -1,
		Partition: -1, PrecedingJob: -1, ThinkTime: -1}
}

// testdata/workload.json, worked out by hand: profiles before jobs; the
// jobs out of submit order; ids with the workload prefix "w0!" and one
// a JSON number; a "DelayProfile" (Batsim 5's name); a profile with
// ret 2 (failed: status 0); walltime absent, -1 and set; a parallel
// profile no job uses (no error). Sorted by submit time, ties in file
// order: w0!3 (0), w0!5 (20), w0!9 (20), 7 (100.25).
func TestRead(t *testing.T) {
	r := readFile(t, "testdata/workload.json")
	want := []swf.Record{
		rec(3, 0, 30, 4, 60, 1),
		rec(5, 20, 10, 1, -1, 0),
		rec(9, 20, 3600.5, 2, 1800, 1),
		rec(7, 100.25, 3600.5, 16, -1, 1),
	}
	if !reflect.DeepEqual(r.Records, want) {
		t.Errorf("records:\n got %+v\nwant %+v", r.Records, want)
	}
	if r.Renumbered || !reflect.DeepEqual(r.IDs, []string{"w0!3", "w0!5", "w0!9", "7"}) {
		t.Errorf("renumbered %v, ids %q", r.Renumbered, r.IDs)
	}
	if r.Header.MaxProcs != 16 || r.Header.MaxJobs != 4 {
		t.Errorf("header %+v", r.Header)
	}
}

// Ids that are not distinct integers once the prefix is dropped ("a";
// "w0!1" and "w1!1"): numbered 1..N in submit order, ties in file order.
func TestRenumbered(t *testing.T) {
	r := readFile(t, "testdata/strings.json")
	want := []swf.Record{rec(1, 0, 1, 2, -1, 1), rec(2, 5, 1, 1, -1, 1), rec(3, 5, 1, 3, -1, 1)}
	if !reflect.DeepEqual(r.Records, want) || !r.Renumbered {
		t.Errorf("records %+v, renumbered %v", r.Records, r.Renumbered)
	}
	if !reflect.DeepEqual(r.IDs, []string{"w1!1", "w0!a", "w0!1"}) {
		t.Errorf("ids %q", r.IDs)
	}
}

// Import, write SWF, read it back, export, import again: the same
// records; and exporting the second import gives the same JSON bytes.
func TestRoundTrip(t *testing.T) {
	for _, path := range []string{"testdata/workload.json", "testdata/strings.json"} {
		first := readFile(t, path)
		var s bytes.Buffer
		if err := first.WriteSWF(&s, "w.json"); err != nil {
			t.Fatal(err)
		}
		rd, err := swf.NewReader(bytes.NewReader(s.Bytes()), "first.swf")
		if err != nil {
			t.Fatal(err)
		}
		var j1 bytes.Buffer
		wr, err := Write(&j1, rd, rd.Header().MaxProcs, "round trip")
		if err != nil {
			t.Fatal(err)
		}
		if wr.Jobs != len(first.Records) || wr.Skipped != 0 {
			t.Errorf("%s: wrote %+v", path, wr)
		}
		second, err := Read(bytes.NewReader(j1.Bytes()), "second.json")
		if err != nil {
			t.Fatalf("%s: %v\n%s", path, err, j1.String())
		}
		if !reflect.DeepEqual(second.Records, first.Records) || second.Header.MaxProcs != first.Header.MaxProcs {
			t.Errorf("%s: second import\n got %+v\nwant %+v", path, second.Records, first.Records)
		}
		var j2 bytes.Buffer
		if _, err := Write(&j2, &slice{recs: second.Records}, second.Header.MaxProcs, "round trip"); err != nil {
			t.Fatal(err)
		}
		if j1.String() != j2.String() {
			t.Errorf("%s: export of the second import differs:\n%s\n%s", path, j1.String(), j2.String())
		}
	}
}

type slice struct {
	recs []swf.Record
	i    int
}

func (s *slice) Next() (swf.Record, error) {
	if s.i == len(s.recs) {
		return swf.Record{}, io.EOF
	}
	s.i++
	return s.recs[s.i-1], nil
}

// The exported form, checked by hand: one profile per (run time,
// failed), sorted by name; walltime only when known; a record without a
// run time is counted, not written.
func TestWrite(t *testing.T) {
	recs := []swf.Record{
		{JobNumber: 1, Submit: 0, Wait: 3, Run: 10, AllocProcs: 2, ReqProcs: 4, ReqTime: 20, Status: 1},
		{JobNumber: 2, Submit: 5, Wait: 0, Run: -1, AllocProcs: 2, ReqProcs: 2, ReqTime: 20, Status: 1},
		{JobNumber: 3, Submit: 7.5, Wait: 0, Run: 10, AllocProcs: -1, ReqProcs: 3, ReqTime: -1, Status: 0},
		{JobNumber: 4, Submit: 9, Wait: 0, Run: 10, AllocProcs: 1, ReqProcs: 1, ReqTime: -1, Status: 5},
	}
	var b bytes.Buffer
	w, err := Write(&b, &slice{recs: recs}, 8, "test")
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "description": "test",
  "nb_res": 8,
  "jobs": [
    {"id": "1", "subtime": 0, "res": 2, "profile": "delay_10", "walltime": 20},
    {"id": "3", "subtime": 7.5, "res": 3, "profile": "delay_10_failed"},
    {"id": "4", "subtime": 9, "res": 1, "profile": "delay_10"}
  ],
  "profiles": {
    "delay_10": {"type": "delay", "delay": 10},
    "delay_10_failed": {"type": "delay", "delay": 10, "ret": 1}
  }
}
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	if w != (Written{Jobs: 3, Profiles: 2, Skipped: 1}) {
		t.Errorf("written %+v", w)
	}
	if _, err := Write(&b, &slice{recs: recs[1:2]}, 8, ""); err == nil || !strings.Contains(err.Error(), "no record to export (1 without") {
		t.Errorf("nothing to export: %v", err)
	}
	if _, err := Write(&b, &slice{recs: recs}, 0, ""); err == nil || !strings.Contains(err.Error(), "nb_res 0") {
		t.Errorf("nb_res 0: %v", err)
	}
}

// Errors name the file, the line, the job or profile and the field.
func TestErrors(t *testing.T) {
	prof := `"profiles": {"p": {"type": "delay", "delay": 1}}`
	for _, c := range []struct{ in, want string }{
		{"", "w.json: empty"},
		{"[1]", "w.json:1: want a JSON object, have an array"},
		{"{\"nb_res\": 4,\n\"jobs\": [}", "w.json:2: not valid JSON: invalid character"},
		{"{\"nb_res\": 4, \"jobs\": []}", "w.json:1: not a Batsim workload: no profiles"},
		{"{\"nb_res\": 0, \"jobs\": [], " + prof + "}", "w.json:1: nb_res: 0: want an integer from 1 to 4194304"},
		{"{\"nb_res\": 4, \"jobs\": [], " + prof + "}", "w.json:1: jobs: no job to import"},
		{"{\"nb_res\": 4, \"jobs\": [\n{\"id\": \"1\", \"subtime\": 0, \"res\": 2.5, \"profile\": \"p\"}], " + prof + "}", `w.json:2: job "1" (jobs[0]): res: 2.5: want an integer from 1 to 4194304`},
		{"{\"nb_res\": 4, \"jobs\": [\n{\"id\": \"1\",\n\"subtime\": -3, \"res\": 2, \"profile\": \"p\"}], " + prof + "}", `w.json:3: job "1" (jobs[0]): subtime: -3: want 0 to`},
		{"{\"nb_res\": 4, \"jobs\": [\n{\"id\": \"1\", \"subtime\": \"0\", \"res\": 2, \"profile\": \"p\"}], " + prof + "}", `w.json:2: job "1" (jobs[0]): subtime: want a number, have a string`},
		{"{\"nb_res\": 4, \"jobs\": [\n{\"id\": \"1\", \"subtime\": 0, \"walltime\": 0, \"res\": 2, \"profile\": \"p\"}], " + prof + "}", `walltime: 0: want a positive limit, or -1 (none)`},
		{"{\"nb_res\": 4, \"jobs\": [\n{\"subtime\": 0, \"res\": 2, \"profile\": \"p\"}], " + prof + "}", `w.json:2: jobs[0]: no id`},
		{"{\"nb_res\": 4, \"jobs\": [\n{\"id\": \"1\", \"subtime\": 0, \"res\": 2, \"profile\": \"q\"}], " + prof + "}", `w.json:2: job "1" (jobs[0]): profile: "q" is not among the workload's profiles`},
		{"{\"nb_res\": 4, \"jobs\": [\n{\"id\": \"w0!1\", \"subtime\": 0, \"res\": 2, \"profile\": \"mpi\"}],\n\"profiles\": {\n\"mpi\": {\"type\": \"parallel_homogeneous\", \"cpu\": 1e9, \"com\": 1e6}}}",
			`w.json:2: job "w0!1" (jobs[0]): profile: profile "mpi" (line 4): of type "parallel_homogeneous": only delay profiles can be imported`},
		{"{\"nb_res\": 4, \"jobs\": [], \"profiles\": {\n\"p\": {\"type\": \"delay\"}}}", `w.json:2: profile "p": a delay profile without a delay`},
		{"{\"nb_res\": 4, \"jobs\": [], \"profiles\": {\n\"p\": {\"type\": \"delay\", \"delay\": 1e300}}}", `w.json:2: profile "p": delay: 1e300: want 0 to`},
		{"{\"nb_res\": 4, \"jobs\": [], " + prof + "} x", "w.json:1: text after the workload's JSON object"},
	} {
		_, err := Read(strings.NewReader(c.in), "w.json")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n err %v\nwant %q", c.in, err, c.want)
		}
	}
}

// A UTF-8 byte-order mark is refused with a message that says so (as the
// SWF reader does); a gzip-compressed workload is decompressed, its
// uncompressed size bounded as a plain one's.
func TestBOMAndGzip(t *testing.T) {
	plain, err := os.ReadFile("testdata/workload.json")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Read(bytes.NewReader(append([]byte("\xef\xbb\xbf"), plain...)), "w.json")
	if err == nil || !strings.Contains(err.Error(), "w.json:1: the file starts with a UTF-8 byte-order mark") {
		t.Errorf("BOM: %v", err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	a, err := Read(bytes.NewReader(plain), "w.json")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Read(bytes.NewReader(gz.Bytes()), "w.json.gz")
	if err != nil {
		t.Fatalf("gzip: %v", err)
	}
	if !reflect.DeepEqual(a.Records, b.Records) {
		t.Errorf("gzip: other records")
	}
	if _, err := Read(bytes.NewReader(gz.Bytes()[:gz.Len()/2]), "w.json.gz"); err == nil || !strings.Contains(err.Error(), "w.json.gz: gzip stream truncated or corrupt") {
		t.Errorf("truncated gzip: %v", err)
	}
}

// The job table of an import: WriteSWF's header as comments (nb_res as
// MaxProcs), each job its record and res tasks of one CPU; read as SWF
// it gives the records WriteSWF writes.
func TestWriteJobTable(t *testing.T) {
	r := readFile(t, "testdata/workload.json")
	var buf, swfText bytes.Buffer
	if err := r.WriteJobTable(&buf, "workload.json"); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteSWF(&swfText, "workload.json"); err != nil {
		t.Fatal(err)
	}
	jr, err := jobtable.NewReader(bytes.NewReader(buf.Bytes()), "w.jobs")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []nodes.Request{nodes.FromProcs(4), nodes.FromProcs(1), nodes.FromProcs(2), nodes.FromProcs(16)} {
		row, err := jr.Next()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(row.Request, want) || row.Record != r.Records[i] {
			t.Errorf("row %d: %+v, want record %+v, request %s", i, row, r.Records[i], want)
		}
	}
	jr, _ = jobtable.NewReader(bytes.NewReader(buf.Bytes()), "w.jobs")
	viaTable, err := swf.NewReader(jobtable.NewSWFReader(jr, nil), "w.jobs")
	if err != nil {
		t.Fatal(err)
	}
	direct, err := swf.NewReader(&swfText, "w.swf")
	if err != nil {
		t.Fatal(err)
	}
	if a, b := viaTable.Header().MaxProcs, direct.Header().MaxProcs; a != 16 || a != b {
		t.Errorf("MaxProcs %d via the table, %d direct", a, b)
	}
	for {
		a, errA := viaTable.Next()
		b, errB := direct.Next()
		if errA != errB || a != b {
			t.Fatalf("via the table %+v (%v), direct %+v (%v)", a, errA, b, errB)
		}
		if errA == io.EOF {
			break
		}
	}
}
