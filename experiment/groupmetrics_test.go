package experiment

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
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
		return runMetricsBy(t, RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: "fcfs"},
			Outputs: OutputSpec{Dir: filepath.Join(dir, by), By: by}})
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
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), `--metrics-by "account": want user, group, qos or nodegroup`) {
		t.Errorf("a bad key: %v", err)
	}
}

// --metrics-by nodegroup, worked by hand: nodes a1, a2 of 2 cores
// (group 0) and b1 of 4 (group 1), FCFS, first fit by node id. Job 1 (2
// CPUs, 10 s) takes a1 at 0; job 2 (4 CPUs, 10 s) at 1 takes a2 and 2 of
// b1's cores: two groups, counted apart; job 3 (2, 5 s) at 2 takes b1's
// other 2; job 4 (2, 4 s, submitted at 3) waits for them until 7; job 5
// (1, 2 s, at 4) waits behind it, then for a1 at 10. So a[1-2]: jobs 1
// and 5, waits 0 and 6, responses 10 and 8; b1: jobs 3 and 4, waits 0
// and 4, responses 5 and 8; several groups: job 2. CPU-seconds 20 + 2,
// 10 + 8 and 40 of 80. Every bounded slowdown is 1 (tau 10 s).
func TestMetricsByNodeGroupHand(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "g.swf", "; MaxProcs: 8\n"+
		"1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"2 1 0 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"3 2 0 5 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"4 3 0 4 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"5 4 0 2 1 -1 -1 1 20 -1 1 1 1 -1 1 -1 -1 -1\n", false)
	by, text := runMetricsBy(t, RunSpec{Workload: WorkloadSpec{Trace: trace}, Platform: PlatformSpec{Nodes: []string{"a[1-2]:cores=2", "b1:cores=4"}},
		Policy: PolicySpec{Name: "fcfs"}, Outputs: OutputSpec{Dir: filepath.Join(dir, "out"), By: "nodegroup"}})
	want := GroupMetrics{Key: "nodegroup", List: []GroupSummary{
		{ID: 0, Name: "a[1-2]", Jobs: 2, MeanWait: 3, MaxWait: 6, MeanResponse: 9, MeanBoundedSlowdown: 1, CPUShare: 22.0 / 80},
		{ID: 1, Name: "b1", Jobs: 2, MeanWait: 2, MaxWait: 4, MeanResponse: 6.5, MeanBoundedSlowdown: 1, CPUShare: 18.0 / 80},
		{ID: MixedNodeGroups, Name: "several node groups", Jobs: 1, MeanWait: 0, MaxWait: 0, MeanResponse: 10, MeanBoundedSlowdown: 1, CPUShare: 40.0 / 80},
	}}
	if !reflect.DeepEqual(by, want) {
		t.Errorf("metrics_by\n%+v\nwant\n%+v", by, want)
	}
	if line := "  several node groups: 1 jobs ended, mean wait 0.0 s"; !strings.Contains(text, line) {
		t.Errorf("the printed summary lacks %q:\n%s", line, text)
	}
	pool := RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: "fcfs"}, Outputs: OutputSpec{By: "nodegroup"}}
	if err := pool.Check(); err == nil || !strings.Contains(err.Error(), "--metrics-by nodegroup needs a platform of nodes") {
		t.Errorf("nodegroup on a pool of CPUs: %v", err)
	}
}

// runMetricsBy runs spec and returns summary.json's metrics_by and the
// printed summary.
func runMetricsBy(t *testing.T, spec RunSpec) (GroupMetrics, string) {
	t.Helper()
	if err := spec.Check(); err != nil {
		t.Fatal(err)
	}
	res, err := spec.Run()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(spec.Outputs.Dir, "summary.json"))
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
