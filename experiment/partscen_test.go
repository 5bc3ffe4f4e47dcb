package experiment

import (
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/scenario"
)

// A cluster scenario with platform.partitions computes what schedlab
// run computes with --partition (RunSpec.Partitions): the same
// metrics, to the last bit; and not what the run without them computes.
func TestScenarioPartitionsMatchRun(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-trace runs")
	}
	dir := t.TempDir()
	tr := writeSplitKTH(t, filepath.Join(dir, "kth-split.swf"), nil)
	parts := []string{"even:0-59", "odd:60-99:maxtime=36000"}
	src := `model: cluster
stop: trace
workload: {trace: ` + tr + `}
platform:
  partitions: ["even:0-59", "odd:60-99:maxtime=36000"]
policy: {queue: easy}
`
	pts, err := scenario.Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got, err := RunReplication(pts[0].Scenario, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	want, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: parts}, Policy: PolicySpec{Name: "easy"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	plain, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Policy: PolicySpec{Name: "easy"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	w := want.Result
	sameMetrics(t, got, w)
	if w.MeanWait == plain.Result.MeanWait {
		t.Errorf("mean wait %v with and without partitions: the scenario's partitions did nothing", w.MeanWait)
	}
	if want.Run.Partitions == nil || want.Run.Partitions.RejectedMaxTime == 0 {
		t.Errorf("partitions %+v: want jobs of odd refused above maxtime", want.Run.Partitions)
	}
}

// A scenario with disjoint partitions and unavailable CPUs
// (platform.reservations, platform.events) computes what schedlab run
// computes with the same --partition, --reservation and --events, and
// not what the run without the windows and failures computes.
func TestScenarioPartitionsAvailMatchRun(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-trace runs")
	}
	dir := t.TempDir()
	tr := writeSplitKTH(t, filepath.Join(dir, "kth-split.swf"), nil)
	ev := halfDownEvents(t, dir)
	parts := []string{"even:0-59", "odd:60-99"}
	a := AvailSpec{Reservations: []string{"5000000:5086400:100", "1000000:1200000:40-79"}, Events: ev, OnFailure: "requeue"}
	src := `model: cluster
stop: trace
workload: {trace: ` + tr + `}
platform:
  partitions: ["even:0-59", "odd:60-99"]
  reservations: ["5000000:5086400:100", "1000000:1200000:40-79"]
  events: ` + ev + `
  on_failure: requeue
policy: {queue: conservative}
`
	pts, err := scenario.Parse("p.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got, err := RunReplication(pts[0].Scenario, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	want, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: parts, Avail: a}, Policy: PolicySpec{Name: "conservative"}, Outputs: OutputSpec{Check: true, Dir: filepath.Join(dir, "out")}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	plain, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: parts}, Policy: PolicySpec{Name: "conservative"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	w := want.Result
	sameMetrics(t, got, w)
	if w.MeanWait == plain.Result.MeanWait {
		t.Errorf("mean wait %v with and without unavailable CPUs: the scenario's windows and failures did nothing", w.MeanWait)
	}
}
