package sweep

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenario"
)

func tracePoints(t *testing.T, workload string) []scenario.Point {
	t.Helper()
	src := "model: cluster\nseed: 4\nreplications: 3\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz" + workload + "}\npolicy: {queue: [fcfs, easy]}\n"
	pts, err := scenario.Parse("r.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return pts
}

// A trace scenario with replications is refused unless it resamples the
// trace; with user-weeks every replication runs a different trace, the
// same one for both policies (paired), whatever the number of workers.
func TestTraceResampleReplications(t *testing.T) {
	if err := CheckPoints(tracePoints(t, "")); err == nil || !strings.Contains(err.Error(), "workload.resample") {
		t.Fatalf("replications of a plain trace: err = %v, want a refusal naming workload.resample", err)
	}
	pts := tracePoints(t, ", resample: user-weeks")
	one, err := Sweep(pts, t.TempDir(), 1, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	two, err := Sweep(pts, t.TempDir(), 2, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range one {
		one[i].Reused, two[i].Reused = false, false
	}
	if !reflect.DeepEqual(one, two) {
		t.Fatal("one worker and two workers give different results")
	}
	for _, r := range one {
		for _, m := range r.Metrics {
			if m.Name != "mean_wait" {
				continue
			}
			if len(m.Values) != 3 || m.Values[0] == m.Values[1] || m.Values[1] == m.Values[2] {
				t.Fatalf("point %d: mean waits %v: want 3 different replications", r.Index, m.Values)
			}
		}
	}
	cmp := Compare(pts, one)
	if len(cmp) == 0 {
		t.Fatal("no paired comparisons")
	}
	for _, c := range cmp {
		if c.Metric == "mean_wait" && !(c.Diff.High < 0) {
			t.Fatalf("easy - fcfs mean wait %v: want EASY significantly better on resampled KTH", c.Diff)
		}
	}
}
