package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAddMetric adds a metric the documented way (docs/extending.md,
// "Adding a metric"): a new folder metrics/jobsended with its
// declaration and listener (testdata/jobsended/jobsended.go), off by
// default, and its registration, one line in registry/table.go. Built
// from a copy of the module, the metric is then measured when asked
// for: in a sweep whose metrics list names it (summary.csv, and its
// better direction in metrics.json and the HTML report), and by 'run
// --metric' (the summary and summary.json); and nothing changes where
// it is not asked for (an example sweep's summary.csv is its golden's,
// byte for byte; a run's summary.json has no metrics object).
func TestAddMetric(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a copy of the module (-short)")
	}
	dir := copyModule(t)
	var err error
	// The metric's folder.
	src, err := os.ReadFile("testdata/jobsended/jobsended.go")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "metrics/jobsended"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "metrics/jobsended/jobsended.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	// Its registration: the import and the list entry in registry/table.go.
	table := filepath.Join(dir, "registry/table.go")
	b, err := os.ReadFile(table)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	for _, edit := range [][2]string{
		{"\t\"github.com/schedlab/schedlab/policy\"\n", "\t\"github.com/schedlab/schedlab/metrics/jobsended\"\n\t\"github.com/schedlab/schedlab/policy\"\n"},
		{"\t\tmodelMetrics(),", "\t\tjobsended.Declarations(),\n\t\tmodelMetrics(),"},
	} {
		if !strings.Contains(text, edit[0]) {
			t.Fatalf("registry/table.go has no %q: the registration documented in docs/extending.md no longer fits", edit[0])
		}
		text = strings.Replace(text, edit[0], edit[1], 1)
	}
	if err := os.WriteFile(table, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "schedlab")
	build := exec.Command("go", "build", "-o", bin, "./cmd/schedlab")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	work := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(work, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(work, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	run := func(wantStatus int, args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = work
		out, err := cmd.CombinedOutput()
		status := 0
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if status != wantStatus {
			t.Fatalf("schedlab %s: exit %d, want %d\n%s", strings.Join(args, " "), status, wantStatus, out)
		}
		return string(out)
	}
	contains := func(what, out string, wants ...string) {
		t.Helper()
		for _, w := range wants {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", what, w, out)
			}
		}
	}
	lacks := func(what, out string, nots ...string) {
		t.Helper()
		for _, w := range nots {
			if strings.Contains(out, w) {
				t.Errorf("%s: %q in\n%s", what, w, out)
			}
		}
	}

	// run --metric: the summary's row and summary.json's metrics.
	trace := write("tiny.swf", "; MaxProcs: 4\n"+
		"1 0 -1 10 3 -1 -1 3 20 -1 1 1 1 -1 -1 -1 -1 -1\n"+
		"2 1 -1 10 4 -1 -1 4 20 -1 1 1 1 -1 -1 -1 -1 -1\n"+
		"3 2 -1 5 1 -1 -1 1 30 -1 1 1 1 -1 -1 -1 -1 -1\n"+
		"4 2 -1 2 1 -1 -1 1 6 -1 1 1 1 -1 -1 -1 -1 -1\n")
	contains("run --metric", run(0, "run", "--trace", trace, "--policy", "easy", "--metric", "jobs_ended", "--out", "r"),
		"jobs_ended (jobs)                               4\n")
	var sum struct {
		Metrics map[string]float64 `json:"metrics"`
	}
	if err := json.Unmarshal([]byte(read("r/summary.json")), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Metrics["jobs_ended"] != 4 || len(sum.Metrics) != 1 {
		t.Errorf("summary.json metrics %v, want jobs_ended 4", sum.Metrics)
	}
	plain := run(0, "run", "--trace", trace, "--policy", "easy", "--json", "--no-out")
	lacks("run without --metric", plain, `"metrics"`, "jobs_ended")
	contains("run --metric unknown", run(2, "run", "--trace", trace, "--policy", "easy", "--metric", "jobs_done", "--no-out"),
		`unknown metric "jobs_done"`, "jobs_ended")

	// A sweep whose metrics list names it.
	scen := "model: cluster\nseed: 3\nreplications: 3\nstop: {completed: 300}\nwarmup: {jobs: 50}\nplatform: {procs: 2}\n" +
		"workload: {mean_interarrival: 0.7, mean_service: 1}\npolicy: {queue: [fcfs, easy]}\n"
	with := write("with.yaml", scen+"metrics: [mean_wait, jobs_ended]\n")
	without := write("without.yaml", scen)
	run(0, "sweep", with, "--out", "sw")
	contains("summary.csv", read("sw/summary.csv"), ",mean_wait,", ",jobs_ended,250,250,250,3\n")
	contains("comparisons.csv", read("sw/comparisons.csv"), ",jobs_ended,0,0,0,3\n")
	contains("metrics.json", read("sw/metrics.json"), `"name": "jobs_ended"`, `"better": "higher"`)
	run(0, "sweep", without, "--out", "sw0")
	lacks("summary.csv without the metric", read("sw0/summary.csv"), "jobs_ended")
	lacks("metrics.json without the metric", read("sw0/metrics.json"), "jobs_ended")
	contains("sweep --list", run(1, "sweep", write("bad.yaml", scen+"metrics: [jobs_done]\n"), "--list"),
		`reports no metric "jobs_done"`, "when asked for: jobs_ended")

	// The HTML report's direction, from metrics.json.
	run(0, "report", "sw")
	page := read("sw/report.html")
	m := regexp.MustCompile(`"metrics":(\[[^\]]*\]),"better":(\[[^\]]*\])`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("report.html: no sweep data with metrics and better")
	}
	var names, better []string
	if err := json.Unmarshal([]byte(m[1]), &names); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(m[2]), &better); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"mean_wait": "lower is better", "jobs_ended": "higher is better"}
	if len(names) != 2 || len(better) != 2 {
		t.Fatalf("report.html: metrics %v better %v", names, better)
	}
	for i, n := range names {
		if better[i] != want[n] {
			t.Errorf("report.html: %s is %q, want %q", n, better[i], want[n])
		}
	}

	// What does not ask for it is unchanged: an example sweep gives its
	// golden summary, byte for byte.
	run(0, "sweep", filepath.Join(dir, "examples/cluster-kth-easy.yaml"), "--out", "kth")
	golden, err := os.ReadFile("../../../internal/golden/testdata/sweep/cluster-kth-easy/summary.csv")
	if err != nil {
		t.Fatal(err)
	}
	if got := read("kth/summary.csv"); !bytes.Equal([]byte(got), golden) {
		t.Errorf("cluster-kth-easy summary.csv differs from its golden with the metric registered:\n%s", got)
	}
}
