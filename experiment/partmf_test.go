package experiment

import (
	"fmt"
	"path/filepath"
	"testing"
)

// Fair-share over partitions is kept per user across them (as Slurm
// keeps it per association): on 2 CPUs, partition a (CPU 0) and b (CPU
// 1), strict FCFS in the multifactor order with only the fair-share
// weight. Job 1 (user 1, a) runs from 0 to 1000; job 2 (user 2, b) from
// 0 to 100; jobs 3 (user 1) and 4 (user 3), submitted to b at 10 and
// 20, wait for it. At 100, user 1 has used 100 CPU-s in a and user 3
// nothing: job 4 goes first (100..110), then job 3 (110..120). With a
// usage per partition user 1 would look idle in b and job 3, submitted
// first, would start at 100.
func TestPartitionsMultifactorSharesUsage(t *testing.T) {
	text := "; MaxProcs: 2\n; Partition: 1 a\n; Partition: 2 b\n" +
		"1 0 -1 1000 1 -1 -1 1 2000 -1 1 1 1 -1 -1 1 -1 -1\n" +
		"2 0 -1 100 1 -1 -1 1 200 -1 1 2 1 -1 -1 2 -1 -1\n" +
		"3 10 -1 10 1 -1 -1 1 20 -1 1 1 1 -1 -1 2 -1 -1\n" +
		"4 20 -1 10 1 -1 -1 1 20 -1 1 3 1 -1 -1 2 -1 -1\n"
	tr := writeSWF(t, text)
	for _, pol := range []string{"fcfs", "easy", "conservative"} {
		out := filepath.Join(t.TempDir(), "out")
		_, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: []string{"a:0-0", "b:1-1"}}, Policy: PolicySpec{Name: pol, Options: map[string]string{"order": "multifactor", "priority_weight_fairshare": "1000"}}, Outputs: OutputSpec{Dir: out, Check: true}}).Run()
		if err != nil {
			t.Fatal(err)
		}
		got := startTimes(t, out)
		want := map[string]string{"1": "0", "2": "0", "3": "110", "4": "100"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: starts %v, want %v", pol, got, want)
		}
	}
}

// One partition holding the whole machine and every job is the machine
// itself in the multifactor order too: on all of KTH, EASY with age,
// fair-share and job size weights starts every job at the same time
// with and without it.
func TestOnePartitionMultifactorIsTheMachine(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-trace runs")
	}
	dir := t.TempDir()
	opts := map[string]string{"order": "multifactor", "priority_weight_age": "1000", "priority_weight_fairshare": "10000", "priority_weight_job_size": "500"}
	for k, parts := range [][]string{nil, {"all:100:default"}} {
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}, Platform: PlatformSpec{Partitions: parts}, Policy: PolicySpec{Name: "easy", Options: opts}, Outputs: OutputSpec{Dir: filepath.Join(dir, fmt.Sprint(k))}}).Run(); err != nil {
			t.Fatal(err)
		}
	}
	a, b := readRows(t, filepath.Join(dir, "0", "jobs.csv")), readRows(t, filepath.Join(dir, "1", "jobs.csv"))
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
