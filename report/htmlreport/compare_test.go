package htmlreport

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/experiment"
)

// tinyRuns simulates testdata/tiny.swf under each policy and returns the
// run folders.
func tinyRuns(t *testing.T, policies ...string) []string {
	t.Helper()
	return traceRuns(t, "testdata/tiny.swf", policies...)
}

// traceRuns simulates a trace under each policy into a folder of its
// own.
func traceRuns(t *testing.T, trace string, policies ...string) []string {
	t.Helper()
	root := t.TempDir()
	var dirs []string
	for _, p := range policies {
		dir := filepath.Join(root, p)
		if _, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: trace}, Policy: experiment.PolicySpec{Name: p}, Outputs: experiment.OutputSpec{Dir: dir}}).Run(); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	return dirs
}

// csvJobs reads jobs.csv with encoding/csv, independently of the
// report's reader: waiting_time and turnaround_time by job_id, and the
// job ids in file order.
func csvJobs(t *testing.T, dir string) (wait, resp map[string]float64, ids []string) {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	at := map[string]int{}
	for i, h := range rows[0] {
		at[h] = i
	}
	wait, resp = map[string]float64{}, map[string]float64{}
	for _, r := range rows[1:] {
		w, err1 := strconv.ParseFloat(r[at["waiting_time"]], 64)
		a, err2 := strconv.ParseFloat(r[at["turnaround_time"]], 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("row %q", r)
		}
		wait[r[at["job_id"]]], resp[r[at["job_id"]]] = w, a
		ids = append(ids, r[at["job_id"]])
	}
	return wait, resp, ids
}

// The comparison page embeds, per job and per run after the first, the
// differences of waiting_time and turnaround_time of the jobs.csv files,
// value by value; its counts of helped, hurt and unchanged jobs and its
// tables of the most helped and hurt jobs follow from them; and the same
// folders give the same bytes.
func TestCompareReport(t *testing.T) {
	dirs := tinyRuns(t, "easy", "fcfs", "conservative")
	out := filepath.Join(t.TempDir(), "cmp.html")
	if err := Compare(dirs, out); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	for _, want := range []string{
		"<title>schedlab comparison: tiny.swf · easy vs fcfs vs conservative</title>",
		`<canvas id="gantt-0"`, `<canvas id="gantt-1"`, `<canvas id="gantt-2"`, `<canvas id="util"`, `<canvas id="queue"`,
		`<canvas id="diff-1"`, `<canvas id="diff-2"`,
		// the policies as column headers, and a differing cell marked
		"<th>easy<br><code>" + dirs[0] + "</code></th><th>fcfs<br><code>" + dirs[1] + "</code></th>",
		`<tr><th>run.policy</th><td>easy</td><td class="differs">fcfs</td><td class="differs">conservative</td></tr>`,
		`<tr><th>jobs</th><td>40</td><td>40</td><td>40</td></tr>`,
		"<h3>fcfs against easy</h3>", "<h3>conservative against easy</h3>",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if regexp.MustCompile(`(?i)(src|href)\s*=`).MatchString(s) {
		t.Error("page references an external resource")
	}

	d := embedded(t, page)
	var kind string
	json.Unmarshal(d["kind"], &kind)
	if kind != "comparison" {
		t.Fatalf("kind %q", kind)
	}
	ids := decodeCol(t, d["ids"])
	w0, r0, fileOrder := csvJobs(t, dirs[0])
	if len(ids) != 40 || len(fileOrder) != 40 {
		t.Fatalf("%d ids embedded, %d rows in jobs.csv; want 40", len(ids), len(fileOrder))
	}
	for k := 1; k < len(ids); k++ {
		if ids[k] <= ids[k-1] {
			t.Fatalf("ids not increasing at %d: %v", k, ids)
		}
	}
	var diffs []struct {
		Run                int
		Wait, Resp         json.RawMessage
		Helped, Hurt, Same int
		Hist               histogram
	}
	if err := json.Unmarshal(d["diffs"], &diffs); err != nil || len(diffs) != 2 {
		t.Fatalf("diffs: %v, %d", err, len(diffs))
	}
	for r, dd := range diffs {
		if dd.Run != r+1 {
			t.Errorf("diff %d is of run %d", r, dd.Run)
		}
		wr, rr, _ := csvJobs(t, dirs[r+1])
		wait, resp := decodeCol(t, dd.Wait), decodeCol(t, dd.Resp)
		helped, hurt, same := 0, 0, 0
		mostHelped, mostHurt := "", ""
		minD, maxD := 0.0, 0.0
		for k, id := range ids {
			key := strconv.FormatFloat(id, 'f', -1, 64)
			if want := wr[key] - w0[key]; wait[k] != want {
				t.Errorf("run %d job %s: wait difference %v, jobs.csv files %v", r+1, key, wait[k], want)
			}
			if want := rr[key] - r0[key]; resp[k] != want {
				t.Errorf("run %d job %s: response difference %v, jobs.csv files %v", r+1, key, resp[k], want)
			}
			switch v := wr[key] - w0[key]; {
			case v < 0:
				helped++
				if v < minD { // strict: ties go to the lower id
					minD, mostHelped = v, key
				}
			case v > 0:
				hurt++
				if v > maxD {
					maxD, mostHurt = v, key
				}
			default:
				same++
			}
		}
		if dd.Helped != helped || dd.Hurt != hurt || dd.Same != same || helped+hurt+same != 40 {
			t.Errorf("run %d: helped/hurt/same %d/%d/%d, jobs.csv files %d/%d/%d", r+1, dd.Helped, dd.Hurt, dd.Same, helped, hurt, same)
		}
		total := 0
		for _, c := range dd.Hist.Counts {
			total += c
		}
		if total != 40 || dd.Hist.Counts[6] != same {
			t.Errorf("run %d: histogram %v: %d jobs (want 40), %d in the 0 bin (want %d)", r+1, dd.Hist.Counts, total, dd.Hist.Counts[6], same)
		}
		counts := fmt.Sprintf(`<p class="counts" id="counts-%d">%d jobs helped (wait less), %d hurt (wait more), %d unchanged;`, r+1, helped, hurt, same)
		if !strings.Contains(s, counts) {
			t.Errorf("page lacks %s", counts)
		}
		// The first row of each table is the most helped / hurt job.
		tables := regexp.MustCompile(`(?s)<h3>` + []string{"fcfs", "conservative"}[r] + ` against easy</h3>.*?<h4>Helped most</h4>(.*?)<h4>Hurt most</h4>(.*?)</div></div>`).FindStringSubmatch(s)
		if tables == nil {
			t.Fatalf("run %d: no tables", r+1)
		}
		for i, c := range []struct {
			id string
			v  float64
		}{{mostHelped, minD}, {mostHurt, maxD}} {
			if c.id == "" {
				continue
			}
			sign := ""
			if c.v > 0 {
				sign = "+"
			}
			first := `<tbody>
<tr><td class="num">` + c.id + `</td>`
			tab := html.UnescapeString(tables[i+1])
			if !strings.Contains(tab, first) || !strings.Contains(tab, `<td class="num" title="`+sign+strconv.FormatFloat(c.v, 'f', -1, 64)+` s">`+signedDuration(c.v)+`</td>`) {
				t.Errorf("run %d table %d: first row is not job %s (%v):\n%s", r+1, i, c.id, c.v, tables[i+1])
			}
		}
	}

	// Determinism: the same folders give the same bytes.
	if err := Compare(dirs, out); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(out); string(again) != s {
		t.Fatal("second comparison page differs from the first")
	}
}

// Bins of a difference of wait, worked out by hand from diffEdges.
func TestDiffBin(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want int
	}{
		{0, 6}, {0.5, 7}, {59, 7}, {60, 8}, {599, 8}, {600, 9}, {3600, 10}, {4 * 3600, 11}, {86399, 11}, {86400, 12}, {1e9, 12},
		{-0.5, 5}, {-59, 5}, {-60, 4}, {-600, 3}, {-3600, 2}, {-4 * 3600, 1}, {-86400, 0}, {-1e9, 0},
	} {
		if got := diffBin(c.v); got != c.want {
			t.Errorf("diffBin(%v) = %d (%s), want %d (%s)", c.v, got, diffLabels[got], c.want, diffLabels[c.want])
		}
	}
}

// Bad input: folders that are not runs, runs of different traces, a
// truncated jobs.csv: a clear error, and the page is not written (an
// older one is left as it was).
func TestCompareBadInput(t *testing.T) {
	dirs := tinyRuns(t, "easy", "fcfs")
	jobs, _ := os.ReadFile(filepath.Join(dirs[1], "jobs.csv"))
	sum, _ := os.ReadFile(filepath.Join(dirs[1], "summary.json"))
	lines := strings.SplitAfter(string(jobs), "\n")
	// Row 4 of fcfs/jobs.csv: job 4, submitted at 336, started at 336.
	if !strings.HasPrefix(lines[4], "4,336,1,1066,336,") {
		t.Fatalf("row 4 is %q; the cases below assume job 4 submitted and started at 336", lines[4])
	}
	edit := func(from, to string) string {
		if !strings.Contains(string(jobs), from) {
			t.Fatalf("jobs.csv lacks %q", from)
		}
		return strings.Replace(string(jobs), from, to, 1)
	}
	neither := t.TempDir()
	cases := []struct {
		name      string
		dirs      []string
		jobs, sum string // replace fcfs's files when not ""
		want      string
	}{
		{"one folder", dirs[:1], "", "", `a comparison takes 2 to 8 run folders, got 1`},
		{"neither", []string{dirs[0], neither}, "", "", `neither a run \(jobs.csv and summary.json\)`},
		{"a sweep", []string{dirs[0], "testdata/sweep"}, "", "", `testdata/sweep: a sweep folder, not a run`},
		{"another trace", nil, "", strings.Replace(string(sum), "tiny.swf", "other.swf", 1), `fcfs is a run of trace other.swf, .*easy of trace tiny.swf: a comparison takes runs of one trace`},
		{"another submit", nil, edit("\n4,336,1,1066,336,", "\n4,335,1,1066,336,"), "", `job 4 is submitted at 335 in .*fcfs/jobs.csv \(row 4\) but at 336 in .*easy/jobs.csv \(row \d+\): not runs of the same trace`},
		{"another id", nil, edit("\n4,336,", "\n400,336,"), "", `job 4 of .*easy/jobs.csv is not in .*fcfs/jobs.csv`},
		{"id twice", nil, edit("\n4,336,", "\n3,336,"), "", `fcfs/jobs.csv: job id 3 appears twice \(rows 3 and 4\)`},
		{"truncated at a row", nil, strings.Join(lines[:30], ""), "", `fcfs/jobs.csv: 29 job rows, but .*summary.json says jobs: 40 \(is jobs.csv truncated\?\)`},
		{"truncated mid-row", nil, string(jobs[:len(jobs)-20]), "", `fcfs/jobs.csv:41: wrong number of fields`},
		{"fewer jobs", nil, strings.Join(lines[:40], ""), strings.Replace(string(sum), `"jobs": 40`, `"jobs": 39`, 1), `fcfs/jobs.csv has 39 jobs, .*easy/jobs.csv has 40`},
		{"too many", make([]string, MaxCompareRuns+1), "", "", `a comparison takes 2 to 8 run folders, got 9`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.jobs != "" {
				write(t, filepath.Join(dirs[1], "jobs.csv"), c.jobs)
			}
			if c.sum != "" {
				write(t, filepath.Join(dirs[1], "summary.json"), c.sum)
			}
			defer write(t, filepath.Join(dirs[1], "jobs.csv"), string(jobs))
			defer write(t, filepath.Join(dirs[1], "summary.json"), string(sum))
			ds := c.dirs
			if ds == nil {
				ds = dirs
			}
			outDir := t.TempDir()
			out := filepath.Join(outDir, "cmp.html")
			write(t, out, "old")
			err := Compare(ds, out)
			if err == nil || !regexp.MustCompile(c.want).MatchString(err.Error()) {
				t.Fatalf("error %v, want match %q", err, c.want)
			}
			if b, _ := os.ReadFile(out); string(b) != "old" {
				t.Error("the page was touched")
			}
			if ents, _ := os.ReadDir(outDir); len(ents) != 1 {
				t.Errorf("%d files in the output folder, want 1", len(ents))
			}
		})
	}
	// A page whose name does not end in .html could replace a run's files.
	if err := Compare(dirs, filepath.Join(dirs[0], "jobs.csv")); err == nil || !strings.Contains(err.Error(), "must end in .html") {
		t.Errorf("error %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dirs[0], "jobs.csv")); !strings.HasPrefix(string(b), "job_id,") {
		t.Error("jobs.csv was replaced")
	}
	// The folders are as they were: the comparison works.
	if err := Compare(dirs, filepath.Join(t.TempDir(), "ok.html")); err != nil {
		t.Fatal(err)
	}
}

// A comparison never gives two runs the same name: runs of one policy
// are named by their folders, and a folder name taken twice gets a
// number.
func TestRunLabelsDistinct(t *testing.T) {
	for _, c := range []struct {
		policies, dirs, want []string
	}{
		{[]string{"fcfs", "easy", "conservative", "conservative"}, []string{"o/fcfs", "o/easy", "o/conservative", "o/mf-cons/"},
			[]string{"fcfs", "easy", "conservative", "mf-cons"}},
		{[]string{"easy", "easy"}, []string{"x/run", "y/run"}, []string{"run", "run (2)"}},
		{[]string{"", "fcfs"}, []string{"a", "b"}, []string{"?", "fcfs"}},
	} {
		var runs []*runPage
		for _, p := range c.policies {
			runs = append(runs, &runPage{policy: p})
		}
		got := runLabels(runs, c.dirs)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("runLabels(%q, %q) = %q, want %q", c.policies, c.dirs, got, c.want)
		}
	}
}

// The page names runs of one policy by their folders (the title, the
// summaries' heads, the script's names), and --label's names replace
// them; labels that are missing, empty or alike are refused.
func TestCompareDistinctNamesOnPage(t *testing.T) {
	root := t.TempDir()
	var dirs []string
	for _, r := range []struct{ dir, policy string }{{"fcfs", "fcfs"}, {"conservative", "conservative"}, {"mf-cons", "conservative"}} {
		dir := filepath.Join(root, r.dir)
		if _, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: "testdata/tiny.swf"}, Policy: experiment.PolicySpec{Name: r.policy}, Outputs: experiment.OutputSpec{Dir: dir}}).Run(); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, dir)
	}
	names := func(page []byte) (title string, script []string) {
		t.Helper()
		m := regexp.MustCompile(`<title>([^<]*)</title>`).FindSubmatch(page)
		if m == nil {
			t.Fatal("no title")
		}
		n := regexp.MustCompile(`"names":(\[[^\]]*\])`).FindSubmatch(page)
		if n == nil {
			t.Fatal("no names in the page's data")
		}
		if err := json.Unmarshal(n[1], &script); err != nil {
			t.Fatal(err)
		}
		return html.UnescapeString(string(m[1])), script
	}
	page, err := buildCompare(dirs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	title, script := names(page)
	if want := "schedlab comparison: tiny.swf · fcfs vs conservative vs mf-cons"; title != want {
		t.Errorf("title %q, want %q", title, want)
	}
	if strings.Join(script, "|") != "fcfs|conservative|mf-cons" {
		t.Errorf("names %q", script)
	}
	page, err = buildCompare(dirs, Options{Labels: []string{"FCFS", "cons", "cons + multifactor"}})
	if err != nil {
		t.Fatal(err)
	}
	if title, script := names(page); title != "schedlab comparison: tiny.swf · FCFS vs cons vs cons + multifactor" || strings.Join(script, "|") != "FCFS|cons|cons + multifactor" {
		t.Errorf("with labels: title %q, names %q", title, script)
	}
	for _, c := range []struct {
		labels []string
		want   string
	}{
		{[]string{"a", "b"}, "2 label(s) for 3 runs"},
		{[]string{"a", " ", "c"}, "label 2 is empty"},
		{[]string{"a", "b", "a"}, `labels 1 and 3 are both "a"`},
		{[]string{"a", "b", strings.Repeat("x", MaxLabel+1)}, "label 3 is 201 bytes long"},
	} {
		if _, err := buildCompare(dirs, Options{Labels: c.labels}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("labels %q: %v, want %q", c.labels, err, c.want)
		}
	}
}

// With the trace's clock, the tables of the most helped and hurt jobs
// say when each job was submitted as a date in the trace's zone, and
// waits in human units, the exact seconds in each cell's title. Job 32
// of tiny.swf is submitted at 2216 s: from a start of 1,700,000,000
// (2023-11-14 22:13:20 UTC) that is 22:50:16 UTC, 23:50:16 in Stockholm
// (CET, UTC+1). Without a clock the cell is the seconds.
func TestCompareTablesDates(t *testing.T) {
	dirs := tinyRuns(t, "easy", "fcfs")
	page, err := buildCompare(dirs, Options{Clock: &Clock{Start: 1_700_000_000, Zone: "Europe/Stockholm"}})
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`<tr><td class="num">32</td><td class="num" title="2216 s">([^<]*)</td><td class="num">1</td><td class="num">702</td><td class="num" title="(\d+) s">([^<]*)</td>`).FindSubmatch(page)
	if row == nil {
		t.Fatalf("no row of job 32 in the tables:\n%s", page)
	}
	if string(row[1]) != "2023-11-14 23:50:16" {
		t.Errorf("job 32 submitted %q, want 2023-11-14 23:50:16", row[1])
	}
	if w, _ := strconv.ParseFloat(string(row[2]), 64); string(row[3]) != humanDuration(w) || strings.HasSuffix(string(row[3]), " s") && w >= 100 {
		t.Errorf("wait %q for %s s", row[3], row[2])
	}
	if page, err = buildCompare(dirs, Options{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte(`<td class="num">32</td><td class="num" title="2216 s">2216</td>`)) {
		t.Error("without a clock, job 32's submission is not its seconds")
	}
}
