package experiment

import (
	"errors"
	"testing"

	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
)

// Every implemented model of the registry has exactly one runner, and
// nothing else has one.
func TestRunnersMatchTheRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range runners() {
		m, err := registry.LookupModel(r.model)
		if err != nil || !m.Implemented {
			t.Errorf("runner for %q: model %+v, %v", r.model, m, err)
		}
		if seen[r.model] {
			t.Errorf("two runners for %s", r.model)
		}
		seen[r.model] = true
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
		Workload: scenario.Workload{MeanInterarrival: 1, MeanService: 1}, Policy: scenario.Policy{Grid: "random", Local: "fastest"}}
	_, err := runRep(s, 0, "")
	var une *registry.UnknownNameError
	if !errors.As(err, &une) || une.Name != "fastest" {
		t.Errorf("unknown local scheduler: err %v, want an UnknownNameError", err)
	}
	s.Policy.Local = "sq"
	if _, err := runRep(s, 0, ""); err != nil {
		t.Errorf("grid run: %v", err)
	}
	s.Platform.Sites[0].Speed = 2
	if _, err := runRep(s, 0, ""); err == nil {
		t.Error("a site of speed 2 was accepted by the grid model")
	}
}
