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
