package engine_test

import (
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/engine/enginetest"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/workload"
)

// tickAll holds every arrival and sends all held jobs, FCFS, to site 0 at
// each tick (a deterministic deferred policy).
type tickAll struct {
	period float64
	held   []job.ID
}

func (p *tickAll) Name() string    { return "tick-all" }
func (p *tickAll) Period() float64 { return p.period }
func (p *tickAll) Schedule(now float64, arr []job.Info, tick bool, v policy.GridView, d policy.Dispatcher) error {
	for _, j := range arr {
		p.held = append(p.held, j.ID)
	}
	if tick {
		for _, id := range p.held {
			if err := d.Send(id, 0); err != nil {
				return err
			}
		}
		p.held = p.held[:0]
	}
	return nil
}

// fewest picks the processor with the fewest jobs, the lowest index on ties.
type fewest struct{}

func (fewest) Name() string { return "fewest" }
func (fewest) Select(now float64, s int, j job.Info, v policy.GridView) int {
	best := 0
	for p := 1; p < v.SiteProcs(s); p++ {
		if v.ProcJobs(s, p) < v.ProcJobs(s, best) {
			best = p
		}
	}
	return best
}

type gridLog struct {
	*enginetest.Recorder
	site map[job.ID]int
}

func (g *gridLog) JobDispatched(now float64, j *actual.Job, ms []int) { g.site[j.ID] = ms[0] }

// One site of two processors, allocation interval 1:
//
//	j1 0.2 (3)  j2 0.5 (1)  j3 0.9 (0.5)  j4 1.5 (1)  j5 2.0 (1)
//
// t=1 tick: j1 -> p0, starts, ends 4; j2 -> p1 (0 jobs), starts, ends 2;
// j3: both have 1 job -> p0, queued behind j1.
// t=2: j2 ends first (completions before arrivals and ticks), then j5
// arrives, then the tick sends j4 -> p1 (0 jobs), starts, ends 3, and j5 ->
// p1 (1 job vs 2 at p0), queued.
// t=3: j4 ends, j5 starts (FCFS at p1), ends 4. t=4: j1 ends, j3 starts,
// ends 4.5. Response times count the wait in the grid scheduler's queue.
func TestGridHandTraced(t *testing.T) {
	jobs := []actual.Job{j(1, 0.2, 1, 3, 3), j(2, 0.5, 1, 1, 1), j(3, 0.9, 1, 0.5, 0.5), j(4, 1.5, 1, 1, 1), j(5, 2, 1, 1, 1)}
	run := func(stop int64) *gridLog {
		l := &gridLog{&enginetest.Recorder{}, map[job.ID]int{}}
		g, err := engine.NewGrid(engine.GridConfig{Platform: platform.MustSites([]int{2}), Grid: &tickAll{period: 1}, Local: fewest{},
			Source: workload.FromSlice(jobs), Listener: l, StopAfter: stop})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Run(); err != nil {
			t.Fatal(err)
		}
		return l
	}
	l := run(0)
	wantStart := map[job.ID]float64{1: 1, 2: 1, 3: 4, 4: 2, 5: 3}
	wantEnd := map[job.ID]float64{1: 4, 2: 2, 3: 4.5, 4: 3, 5: 4}
	for id := job.ID(1); id <= 5; id++ {
		if startAt(l.Recorder, id) != wantStart[id] || endOf(l.Recorder, id) != wantEnd[id] {
			t.Errorf("job %d: start %v end %v, want %v and %v", id, startAt(l.Recorder, id), endOf(l.Recorder, id), wantStart[id], wantEnd[id])
		}
	}
	// Stop after three completions: j2 (t=2), j4 (t=3), then at t=4 both j1
	// and j5 end; j1's completion event was pushed first (at t=1, j5's at
	// t=3), so j1 is the third and the run stops before j5's.
	l = run(3)
	if len(l.Ends) != 3 || endOf(l.Recorder, 1) != 4 || endOf(l.Recorder, 5) != 0 {
		t.Errorf("stop after 3: ends %+v, want j2, j4, j1", l.Ends)
	}
}

func TestGridRejectsBadDecisions(t *testing.T) {
	bad := &badSite{}
	g, _ := engine.NewGrid(engine.GridConfig{Platform: platform.MustSites([]int{2}), Grid: bad, Local: fewest{}, Source: workload.FromSlice([]actual.Job{j(1, 0, 1, 1, 1)})})
	err := g.Run()
	want := "grid scheduler bad at t=0: send job 1: no site 3 (there are 1)"
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
}

type badSite struct{}

func (badSite) Name() string    { return "bad" }
func (badSite) Period() float64 { return 0 }
func (badSite) Schedule(now float64, arr []job.Info, tick bool, v policy.GridView, d policy.Dispatcher) error {
	for _, j := range arr {
		if err := d.Send(j.ID, 3); err != nil {
			return err
		}
	}
	return nil
}
