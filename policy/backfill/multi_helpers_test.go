package backfill_test

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
)

// ran is one job's run as the model reports it.
type ran struct {
	start, end float64
	machine    int
	reason     job.StartReason
	cpus       []validate.Interval
}

// multiLog records every job's run on a platform of several machines.
type multiLog struct {
	engine.NopListener
	p    platform.Platform
	runs map[job.ID]ran
	// order lists the jobs in start order.
	order []job.ID
}

func (l *multiLog) JobStarted(now float64, s engine.Start) {
	l.runs[s.Job.ID] = ran{start: now, machine: l.p.MachineOf(int(s.CPUs[0])), reason: s.Reason}
	l.order = append(l.order, s.Job.ID)
}

func (l *multiLog) ended(r *engine.Record) {
	x := l.runs[r.Job.ID]
	x.end = r.End
	for k := 0; k+1 < len(r.CPUs); k += 2 {
		x.cpus = append(x.cpus, validate.Interval{Lo: int(r.CPUs[k]), Hi: int(r.CPUs[k+1])})
	}
	l.runs[r.Job.ID] = x
}
func (l *multiLog) JobFinished(now float64, r *engine.Record) { l.ended(r) }
func (l *multiLog) JobKilled(now float64, r *engine.Record)   { l.ended(r) }

// runOn simulates jobs on p under pol through the real central-queue
// model.
func runOn(t *testing.T, p platform.Platform, pol policy.QueueScheduler, jobs []actual.Job) *multiLog {
	t.Helper()
	l := &multiLog{p: p, runs: map[job.ID]ran{}}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: p, Policy: pol, Source: workload.FromSlice(jobs), Listener: l})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return l
}

// spy records the engine's queue after every pass, by pass time.
type spy struct {
	*backfill.Backfill
	after map[float64][]backfill.Queued
}

func (s *spy) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	s.Backfill.Schedule(now, v, plan)
	s.after[now] = s.Queue()
}

func newSpy(b *backfill.Backfill) *spy {
	return &spy{Backfill: b, after: map[float64][]backfill.Queued{}}
}

// exact makes a job whose estimate is its runtime (no request: never
// killed).
func exact(id int, submit float64, procs int, est float64) actual.Job {
	return actual.Job{ID: job.ID(id), Submit: submit, Procs: procs, Runtime: est, Estimate: est, Request: -1, User: -1, Group: -1}
}

func mustPlatform(t *testing.T, ms ...platform.Machine) platform.Platform {
	t.Helper()
	p, err := platform.New(ms)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func ids(qs []backfill.Queued) []job.ID {
	var out []job.ID
	for _, q := range qs {
		out = append(out, q.ID)
	}
	return out
}

func checkRuns(t *testing.T, l *multiLog, want map[job.ID]ran) {
	t.Helper()
	keys := make([]job.ID, 0, len(want))
	for id := range want {
		keys = append(keys, id)
	}
	slices.Sort(keys)
	for _, id := range keys {
		w, g := want[id], l.runs[id]
		if g.start != w.start || g.end != w.end || g.machine != w.machine || g.reason != w.reason {
			t.Errorf("job %d: start %g end %g on m%d (%v), want start %g end %g on m%d (%v)",
				id, g.start, g.end, g.machine, g.reason, w.start, w.end, w.machine, w.reason)
		}
	}
}
