package rank_test

import (
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/rank"
	"github.com/schedlab/schedlab/workload"
)

// run is one job's run as the model reports it.
type run struct {
	start, end float64
	machine    int
	reason     job.StartReason
}

type log struct {
	engine.NopListener
	p     platform.Platform
	runs  map[job.ID]run
	order []job.ID
}

func (l *log) JobStarted(now float64, s engine.Start) {
	l.runs[s.Job.ID] = run{start: now, machine: l.p.MachineOf(int(s.CPUs[0])), reason: s.Reason}
	l.order = append(l.order, s.Job.ID)
}
func (l *log) JobFinished(now float64, r *engine.Record) {
	x := l.runs[r.Job.ID]
	x.end = r.End
	l.runs[r.Job.ID] = x
}

// screened drops the jobs pol refuses, as the runner does, and counts
// them.
func screened(pol *rank.JRB, jobs []actual.Job) ([]actual.Job, int) {
	var out []actual.Job
	n := 0
	for _, j := range jobs {
		if pol.Refuse(j.Info()) != "" {
			n++
			continue
		}
		out = append(out, j)
	}
	return out, n
}

// simulate runs jobs (screened by the policy) on p under JRB through the
// real central-queue model.
func simulate(t testing.TB, p platform.Platform, o rank.Options, jobs []actual.Job) (*log, int) {
	t.Helper()
	o.Platform = p
	pol, err := rank.New(o)
	if err != nil {
		t.Fatal(err)
	}
	kept, refused := screened(pol, jobs)
	l := &log{p: p, runs: map[job.ID]run{}}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: p, Policy: pol, Source: workload.FromSlice(kept), Listener: l})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return l, refused
}

// mb makes a job of procs CPUs with memMB MB per CPU whose estimate is its
// runtime (never killed).
func mb(id int, submit float64, procs int, memMB, runtime float64) actual.Job {
	return actual.Job{ID: job.ID(id), Submit: submit, Procs: procs, Runtime: runtime, Estimate: runtime,
		Request: -1, User: -1, Group: -1, Mem: memMB * 1024}
}

func mustPlatform(t testing.TB, ms ...platform.Machine) platform.Platform {
	t.Helper()
	p, err := platform.New(ms)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// starts checks the start times (and machines when want has them) of a
// schedule.
func checkStarts(t *testing.T, l *log, want map[job.ID]float64) {
	t.Helper()
	for id, s := range want {
		g, ok := l.runs[id]
		if !ok {
			t.Errorf("job %d never started", id)
			continue
		}
		if g.start != s {
			t.Errorf("job %d started at %g, want %g", id, g.start, s)
		}
	}
	if len(l.runs) != len(want) {
		t.Errorf("%d jobs ran, want %d", len(l.runs), len(want))
	}
}
