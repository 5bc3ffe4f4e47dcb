package htmlreport

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/experiment"
)

// partsRun simulates testdata/tiny.swf (40 jobs, 16 CPUs) under EASY with
// two partitions: its jobs of up to 4 CPUs in trace partition 2 (debug,
// CPUs 12-15), the others in 1 (batch, CPUs 0-11). By the trace (awk
// '$5 <= 4' and '$5 > 12'): 10 jobs ask for at most 4 CPUs, 30 for more,
// 10 of those for more than batch's 12 CPUs, refused at submission;
// batch runs 20 jobs, debug 10.
func partsRun(t *testing.T) string {
	t.Helper()
	return partsRunOf(t, partsTrace(t), "easy")
}

// partsTrace writes partsRun's trace (testdata/tiny.swf with its jobs
// in partitions 1 and 2) and returns its path.
func partsTrace(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile("testdata/tiny.swf")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("; Partition: 1 batch\n; Partition: 2 debug\n")
	for _, line := range strings.Split(strings.TrimRight(string(src), "\n"), "\n") {
		f := strings.Fields(line)
		if strings.HasPrefix(line, ";") || len(f) != 18 {
			b.WriteString(line + "\n")
			continue
		}
		f[15] = "1"
		if n, err := strconv.Atoi(f[4]); err == nil && n <= 4 {
			f[15] = "2"
		}
		b.WriteString(strings.Join(f, " ") + "\n")
	}
	dir := t.TempDir()
	trace := filepath.Join(dir, "parts.swf")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return trace
}

// partsRunOf runs trace (partsTrace) under policy with partsRun's two
// partitions, into a folder named by the policy.
func partsRunOf(t *testing.T, trace, policy string) string {
	t.Helper()
	run := filepath.Join(t.TempDir(), policy)
	if _, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: trace}, Platform: experiment.PlatformSpec{Partitions: []string{"batch:0-11", "debug:12-15"}},
		Policy: experiment.PolicySpec{Name: policy}, Outputs: experiment.OutputSpec{Dir: run}}).Run(); err != nil {
		t.Fatal(err)
	}
	return run
}

// The comparison page of two runs with partitions (EASY and FCFS on
// partsRun's trace) gives each run's partitions in words, side by side
// in the row run.partitions.list, not as JSON: the same partitions and
// jobs (20 in batch, 10 in debug: the trace's, worked out above), the
// mean waits of each policy.
func TestComparePartitions(t *testing.T) {
	trace := partsTrace(t)
	a, b := partsRunOf(t, trace, "easy"), partsRunOf(t, trace, "fcfs")
	out := filepath.Join(t.TempDir(), "compare.html")
	if err := Compare([]string{a, b}, out); err != nil {
		t.Fatal(err)
	}
	s := partsPage(t, out, "the comparison page shows the partitions' list as JSON")
	row := regexp.MustCompile(`<tr><th>run.partitions.list</th><td>([^<]*)</td><td( class="differs")?>([^<]*)</td></tr>`).FindStringSubmatch(s)
	if row == nil {
		t.Fatal("no row run.partitions.list with a cell per run on the comparison page")
	}
	cell := regexp.MustCompile(`^batch \(CPUs 0-11, 20 jobs, mean wait ([^)]+)\); debug \(CPUs 12-15, 10 jobs, mean wait ([^)]+)\)$`)
	ea, fa := cell.FindStringSubmatch(row[1]), cell.FindStringSubmatch(row[3])
	if ea == nil || fa == nil {
		t.Fatalf("the partitions' cells %q and %q do not name batch (20 jobs) and debug (10 jobs) in words", row[1], row[3])
	}
	t.Logf("EASY: %s\nFCFS: %s", row[1], row[3])
	if (row[1] != row[3]) != (row[2] != "") {
		t.Errorf("the FCFS cell %q is marked differs=%v beside EASY's %q", row[3], row[2] != "", row[1])
	}
}

// minutes writes seconds as the page does for 100 s to 100 min: three
// significant digits of minutes (the test's own formatting, for the
// values of this run).
func minutes(s float64) string {
	v := s / 60
	switch {
	case v >= 10:
		return fmt.Sprintf("%.1f min", v)
	default:
		return fmt.Sprintf("%.2f min", v)
	}
}

// A run with partitions: the page has a table of them (each name, CPUs,
// jobs and metrics of summary.json's run.partitions.list, in human
// units) instead of a raw JSON blob in the summary, and its data gives
// the Gantt chart each partition's CPU ranges.
func TestRunPagePartitions(t *testing.T) {
	run := partsRun(t)
	var sum struct {
		Run struct {
			Partitions struct {
				List []struct {
					Name    string
					CPUs    string
					Jobs    int
					Metrics struct {
						MeanWait     float64 `json:"mean_wait"`
						MeanResponse float64 `json:"mean_response"`
						Utilization  float64
					}
				}
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(run, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	ps := sum.Run.Partitions.List
	if len(ps) != 2 || ps[0].Name != "batch" || ps[0].Jobs != 20 || ps[1].Name != "debug" || ps[1].Jobs != 10 {
		t.Fatalf("partitions %+v, want batch with 20 jobs and debug with 10 (worked out from the trace)", ps)
	}
	out, err := writeOne(run)
	if err != nil {
		t.Fatal(err)
	}
	s := partsPage(t, out, "the page still shows the partitions' list as JSON")
	page := []byte(s)
	table := regexp.MustCompile(`(?s)<table class="summary partitions">.*?</table>`).FindString(s)
	if table == "" {
		t.Fatal("no table of partitions on the page")
	}
	rows := regexp.MustCompile(`<tr><th>([^<]*)</th><td>([^<]*)</td><td class="num">(\d+)</td><td class="num">\d+</td><td class="num">([^<]*)</td><td class="num">[^<]*</td><td class="num">([^<]*)</td><td class="num">[^<]*</td><td class="num">([^<]*)</td></tr>`).FindAllStringSubmatch(table, -1)
	if len(rows) != 2 {
		t.Fatalf("%d rows in the table of partitions, want 2:\n%s", len(rows), table)
	}
	for i, r := range rows {
		p := ps[i]
		wait := minutes(p.Metrics.MeanWait)
		if p.Metrics.MeanWait < 100 {
			wait = fmt.Sprintf("%g s", math.Round(p.Metrics.MeanWait*10)/10)
		}
		want := []string{p.Name, p.CPUs, fmt.Sprint(p.Jobs), wait, minutes(p.Metrics.MeanResponse), fmt.Sprintf("%.1f%%", 100*p.Metrics.Utilization)}
		for k, w := range want {
			if r[k+1] != w {
				t.Errorf("row %d column %d: %q, want %q (summary.json %+v)", i, k, r[k+1], w, p)
			}
		}
	}
	if !strings.Contains(s, "<th>run.partitions.list</th><td>batch (CPUs 0-11, 20 jobs, mean wait "+rows[0][4]+"); debug (CPUs 12-15, 10 jobs, mean wait "+rows[1][4]+")</td>") {
		t.Error("the summary's row of partitions does not name them in words")
	}
	var parts []partView
	if err := json.Unmarshal(embedded(t, page)["partitions"], &parts); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(parts) != "[{batch [0] [11]} {debug [12] [15]}]" {
		t.Errorf("the Gantt chart's partitions %v, want batch 0-11 and debug 12-15", parts)
	}

	// A run without partitions has neither.
	out, err = writeOne(tinyRun(t))
	if err != nil {
		t.Fatal(err)
	}
	if page, err = os.ReadFile(out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), `id="partitions"`) || embedded(t, page)["partitions"] != nil {
		t.Error("a run without partitions has a table of partitions or partitions in its data")
	}
}

// A partition's CPUs beyond the machine are refused, naming the file.
func TestRunPagePartitionsBad(t *testing.T) {
	run := partsRun(t)
	path := filepath.Join(run, "summary.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), `"12-15"`, `"12-99"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := writeOne(run); err == nil || !strings.Contains(err.Error(), "summary.json: partition debug: CPU 99 is not on the machine (16 CPUs") {
		t.Fatalf("got %v", err)
	}
}

// In Chromium the Gantt chart draws a boundary line at each edge of each
// partition (batch 0-11: at CPUs 0 and 12; debug 12-15: at 12 and 16),
// in the partitions' colour, at the rows the CPUs take, and each name.
func TestBrowserPartitionBoundaries(t *testing.T) {
	bin := browser(t)
	page, err := writeOne(partsRun(t))
	if err != nil {
		t.Fatal(err)
	}
	_, raw := loadRaw(t, bin, page)
	var sc struct {
		PartLines []struct {
			Name  string
			CPU   int
			Y     float64
			Color string
		} `json:"partLines"`
		PartLabels []struct{ Name string } `json:"partLabels"`
	}
	if err := json.Unmarshal(raw, &sc); err != nil {
		t.Fatal(err)
	}
	var got []string
	ys := map[int]float64{}
	for _, l := range sc.PartLines {
		got = append(got, fmt.Sprintf("%s@%d", l.Name, l.CPU))
		if l.Color != "#7A0177" {
			t.Errorf("line of %s at CPU %d: colour %s, want the partitions' #7A0177", l.Name, l.CPU, l.Color)
		}
		if y, ok := ys[l.CPU]; ok && y != l.Y {
			t.Errorf("CPU %d's lines at y %g and %g", l.CPU, y, l.Y)
		}
		ys[l.CPU] = l.Y
	}
	if strings.Join(got, " ") != "batch@0 batch@12 debug@12 debug@16" {
		t.Fatalf("lines %v", got)
	}
	// The rows are linear in the CPU id: 12 is 3/4 of the way from 0 to 16.
	if d := ys[12] - (ys[0] + 0.75*(ys[16]-ys[0])); math.Abs(d) > 1 {
		t.Errorf("CPU 12's line at y %g, %g off its place between %g and %g", ys[12], d, ys[0], ys[16])
	}
	if len(sc.PartLabels) != 2 || sc.PartLabels[0].Name != "batch" || sc.PartLabels[1].Name != "debug" {
		t.Errorf("labels %+v", sc.PartLabels)
	}
}

// run --metrics-by user: the page has a table of the groups (names from
// the header, the lower id first among equals) and the summary row
// names them in words. Four jobs of two users on 2 CPUs under FCFS
// (experiment.TestMetricsByHand works them out): alice waits 0 and 18 s
// (mean 9 s), 30 of the 44 CPU-s (68.2%); user 2 waits 9 and 22 s (mean
// 15.5 s), 14 CPU-s (31.8%).
func TestRunPageGroups(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "u.swf")
	if err := os.WriteFile(trace, []byte("; MaxProcs: 2\n; User 1: alice\n"+
		"1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"2 1 0 10 1 -1 -1 1 20 -1 1 2 1 -1 1 -1 -1 -1\n"+
		"3 2 0 5 2 -1 -1 2 20 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"4 3 0 4 1 -1 -1 1 20 -1 1 2 1 -1 2 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	if _, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: trace}, Policy: experiment.PolicySpec{Name: "fcfs"},
		Outputs: experiment.OutputSpec{Dir: run, By: "user"}}).Run(); err != nil {
		t.Fatal(err)
	}
	out, err := writeOne(run)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, want := range []string{
		`<tr><th>alice</th><td class="num">2</td><td class="num">9.00 s</td><td class="num">18.0 s</td>`,
		`<td class="num">68.2%</td></tr>`,
		`<tr><th>user 2</th><td class="num">2</td><td class="num">15.5 s</td><td class="num">22.0 s</td>`,
		`<td class="num">31.8%</td></tr>`,
		`<tr><th>metrics_by.list</th><td>2 user(s): alice (2 jobs, mean wait 9.00 s); user 2 (2 jobs, mean wait 15.5 s)</td></tr>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

// partsPage reads the page at path; a page that still holds the
// partitions' list as JSON is an error saying complaint.
func partsPage(t *testing.T, path, complaint string) string {
	t.Helper()
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	if strings.Contains(s, "&#34;cpus&#34;") || strings.Contains(s, `"cpus":`) {
		t.Error(complaint)
	}
	return s
}
