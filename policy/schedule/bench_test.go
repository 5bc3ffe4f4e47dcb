package schedule

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/schedlab/schedlab/platform"
)

// benchRun simulates the paper's setting (150 machines, 3000 jobs,
// inter-arrival mean 3; DESIGN.md 4.4) once per iteration and reports the
// policy's cost per decision (one decision per submitted job, Tabu search
// included): wall time (simulation included) and plan evaluations.
func benchRun(b *testing.B, o Options) {
	ms, jobs := paperCase(rand.New(rand.NewPCG(2008, 3)), 150, 3000, 3)
	plat, err := platform.New(ms)
	if err != nil {
		b.Fatal(err)
	}
	var evals, decisions, moves int64
	start := time.Now()
	for b.Loop() {
		p, err := NewEGEDF(plat, o, rand.New(rand.NewPCG(1, 1)))
		if err != nil {
			b.Fatal(err)
		}
		run(b, ms, jobs, p, nil)
		s := p.Stats()
		evals += s.PlanEvals
		decisions += s.Decisions
		moves += s.TabuMoves
	}
	el := time.Since(start)
	b.ReportMetric(float64(el.Nanoseconds())/float64(decisions), "ns/decision")
	b.ReportMetric(float64(evals)/float64(decisions), "evals/decision")
	b.ReportMetric(float64(moves)/float64(decisions), "moves/decision")
}

func BenchmarkEGEDF(b *testing.B) { benchRun(b, Options{}) }
func BenchmarkTabu(b *testing.B)  { benchRun(b, Options{Tabu: true}) }
