package experiment

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Two partitions of 2 CPUs under FCFS, worked by hand. Partition 1:
// job 1 (2 CPUs, 10 s) at 0, job 2 (2 CPUs, 10 s, submitted at 1) at 10:
// waits 0, 9 (mean 4.5, max 9), responses 10, 19 (mean 14.5), bounded
// slowdowns (tau 10) 1, 1.9 (mean 1.45), 40 CPU-s over 2 CPUs x [0, 20]:
// utilization 1. Partition 2: job 3 (2 CPUs, 10 s) at 2, job 4 (1 CPU,
// 5 s, submitted at 3) at 12: waits 0, 9, responses 10, 14 (mean 12),
// slowdowns 1, 1.4 (mean 1.2), 25 CPU-s over 2 CPUs x [2, 17]: 25/30.
func TestPartitionMetricsByHand(t *testing.T) {
	dir := t.TempDir()
	trace := writeTrace(t, dir, "p.swf", "; MaxProcs: 4\n"+
		"1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 1 -1 -1\n"+
		"2 1 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 1 -1 -1\n"+
		"3 2 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 2 -1 -1\n"+
		"4 3 0 5 1 -1 -1 1 20 -1 1 1 1 -1 -1 2 -1 -1\n", false)
	out := filepath.Join(dir, "o")
	spec := RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: "fcfs"},
		Platform: PlatformSpec{Partitions: []string{"1:2", "2:2-3"}}, Outputs: OutputSpec{Dir: out}}
	if err := spec.Check(); err != nil {
		t.Fatal(err)
	}
	if _, err := spec.Run(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var s struct {
		// The flat section: each partition's name, CPUs and metrics.
		Partitions []PartitionSummary
		Run        struct {
			Partitions struct {
				List []struct {
					Name    string
					Metrics PartitionMetrics
				}
			}
		}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	want := []PartitionMetrics{
		{Jobs: 2, MeanWait: 4.5, MaxWait: 9, MeanResponse: 14.5, MeanBoundedSlowdown: 1.45, Utilization: 1},
		{Jobs: 2, MeanWait: 4.5, MaxWait: 9, MeanResponse: 12, MeanBoundedSlowdown: 1.2, Utilization: 25.0 / 30},
	}
	if len(s.Run.Partitions.List) != 2 {
		t.Fatalf("partitions %+v", s.Run.Partitions)
	}
	for k, w := range want {
		if got := s.Run.Partitions.List[k].Metrics; got != w {
			t.Errorf("partition %s: %+v, want %+v", s.Run.Partitions.List[k].Name, got, w)
		}
	}
	if len(s.Partitions) != 2 {
		t.Fatalf("summary.json's partitions section: %+v", s.Partitions)
	}
	for k, w := range []PartitionSummary{{Name: "1", CPUs: "0-1", PartitionMetrics: want[0]}, {Name: "2", CPUs: "2-3", PartitionMetrics: want[1]}} {
		if s.Partitions[k] != w {
			t.Errorf("partitions[%d] = %+v, want %+v", k, s.Partitions[k], w)
		}
	}
	// The section's keys are the issue's: name and mean_wait.
	var raw struct{ Partitions []map[string]any }
	if err := json.Unmarshal(b, &raw); err != nil || len(raw.Partitions) != 2 || raw.Partitions[0]["name"] != "1" || raw.Partitions[0]["mean_wait"] != 4.5 {
		t.Errorf("partitions section %v (%v)", raw.Partitions, err)
	}
}
