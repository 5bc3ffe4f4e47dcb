package sweep

import (
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/scenario"
)

type countProgress struct{ grown, done int }

func (c *countProgress) Grow(n int) { c.grown += n }
func (c *countProgress) Add(n int)  { c.done += n }

// Run gives the replications Sweep summarises, and a Memo runs a key
// once: asking again, or for a scenario equal up to a setting its policy
// does not read, runs nothing.
func TestRunAndMemo(t *testing.T) {
	pts, err := scenario.Parse("g.yaml", []byte(`
model: grid
seed: 3
replications: 2
stop: {completed: 500}
platform: {sites: 2, procs_per_site: 4}
workload: {mean_interarrival: 0.2}
policy: {grid: [random, deferred], local: sq, allocation_interval: 0.5}
`))
	if err != nil {
		t.Fatal(err)
	}
	scens := []scenario.Scenario{pts[0].Scenario, pts[1].Scenario}
	reps, err := Run(scens, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Sweep(pts, "", 1, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pts {
		for j, m := range res[i].Metrics {
			for rep := range reps[i] {
				if reps[i][rep].Names[j] != m.Name || reps[i][rep].Values[j] != m.Values[rep] {
					t.Errorf("point %d %s replication %d: Run %g, Sweep %g", i, m.Name, rep, reps[i][rep].Values[j], m.Values[rep])
				}
			}
		}
	}

	var prog countProgress
	memo := NewMemo(2, &prog)
	if err := memo.Run(scens); err != nil {
		t.Fatal(err)
	}
	// The random grid scheduler reads no allocation interval: the same key.
	other := scens[0]
	other.Policy = other.Policy.SetOption("allocation_interval", "9")
	if err := memo.Run(append(scens, other)); err != nil {
		t.Fatal(err)
	}
	if prog.grown != 4 || prog.done != 4 {
		t.Errorf("progress grew by %d and counted %d, want 4 replications run once", prog.grown, prog.done)
	}
	if got := memo.Values(scens[1], "rt"); !reflect.DeepEqual(got, res[1].Metrics[0].Values) {
		t.Errorf("memo rt %v, sweep %v", got, res[1].Metrics[0].Values)
	}
	n := 0
	memo.Visit(func(m experiment.RepMetrics) { n++ })
	if n != 4 {
		t.Errorf("Visit saw %d replications, want 4", n)
	}
}
