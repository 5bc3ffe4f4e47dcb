package engine_test

import (
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

// rejecter is FCFS on one machine that rejects the jobs it is told to,
// at their first pass (or, with late, at the pass after their start).
type rejecter struct {
	reject  map[job.ID]bool
	late    bool
	waiting []job.Info
	started []job.ID
}

func (r *rejecter) Name() string                   { return "rejecter" }
func (r *rejecter) Submit(now float64, j job.Info) { r.waiting = append(r.waiting, j) }
func (r *rejecter) Finish(float64, job.ID)         {}
func (r *rejecter) Schedule(now float64, v policy.Machines, p *policy.Plan) {
	if r.late {
		for _, id := range r.started {
			p.Reject(id)
		}
	}
	free := v.Free(0)
	kept := r.waiting[:0]
	for _, j := range r.waiting {
		switch {
		case r.reject[j.ID] && !r.late:
			p.Reject(j.ID)
		case j.Procs <= free:
			free -= j.Procs
			p.Start(j.ID, job.Reserved)
			r.started = append(r.started, j.ID)
		default:
			kept = append(kept, j)
		}
	}
	r.waiting = kept
}

// rejections records JobRejected calls.
type rejections struct {
	engine.NopListener
	rejected []job.ID
	at       []float64
}

func (r *rejections) JobRejected(now float64, j *actual.Job) {
	r.rejected = append(r.rejected, j.ID)
	r.at = append(r.at, now)
}

// On 4 CPUs: job 1 (4 CPUs, 0..10) runs; job 2 (4 CPUs) arrives at 1 and
// is rejected at once; job 3 (2 CPUs) arrives at 2 and starts at 10, when
// job 1 ends. Job 2 never starts, is counted in Stats.Rejected and told to
// the RejectListener at t=1; the run ends at 15.
func TestReject(t *testing.T) {
	jobs := []actual.Job{
		{ID: 1, Submit: 0, Procs: 4, Runtime: 10, Estimate: 10, Request: -1},
		{ID: 2, Submit: 1, Procs: 4, Runtime: 10, Estimate: 10, Request: -1},
		{ID: 3, Submit: 2, Procs: 2, Runtime: 5, Estimate: 5, Request: -1},
	}
	l, rec := &rejections{}, &enginetest.Recorder{}
	pol := &rejecter{reject: map[job.ID]bool{2: true}}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Policy: pol, Source: workload.FromSlice(jobs), Listener: engine.Tee{rec, l}})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	if len(l.rejected) != 1 || l.rejected[0] != 2 || l.at[0] != 1 {
		t.Errorf("rejected %v at %v, want job 2 at 1", l.rejected, l.at)
	}
	if e, ok := rec.End(2); ok {
		t.Errorf("job 2 ended: %+v", e)
	}
	if e, ok := rec.End(3); !ok || e.Start != 10 || e.End != 15 {
		t.Errorf("job 3: %+v, want 10..15", e)
	}
	if st := c.Stats(); st.Rejected != 1 || st.Jobs != 3 || st.End != 15 {
		t.Errorf("stats %+v, want 3 jobs, 1 rejected, end 15", st)
	}
}

// Rejecting a job that is not waiting (job 1 started at 0; the pass at 3
// rejects it) stops the run with a
// message naming the policy, the time and the job.
func TestRejectNotWaiting(t *testing.T) {
	jobs := []actual.Job{
		{ID: 1, Submit: 0, Procs: 1, Runtime: 10, Estimate: 10, Request: -1},
		{ID: 2, Submit: 3, Procs: 1, Runtime: 10, Estimate: 10, Request: -1},
	}
	pol := &rejecter{late: true}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Policy: pol, Source: workload.FromSlice(jobs)})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run()
	if err == nil || !strings.Contains(err.Error(), "policy rejecter at t=3: reject job 1: the job is not waiting") {
		t.Errorf("err = %v", err)
	}
}
