package experiment

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/workload"
)

// Predictions over partitions share the users' histories: on 4 CPUs,
// partitions a (CPUs 0-1, trace partition 1) and b (2-3, partition 2),
// avg:1 (a user's last runtime). Job 1 (user 1, a) runs 0..100; job 2
// (user 1, b, submitted at 200) is predicted 100 s from job 1, in the
// other partition; job 3 (user 2) has no history; job 4 (user 1, b, at
// 400) is predicted 50 s (job 2's runtime); job 5 (user 2, both CPUs
// of b, at 410) is predicted 10 s from job 3 and waits for job 4 (it
// starts at 700), so at 450 job 4 has outlived its prediction and is
// corrected.
func TestPartitionsPredictShareHistories(t *testing.T) {
	text := "; MaxProcs: 4\n; Partition: 1 a\n; Partition: 2 b\n" +
		"1 0 -1 100 1 -1 -1 1 1000 -1 1 1 1 -1 -1 1 -1 -1\n" +
		"2 200 -1 50 1 -1 -1 1 1000 -1 1 1 1 -1 -1 2 -1 -1\n" +
		"3 300 -1 10 1 -1 -1 1 100 -1 1 2 1 -1 -1 2 -1 -1\n" +
		"4 400 -1 300 1 -1 -1 1 1000 -1 1 1 1 -1 -1 2 -1 -1\n" +
		"5 410 -1 10 2 -1 -1 2 100 -1 1 2 1 -1 -1 2 -1 -1\n"
	tr := writeSWF(t, text)
	out := filepath.Join(t.TempDir(), "out")
	res, err := (RunSpec{Workload: WorkloadSpec{Trace: tr, Estimate: workload.EstimatePredict}, Platform: PlatformSpec{Partitions: []string{"a:0-1", "b:2-3"}}, Policy: PolicySpec{Name: "easy", Predictor: "avg:1"}, Outputs: OutputSpec{Dir: out, Check: true}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	// corrections of job 4: 50 + 1 min (due 510 < its end at 700), then
	// 50 + 5 min (due 750)
	if p := res.Run.Predictions; p == nil || p.Predicted != 3 || p.Corrected != 1 || p.Corrections != 2 {
		t.Fatalf("predictions %+v, want 3 predicted (jobs 2, 4, 5; job 2 only from the other partition's job 1), 1 corrected twice", p)
	}
	got := startTimes(t, out)
	want := map[string]string{"1": "0", "2": "200", "3": "300", "4": "400", "5": "700"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("starts %v, want %v", got, want)
	}
}

// One partition holding the whole machine and every job is the machine
// itself, predictions included: on all of KTH, EASY with last2
// predictions starts every job at the same time with and without it.
func TestOnePartitionPredictIsTheMachine(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-trace runs")
	}
	dir := t.TempDir()
	var res [2]*TraceResult
	for k, parts := range [][]string{nil, {"all:100:default"}} {
		r, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", Estimate: workload.EstimatePredict}, Platform: PlatformSpec{Partitions: parts}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: filepath.Join(dir, string(rune('a'+k)))}}).Run()
		if err != nil {
			t.Fatal(err)
		}
		res[k] = r
	}
	if *res[0].Run.Predictions != *res[1].Run.Predictions || res[0].Run.Predictions.Corrections == 0 {
		t.Errorf("predictions %+v alone, %+v in one partition", res[0].Run.Predictions, res[1].Run.Predictions)
	}
	a, b := readRows(t, filepath.Join(dir, "a", "jobs.csv")), readRows(t, filepath.Join(dir, "b", "jobs.csv"))
	col := colIndex(a[0])
	if len(a) != len(b) || len(a) != 27993 {
		t.Fatalf("%d and %d rows", len(a), len(b))
	}
	for i := 1; i < len(a); i++ {
		if a[i][col["starting_time"]] != b[i][col["starting_time"]] {
			t.Fatalf("job %s starts at %s alone, %s in one partition", a[i][0], a[i][col["starting_time"]], b[i][col["starting_time"]])
		}
	}
}

// Predictions over overlapping partitions: two partitions of the whole
// of KTH's machine, one taking every job and one none, under EASY with
// last2 predictions, start every job when the machine alone does and
// pass --check.
func TestOverlapPredictIdenticalPartitionsArePlain(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-trace runs")
	}
	dir := t.TempDir()
	for k, parts := range [][]string{nil, {"7:0-99", "all:100:default"}} {
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", Estimate: workload.EstimatePredict}, Platform: PlatformSpec{Partitions: parts}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: filepath.Join(dir, fmt.Sprint(k)), Check: true}}).Run(); err != nil {
			t.Fatal(err)
		}
	}
	a, b := startTimes(t, filepath.Join(dir, "0")), startTimes(t, filepath.Join(dir, "1"))
	if len(a) != 27992 || fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("%d jobs alone, %d in the partitions; start times differ", len(a), len(b))
	}
	// KTH split by user into two partitions of the same 100 CPUs: each
	// partition's predictor hands its policy the other's jobs, else its
	// policy would start jobs on CPUs the other holds (an error).
	tr := writeSplitKTH(t, filepath.Join(dir, "split.swf"), nil)
	for _, pol := range []string{"easy", "conservative"} {
		res, err := (RunSpec{Workload: WorkloadSpec{Trace: tr, Estimate: workload.EstimatePredict}, Platform: PlatformSpec{Partitions: []string{"even:0-99", "odd:0-99"}}, Policy: PolicySpec{Name: pol}, Outputs: OutputSpec{Dir: filepath.Join(dir, pol), Check: true}}).Run()
		if err != nil {
			t.Fatalf("%s: %v", pol, err)
		}
		if p := res.Run.Predictions; p.Predicted == 0 || p.Corrections == 0 || res.Engine.Jobs != 27992 {
			t.Errorf("%s: %d jobs, predictions %+v", pol, res.Engine.Jobs, p)
		}
	}
}
