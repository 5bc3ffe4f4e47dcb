package experiment

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Four jobs of two users on 2 CPUs under FCFS, worked by hand: job 1
// (user 1, 2 CPUs, 10 s) at 0; job 2 (user 2, 1 CPU, 10 s, submitted at
// 1) at 10; job 3 (user 1, 2 CPUs, 5 s, at 2) waits for both CPUs, 20;
// job 4 (user 2, 1 CPU, 4 s, at 3) waits behind it (FCFS) and starts at
// 25. User 1 (alice in the header): waits 0 and 18 (mean 9, max 18),
// responses 10 and 23 (mean 16.5), bounded slowdowns (tau 10) 1 and 2.3
// (mean 1.65), 20 + 10 = 30 CPU-s; user 2 (no name): waits 9 and 22
// (mean 15.5), responses 19 and 26 (22.5), slowdowns 1.9 and 2.6
// (2.25), 10 + 4 = 14 CPU-s; shares 30/44 and 14/44. Both have 2 jobs:
// the lower id first. By qos (field 15: 1 for jobs 1-3, 2 for job 4,
// the header naming 1 normal): normal's 3 jobs first.
func TestMetricsByHand(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "u.swf", "; MaxProcs: 2\n; User 1: alice\n; MaxQueues: 2\n; Queue: 1 normal\n"+
		"1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"2 1 0 10 1 -1 -1 1 20 -1 1 2 1 -1 1 -1 -1 -1\n"+
		"3 2 0 5 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"4 3 0 4 1 -1 -1 1 20 -1 1 2 1 -1 2 -1 -1 -1\n", false)
	run := func(by string) (GroupMetrics, string) {
		out := filepath.Join(dir, by)
		spec := RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: "fcfs"}, Outputs: OutputSpec{Dir: out, By: by}}
		if err := spec.Check(); err != nil {
			t.Fatal(err)
		}
		res, err := spec.Run()
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(out, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		var s struct {
			By GroupMetrics `json:"metrics_by"`
		}
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		var text bytes.Buffer
		if err := WriteSummary(&text, res, spec); err != nil {
			t.Fatal(err)
		}
		return s.By, text.String()
	}
	g, text := run("user")
	want := GroupMetrics{Key: "user", List: []GroupSummary{
		{ID: 1, Name: "alice", Jobs: 2, MeanWait: 9, MaxWait: 18, MeanResponse: 16.5, MeanBoundedSlowdown: 1.65, CPUShare: 30.0 / 44},
		{ID: 2, Jobs: 2, MeanWait: 15.5, MaxWait: 22, MeanResponse: 22.5, MeanBoundedSlowdown: 2.25, CPUShare: 14.0 / 44},
	}}
	if len(g.List) != 2 || g.Key != want.Key {
		t.Fatalf("metrics_by %+v", g)
	}
	for k, w := range want.List {
		got := g.List[k]
		if d := got.MeanBoundedSlowdown - w.MeanBoundedSlowdown; d > 1e-12 || d < -1e-12 {
			t.Errorf("group %d: bounded slowdown %v, want %v", k, got.MeanBoundedSlowdown, w.MeanBoundedSlowdown)
		}
		got.MeanBoundedSlowdown = w.MeanBoundedSlowdown
		if got != w {
			t.Errorf("group %d: %+v, want %+v", k, got, w)
		}
	}
	for _, line := range []string{"by user: 2 user(s) with jobs\n",
		"  alice: 2 jobs ended, mean wait 9.0 s, max wait 18.0 s, mean bounded slowdown 1.650, 68.2% of the CPU time\n",
		"  user 2: 2 jobs ended, mean wait 15.5 s, max wait 22.0 s, mean bounded slowdown 2.250, 31.8% of the CPU time\n"} {
		if !strings.Contains(text, line) {
			t.Errorf("the printed summary lacks %q:\n%s", line, text)
		}
	}
	g, _ = run("qos")
	if len(g.List) != 2 || g.List[0].ID != 1 || g.List[0].Name != "normal" || g.List[0].Jobs != 3 || g.List[1].ID != 2 || g.List[1].Name != "" || g.List[1].Jobs != 1 || g.List[1].MeanWait != 22 {
		t.Errorf("by qos: %+v", g)
	}
	bad := RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: "fcfs"}, Outputs: OutputSpec{By: "account"}}
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), `--metrics-by "account": want user, group or qos`) {
		t.Errorf("a bad key: %v", err)
	}
}
