package htmlreport

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/experiment"
)

// tinyRun simulates testdata/tiny.swf (40 jobs, 16 CPUs) under EASY and
// returns the run folder.
func tinyRun(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	_, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: "testdata/tiny.swf"}, Policy: experiment.PolicySpec{Name: "easy"}, Outputs: experiment.OutputSpec{Dir: dir}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// embedded returns the JSON data block of a page.
func embedded(t *testing.T, page []byte) map[string]json.RawMessage {
	t.Helper()
	m := regexp.MustCompile(`(?s)<script type="application/json" id="data">(.*?)</script>`).FindSubmatch(page)
	if m == nil {
		t.Fatal("no data block in the page")
	}
	var d map[string]json.RawMessage
	if err := json.Unmarshal(m[1], &d); err != nil {
		t.Fatalf("data block: %v", err)
	}
	return d
}

func decodeCol(t *testing.T, raw json.RawMessage) []float64 {
	t.Helper()
	var c col
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	b, err := base64.StdEncoding.DecodeString(c.B)
	if err != nil {
		t.Fatal(err)
	}
	var out []float64
	switch c.T {
	case "i32":
		for i := 0; i+4 <= len(b); i += 4 {
			out = append(out, float64(int32(binary.LittleEndian.Uint32(b[i:]))))
		}
	case "f64":
		for i := 0; i+8 <= len(b); i += 8 {
			out = append(out, math.Float64frombits(binary.LittleEndian.Uint64(b[i:])))
		}
	default:
		t.Fatalf("column type %q", c.T)
	}
	return out
}

// The page of a run embeds jobs.csv's columns exactly, and the same folder
// gives the same bytes.
func TestRunReport(t *testing.T) {
	dir := tinyRun(t)
	out, err := writeOne(dir)
	if err != nil {
		t.Fatal(err)
	}
	if out != filepath.Join(dir, "report.html") {
		t.Fatalf("wrote %s", out)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<canvas id="gantt"`, `<canvas id="util"`, `<canvas id="queue"`, `<canvas id="wait"`, `<canvas id="bsld"`,
		"<th>run.policy</th><td>easy</td>", "<th>jobs</th><td>40</td>"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Nothing fetched: no src= or href= to anything.
	if regexp.MustCompile(`(?i)(src|href)\s*=`).Match(page) {
		t.Error("page references an external resource")
	}

	jobs, err := readJobs(filepath.Join(dir, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	d := embedded(t, page)
	for name, want := range map[string][]float64{"id": jobs.id, "submit": jobs.submit, "start": jobs.start, "finish": jobs.finish, "nprocs": jobs.procs} {
		got := decodeCol(t, d[name])
		if len(got) != 40 || len(got) != len(want) {
			t.Fatalf("%s: %d values, want 40", name, len(got))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s[%d] = %v, want %v", name, i, got[i], want[i])
			}
		}
	}
	// The intervals read back give the allocated_resources text of every row.
	raw, _ := os.ReadFile(filepath.Join(dir, "jobs.csv"))
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")[1:]
	off, lo, hi := decodeCol(t, d["ivoff"]), decodeCol(t, d["ivlo"]), decodeCol(t, d["ivhi"])
	for i, line := range lines {
		var parts []string
		for k := int(off[i]); k < int(off[i+1]); k++ {
			if lo[k] == hi[k] {
				parts = append(parts, jsonNum(lo[k]))
			} else {
				parts = append(parts, jsonNum(lo[k])+"-"+jsonNum(hi[k]))
			}
		}
		cells := strings.Split(line, ",")
		if got, want := strings.Join(parts, " "), cells[10]; got != want {
			t.Errorf("row %d: intervals %q, jobs.csv %q", i+1, got, want)
		}
	}

	// Determinism.
	if _, err := Write(dir); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(out)
	if !bytes.Equal(page, again) {
		t.Fatal("second report differs from the first")
	}
}

func jsonNum(v float64) string { b, _ := json.Marshal(v); return string(b) }

// overTime on a hand example: 4 CPUs; job A uses 2 CPUs over [0, 50),
// job B waits over [0, 25) and uses 4 over [25, 100).
func TestOverTime(t *testing.T) {
	j := &runJobs{
		id: []float64{1, 2}, submit: []float64{0, 0}, start: []float64{0, 25}, finish: []float64{50, 100}, procs: []float64{2, 4},
	}
	util, queue := overTime(j, 4)
	if util.T0 != 0 || util.W != 100.0/timeBins || len(util.Y) != timeBins {
		t.Fatalf("bins t0 %v w %v n %d", util.T0, util.W, len(util.Y))
	}
	// time-average utilization = (2*50 + 4*75) / (4*100) = 1.
	sumU, sumQ := 0.0, 0.0
	for k := range util.Y {
		sumU += util.Y[k] * util.W
		sumQ += queue.Y[k] * queue.W
	}
	if math.Abs(sumU-100) > 1e-9 || math.Abs(sumQ-25) > 1e-9 {
		t.Fatalf("integrals: utilization %v (want 100), queue %v (want 25)", sumU, sumQ)
	}
	// At t in [0, 25): A runs (2/4), B waits; in [25, 50): 6/4 (no overlap
	// check here: the report shows what the file says); in [50, 100): 1.
	for _, c := range []struct {
		k    int
		u, q float64
	}{{0, 0.5, 1}, {timeBins/4 - 1, 0.5, 1}, {timeBins / 4, 1.5, 0}, {timeBins/2 - 1, 1.5, 0}, {timeBins / 2, 1, 0}, {timeBins - 1, 1, 0}} {
		if math.Abs(util.Y[c.k]-c.u) > 1e-9 || math.Abs(queue.Y[c.k]-c.q) > 1e-9 {
			t.Errorf("bin %d: utilization %v queue %v, want %v %v", c.k, util.Y[c.k], queue.Y[c.k], c.u, c.q)
		}
	}
}

func TestDistributions(t *testing.T) {
	// waits 0, 30, 7200; bounded slowdowns 1, (30+5)/10 = 3.5, (7200+100)/100 = 73.
	j := &runJobs{id: []float64{1, 2, 3}, submit: []float64{0, 0, 0}, start: []float64{0, 30, 7200}, finish: []float64{5, 35, 7300}}
	w, b := distributions(j, 10)
	if got := w.Counts; got[0] != 1 || got[1] != 1 || got[4] != 1 {
		t.Errorf("wait counts %v", got)
	}
	if got := b.Counts; got[0] != 1 || got[2] != 1 || got[4] != 1 {
		t.Errorf("bounded slowdown counts %v", got)
	}
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Bad input: a clear error naming the file (and line), and no report.html
// (an older one is left untouched).
func TestBadInput(t *testing.T) {
	good := tinyRun(t)
	raw, err := os.ReadFile(filepath.Join(good, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	sum, _ := os.ReadFile(filepath.Join(good, "summary.json"))
	lines := strings.SplitAfter(string(raw), "\n")
	cases := []struct {
		name, jobs, summary, want string
	}{
		{"cut mid-row", string(raw[:len(raw)-20]), string(sum), `jobs.csv:41: wrong number of fields`},
		{"cut at a row", strings.Join(lines[:30], ""), string(sum), `jobs.csv: 29 job rows, but .*summary.json says jobs: 40 \(is jobs.csv truncated\?\)`},
		{"bad number", strings.Replace(string(raw), lines[3], strings.Replace(lines[3], ",", ",x", 1), 1), string(sum), `jobs.csv:4: column submission_time: invalid number "x`},
		{"bad cpus", strings.Join(lines[:1], "") + "1,0,2,10,0,5,5,0,5,1,1-0,COMPLETED_SUCCESSFULLY,immediate,w0,delay,1,-1,,,,\n", `{"jobs": 1}`, `jobs.csv:2: column allocated_resources: "1-0": `},
		{"no header", "", string(sum), `jobs.csv: empty file`},
		{"missing column", "job_id,submission_time\n", string(sum), `jobs.csv:1: missing column requested_number_of_resources`},
		{"bad json", string(raw), `{"jobs": 40`, `summary.json: not valid JSON`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "jobs.csv"), c.jobs)
			write(t, filepath.Join(dir, "summary.json"), c.summary)
			write(t, filepath.Join(dir, "report.html"), "old")
			_, err := Write(dir)
			if err == nil || !regexp.MustCompile(c.want).MatchString(err.Error()) {
				t.Fatalf("error %v, want match %q", err, c.want)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "report.html")); string(b) != "old" {
				t.Error("report.html was touched")
			}
			ents, _ := os.ReadDir(dir)
			if len(ents) != 3 {
				t.Errorf("%d files left in the folder, want 3", len(ents))
			}
		})
	}
	t.Run("not an output folder", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "jobs.csv"), string(raw)) // no summary.json
		_, err := Write(dir)
		if err == nil || !strings.Contains(err.Error(), "neither a run (jobs.csv and summary.json), a sweep") {
			t.Fatalf("error %v", err)
		}
		if _, err := os.Stat(filepath.Join(dir, "report.html")); err == nil {
			t.Error("report.html written")
		}
	})
}

// copyDir copies the files of a testdata folder into a temporary one.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		write(t, filepath.Join(dst, rel), string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// testdata/sweep is the output of `schedlab sweep scenario.yaml` (2 x 2
// points of the grid model, 3 replications).
func TestSweepReport(t *testing.T) {
	dir := copyDir(t, "testdata/sweep")
	if k, err := Detect(dir); err != nil || k != Sweep {
		t.Fatalf("Detect: %v %v", k, err)
	}
	out, err := writeOne(dir)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(out)
	s := string(page)
	for _, want := range []string{
		`<select data-axis="policy.grid"><option value="">all</option><option>random</option><option>deferred</option></select>`,
		`<select data-axis="policy.local"><option value="">all</option><option>sq</option><option>random</option></select>`,
		// point 0, rt: mean and CI from summary.csv (1.3130042,
		// 1.2770179, 1.3489906) to four digits, in the grid model's
		// time units (its keys hold svc=: not seconds)
		`<td>0</td><td class="label">random</td><td class="label">sq</td><td class="num">1.313<br><span class="ci">[1.277, 1.349]</span></td>`,
		`<th class="metric" title="time-averaged jobs in the site (queued and in service)">site1_<wbr>load<br><span class="unit">(jobs)</span></th>`,
		`<th class="metric" title="mean response time (gang: of the local jobs)">rt<br><span class="unit">(time units)</span></th>`,
		// utilization is a fraction, shown as a percentage: 0.62963944 is 62.96%
		`<td class="num">62.96<br><span class="ci">[61.95, 63.98]</span></td>`,
		// a comparison whose CI excludes 0: random's rt is higher than
		// sq's (1.11304 [1.04478, 1.18129]; the template writes + as &#43;), and a
		// higher response time is worse
		`<td>rt</td><td class="num">&#43;1.113 [1.045, 1.181] time units</td><td class="num">3</td><td class="higher worse">higher (worse)</td>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if n := strings.Count(s, `<svg id="ci-`); n != 8 {
		t.Errorf("%d CI charts, want 8 (one per metric)", n)
	}
	if n := strings.Count(s, `<tr data-f=`); n != 4+32 {
		t.Errorf("%d filterable rows, want 4 points + 32 comparisons", n)
	}
	if _, err := Write(dir); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(out); string(again) != s {
		t.Fatal("second report differs from the first")
	}

	// A bad number: file, line and column named, no page.
	raw, _ := os.ReadFile(filepath.Join(dir, "comparisons.csv"))
	lines := strings.SplitAfter(string(raw), "\n")
	lines[5] = strings.Replace(lines[5], ",3\n", ",3,extra\n", 1)
	write(t, filepath.Join(dir, "comparisons.csv"), strings.Join(lines, ""))
	os.Remove(out)
	if _, err := Write(dir); err == nil || !strings.Contains(err.Error(), "comparisons.csv:6: wrong number of fields") {
		t.Fatalf("error %v", err)
	}
	write(t, filepath.Join(dir, "comparisons.csv"), string(raw))
	sum, _ := os.ReadFile(filepath.Join(dir, "summary.csv"))
	write(t, filepath.Join(dir, "summary.csv"), strings.Replace(string(sum), "1.3130042430785689", "1.31x", 1))
	if _, err := Write(dir); err == nil || !strings.Contains(err.Error(), `summary.csv:2: column mean: invalid number "1.31x"`) {
		t.Fatalf("error %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("report.html written despite the error")
	}
}

// writeOne is Write for a folder that gives one page.
func writeOne(dir string) (string, error) {
	outs, err := Write(dir)
	if err != nil {
		return "", err
	}
	if len(outs) != 1 {
		return "", fmt.Errorf("wrote %d pages, want 1", len(outs))
	}
	return outs[0], nil
}

// testdata/repro/zikos2008 is part of `schedlab reproduce zikos2008
// --quick` (comparison.csv, equivalence_ai.csv, claims.csv, fig03,
// report.txt).
func TestReproReport(t *testing.T) {
	root := copyDir(t, "testdata/repro")
	dir := filepath.Join(root, "zikos2008")
	out, err := writeOne(dir)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(out)
	s := string(page)
	for _, want := range []string{
		"<title>schedlab reproduction: zikos2008: Resource allocation strategies",
		"<p class=\"note\">5 hold, 8 no, 1 not estimable (claims.csv;",
		`<td class="holds-holds">holds</td><td>random 1/λ=0.048 SQ-2RSQ -0.4108 [-0.4298, -0.3918];`,
		`<td class="holds-not-estimable">not estimable</td>`,
		// comparison.csv's first row: paper 3.194, ours and CI, in CI, off by.
		`<tr><td>table3/sq/random_gs/rt</td><td class="num">3.194</td><td class="num">2.96082</td><td class="num">[2.66526, 3.25637]</td><td class="holds-yes">yes</td><td class="num">-7.3%</td></tr>`,
		"Published numbers beside ours: equivalence_ai.csv",
		`<img class="fig" id="fig-fig03" alt="fig03" src="data:image/svg&#43;xml;base64,`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if n := strings.Count(s, `<img class="fig"`); n != 1 {
		t.Errorf("%d figures, want 1", n)
	}
	if _, err := writeOne(dir); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(out); string(again) != s {
		t.Fatal("second report differs from the first")
	}

	// The parent folder (reproduce --out DIR) gives one page per paper.
	outs, err := Write(root)
	if err != nil || len(outs) != 1 || outs[0] != out {
		t.Fatalf("Write(%s) = %v, %v", root, outs, err)
	}

	// A verdict that is none of the categories: file and line named, no
	// page.
	os.Remove(out)
	claims, _ := os.ReadFile(filepath.Join(dir, "claims.csv"))
	write(t, filepath.Join(dir, "claims.csv"), strings.Replace(string(claims), "(Figs 3-4),holds,", "(Figs 3-4),maybe,", 1))
	if _, err := Write(root); err == nil || !strings.Contains(err.Error(), `claims.csv:2: column verdict: want one of holds, direction only, no, not reproduced, not estimable, vacuous, n/a, got "maybe"`) {
		t.Fatalf("error %v", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("report.html written despite the error")
	}
	write(t, filepath.Join(dir, "claims.csv"), string(claims))
	write(t, filepath.Join(dir, "fig03.svg"), "<html>not a figure</html>")
	if _, err := Write(dir); err == nil || !strings.Contains(err.Error(), "fig03.svg: not an SVG file") {
		t.Fatalf("error %v", err)
	}
}

// claims.csv with a reading column (reproduce --readings): the claims
// table is the default reading's (its counts too), and a claims x
// readings table follows; n/a is a verdict.
func TestReproReportReadings(t *testing.T) {
	root := copyDir(t, "testdata/repro")
	dir := filepath.Join(root, "zikos2008")
	write(t, filepath.Join(dir, "claims.csv"), "reading,id,claim,verdict,evidence\n"+
		"default,a_claim,A claim,no,ev a\ndefault,b_claim,B claim,n/a,ev b\n"+
		"strict,a_claim,A claim,holds,ev a2\nstrict,b_claim,B claim,direction only,ev b2\n")
	out, err := writeOne(dir)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(out)
	s := string(page)
	for _, want := range []string{
		"<p class=\"note\">1 no, 1 n/a (claims.csv;",
		"<h2>Claims under each reading</h2>",
		"<th>default</th><th>strict</th>",
		`<tr><td><code>a_claim</code></td><td class="holds-no">no</td><td class="holds-holds">holds</td></tr>`,
		`<tr><td><code>b_claim</code></td><td class="holds-na">n/a</td><td class="holds-direction-only">direction only</td></tr>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(s, "ev a2") {
		t.Error("the claims table shows a non-default reading's evidence")
	}
}

// skipped.csv (a reproduction that left workloads out: their traces
// were not found) gives a banner naming each workload and its trace and
// saying how to add them; without the file, no banner; a row without a
// trace is an error naming the file and line.
func TestReproReportSkipped(t *testing.T) {
	root := copyDir(t, "testdata/repro")
	dir := filepath.Join(root, "zikos2008")
	out, err := writeOne(dir)
	if err != nil {
		t.Fatal(err)
	}
	if page, _ := os.ReadFile(out); strings.Contains(string(page), `id="skipped"`) {
		t.Error("a banner without skipped.csv")
	}
	write(t, filepath.Join(dir, "skipped.csv"), "workload,trace\nHPC2N,HPC2N-2002-2.1-cln.swf.gz\nSDSC,SDSC-BLUE-2000-4.2-cln.swf.gz\n")
	if out, err = writeOne(dir); err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(out)
	want := `<p class="warn" id="skipped">Workloads left out: HPC2N (HPC2N-2002-2.1-cln.swf.gz), SDSC (SDSC-BLUE-2000-4.2-cln.swf.gz). ` +
		`Their traces were not found when this reproduction ran, so the claims, numbers and figures below are without them. ` +
		`To include them, put the trace files (from the Parallel Workloads Archive) in a folder, set SCHEDLAB_TRACES to that folder and run schedlab reproduce again.</p>`
	if !strings.Contains(string(page), want) {
		t.Errorf("page lacks %s", want)
	}
	// The banner comes before the claims.
	if i, j := strings.Index(string(page), `id="skipped"`), strings.Index(string(page), "<h2>Claims of the paper"); i < 0 || j < i {
		t.Errorf("banner at %d, claims at %d", i, j)
	}
	write(t, filepath.Join(dir, "skipped.csv"), "workload,trace\nHPC2N,\n")
	if _, err := Write(dir); err == nil || !strings.Contains(err.Error(), `skipped.csv:2: want a workload and a trace, got "HPC2N" and ""`) {
		t.Fatalf("error %v", err)
	}
	write(t, filepath.Join(dir, "skipped.csv"), "name\nHPC2N\n")
	if _, err := Write(dir); err == nil || !strings.Contains(err.Error(), "skipped.csv:1: missing column workload") {
		t.Fatalf("error %v", err)
	}
}

// A sweep's page is titled by the scenario's name (sweep.json, written by
// schedlab sweep); without sweep.json, by the folder's name; a sweep.json
// that is not JSON is an error naming it.
func TestSweepTitle(t *testing.T) {
	dir := copyDir(t, "testdata/sweep")
	title := func() string {
		t.Helper()
		out, err := writeOne(dir)
		if err != nil {
			t.Fatal(err)
		}
		page, _ := os.ReadFile(out)
		m := regexp.MustCompile(`<title>(.*?)</title>`).FindSubmatch(page)
		if m == nil {
			t.Fatal("no title")
		}
		return string(m[1])
	}
	if got, want := title(), "schedlab sweep: "+filepath.Base(dir); got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	write(t, filepath.Join(dir, "sweep.json"), `{"name": "Grid: random vs deferred", "file": "scenario.yaml", "points": 4}`+"\n")
	if got, want := title(), "schedlab sweep: Grid: random vs deferred"; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	write(t, filepath.Join(dir, "sweep.json"), `{"name": `)
	if _, err := Write(dir); err == nil || !strings.Contains(err.Error(), "sweep.json: not the JSON of a sweep") {
		t.Fatalf("error %v", err)
	}
}

// planned.csv gives each job its last planned start at or before its
// start; a job not in jobs.csv is an error naming the line.
func TestPlannedStartsRead(t *testing.T) {
	run := filepath.Join(t.TempDir(), "run")
	if _, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: "../../examples/teaching/five-jobs.swf"}, Policy: experiment.PolicySpec{Name: "conservative"}, Outputs: experiment.OutputSpec{Dir: run, Planned: true}}).Run(); err != nil {
		t.Fatal(err)
	}
	p, err := readRun(run)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.planned) != 2 || p.planned[2] != 100 || p.planned[5] != 150 {
		t.Fatalf("planned %v, want job 2 at 100 and job 5 at 150", p.planned)
	}
	write(t, filepath.Join(run, "planned.csv"), "job_id,time,planned_start\n2,1,100\n9,3,7\n")
	if _, err := readRun(run); err == nil || !strings.Contains(err.Error(), "planned.csv:3: job 9 is not in jobs.csv") {
		t.Fatalf("unknown job: %v", err)
	}
}
