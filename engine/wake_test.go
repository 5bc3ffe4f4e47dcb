package engine_test

import (
	"math"
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

// batcher starts the waiting jobs only at multiples of period and asks
// to be woken at the next one (Plan.Wake); never starts anything when
// stuck is set.
type batcher struct {
	period  float64
	stuck   bool
	waiting []job.ID
	passes  int
}

func (b *batcher) Name() string                   { return "batcher" }
func (b *batcher) Submit(now float64, j job.Info) { b.waiting = append(b.waiting, j.ID) }
func (b *batcher) Finish(float64, job.ID)         {}
func (b *batcher) Schedule(now float64, v policy.Machines, p *policy.Plan) {
	b.passes++
	if !b.stuck && math.Mod(now, b.period) == 0 {
		for _, id := range b.waiting {
			p.Start(id, job.Reserved)
		}
		b.waiting = b.waiting[:0]
	}
	p.Wake = (math.Floor(now/b.period) + 1) * b.period
}

func runBatcher(t *testing.T, b *batcher, jobs []actual.Job) (*enginetest.Recorder, engine.Stats, error) {
	t.Helper()
	l := &enginetest.Recorder{}
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(4), Policy: b, Source: workload.FromSlice(jobs), Listener: l})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run()
	return l, c.Stats(), err
}

// Jobs 1 and 2 arrive at 1 and 2; the batcher asks to be woken at 100
// (twice: one pass), starts both then; they end at 110 and 103. After
// that nothing waits, so its wake-ups at 200 are not honoured: the run
// ends at 110 after 5 passes (1, 2, 100, 103, 110).
func TestWake(t *testing.T) {
	jobs := []actual.Job{
		{ID: 1, Submit: 1, Procs: 1, Runtime: 10, Estimate: 10, Request: -1},
		{ID: 2, Submit: 2, Procs: 2, Runtime: 3, Estimate: 5, Request: -1},
	}
	b := &batcher{period: 100}
	l, st, err := runBatcher(t, b, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := l.End(1); r.Start != 100 || r.End != 110 {
		t.Errorf("job 1: %+v, want start 100, end 110", r)
	}
	if r, _ := l.End(2); r.Start != 100 || r.End != 103 {
		t.Errorf("job 2: %+v, want start 100, end 103", r)
	}
	if b.passes != 5 || st.End != 110 {
		t.Errorf("%d passes, end %g; want 5 passes (1, 2, 100, 103, 110), end 110", b.passes, st.End)
	}
}

// A policy that keeps asking to be woken and never starts the waiting job
// is stopped with a message instead of running for ever.
func TestWakeForEver(t *testing.T) {
	jobs := []actual.Job{{ID: 1, Submit: 0, Procs: 1, Runtime: 10, Estimate: 10, Request: -1}}
	_, _, err := runBatcher(t, &batcher{period: 1, stuck: true}, jobs)
	want := "policy batcher at t=1e+06: asked to be woken 1000000 times in a row without a job starting, arriving or ending (1 job(s) waiting)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err %v, want %q", err, want)
	}
}
