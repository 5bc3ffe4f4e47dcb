package experiment

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
)

type noProgress struct{}

func (noProgress) Add(int) {}

const heteroScenario = `
model: hetero
seed: 7
replications: 2
stop: {completed: 300}
platform: {machines: 20, cpus_max: 8}
workload:
  mean_interarrival: [2, 5]
  deadline: [factor, alea]
policy:
  queue: [fcfs, easy, flexible, eg-edf, tabu]
`

func heteroSummary(t *testing.T, workers int) []byte {
	t.Helper()
	pts, err := scenario.Parse("h.yaml", []byte(heteroScenario))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Sweep(pts, "", workers, noProgress{}, false)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteSummaryCSV(&b, pts, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A hetero sweep gives the same summary.csv every time, whatever the
// number of workers, and reports the model's metrics (no timings).
func TestHeteroSweepDeterministic(t *testing.T) {
	a, b := heteroSummary(t, 1), heteroSummary(t, 4)
	if !bytes.Equal(a, b) {
		t.Fatalf("two runs differ:\n%s\n---\n%s", a, b)
	}
	text := string(a)
	for _, m := range heteroMetrics {
		if !strings.Contains(text, ","+m+",") {
			t.Errorf("summary.csv lacks metric %s", m)
		}
	}
	if strings.Contains(text, "decision") {
		t.Error("summary.csv holds a decision time (wall clock)")
	}
	if !strings.Contains(text, "hetero_queue=tabu_ia=5_dl=alea_machines=20_cpus=1-8_speed=200-600_stop=300_warmup=0_seed=7_reps=2") {
		t.Errorf("no expected key in:\n%s", text)
	}
}

// Explicit machines (platform.sites) run; an unknown hetero policy is a
// typed error.
func TestHeteroRunner(t *testing.T) {
	s := scenario.Scenario{Model: registry.ModelHetero, Seed: 1, Replications: 1, Stop: scenario.Stop{Completed: 50},
		Platform: scenario.Platform{Sites: []scenario.Site{{Procs: 4, Speed: 200}, {Procs: 8, Speed: 500}}},
		Workload: scenario.Workload{MeanInterarrival: 3, CPUsMin: 1, CPUsMax: 4, EstimatedMin: 500, EstimatedMax: 3000,
			DeadlineFraction: 0.7, Deadline: "fastest", DeadlineFactorMin: 2, DeadlineFactorMax: 4, BMEst: "random-machine"},
		Policy: scenario.Policy{Queue: "eg-edf"}}
	m, err := runRep(s, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.values) != len(heteroMetrics) || m.values[0] < 0 || m.values[0] > 100 {
		t.Errorf("metrics %v %v", m.names, m.values)
	}
	s.Policy.Queue = "conservative"
	_, err = runRep(s, 0, "")
	var une *registry.UnknownNameError
	if !errors.As(err, &une) || une.Name != "conservative" {
		t.Errorf("unknown hetero policy: err %v, want an UnknownNameError", err)
	}
}
