package experiment

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
)

// Every implemented model of the registry has exactly one assembly
// (synthModels), and nothing else has one.
func TestRunnersMatchTheRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range synthModels {
		m, err := registry.LookupModel(r.name)
		if err != nil || !m.Implemented {
			t.Errorf("runner for %q: model %+v, %v", r.name, m, err)
		}
		if seen[r.name] {
			t.Errorf("two runners for %s", r.name)
		}
		seen[r.name] = true
	}
	for _, m := range registry.Models() {
		if m.Implemented && !seen[m.Name] {
			t.Errorf("model %s is implemented but has no runner", m.Name)
		}
	}
}

// A policy name the registry does not know is a typed error.
func TestRunRepErrors(t *testing.T) {
	s := scenario.Scenario{Model: registry.ModelGrid, Seed: 1, Stop: scenario.Stop{Completed: 10},
		Platform: scenario.Platform{Sites: []scenario.Site{{Procs: 2, Speed: 1}}},
		Workload: scenario.Workload{MeanInterarrival: 1, MeanService: 1}, Policy: scenario.PolicySpec{Grid: "random", Local: "fastest"}}
	_, err := RunReplication(s, 0, "")
	var une *registry.UnknownNameError
	if !errors.As(err, &une) || une.Name != "fastest" {
		t.Errorf("unknown local scheduler: err %v, want an UnknownNameError", err)
	}
	s.Policy.Local = "sq"
	if _, err := RunReplication(s, 0, ""); err != nil {
		t.Errorf("grid run: %v", err)
	}
	s.Platform.Sites[0].Speed = 2
	if _, err := RunReplication(s, 0, ""); err == nil {
		t.Error("a site of speed 2 was accepted by the grid model")
	}
}

// jrb's and matrix's options given in a scenario reach the policy: a
// point equals RunTrace with the same options, and differs from the
// defaults' point.
func TestClusterPolicyOptions(t *testing.T) {
	point := func(policyYAML string) scenario.Scenario {
		t.Helper()
		src := "model: cluster\nreplications: 1\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\npolicy: " + policyYAML + "\n"
		pts, err := scenario.Parse("c.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return pts[0].Scenario
	}
	run := func(s scenario.Scenario) []float64 {
		t.Helper()
		m, err := RunReplication(s, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		return m.Values
	}
	direct := func(cfg RunSpec) []float64 {
		t.Helper()
		cfg.Workload.Trace = "KTH-SP2-1996-2.1-cln.swf.gz"
		r, err := cfg.Run()
		if err != nil {
			t.Fatal(err)
		}
		return []float64{r.MeanWait, r.MaxWait, r.MeanResponse, r.MeanSlowdown, r.MeanBoundedSlowdown, r.Utilization, r.Makespan}
	}
	for _, c := range []struct {
		yaml, def string
		cfg       RunSpec
	}{
		{"{queue: jrb, rank: log, head: easy}", "{queue: jrb}",
			RunSpec{Policy: PolicySpec{Name: "jrb", Options: map[string]string{"rank": "log", "head": "easy"}}}},
		{"{queue: matrix, window: fixed, window_jobs: 3}", "{queue: matrix}",
			RunSpec{Policy: PolicySpec{Name: "matrix", Options: map[string]string{"window": "fixed", "window_jobs": "3"}}}},
	} {
		got, want := run(point(c.yaml)), direct(c.cfg)
		if !slices.Equal(got, want) {
			t.Errorf("%s: scenario %v, RunTrace %v", c.yaml, got, want)
		}
		if def := run(point(c.def)); slices.Equal(def, got) {
			t.Errorf("%s: the options changed nothing (%v)", c.yaml, got)
		}
	}
	// window_jobs without window: fixed is an error of the file.
	if _, err := scenario.Parse("c.yaml", []byte("model: cluster\nreplications: 1\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\npolicy: {queue: matrix, window_jobs: 4}\n")); err == nil || !strings.Contains(err.Error(), "policy.window_jobs") {
		t.Errorf("window_jobs without window fixed: %v", err)
	}
}
