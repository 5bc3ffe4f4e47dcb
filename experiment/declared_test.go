package experiment

import (
	"slices"
	"testing"

	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
)

// A declared metric that is off by default (p95_wait) is measured only
// when the scenario's metrics list names it, after the model's default
// metrics, on a synthetic workload and on a trace alike; without it the
// names are the model's defaults.
func TestDeclaredMetricAskedFor(t *testing.T) {
	c, _ := registry.LookupModel(registry.ModelCluster)
	synthetic := scenario.Scenario{Model: registry.ModelCluster, Seed: 1, Replications: 1, Stop: scenario.Stop{Completed: 400},
		Warmup: scenario.Warmup{Jobs: 40}, Platform: scenario.Platform{Procs: 2},
		Workload: scenario.Workload{MeanInterarrival: 0.6, MeanService: 1}, Policy: scenario.PolicySpec{Queue: "fcfs"}}
	trace := scenario.Scenario{Model: registry.ModelCluster, Seed: 1, Replications: 1,
		Workload: scenario.Workload{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", Jobs: 300, Estimate: "request", OnOverrun: "kill"}, Policy: scenario.PolicySpec{Queue: "easy"}}
	for _, s := range []scenario.Scenario{synthetic, trace} {
		plain, err := RunReplication(s, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(plain.Names, c.Metrics) {
			t.Errorf("%s: names %v, want the defaults %v", s.Workload.Trace, plain.Names, c.Metrics)
		}
		s.Metrics = []string{"p95_wait", "mean_wait"}
		asked, err := RunReplication(s, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		if want := append(slices.Clone(c.Metrics), "p95_wait"); !slices.Equal(asked.Names, want) {
			t.Fatalf("%s: names %v, want %v", s.Workload.Trace, asked.Names, want)
		}
		if !slices.Equal(asked.Values[:len(c.Metrics)], plain.Values) {
			t.Errorf("%s: asking for p95_wait changed the other metrics: %v, %v", s.Workload.Trace, asked.Values, plain.Values)
		}
		p95, mean, max := asked.Values[len(c.Metrics)], asked.Values[asked.Index("mean_wait")], asked.Values[asked.Index("max_wait")]
		if !(p95 >= 0 && p95 <= max) || mean > 0 && p95 == 0 {
			t.Errorf("%s: p95_wait %g outside [0, max_wait %g] (mean %g)", s.Workload.Trace, p95, max, mean)
		}
	}
}
