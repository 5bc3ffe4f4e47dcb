package sweep

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
)

// examples/fairshare.yaml, the must-show: on the two-user Lublin
// workload (user 2 submits a third of the jobs), the multifactor order
// with fair-share lowers the light user's mean wait significantly
// against the FCFS order (paired 95% CI entirely below 0) under both
// EASY and conservative backfilling; per-user metrics appear only
// because the scenario names them, after the model's own.
func TestFairShareExample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a 40-run sweep")
	}
	pts, err := scenario.Load("../examples/fairshare.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Sweep(pts, t.TempDir(), 2, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range res[0].Metrics {
		names = append(names, m.Name)
	}
	if want := append(modelMetrics(t, registry.ModelCluster), "user1_mean_wait", "user2_mean_wait"); !slices.Equal(names, want) {
		t.Errorf("metrics %v, want %v", names, want)
	}
	found := 0
	for _, c := range Compare(pts, res) {
		if c.Axis != "policy.order" || c.Metric != "user2_mean_wait" {
			continue
		}
		found++
		if c.Value != "multifactor" || c.Baseline != "fcfs" || !(c.Diff.High < 0) {
			t.Errorf("%s %s-%s: light user's wait difference %g [%g, %g], want a CI below 0", c.Context, c.Value, c.Baseline, c.Diff.Mean, c.Diff.Low, c.Diff.High)
		}
	}
	if found != 2 {
		t.Errorf("%d order comparisons of user2_mean_wait, want 2 (easy, conservative)", found)
	}
}

// modelMetrics are the metric names the registry lists for model.
func modelMetrics(t *testing.T, model string) []string {
	t.Helper()
	m, err := registry.LookupModel(model)
	if err != nil {
		t.Fatal(err)
	}
	return m.Metrics
}
