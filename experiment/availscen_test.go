package experiment

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/scenario"
)

// A cluster scenario with platform.reservations, events and on_failure
// computes what schedlab run computes with --reservation, --events and
// --on-failure (RunSpec.Avail): the same metrics, to the last bit, and
// the same unavailable spans; and not what the run without them
// computes.
func TestScenarioAvailMatchesRun(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-trace runs")
	}
	dir := t.TempDir()
	ev := halfDownEvents(t, dir)
	src := `model: cluster
stop: trace
workload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}
platform:
  reservations: ["5000000:5086400:100"]
  events: ` + ev + `
  on_failure: requeue
policy: {queue: easy}
`
	pts, err := scenario.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	records := filepath.Join(dir, "rec.csv")
	got, err := RunReplication(pts[0].Scenario, 0, records)
	if err != nil {
		t.Fatal(err)
	}
	want, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}, Platform: PlatformSpec{Avail: AvailSpec{Reservations: []string{"5000000:5086400:100"}, Events: ev, OnFailure: "requeue"}}, Policy: PolicySpec{Name: "easy"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	plain, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}, Policy: PolicySpec{Name: "easy"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	w, p := want.Result, plain.Result
	sameMetrics(t, got, w)
	if w.MeanWait == p.MeanWait {
		t.Errorf("mean wait %v with and without unavailable CPUs: the scenario's windows did nothing", w.MeanWait)
	}
	spans, err := os.ReadFile(filepath.Join(dir, "rec", "unavailability.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "kind,resources,start,end\ndown,0-49,2000000,2500000\nreserved,0-99,5000000,5086400\n"; string(spans) != want {
		t.Errorf("unavailability.csv:\n%s\nwant\n%s", spans, want)
	}
}

// spanRecorder keeps each finished job's CPUs and times.
type spanRecorder struct {
	recs []engine.Record
}

func (r *spanRecorder) JobSubmitted(float64, *actual.Job)         {}
func (r *spanRecorder) JobDispatched(float64, *actual.Job, []int) {}
func (r *spanRecorder) JobStarted(float64, engine.Start)          {}
func (r *spanRecorder) JobFinished(_ float64, x *engine.Record) {
	c := *x
	c.CPUs = append(platform.Runs(nil), x.CPUs...)
	r.recs = append(r.recs, c)
}
func (r *spanRecorder) JobKilled(now float64, x *engine.Record) { r.JobFinished(now, x) }

// A synthetic cluster (M/M/4, rho 0.75) with CPUs 0-1 reserved over
// [20, 60) and the whole machine over [100, 110): no job holds a
// reserved CPU during its window, jobs run on CPUs 2-3 during the first
// one, and the windows change the metrics.
func TestScenarioAvailSynthetic(t *testing.T) {
	const base = `model: cluster
seed: 3
stop: {completed: 400}
workload: {mean_interarrival: 0.333333, mean_service: 1}
policy: {queue: easy}
platform:
  procs: 4
`
	run := func(extra string) ([]engine.Record, RepMetrics) {
		pts, err := scenario.Parse("s.yaml", []byte(base+extra))
		if err != nil {
			t.Fatal(err)
		}
		rec := &spanRecorder{}
		m, err := RunReplication(pts[0].Scenario, 0, "", rec)
		if err != nil {
			t.Fatal(err)
		}
		return rec.recs, m
	}
	recs, m := run(`  reservations: ["20:60:0-1", "100:110:4"]` + "\n")
	_, plain := run("")
	if len(recs) != 400 {
		t.Fatalf("%d jobs, want 400", len(recs))
	}
	upper := 0
	for _, r := range recs {
		low := r.CPUs[0] <= 1
		if low && r.Start < 60 && r.End > 20 {
			t.Errorf("job %d on CPUs %v over [%g, %g) crosses the window on CPUs 0-1", r.Job.ID, r.CPUs, r.Start, r.End)
		}
		if r.Start < 110 && r.End > 100 {
			t.Errorf("job %d over [%g, %g) crosses the full window", r.Job.ID, r.Start, r.End)
		}
		if r.Start >= 20 && r.Start < 60 {
			upper++
		}
	}
	if upper == 0 {
		t.Errorf("no job started on CPUs 2-3 during [20, 60)")
	}
	if m.Values[0] <= plain.Values[0] {
		t.Errorf("mean wait %g with windows, %g without: the windows should make jobs wait", m.Values[0], plain.Values[0])
	}
}

// sameMetrics checks that a scenario point's replication reports the
// run's summary, metric for metric (the cluster model's metrics, in
// order: mean and max wait, mean response, mean slowdown, mean bounded
// slowdown, utilization, makespan).
func sameMetrics(t *testing.T, got RepMetrics, w metrics.Result) {
	t.Helper()
	wantVals := []float64{w.MeanWait, w.MaxWait, w.MeanResponse, w.MeanSlowdown, w.MeanBoundedSlowdown, w.Utilization, w.Makespan}
	for i, name := range got.Names {
		if got.Values[i] != wantVals[i] {
			t.Errorf("%s: scenario %v, run %v", name, got.Values[i], wantVals[i])
		}
	}
}
