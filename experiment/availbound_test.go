package experiment

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload/avail"
)

// Failures far more frequent than the jobs are long, on the KTH trace,
// as the hardening issue found them: each stops the run with a message
// naming the setting and the bound, and leaves nothing in the output
// folder (no temporary file; --check would have read the whole
// unavailability.csv: 26.7 M rows for --failures 100:10:1, out of
// memory).
func TestKTHFailureBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-trace runs")
	}
	for _, tc := range []struct {
		f      avail.Failures
		onFail string
		want   []string
	}{
		{avail.Failures{MTBF: 100, MTTR: 10, GroupSize: 1}, "", []string{"--failures 100:10:1: ", "engine.MaxFailureChanges"}},
		{avail.Failures{MTBF: 1e-6, MTTR: 1e-6}, "", []string{"--failures 1e-06:1e-06: ", "engine.MaxFailureChanges"}},
		{avail.Failures{MTBF: 600, MTTR: 60, GroupSize: 10}, "requeue", []string{"--failures 600:60:10 --on-failure requeue: job ", "engine.MaxRequeues"}},
	} {
		out := t.TempDir()
		f := tc.f
		_, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}, Platform: PlatformSpec{Avail: AvailSpec{Failures: &f, OnFailure: tc.onFail}}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: out, Check: true}}).Run()
		if err == nil || !errors.Is(err, engine.ErrAvailLimit) {
			t.Errorf("%+v %s: error %v, want a bound of engine.ErrAvailLimit", tc.f, tc.onFail, err)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v %s: error %q, want %q in it", tc.f, tc.onFail, err, w)
			}
		}
		if left, _ := os.ReadDir(out); len(left) != 0 {
			t.Errorf("%+v %s: %d files left in the output folder (%s...)", tc.f, tc.onFail, len(left), left[0].Name())
		}
	}
}

// A scenario's failures name the scenario's keys.
func TestScenarioFailureBounds(t *testing.T) {
	const s = `model: cluster
seed: 3
stop: {completed: 100}
workload: {mean_interarrival: 100, mean_service: 1000}
policy: {queue: easy}
platform:
  procs: 4
  failures: {mtbf: 10, mttr: 1}
  on_failure: requeue
`
	pts, err := scenario.Parse("s.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	_, err = RunReplication(pts[0].Scenario, 0, "")
	want := "platform.failures {mtbf: 10, mttr: 1}, platform.on_failure requeue: job "
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "engine.MaxRequeues") {
		t.Fatalf("error %v, want %q ... engine.MaxRequeues", err, want)
	}
}

// The readers of unavailability.csv (--check, schedlab report) read at
// most as many rows as a run may write.
func TestSpanBoundsAgree(t *testing.T) {
	if validate.MaxSpans != engine.MaxSpans {
		t.Errorf("validate.MaxSpans %d, engine.MaxSpans %d: a run could write a file its --check refuses", validate.MaxSpans, engine.MaxSpans)
	}
}
