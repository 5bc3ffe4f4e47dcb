package plan

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// timed measures the wall time spent inside the policy's calls.
type timed struct {
	*Planner
	in time.Duration
}

func (t *timed) Submit(now float64, j job.Info) {
	s := time.Now()
	t.Planner.Submit(now, j)
	t.in += time.Since(s)
}

func (t *timed) Finish(now float64, id job.ID) {
	s := time.Now()
	t.Planner.Finish(now, id)
	t.in += time.Since(s)
}

func (t *timed) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	s := time.Now()
	t.Planner.Schedule(now, v, plan)
	t.in += time.Since(s)
}

// benchRun simulates the paper's setting (150 machines, 3000 jobs,
// inter-arrival mean 3; docs/papers/klusacek2008.md) once per iteration and reports the
// policy's cost per decision (one decision per submitted job, its Tabu
// search included): wall time inside the policy's calls, and plan
// evaluations. ns/op is the whole simulation.
func benchRun(b *testing.B, o Options) {
	ms, jobs := paperCase(rand.New(rand.NewPCG(2008, 3)), 150, 3000, 3)
	plat, err := platform.New(ms)
	if err != nil {
		b.Fatal(err)
	}
	var evals, decisions, moves int64
	var in time.Duration
	for b.Loop() {
		p, err := NewEGEDF(plat, o, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			b.Fatal(err)
		}
		w := &timed{Planner: p}
		run(b, ms, jobs, w, nil)
		s := p.Stats()
		evals += s.PlanEvals
		decisions += s.Decisions
		moves += s.TabuMoves
		in += w.in
	}
	b.ReportMetric(float64(in.Nanoseconds())/float64(decisions), "ns/decision")
	b.ReportMetric(float64(evals)/float64(decisions), "evals/decision")
	b.ReportMetric(float64(moves)/float64(decisions), "moves/decision")
}

func BenchmarkEGEDF(b *testing.B) { benchRun(b, Options{}) }
func BenchmarkTabu(b *testing.B)  { benchRun(b, Options{Tabu: true}) }
