package cli

import (
	"bytes"
	"errors"
	"io"
	"math"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/workload/lublin"
	"github.com/schedlab/schedlab/workload/swf"
	"github.com/schedlab/schedlab/workload/tsafrir"
)

// A 50,000-job trace synth file on 128 processors is the model's output
// record for record (so the shape tests of workload/lublin hold for it),
// every requested time is at least the runtime, and its serial share is
// the published 0.2927 within 5 standard errors (±0.0102).
func TestSynthFileIsTheModel(t *testing.T) {
	out := filepath.Join(t.TempDir(), "lublin.swf.gz")
	var so, se bytes.Buffer
	if code := Main([]string{"trace", "synth", "--model", "lublin", "--procs", "128", "--jobs", "50000", "--seed", "11", "--out", out}, &so, &se); code != 0 {
		t.Fatalf("exit %d: %s", code, se.String())
	}
	rd, err := swf.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	if h := rd.Header(); h.MaxProcs != 128 || h.MaxJobs != 50000 || h.MaxRecords != 50000 {
		t.Errorf("header MaxProcs %d MaxJobs %d MaxRecords %d", h.MaxProcs, h.MaxJobs, h.MaxRecords)
	}
	p := lublin.Default(128)
	p.Jobs = 50000
	// The file's requests are Tsafrir's (the default --requests).
	m, err := tsafrir.SiteModel(11)
	if err != nil {
		t.Fatal(err)
	}
	p.Request = m.Request
	src, err := lublin.New(p, 11, 0)
	if err != nil {
		t.Fatal(err)
	}
	n, serial := 0, 0
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		j, err := src.Next()
		if err != nil {
			t.Fatal(err)
		}
		if want := lublin.Record(j, lublin.Batch); rec != want {
			t.Fatalf("record %d: %+v, the model's %+v", n+1, rec, want)
		}
		if !(rec.ReqTime >= rec.Run) {
			t.Fatalf("job %d: requested %v < runtime %v", rec.JobNumber, rec.ReqTime, rec.Run)
		}
		if rec.AllocProcs == 1 {
			serial++
		}
		n++
	}
	if n != 50000 {
		t.Fatalf("%d records", n)
	}
	if _, err := src.Next(); !errors.Is(err, io.EOF) {
		t.Fatalf("the model has more jobs than the file: %v", err)
	}
	if got, tol := float64(serial)/float64(n), 5*math.Sqrt(0.2927*0.7073/float64(n)); math.Abs(got-0.2927) > tol {
		t.Errorf("serial share %v, want 0.2927 ± %v", got, tol)
	}
}

// Wrong flags exit 2 and write nothing.
func TestSynthExitStatus(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.swf")
	for _, args := range [][]string{
		{"--model", "nope", "--procs", "8", "--jobs", "8"},
		{"--model", "lublin", "--procs", "0", "--jobs", "8"},
		{"--model", "lublin", "--procs", "8", "--jobs", "0"},
		{"--model", "lublin", "--procs", "8", "--jobs", "8", "--runtime-factor", "0"},
		{"--model", "lublin", "--procs", "8", "--jobs", "8", "--load", "200"},
		{"--model", "lublin", "--procs", "8", "--jobs", "8", "--class", "mixed"},
	} {
		var so, se bytes.Buffer
		full := append(append([]string{"trace", "synth"}, args...), "--out", out)
		if code := Main(full, &so, &se); code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, se.String())
		}
	}
	if matches, _ := filepath.Glob(filepath.Join(dir, "*")); len(matches) != 0 {
		t.Errorf("left behind: %v", matches)
	}
}
