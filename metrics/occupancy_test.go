package metrics

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
)

// Two machines of 2 and 4 CPUs. Instants at 0, 10 and 15; the usage handed
// at an instant is what held since the previous one:
//
//	[0, 10): busy 2 and 1, jobs present 3 and 1
//	[10, 15): busy 0 and 4, jobs present 0 and 4
//
// Platform utilization (10x3 + 5x4) / (15 x 6) = 50/90; machine 0 busy
// 20/(15x2), machine 1 (10+20)/(15x4); jobs present 30/15 and 30/15.
func TestOccupancyHandWorked(t *testing.T) {
	p := platform.MustSites([]int{2, 4})
	o := NewOccupancy()
	o.TimeAdvanced(0, &engine.Usage{Platform: p, Busy: []int{0, 0}, Jobs: []int{0, 0}})
	o.TimeAdvanced(10, &engine.Usage{Platform: p, Busy: []int{2, 1}, Jobs: []int{3, 1}})
	o.TimeAdvanced(10, &engine.Usage{Platform: p, Busy: []int{2, 1}, Jobs: []int{3, 1}}) // same instant again: nothing
	o.TimeAdvanced(15, &engine.Usage{Platform: p, Busy: []int{0, 4}, Jobs: []int{0, 4}})
	near := func(name string, got, want float64) {
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	near("span", o.Span(), 15)
	near("utilization", o.Utilization(), 50.0/90)
	busy, jobs := o.Machines()
	near("busy[0]", busy[0], 20.0/30)
	near("busy[1]", busy[1], 30.0/60)
	near("jobs[0]", jobs[0], 2)
	near("jobs[1]", jobs[1], 2)
}

// The gang counters count the whole run (warm-up included), by kind; a
// dispatch to two machines is a split; only backfilled starts count.
func TestGangCounters(t *testing.T) {
	m := NewGangMetrics(1)
	local := &actual.Job{ID: 1, Procs: 1}
	gang := &actual.Job{ID: 2, Procs: 2, Tasks: []actual.Task{{}, {}}}
	m.JobSubmitted(0, local)
	m.JobSubmitted(0, gang)
	m.JobDispatched(0, gang, []int{0, 1})
	m.JobStarted(0, engine.Start{Job: local, Reason: job.Backfilled})
	m.JobStarted(0, engine.Start{Job: gang, Reason: job.Immediate})
	m.JobFinished(4, &engine.Record{Job: local, Start: 0, End: 4})
	m.JobFinished(6, &engine.Record{Job: gang, Start: 2, End: 6}) // response 6, service 4
	st := m.Result()
	want := GangStats{Gangs: 1, WRT: 6, WSLD: 1.5, LocalsArrived: 1, GangsArrived: 1, LocalsFinished: 1, GangsFinished: 1, GangsSplit: 1, Backfilled: 1}
	if st != want {
		t.Fatalf("got %+v\nwant %+v", st, want)
	}
}

// Deadlines by hand, on 4 CPUs. Job 1 (2 CPUs, deadline 10) runs [0, 8):
// met. Job 2 (4 CPUs, deadline 9) waits, runs [8, 12): missed. Job 3 (1
// CPU, no deadline) arrives at 20 and runs [20, 21). Usage while jobs are
// present: [0, 8): 2 active / min(4, 2+4 requested) = 0.5; [8, 12): 4/4 =
// 1; [12, 20) no job: left out; [20, 21): 1 / min(4, 1) = 1. Mean over 13
// time units: (8 x 0.5 + 4 + 1) / 13 = 9/13.
func TestDeadlinesHandWorked(t *testing.T) {
	p := platform.MustCluster(4)
	d := NewDeadlines()
	j1 := &actual.Job{ID: 1, Procs: 2, Deadline: 10}
	j2 := &actual.Job{ID: 2, Procs: 4, Deadline: 9}
	j3 := &actual.Job{ID: 3, Procs: 1, Submit: 20}
	u := func(busy int) *engine.Usage { return &engine.Usage{Platform: p, Busy: []int{busy}, Jobs: []int{0}} }
	d.TimeAdvanced(0, u(0))
	d.JobSubmitted(0, j1)
	d.JobSubmitted(0, j2)
	d.TimeAdvanced(8, u(2))
	d.JobFinished(8, &engine.Record{Job: j1, Start: 0, End: 8})
	d.TimeAdvanced(12, u(4))
	d.JobFinished(12, &engine.Record{Job: j2, Start: 8, End: 12})
	d.TimeAdvanced(20, u(0))
	d.JobSubmitted(20, j3)
	d.TimeAdvanced(21, u(1))
	d.JobFinished(21, &engine.Record{Job: j3, Start: 20, End: 21})
	got := d.Result()
	want := DeadlineStats{Jobs: 3, WithDeadline: 2, Missed: 1, MissedPct: 100.0 / 3, MissedOfDeadlinePct: 50, Usage: 9.0 / 13}
	if got.Jobs != want.Jobs || got.WithDeadline != want.WithDeadline || got.Missed != want.Missed ||
		math.Abs(got.MissedPct-want.MissedPct) > 1e-12 || got.MissedOfDeadlinePct != want.MissedOfDeadlinePct ||
		math.Abs(got.Usage-want.Usage) > 1e-12 {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

// Queue at events: job 1 arrives (1 waiting) and starts; job 2 arrives (1
// waiting); job 1 ends (1 waiting); job 2 starts and ends (0): (1+1+1+0)/4.
func TestQueueAtEvents(t *testing.T) {
	q := NewQueueAtEvents()
	j1, j2 := &actual.Job{ID: 1, Procs: 1}, &actual.Job{ID: 2, Procs: 1}
	q.JobSubmitted(0, j1)
	q.JobStarted(0, engine.Start{Job: j1})
	q.JobSubmitted(1, j2)
	q.JobFinished(2, &engine.Record{Job: j1})
	q.JobStarted(2, engine.Start{Job: j2})
	q.JobFinished(3, &engine.Record{Job: j2})
	if got := q.Mean(); got != 0.75 {
		t.Fatalf("mean %g, want 0.75", got)
	}
}
