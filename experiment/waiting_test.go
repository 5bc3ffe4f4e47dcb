package experiment

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
)

// An overloaded synthetic model (offered load above 1) ends with an error
// naming the bound and the offered load once MaxWaiting jobs wait, not
// with the memory exhausted. Each configuration here would otherwise hold
// more than MaxWaiting waiting jobs before its stopping rule.
func TestOverloadedModelsStop(t *testing.T) {
	one, err := platform.Sites([]int{1})
	if err != nil {
		t.Fatal(err)
	}
	sixteen, err := platform.Sites([]int{16})
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string, err error, load string) {
		t.Helper()
		want := name + " model: more than 500000 jobs waiting at t="
		switch {
		case err == nil:
			t.Errorf("%s: no error", name)
		case !errors.Is(err, engine.ErrTooManyWaiting):
			t.Errorf("%s: %v, want %v", name, err, engine.ErrTooManyWaiting)
		case !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "(limit experiment.MaxWaiting): the offered load is "+load+", above 1"):
			t.Errorf("%s: message %q", name, err)
		}
	}
	_, err = RunGrid(GridRun{Platform: one, Grid: "random", Local: "sq", MeanInterarrival: 0.05, MeanService: 1, Stop: 30000, Seed: 1})
	check("grid", err, "20")
	_, err = RunGang(GangRun{Platform: sixteen, Approach: 1, MeanInterarrival: 0.0005, GangMeanInterarrival: 2, MeanService: 1,
		GangMin: 2, GangMax: 13, Stop: 6000, Seed: 1})
	check("gang", err, "125.2")
	s := scenario.Scenario{Model: registry.ModelCluster, Seed: 1, Stop: scenario.Stop{Completed: 600000},
		Platform: scenario.Platform{Procs: 1}, Workload: scenario.Workload{MeanInterarrival: 0.05, MeanService: 1},
		Policy: scenario.PolicySpec{Queue: "fcfs", Options: map[string]string{"order": "fcfs"}}}
	_, err = RunReplication(s, 0, "")
	check("cluster", err, "20")
}

// A periodic grid scheduler with an absurd allocation interval fills the
// queue at a load below 1: the message names policy.allocation_interval.
func TestOverlongAllocationIntervalNamed(t *testing.T) {
	two, err := platform.Sites([]int{4, 4})
	if err != nil {
		t.Fatal(err)
	}
	_, err = RunGrid(GridRun{Platform: two, Grid: "deferred", Local: "sq", Options: map[string]string{"allocation_interval": "1e+300"},
		MeanInterarrival: 1, MeanService: 1, Stop: 1000, Seed: 1})
	if err == nil || !errors.Is(err, engine.ErrTooManyWaiting) || !strings.Contains(err.Error(), "policy.allocation_interval is 1e+300") {
		t.Fatalf("err = %v, want the waiting limit naming policy.allocation_interval", err)
	}
}

// The hetero model stops at the waiting limit too (it used to hold every
// waiting job: 3 million took 2.4 GB).
func TestOverloadedHeteroStops(t *testing.T) {
	pts, err := scenario.Parse("h.yaml", []byte("model: hetero\nstop: {completed: 600000}\nplatform: {machines: 2, cpus_min: 8, cpus_max: 8}\nworkload: {mean_interarrival: 0.001}\npolicy: {queue: fcfs}\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = RunReplication(pts[0].Scenario, 0, "")
	if err == nil || !errors.Is(err, engine.ErrTooManyWaiting) || !strings.HasPrefix(err.Error(), "hetero model: more than 500000 jobs waiting at t=") {
		t.Fatalf("err = %v, want the hetero model's waiting limit", err)
	}
}
