package experiment

import (
	"bytes"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/validate"
)

// checkRecords validates per-job records of a multi-site run with the
// independent validator: each job lists as many CPUs as it has tasks,
// inside the platform (inside one site when oneSite), and no CPU is held
// by two jobs at once. The records are the inputs too (a multi-site run's
// durations include the split overhead, which the validator does not
// model), so capacity and identities are what is checked.
func checkRecords(t *testing.T, b *bytes.Buffer, sites []int, oneSite bool) {
	t.Helper()
	recs, err := validate.ReadJobsCSV(b, "jobs.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 1000 {
		t.Fatalf("only %d records", len(recs))
	}
	in := make([]validate.Input, len(recs))
	total := 0
	for _, n := range sites {
		total += n
	}
	for i, r := range recs {
		if r.CPUs == nil {
			t.Fatalf("job %d: no allocated_resources", r.ID)
		}
		in[i] = validate.Input{ID: r.ID, Submit: r.Submit, Runtime: r.Finish - r.Start, Request: -1, Procs: r.Procs}
	}
	if err := validate.Check(in, recs, validate.Options{Procs: total, Machines: sites, OneMachine: oneSite}); err != nil {
		t.Fatal(err)
	}
}

func TestGridCPUIdsValid(t *testing.T) {
	sites := []int{8, 8, 4, 12}
	var b bytes.Buffer
	jw := metrics.NewJobsCSVSites(&b)
	if _, err := RunGrid(GridRun{Platform: platform.MustSites(sites), Grid: "hybrid", Options: map[string]string{"allocation_interval": "0.5", "random_fraction": "0.5", "normalize_load": "true"},
		Local: "sq", MeanInterarrival: 0.04, MeanService: 1, Stop: 5000, Seed: 3}, engine.Listener(jw)); err != nil {
		t.Fatal(err)
	}
	if err := jw.Flush(); err != nil {
		t.Fatal(err)
	}
	checkRecords(t, &b, sites, true)
}

// With one service time shared by a gang's tasks, a gang holds all its
// CPUs from its start to its end, so job-level records can be checked
// (with independent task times a task's CPU is free before the gang ends;
// engine/gang_invariants_test.go checks those task by task). Approach 2
// splits gangs over both sites.
func TestGangCPUIdsValid(t *testing.T) {
	sites := []int{16, 16}
	var b bytes.Buffer
	jw := metrics.NewJobsCSVSites(&b)
	if _, err := RunGang(GangRun{Platform: platform.MustSites(sites), Approach: 2, MeanInterarrival: 0.1, GangMeanInterarrival: 2,
		MeanService: 1, SharedTimes: true, SplitOverhead: 0.1, Stop: 8000, Seed: 5}, engine.Listener(jw)); err != nil {
		t.Fatal(err)
	}
	if err := jw.Flush(); err != nil {
		t.Fatal(err)
	}
	checkRecords(t, &b, sites, false)
}
