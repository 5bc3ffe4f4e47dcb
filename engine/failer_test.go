package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
)

// failing starts every job at once until its pass at time failAt, where
// it fails (a policy.Failer) and plans a start that must never happen.
type failing struct {
	failAt float64
	err    error
	passes int
}

func (f *failing) Name() string             { return "failing" }
func (f *failing) Submit(float64, job.Info) {}
func (f *failing) Finish(float64, job.ID)   {}
func (f *failing) Err() error               { return f.err }
func (f *failing) Schedule(now float64, v policy.Machines, p *policy.Plan) {
	f.passes++
	if now == f.failAt {
		f.err = errors.New("the decision process died")
	}
	if now != 1 { // jobs 0, 5 and 7 arrive at 0, 5 and 7; job 0 ends at 1
		p.Start(job.ID(now), job.Immediate)
	}
}

// A policy that fails stops the run with its own error right after the
// failing pass, before any of that pass's starts is applied.
func TestFailerStopsRun(t *testing.T) {
	jobs := []actual.Job{
		{ID: 0, Submit: 0, Procs: 1, Runtime: 1, Estimate: 1, Request: -1},
		{ID: 5, Submit: 5, Procs: 1, Runtime: 1, Estimate: 1, Request: -1},
		{ID: 7, Submit: 7, Procs: 1, Runtime: 1, Estimate: 1, Request: -1},
	}
	f := &failing{failAt: 5}
	started := &enginetest.Recorder{}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(2), Policy: f, Source: workload.FromSlice(jobs), Listener: started})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run()
	if err == nil || err.Error() != "the decision process died" {
		t.Fatalf("Run: %v, want the policy's error", err)
	}
	if f.passes != 3 { // t=0, t=1 (job 0 ends), t=5
		t.Errorf("%d passes, want 3", f.passes)
	}
	if _, ok := started.End(5); ok || len(started.Ends) != 1 {
		t.Errorf("finished jobs %v, want only job 0", started.Ends)
	}
}

// declaring is a layer over a failing policy that declares what the
// model may see of it (policy.Layer).
type declaring struct {
	*failing
	caps policy.Caps
}

func (d declaring) Caps() policy.Caps { return d.caps }

// The model reads what a policy can do from its capabilities, computed
// once: a layer that declares no Failer is never asked (although it has
// Err), one that declares its inner's stops the run at the failing pass.
func TestFailerFromCaps(t *testing.T) {
	jobs := []actual.Job{
		{ID: 0, Submit: 0, Procs: 1, Runtime: 1, Estimate: 1, Request: -1},
		{ID: 5, Submit: 5, Procs: 1, Runtime: 1, Estimate: 1, Request: -1},
		{ID: 7, Submit: 7, Procs: 1, Runtime: 1, Estimate: 1, Request: -1},
	}
	for _, declare := range []bool{false, true} {
		f := &failing{failAt: 5}
		d := declaring{failing: f}
		if declare {
			d.caps.Fail = f
		}
		c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(2), Policy: d, Source: workload.FromSlice(jobs)})
		if err != nil {
			t.Fatal(err)
		}
		err = c.Run()
		switch {
		case declare && (err == nil || err.Error() != "the decision process died" || f.passes != 3):
			t.Errorf("declared Failer: Run %v after %d passes, want the policy's error after 3", err, f.passes)
		case !declare && (err == nil || !strings.Contains(err.Error(), "start job 6: the job is not waiting") || f.passes != 4):
			// not asked at t=5: its start of job 5 is applied, and the pass at 6 (job 5 ends) starts a job that is not there
			t.Errorf("no Failer declared: Run %v after %d passes, want the bad start at t=6 after 4", err, f.passes)
		}
	}
}
