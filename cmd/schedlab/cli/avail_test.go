package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Unavailable CPUs on the command line: a policy that does not plan
// around them is a wrong command line; a run with a reservation and a
// failure writes unavailability.csv and the attempts column and passes
// --check.
func TestRunAvailability(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.swf")
	// Two jobs on 8 CPUs: job 1 (4 CPUs, 10 s) at 0, job 2 (8 CPUs, 10 s) at 1.
	if err := os.WriteFile(tr, []byte("; MaxProcs: 8\n1 0 0 10 4 -1 -1 4 10 -1 1 1 1 -1 -1 -1 -1 -1\n2 1 0 10 8 -1 -1 8 10 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev := filepath.Join(dir, "ev.jsonl")
	if err := os.WriteFile(ev, []byte(`{"timestamp": 5, "type": "machine_unavailable", "resources": "0-1"}`+"\n"+`{"timestamp": 12, "type": "machine_available", "resources": "0-1"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if st := Main([]string{"run", "--trace", tr, "--policy", "firstfit", "--reservation", "20:30:8", "--no-out"}, &out, &errb); st != 2 || !strings.Contains(errb.String(), "policy firstfit does not plan around unavailable CPUs") {
		t.Errorf("firstfit: status %d, %s", st, errb.String())
	}
	// Job 1 runs on 0-3 from 0; job 2 reserves [10, 20), before the
	// window [20, 30). CPUs 0-1 fail at 5: job 1 is requeued at its place,
	// ahead of job 2, and restarts at once on CPUs 2-5, [5, 15); job 2
	// cannot run across the window: [30, 40).
	o := filepath.Join(dir, "o")
	out.Reset()
	errb.Reset()
	if st := Main([]string{"run", "--trace", tr, "--policy", "easy", "--reservation", "20:30:8", "--events", ev, "--on-failure", "requeue", "--check", "--out", o}, &out, &errb); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	jobs, _ := os.ReadFile(filepath.Join(o, "jobs.csv"))
	lines := strings.Split(strings.TrimSpace(string(jobs)), "\n")
	if !strings.HasSuffix(lines[0], ",attempts") || len(lines) != 3 ||
		!strings.HasPrefix(lines[1], "1,0,4,10,5,10,15,5,15,1.5,2-5,") || !strings.HasSuffix(lines[1], ",2") ||
		!strings.HasPrefix(lines[2], "2,1,8,10,30,10,40,29,39,3.9,0-7,") || !strings.HasSuffix(lines[2], ",1") {
		t.Errorf("jobs.csv:\n%s", jobs)
	}
	un, _ := os.ReadFile(filepath.Join(o, "unavailability.csv"))
	if want := "kind,resources,start,end\ndown,0-1,5,12\nreserved,0-7,20,30\n"; string(un) != want {
		t.Errorf("unavailability.csv:\n%s\nwant\n%s", un, want)
	}
	if !strings.Contains(out.String(), "none on an unavailable CPU") {
		t.Errorf("output:\n%s", out.String())
	}
}
