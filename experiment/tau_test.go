package experiment

import (
	"testing"

	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/scenario"
)

// The bounded-slowdown threshold of each model is the one docs/scheduling.md
// lists: 10 s for a trace, 0 for the synthetic cluster model (whose bounded
// slowdown is then its slowdown floored at 1).
func TestTauPerModel(t *testing.T) {
	res, err := (RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: "fcfs"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	if res.Result.Tau != metrics.DefaultTau || metrics.DefaultTau != 10 {
		t.Errorf("trace: tau %g, want 10", res.Result.Tau)
	}
	pts, err := scenario.Parse("t.yaml", []byte("model: cluster\nstop: {completed: 200}\nplatform: {procs: 4}\nworkload: {mean_interarrival: 0.5}\npolicy: {queue: fcfs}\n"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := RunReplication(pts[0].Scenario, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	r := m.Detail.(ClusterResult)
	if r.Tau != 0 || metrics.SyntheticTau != 0 {
		t.Errorf("synthetic cluster: tau %g, want 0", r.Tau)
	}
	if r.MeanBoundedSlowdown != r.MeanSlowdown {
		t.Errorf("synthetic cluster: bounded slowdown %g differs from slowdown %g with tau 0 (no zero-length jobs)", r.MeanBoundedSlowdown, r.MeanSlowdown)
	}
}
