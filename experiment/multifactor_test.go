package experiment

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenario"
)

// On the whole KTH trace (users from SWF field 12), EASY and
// conservative backfilling with the multifactor order (age and
// fair-share weighted, one-day half-life) give schedules the independent
// validator accepts (--check: capacity, start >= submit, durations,
// every job once, CPU ids), the order changes the schedule (the mean
// wait differs from the FCFS order's), and a second run writes the same
// bytes.
func TestMultifactorKTHChecked(t *testing.T) {
	if testing.Short() {
		t.Skip("whole trace")
	}
	opts := map[string]string{"order": "multifactor", "priority_weight_age": "1000", "priority_weight_fairshare": "10000",
		"priority_weight_job_size": "500", "priority_decay_half_life": "86400", "priority_max_age": "86400"}
	for _, pol := range []string{"easy", "conservative"} {
		var jobs [2][]byte
		var mean float64
		for i := range jobs {
			out := t.TempDir()
			r, err := (RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: pol, Options: opts}, Outputs: OutputSpec{Dir: out, Check: true}}).Run()
			if err != nil {
				t.Fatalf("%s: %v", pol, err)
			}
			mean = r.Result.MeanWait
			jobs[i], _ = os.ReadFile(filepath.Join(out, "jobs.csv"))
		}
		if len(jobs[0]) == 0 || !bytes.Equal(jobs[0], jobs[1]) {
			t.Errorf("%s: jobs.csv differs between two identical runs", pol)
		}
		ref, err := (RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: pol}}).Run()
		if err != nil {
			t.Fatal(err)
		}
		if mean == ref.Result.MeanWait {
			t.Errorf("%s: multifactor mean wait %g equals the FCFS order's", pol, mean)
		}
	}
}

// A trace scenario cannot name per-user metrics (they are measured on
// synthetic workloads), and a file naming a metric the model does not
// know is refused with the per-user form in the list of metrics.
func TestUserMetricErrors(t *testing.T) {
	pts, err := scenario.Parse("t.yaml", []byte("model: cluster\nreplications: 1\nworkload: {trace: "+kth+"}\npolicy: {queue: easy}\nmetrics: [mean_wait, user3_mean_wait]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunReplication(pts[0].Scenario, 0, ""); err == nil || !strings.Contains(err.Error(), "metric user3_mean_wait: per-user metrics are measured on synthetic workloads") {
		t.Errorf("trace with a per-user metric: %v", err)
	}
	_, err = scenario.Parse("t.yaml", []byte("model: cluster\nreplications: 1\nworkload: {trace: "+kth+"}\npolicy: {queue: easy}\nmetrics: [user3_max_wait]\n"))
	if err == nil || !strings.Contains(err.Error(), `reports no metric "user3_max_wait"`) || !strings.Contains(err.Error(), "user<u>_mean_wait") {
		t.Errorf("unknown per-user metric: %v", err)
	}
}
