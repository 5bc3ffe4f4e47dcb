package scenario

import (
	"strings"
	"testing"
)

// workload.jobs and workload.submit: in the point and its key when set,
// absent from the key otherwise; their mistakes at the file's position.
func TestPrefixAndSubmitKeys(t *testing.T) {
	base := "model: cluster\nstop: trace\nworkload: {trace: t.swf%s}\npolicy: {queue: easy}\n"
	parse := func(extra string) (Scenario, error) {
		pts, err := Parse("w.yaml", []byte(strings.Replace(base, "%s", extra, 1)))
		if err != nil {
			return Scenario{}, err
		}
		return pts[0].Scenario, nil
	}
	plain, err := parse("")
	if err != nil {
		t.Fatal(err)
	}
	s, err := parse(", jobs: 1292, submit: zero")
	if err != nil {
		t.Fatal(err)
	}
	if s.Workload.Jobs != 1292 || s.Workload.Submit != "zero" || plain.Workload.Jobs != 0 {
		t.Errorf("workload %+v (plain %+v)", s.Workload, plain.Workload)
	}
	if k := s.Key(); !strings.Contains(k, "jobs=1292") || !strings.Contains(k, "submit=zero") || strings.Contains(plain.Key(), "jobs=") || strings.Contains(plain.Key(), "submit=") {
		t.Errorf("keys %s and %s", k, plain.Key())
	}
	for extra, want := range map[string]string{
		", jobs: 0":         "w.yaml:3:32: workload.jobs: must be >= 1, got 0",
		", jobs: 2.5":       "workload.jobs",
		", submit: later":   `w.yaml:3:34: workload.submit: unknown value "later" (known: as-is, zero)`,
		", jobs: 999999999": "w.yaml:3:32: workload.jobs: must be at most 100000000 (the limit of this setting; see docs/limits.md), got 999999999",
	} {
		_, err := parse(extra)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", extra, err, want)
		}
	}
	// a prefix of a synthetic workload is refused
	_, err = Parse("w.yaml", []byte("model: cluster\nstop: {completed: 10}\nplatform: {procs: 4}\nworkload: {mean_interarrival: 1, mean_service: 1, jobs: 5}\npolicy: {queue: easy}\n"))
	if err == nil || !strings.Contains(err.Error(), "workload.jobs") {
		t.Errorf("jobs with a synthetic workload: %v", err)
	}
}
