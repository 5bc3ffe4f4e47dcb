package htmlreport

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The headline numbers of a window, worked by hand on three jobs of a
// 4-CPU machine, tau 10:
//
//	job  submit start finish CPUs  wait response  bsld
//	1    0      0     100    2     0    100       max(1, 100/100) = 1
//	2    10     40    45     4     30   35        max(1, 35/max(5,10)) = 3.5
//	3    50     50    50     1     0    0         max(1, 0/10) = 1
//
// mean wait 10, mean response 45, mean bsld 5.5/3, longest wait 30;
// work 2*100 + 4*5 + 0 = 220 over 4 CPUs x (100 - 0): utilization 0.55.
func TestWindowNums(t *testing.T) {
	j := &runJobs{id: []float64{1, 2, 3}, submit: []float64{0, 10, 50}, start: []float64{0, 40, 50},
		finish: []float64{100, 45, 50}, procs: []float64{2, 4, 1}}
	in := map[string]float64{"jobs": 99, "mean_wait": 1, "procs": 4, "bounded_slowdown_tau": 10}
	got := windowNums(in, j, 10, 4)
	want := map[string]float64{"jobs": 3, "mean_wait": 10, "mean_response": 45, "mean_bounded_slowdown": 5.5 / 3,
		"max_wait": 30, "utilization": 0.55, "first_submit": 0, "makespan": 100, "procs": 4, "bounded_slowdown_tau": 10}
	for k, v := range want {
		if math.Abs(got[k]-v) > 1e-12 {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	if in["jobs"] != 99 || in["mean_wait"] != 1 {
		t.Error("windowNums changed its input")
	}
}

// A window that holds every job recomputes the simulator's own numbers
// (summary.json); a smaller one keeps exactly the jobs submitted in it,
// with their CPU intervals and text columns, and says so on the page.
func TestRunReportWindow(t *testing.T) {
	dir := tinyRun(t)
	p, err := readRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	whole := *p
	if err := whole.restrict(&Window{From: math.Inf(-1), To: math.Inf(1), Text: "all"}, dir); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"jobs", "mean_wait", "mean_response", "mean_bounded_slowdown", "max_wait", "utilization", "first_submit", "makespan"} {
		if a, b := whole.nums[k], p.nums[k]; math.Abs(a-b) > 1e-9*math.Max(1, math.Abs(b)) {
			t.Errorf("%s over every job = %v, summary.json says %v", k, a, b)
		}
	}

	// The middle of the trace: the jobs submitted in [from, to).
	from, to := p.jobs.submit[10], p.jobs.submit[30]
	var wantIDs []float64
	for i, s := range p.jobs.submit {
		if s >= from && s < to {
			wantIDs = append(wantIDs, p.jobs.id[i])
		}
	}
	w := &Window{From: from, To: to, Text: "from A to B"}
	out, err := WriteOpts(dir, Options{Window: w})
	if err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(out[0])
	s := string(page)
	d := embedded(t, page)
	ids := decodeCol(t, d["id"])
	if len(ids) != len(wantIDs) || len(ids) == 0 || len(ids) == len(p.jobs.id) {
		t.Fatalf("%d jobs on the page, want %d (of %d)", len(ids), len(wantIDs), len(p.jobs.id))
	}
	for i := range ids {
		if ids[i] != wantIDs[i] {
			t.Fatalf("job %d on the page is %v, want %v", i, ids[i], wantIDs[i])
		}
	}
	var n int
	json.Unmarshal(d["jobs"], &n)
	off := decodeCol(t, d["ivoff"])
	if n != len(wantIDs) || len(off) != n+1 || off[0] != 0 {
		t.Errorf("jobs %d, interval offsets %v", n, off)
	}
	for _, want := range []string{
		`<p class="warn" id="window">Window: the jobs submitted from A to B, ` + thousands(int64(len(wantIDs))) + ` of the run&#39;s 40 jobs.`,
		"<title>schedlab run: ",
		" · from A to B</title>",
		// The summary table stays the whole run's.
		"<th>jobs</th><td>40</td>",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if !strings.Contains(s, ", "+thousands(int64(len(wantIDs)))+" jobs: mean wait") {
		t.Errorf("the headline does not count the window's jobs")
	}

	// No job in the window: the file named, no page written.
	os.Remove(out[0])
	_, err = WriteOpts(dir, Options{Window: &Window{From: 1e9, To: math.Inf(1), Text: "from 1e9 s to the end"}})
	if err == nil || !strings.Contains(err.Error(), "jobs.csv: no job was submitted from 1e9 s to the end (40 jobs in the run, submitted from ") {
		t.Fatalf("error %v", err)
	}
	if _, err := os.Stat(out[0]); err == nil {
		t.Error("a page written despite the error")
	}
	// Sweeps and reproductions have no jobs to restrict.
	sw := copyDir(t, "testdata/sweep")
	if _, err := WriteOpts(sw, Options{Window: w}); err == nil || !strings.Contains(err.Error(), "--from and --to restrict the page of a run or a comparison of runs") {
		t.Fatalf("error %v", err)
	}
	if _, err := os.Stat(filepath.Join(sw, "report.html")); err == nil {
		t.Error("a sweep page written with a window")
	}
}
