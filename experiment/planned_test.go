package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// planned.csv of the five-job teaching trace (examples/teaching: 5 CPUs;
// job 1 takes 3 CPUs over [0, 100), job 2 asks for 4 at t=1, jobs 3, 4,
// 5 one each at t=2, 3, 4 with requests 50, 500 and 200):
//   - EASY reserves only the head: job 2 at t=1 for t=100 (job 1's end),
//     kept unchanged until it starts, so one row.
//   - conservative also reserves job 5 at t=4: CPUs 3 and 4 are held by
//     jobs 3 and 4 until their estimated ends 52 and 503, job 2 takes 4
//     CPUs over [100, 150), so 200 s on one CPU fit from 150 on. Job 4
//     ends early at 33 and job 5 backfills then, its planned start never
//     moved: two rows.
//
// A policy without reservations is refused, and nothing is written.
func TestPlannedCSV(t *testing.T) {
	for _, tc := range []struct{ policy, want string }{
		{"easy", "job_id,time,planned_start\n2,1,100\n"},
		{"conservative", "job_id,time,planned_start\n2,1,100\n5,4,150\n"},
	} {
		out := filepath.Join(t.TempDir(), tc.policy)
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: "../examples/teaching/five-jobs.swf"}, Policy: PolicySpec{Name: tc.policy}, Outputs: OutputSpec{Dir: out, Planned: true}}).Run(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out, "planned.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != tc.want {
			t.Errorf("%s: planned.csv\n%s\nwant\n%s", tc.policy, b, tc.want)
		}
	}
	out := filepath.Join(t.TempDir(), "fcfs")
	_, err := (RunSpec{Workload: WorkloadSpec{Trace: "../examples/teaching/five-jobs.swf"}, Policy: PolicySpec{Name: "fcfs"}, Outputs: OutputSpec{Dir: out, Planned: true}}).Run()
	if err == nil || !strings.Contains(err.Error(), "policy fcfs makes none") {
		t.Fatalf("fcfs --planned: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("fcfs --planned left %s behind", out)
	}
}
