package inproc

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/policy/external"
	"github.com/schedlab/schedlab/workload"
)

const kth = "KTH-SP2-1996-2.1-cln.swf.gz"

// spec is the run of KTH-SP2 under pol with options opts, writing to
// out ("": nothing), as 'schedlab run' builds it (seed 1).
func spec(pol, out string, opts map[string]string) experiment.RunSpec {
	return experiment.RunSpec{
		Workload: experiment.WorkloadSpec{Trace: kth, Seed: 1, Deadlines: workload.DeadlineRule{Seed: 1}},
		Policy:   experiment.PolicySpec{Name: pol, Options: opts},
		Outputs:  experiment.OutputSpec{Dir: out, Tau: 10},
	}
}

// fcfs is a strict FCFS decision for a request.
func fcfs(r *external.Request, buf []external.Exec) external.Decision {
	free := r.Free[0]
	for _, j := range r.Waiting {
		if j.Procs > free {
			break
		}
		free -= j.Procs
		buf = append(buf, external.Exec{ID: j.ID})
	}
	return external.Decision{Starts: buf}
}

// A strict FCFS driven through Next, one instant at a time, is the run
// of the built-in fcfs: the same jobs.csv, byte for byte, on all of
// KTH-SP2; the requests begin once and end once; asJSON prints the
// summary.
func TestFCFS(t *testing.T) {
	dir := t.TempDir()
	s := Start(spec("external", filepath.Join(dir, "in"), map[string]string{"view": "free"}), true)
	defer s.Close()
	var d external.Decision
	var buf []external.Exec
	begins, ends, n := 0, 0, 0
	for {
		r, err := s.Next(d)
		if err != nil {
			t.Fatal(err)
		}
		if r == nil {
			break
		}
		n++
		if r.Begins {
			begins++
		}
		if r.Ends {
			ends++
			d = external.Decision{}
			continue
		}
		d = fcfs(r, buf[:0])
		buf = d.Starts
	}
	if begins != 1 || ends != 1 || !s.Done() || s.Request() != nil {
		t.Errorf("%d requests beginning and %d ending, done %v: want 1, 1, true", begins, ends, s.Done())
	}
	if _, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: kth}, Policy: experiment.PolicySpec{Name: "fcfs"}, Outputs: experiment.OutputSpec{Dir: filepath.Join(dir, "fcfs")}}).Run(); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "in", "jobs.csv"))
	b, _ := os.ReadFile(filepath.Join(dir, "fcfs", "jobs.csv"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("jobs.csv differs from fcfs's (%d and %d bytes)", len(a), len(b))
	}
	var sum struct {
		Jobs int64 `json:"jobs"`
		Run  struct {
			Policy string `json:"policy"`
		} `json:"run"`
	}
	if err := json.Unmarshal([]byte(s.Stdout()), &sum); err != nil || sum.Jobs != 27992 || sum.Run.Policy != "external" {
		t.Errorf("stdout (--json): %d jobs, policy %q, error %v; want 27992, external", sum.Jobs, sum.Run.Policy, err)
	}
	if n < 1000 {
		t.Errorf("%d requests, want thousands", n)
	}
}

// A failed run is an Error with schedlab's message and status: an
// illegal decision (status 1, nothing written), a wrong setting
// (status 2); closing a run midway fails it and removes its output.
func TestErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	s := Start(spec("external", out, nil), false)
	r, err := s.Next(external.Decision{})
	if err != nil || r == nil || !r.Begins {
		t.Fatalf("first request %v, error %v", r, err)
	}
	r, err = s.Next(external.Decision{Starts: []external.Exec{{ID: r.Waiting[0].ID}, {ID: 123456789}}})
	e, ok := err.(*Error)
	if r != nil || !ok || e.Status != 1 || !strings.Contains(e.Msg, "job 123456789 is not waiting") || !strings.Contains(e.Msg, "[in-process]") {
		t.Errorf("request %v, error %v: want the end, status 1, job 123456789 is not waiting, in-process", r, err)
	}
	if _, serr := os.Stat(out); !os.IsNotExist(serr) {
		t.Errorf("output folder after a failed run: %v", serr)
	}

	tau := spec("external", "", nil)
	tau.Outputs.Tau = -1
	for _, c := range []struct {
		spec experiment.RunSpec
		want string
	}{
		{spec("easy", "", nil), "decides for policy external, not easy"},
		{spec("external", "", map[string]string{"command": "true"}), "neither option command nor fds"},
		{tau, "schedlab: --tau must be a positive number of seconds, got -1"},
	} {
		s := Start(c.spec, false)
		r, err := s.Next(external.Decision{})
		if e, ok := err.(*Error); r != nil || !ok || e.Status != 2 || !strings.Contains(e.Msg, c.want) {
			t.Errorf("%+v: error %v, want status 2 and %q", c.spec, err, c.want)
		}
	}

	s = Start(spec("external", out, nil), false)
	if r, err := s.Next(external.Decision{}); r == nil || err != nil {
		t.Fatalf("first request %v, error %v", r, err)
	}
	s.Close()
	s.Close()
	if _, serr := os.Stat(out); !os.IsNotExist(serr) {
		t.Errorf("output folder after Close midway: %v", serr)
	}
	if r, err := s.Next(external.Decision{}); r != nil || err == nil || !strings.Contains(err.Error(), "closed before its end") {
		t.Errorf("Next after Close: %v, %v; want the end and the failure", r, err)
	}
}

// BenchmarkKTHFCFS: all of KTH-SP2 under a strict FCFS decided through
// Next (no output); the time per request is the run's time over its
// requests.
func BenchmarkKTHFCFS(b *testing.B) {
	var buf []external.Exec
	n := 0
	for b.Loop() {
		s := Start(spec("external", "", map[string]string{"view": "free"}), false)
		var d external.Decision
		for {
			r, err := s.Next(d)
			if err != nil {
				b.Fatal(err)
			}
			if r == nil {
				break
			}
			n++
			d = fcfs(r, buf[:0])
			buf = d.Starts
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/request")
}
