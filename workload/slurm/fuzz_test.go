package slurm

import (
	"bytes"
	"errors"
	"io"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/schedlab/schedlab/workload/jobtable"
	"github.com/schedlab/schedlab/workload/swf"
)

// fuzzImport reads in, and if it is accepted, checks that the SWF
// written from it is one the SWF reader reads back, record for record:
// whatever the import accepts, it can write.
func fuzzImport(t *testing.T, in []byte, o Options) {
	r, err := ReadSacct(bytes.NewReader(in), "fuzz", o)
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) && pe.File != "fuzz" {
			t.Fatalf("ParseError without the file: %v", err)
		}
		return
	}
	var b bytes.Buffer
	if err := r.WriteSWF(&b, 0, "fuzz"); err != nil {
		t.Fatalf("accepted, but the SWF writer refused it: %v", err)
	}
	rd, err := swf.NewReader(bytes.NewReader(b.Bytes()), "fuzz.swf")
	if err != nil {
		t.Fatalf("the SWF written is refused: %v\n%s", err, b.String())
	}
	n := 0
	for {
		if _, err := rd.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the SWF written is refused: %v\n%s", err, b.String())
		}
		n++
	}
	if n != r.Len() {
		t.Fatalf("%d records written, %d read back", r.Len(), n)
	}
	// And as a job table: every request passes its check, and the
	// table reads back as the records and requests.
	b.Reset()
	if err := r.WriteJobTable(&b, 0, "fuzz"); err != nil {
		t.Fatalf("accepted, but the job table writer refused it: %v", err)
	}
	jr, err := jobtable.NewReader(bytes.NewReader(b.Bytes()), "fuzz.jobs")
	if err != nil {
		t.Fatalf("the job table written is refused: %v\n%s", err, b.String())
	}
	for i := range r.Len() {
		row, err := jr.Next()
		if err != nil {
			t.Fatalf("the job table written is refused: %v\n%s", err, b.String())
		}
		if want := (jobtable.Row{Record: r.Record(i), Request: r.Request(i)}); !reflect.DeepEqual(row, want) {
			t.Fatalf("row %d read back %+v, want %+v", i, row, want)
		}
	}
}

func seed(f *testing.F, path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b, byte(0))
}

// FuzzParsable: sacct --parsable2 input, in UTC or Europe/Stockholm
// (DST folds), with or without --steps.
func FuzzParsable(f *testing.F) {
	seed(f, "testdata/quirks.txt")
	seed(f, "testdata/requests.txt")
	hdr := "JobIDRaw|Submit|Start|End|Elapsed|Timelimit|NCPUS|ReqMem|State\n"
	for _, s := range []string{
		"1|2024-10-27T02:50:00|2024-10-27T02:10:00|2024-10-27T02:40:00|00:30:00|60|2|1G|COMPLETED\n",
		"1|2024-01-15T10:00:00|2024-01-15T10:00:00|Unknown|1-00:00:00|UNLIMITED|2|500Mc|TIMEOUT\n",
		"1_2|2024-01-15T10:00:00|2024-01-15T10:00:00|2024-01-15T10:00:01|00:01|30|4|2Gn|CANCELLED by 5\n",
	} {
		f.Add([]byte(hdr+s), byte(1))
	}
	stockholm, err := time.LoadLocation("Europe/Stockholm")
	if err != nil {
		stockholm = time.UTC
	}
	f.Fuzz(func(t *testing.T, in []byte, opt byte) {
		o := Options{Steps: opt&1 != 0}
		if opt&2 != 0 {
			o.Location = stockholm
		}
		fuzzImport(t, in, o)
	})
}

// FuzzJSON: sacct --json input (the layouts of v0.0.38 to v0.0.41).
func FuzzJSON(f *testing.F) {
	seed(f, "testdata/quirks.json")
	for _, s := range []string{
		`{"jobs": [{"job_id": 7, "user": "u", "state": {"current": "COMPLETED"}, "time": {"submission": 1705312800, "start": 1705312810, "end": 1705312910, "elapsed": 100, "limit": 5}, "required": {"CPUs": 2, "memory_per_cpu": 1000, "memory_per_node": 4294967294}}]}`,
		`{"meta": {}, "jobs": [{"job_id": 1, "state": {"current": "COMPLETED"}, "time": {"submission": 1705312800, "start": 1705312800, "end": 1705312860, "limit": 2}, "required": {"CPUs": 2, "memory": 9223372036854776808}, "tres": {"allocated": [{"type": "cpu", "count": 2}]}}]}`,
		`{"jobs": [{"job_id": 2, "state": {"current": ["CANCELLED"]}, "time": {"submission": 1705312800, "start": 1705312800, "end": 1705312860, "limit": {"set": true, "infinite": false, "number": 3}}, "required": {"CPUs": 1}, "steps": [{}]}]}`,
	} {
		f.Add([]byte(s), byte(0))
	}
	f.Fuzz(func(t *testing.T, in []byte, _ byte) {
		// Always JSON: the reader is chosen by the first byte.
		if len(in) == 0 || in[0] != '{' {
			in = append([]byte("{"), in...)
		}
		fuzzImport(t, in, Options{})
	})
}
