package rank_test

import (
	"testing"

	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/rank"
)

// run is one job's run as the model reports it.
type run struct {
	start, end float64
	machine    int
	reason     job.StartReason
}

// log is every job's run and the start order, from the harness's
// recording (enginetest.Recorder).
type log struct {
	runs  map[job.ID]run
	order []job.ID
}

// logOf reads r's starts (on p's machines) and finished jobs.
func logOf(p platform.Platform, r *enginetest.Recorder) *log {
	l := &log{runs: map[job.ID]run{}, order: r.Order()}
	for _, s := range r.Starts {
		l.runs[s.ID] = run{start: s.At, machine: p.MachineOf(int(s.CPUs[0])), reason: s.Reason}
	}
	for _, e := range r.Ends {
		if !e.Killed {
			x := l.runs[e.Job.ID]
			x.end = e.End
			l.runs[e.Job.ID] = x
		}
	}
	return l
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
	return logOf(p, enginetest.RunCluster(t, p, pol, kept, enginetest.Options{})), refused
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
