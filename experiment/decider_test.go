package experiment

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy/external"
)

// fcfsDecider is a strict FCFS deciding in this process for policy
// external, from the request's view alone.
type fcfsDecider struct {
	starts []external.Exec
	calls  int
}

func (d *fcfsDecider) Decide(r *external.Request) (external.Decision, error) {
	d.calls++
	d.starts = d.starts[:0]
	free := r.Free[0]
	for _, j := range r.Waiting {
		if j.Procs > free {
			break
		}
		free -= j.Procs
		d.starts = append(d.starts, external.Exec{ID: j.ID})
	}
	return external.Decision{Starts: d.starts}, nil
}

// A trace run whose external policy decides in this process
// (RunSpec.Decider) is the same run as with a built-in policy: a
// strict FCFS decider on all of KTH-SP2 writes the jobs.csv of fcfs,
// byte for byte.
func TestRunTraceDecider(t *testing.T) {
	dir := t.TempDir()
	d := &fcfsDecider{}
	in, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}, Policy: PolicySpec{Name: "external", Options: map[string]string{"view": "free"}, Decider: d}, Outputs: OutputSpec{Dir: filepath.Join(dir, "in")}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}, Policy: PolicySpec{Name: "fcfs"}, Outputs: OutputSpec{Dir: filepath.Join(dir, "fcfs")}}).Run(); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "in", "jobs.csv"))
	b, _ := os.ReadFile(filepath.Join(dir, "fcfs", "jobs.csv"))
	if len(a) == 0 || !bytes.Equal(a, b) {
		t.Errorf("jobs.csv of the in-process FCFS (%d bytes) differs from fcfs's (%d bytes)", len(a), len(b))
	}
	if in.Run.Policy != "external" || in.Jobs != 27992 || d.calls == 0 || int64(d.calls) >= in.Run.Passes {
		t.Errorf("policy %s, %d jobs, %d decisions of %d passes: want external, 27992 jobs, fewer decisions than passes (an instant where nothing can start is not asked)",
			in.Run.Policy, in.Jobs, d.calls, in.Run.Passes)
	}
}

// badDecider starts a job that is not waiting.
type badDecider struct{}

func (badDecider) Decide(r *external.Request) (external.Decision, error) {
	return external.Decision{Starts: []external.Exec{{ID: job.ID(-7)}}}, nil
}

// An illegal in-process decision fails the run, naming the job, and
// writes nothing; a decider is only for policy external, which then takes
// no command.
func TestRunTraceDeciderErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out")
	_, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}, Policy: PolicySpec{Name: "external", Decider: badDecider{}}, Outputs: OutputSpec{Dir: out}}).Run()
	if err == nil || !strings.Contains(err.Error(), "job -7 is not waiting") || !strings.Contains(err.Error(), "in-process") {
		t.Errorf("error %v, want job -7 is not waiting, in-process", err)
	}
	if _, serr := os.Stat(out); !os.IsNotExist(serr) {
		t.Errorf("the output folder exists after a failed run (%v)", serr)
	}
	for _, c := range []struct {
		cfg  RunSpec
		want string
	}{
		{RunSpec{Policy: PolicySpec{Name: "easy"}}, "decides for policy external, not easy"},
		{RunSpec{Policy: PolicySpec{Name: "external", Options: map[string]string{"command": "true"}}}, "takes neither option command nor fds"},
		{RunSpec{Policy: PolicySpec{Name: "external", Options: map[string]string{"view": "some"}}}, "policy external: "},
	} {
		c.cfg.Workload.Trace, c.cfg.Policy.Decider = "KTH-SP2-1996-2.1-cln.swf.gz", badDecider{}
		if _, err := c.cfg.Run(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: error %v, want %q", c.cfg.Policy.Name, c.cfg.Policy.Options, err, c.want)
		}
	}
}
