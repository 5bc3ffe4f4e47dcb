package htmlreport

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedlab/schedlab/experiment"
)

var (
	browserOnce sync.Once
	browserPath string
	browserWhy  string
)

// browser finds Chromium; when it is missing and the test runs as root
// with apt-get, it installs Debian's chromium package once. It skips the
// test, saying why, when there is no browser.
func browser(t *testing.T) string {
	t.Helper()
	browserOnce.Do(func() {
		names := []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}
		look := func() string {
			for _, n := range names {
				if p, err := exec.LookPath(n); err == nil {
					return p
				}
			}
			return ""
		}
		if browserPath = look(); browserPath != "" {
			return
		}
		apt, err := exec.LookPath("apt-get")
		if err != nil || os.Geteuid() != 0 {
			browserWhy = "no chromium on PATH, and not root with apt-get to install it (apt-get install chromium)"
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, apt, "install", "-y", "--no-install-recommends", "chromium").CombinedOutput()
		if browserPath = look(); browserPath == "" {
			browserWhy = "no chromium on PATH and 'apt-get install chromium' failed: " + strings.TrimSpace(lastLine(string(out))) + errText(err)
		}
	})
	if browserPath == "" {
		t.Skip(browserWhy)
	}
	return browserPath
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return " (" + err.Error() + ")"
}

// headless runs the browser on a page with extra arguments and returns
// its stdout and stderr.
func headless(t *testing.T, bin, page string, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	abs, err := filepath.Abs(page)
	if err != nil {
		t.Fatal(err)
	}
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--no-first-run", "--user-data-dir=" + t.TempDir(), "--virtual-time-budget=10000"}, args...)
	all = append(all, "file://"+abs)
	cmd := exec.CommandContext(ctx, bin, all...)
	var so, se strings.Builder
	cmd.Stdout, cmd.Stderr = &so, &se
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, se.String())
	}
	return so.String(), se.String()
}

type selfCheck struct {
	Errors   []string       `json:"errors"`
	Charts   map[string]int `json:"charts"`
	Jobs     int            `json:"jobs"`
	Points   int            `json:"points"`
	Filtered int            `json:"filteredPoints"`
	Rects    int            `json:"rects"`
	Labelled int            `json:"labelled"`
	Samples  []struct {
		Job, CPULo, CPUHi int
		Start, Finish     float64
		W, H              float64
		Color, Want       string
	} `json:"samples"`
	Runs        int  `json:"runs"`
	Synced      bool `json:"synced"`
	DiffSamples []struct {
		Run, Job   int
		Wait, Resp float64
	} `json:"diffSamples"`
	// Spans: the unavailable spans' rectangles; SpanSamples the colour
	// at the centre of each (up to 20).
	Spans int `json:"spans"`
	// Planned: jobs with a planned start (planned.csv), Marked: the
	// planned-start ticks drawn in the first view.
	Planned     int                            `json:"planned"`
	Marked      int                            `json:"marked"`
	SpansDrawn  int                            `json:"spansDrawn"`
	SpanSamples []struct{ Kind, Color string } `json:"spanSamples"`
	// RunSpans (a comparison): each run's span rectangles, and the colour
	// at the centre of its first.
	RunSpans       []int                           `json:"runSpans"`
	RunSpanSamples []*struct{ Kind, Color string } `json:"runSpanSamples"`
	// Tip0: the Gantt chart's tooltip of the first job.
	Tip0 string `json:"tip0"`
	// Axes: per line chart, its time axis's label and first tick.
	Axes map[string]struct{ Label, First string } `json:"axes"`
}

// The page of a small run loads in headless Chromium with no error, draws
// every chart, and its Gantt chart holds one rectangle per interval of
// allocated_resources, at the places jobs.csv says.
func TestBrowserRunReport(t *testing.T) {
	bin := browser(t)
	dir := tinyRun(t)
	page, err := writeOne(dir)
	if err != nil {
		t.Fatal(err)
	}
	sc := load(t, bin, page, "gantt", "util", "queue", "wait", "bsld")
	// The tiny trace's rectangles are large enough for their job ids.
	if sc.Labelled < 10 {
		t.Errorf("%d job ids drawn on the Gantt chart, want most of the 40 jobs'", sc.Labelled)
	}

	// Count and positions against jobs.csv.
	jobs, err := readJobs(filepath.Join(dir, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Jobs != len(jobs.id) || sc.Rects != len(jobs.ivLo) || sc.Rects < sc.Jobs {
		t.Errorf("page: %d jobs, %d rectangles; jobs.csv: %d jobs, %d intervals", sc.Jobs, sc.Rects, len(jobs.id), len(jobs.ivLo))
	}
	if len(sc.Samples) != 3 {
		t.Fatalf("%d samples", len(sc.Samples))
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "jobs.csv"))
	rows := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n")[1:] {
		c := strings.Split(l, ",")
		rows[c[0]] = c
	}
	checked := 0
	for _, s := range sc.Samples {
		row := rows[strconv.Itoa(s.Job)]
		if row == nil {
			t.Errorf("sample job %d not in jobs.csv", s.Job)
			continue
		}
		iv := strconv.Itoa(s.CPULo)
		if s.CPUHi != s.CPULo {
			iv += "-" + strconv.Itoa(s.CPUHi)
		}
		if row[4] != strconv.FormatFloat(s.Start, 'f', -1, 64) || row[6] != strconv.FormatFloat(s.Finish, 'f', -1, 64) ||
			!contains(strings.Fields(row[10]), iv) {
			t.Errorf("sample %+v does not match jobs.csv row %q", s, row)
		}
		if s.W >= 4 && s.H >= 4 {
			checked++
			if s.Color != s.Want {
				t.Errorf("sample %+v: colour %s at the rectangle's centre, want %s", s, s.Color, s.Want)
			}
		}
	}
	if checked == 0 {
		t.Error("no sample rectangle large enough to check its colour")
	}

	screenshot(t, bin, page, "report-run.png")
}

// A run with unavailable CPUs (a full maintenance window and a failure
// of CPUs 0-3) draws its spans behind the jobs: one rectangle per span,
// grey for the window and hatched for the failure, where no job is.
func TestBrowserRunSpans(t *testing.T) {
	bin := browser(t)
	dir := t.TempDir()
	ev := filepath.Join(dir, "events.jsonl")
	if err := os.WriteFile(ev, []byte(`{"timestamp": 400, "type": "machine_unavailable", "resources": "0-3"}
{"timestamp": 700, "type": "machine_available", "resources": "0-3"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(dir, "run")
	if _, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: "testdata/tiny.swf"}, Platform: experiment.PlatformSpec{Avail: experiment.AvailSpec{Reservations: []string{"1000:1300:16"}, Events: ev}}, Policy: experiment.PolicySpec{Name: "easy"}, Outputs: experiment.OutputSpec{Dir: run}}).Run(); err != nil {
		t.Fatal(err)
	}
	page, err := writeOne(run)
	if err != nil {
		t.Fatal(err)
	}
	sc := load(t, bin, page, "gantt", "util", "queue", "wait", "bsld")
	if sc.Spans != 2 || sc.SpansDrawn != 2 || len(sc.SpanSamples) != 2 {
		t.Fatalf("spans %d, drawn %d, samples %v; want the 2 of unavailability.csv", sc.Spans, sc.SpansDrawn, sc.SpanSamples)
	}
	for _, s := range sc.SpanSamples {
		switch s.Kind {
		case "reserved":
			if s.Color != "#D0D0D0" {
				t.Errorf("reserved span: colour %s at its centre, want the grey #D0D0D0", s.Color)
			}
		case "down":
			// the hatching: its light ground or its dark lines (or a blend
			// of the two), never the background or a job's colour
			if s.Color == "#FFFFFF" || contains([]string{"#009E73", "#0072B2", "#E69F00", "#999999", "#D0D0D0"}, s.Color) {
				t.Errorf("down span: colour %s at its centre, want the hatching", s.Color)
			}
		default:
			t.Errorf("span of kind %q", s.Kind)
		}
	}
	screenshot(t, bin, page, "report-run-spans.png")
}

// load opens a page, reads its self-check and checks that there was no
// error and that every named chart (a canvas id) is drawn.
func load(t *testing.T, bin, page string, charts ...string) selfCheck {
	t.Helper()
	sc, _ := loadRaw(t, bin, page)
	for _, c := range charts {
		if sc.Charts[c] < 100 {
			t.Errorf("chart %s: %d coloured pixels, want a drawn chart", c, sc.Charts[c])
		}
	}
	if len(sc.Charts) != len(charts) {
		t.Errorf("the page drew charts %v, want exactly %q", sc.Charts, charts)
	}
	return sc
}

// loadRaw opens a page with extra browser arguments, checks that there
// was no error and returns its self-check, also as JSON.
func loadRaw(t *testing.T, bin, page string, args ...string) (selfCheck, []byte) {
	t.Helper()
	dom, stderr := headless(t, bin, page, append(args, "--dump-dom")...)
	m := regexp.MustCompile(`(?s)<pre id="selfcheck"[^>]*>(.*?)</pre>`).FindStringSubmatch(dom)
	if m == nil || m[1] == "" {
		t.Fatalf("the page's self-check did not run (script error?); browser stderr:\n%s", stderr)
	}
	raw := []byte(html.UnescapeString(m[1]))
	var sc selfCheck
	if err := json.Unmarshal(raw, &sc); err != nil {
		t.Fatalf("self-check %q: %v", m[1], err)
	}
	if len(sc.Errors) > 0 {
		t.Errorf("console errors: %q", sc.Errors)
	}
	if strings.Contains(stderr, "Uncaught") {
		t.Errorf("uncaught error in the browser log:\n%s", stderr)
	}
	return sc, raw
}

// screenshot saves a picture of the page into $SCHEDLAB_REPORT_SCREENSHOTS
// (docs/report.md shows them), or a temporary folder.
func screenshot(t *testing.T, bin, page, name string) {
	t.Helper()
	screenshotSized(t, bin, page, name, "1200,1800")
}

// screenshotSized is screenshot with a window size "width,height".
func screenshotSized(t *testing.T, bin, page, name, size string) {
	t.Helper()
	shots := os.Getenv("SCHEDLAB_REPORT_SCREENSHOTS")
	if shots == "" {
		shots = t.TempDir()
	}
	png := filepath.Join(shots, name)
	headless(t, bin, page, "--window-size="+size, "--screenshot="+png)
	if st, err := os.Stat(png); err != nil || st.Size() < 10000 {
		t.Errorf("screenshot %s: %v", png, err)
	}
}

// The page of a sweep draws one chart of points and one of paired
// differences per metric, with labels that do not overlap, and its
// filters hide the points of other values.
func TestBrowserSweepReport(t *testing.T) {
	bin := browser(t)
	page, err := writeOne(copyDir(t, "testdata/sweep"))
	if err != nil {
		t.Fatal(err)
	}
	sc, sw := loadSweep(t, bin, page, "1400,1000")
	if sc.Points != 4 || sc.Filtered != 2 {
		t.Errorf("points %d, after filtering policy.grid=random %d; want 4 and 2", sc.Points, sc.Filtered)
	}
	// 8 metrics; 4 points; 32 comparisons, 4 per metric
	checkLayout(t, sw, 8, 8, 4, 4)
	// With policy.grid=random, per metric the comparison of deferred
	// with random (in both contexts) and of the local policies under
	// random stay, that under deferred goes: 3 of 4 rows.
	if sw.FilteredPairs != 8*3 {
		t.Errorf("%d rows of paired differences after filtering policy.grid=random, want 24", sw.FilteredPairs)
	}
	screenshotSized(t, bin, page, "report-sweep.png", "1400,1000")
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// The page of a reproduction shows every figure.
func TestBrowserReproReport(t *testing.T) {
	bin := browser(t)
	page, err := writeOne(filepath.Join(copyDir(t, "testdata/repro"), "zikos2008"))
	if err != nil {
		t.Fatal(err)
	}
	load(t, bin, page, "fig-fig03")
	screenshot(t, bin, page, "report-reproduction.png")
}

// The comparison page of three runs loads with no error, draws one Gantt
// chart per run, the overlaid utilization and queue and one histogram of
// differences per run after the first; differences read back through the
// page's data match the jobs.csv files; zooming one Gantt chart moves the
// others.
func TestBrowserCompareReport(t *testing.T) {
	bin := browser(t)
	dirs := tinyRuns(t, "easy", "fcfs", "conservative")
	page := filepath.Join(t.TempDir(), "compare.html")
	if err := Compare(dirs, page); err != nil {
		t.Fatal(err)
	}
	sc := load(t, bin, page, "gantt-0", "gantt-1", "gantt-2", "util", "queue", "diff-1", "diff-2")
	if sc.Runs != 3 || sc.Jobs != 40 {
		t.Errorf("page: %d runs, %d jobs; want 3 and 40", sc.Runs, sc.Jobs)
	}
	if !sc.Synced {
		t.Error("zooming the first Gantt chart did not move the others to the same time axis")
	}
	if len(sc.DiffSamples) != 6 {
		t.Fatalf("%d difference samples, want 3 per run after the first", len(sc.DiffSamples))
	}
	w0, r0, _ := csvJobs(t, dirs[0])
	for _, s := range sc.DiffSamples {
		wr, rr, _ := csvJobs(t, dirs[s.Run])
		key := strconv.Itoa(s.Job)
		if _, ok := wr[key]; !ok {
			t.Errorf("sample %+v: no job %s", s, key)
			continue
		}
		if s.Wait != wr[key]-w0[key] || s.Resp != rr[key]-r0[key] {
			t.Errorf("sample %+v: jobs.csv files give wait %v, response %v", s, wr[key]-w0[key], rr[key]-r0[key])
		}
	}
	if len(sc.Samples) != 1 || sc.Samples[0].Color != sc.Samples[0].Want {
		t.Errorf("Gantt sample %+v: colour at the centre is not its start reason's", sc.Samples)
	}
	screenshotSized(t, bin, page, "report-compare.png", "1200,3300")
}

// A comparison of runs with unavailable CPUs draws each run's spans in
// its Gantt chart: here EASY with a maintenance window and FCFS with the
// window and a failure, beside a run without any.
func TestBrowserCompareSpans(t *testing.T) {
	bin := browser(t)
	dir := t.TempDir()
	ev := filepath.Join(dir, "events.jsonl")
	if err := os.WriteFile(ev, []byte(`{"timestamp": 400, "type": "machine_unavailable", "resources": "0-3"}
{"timestamp": 700, "type": "machine_available", "resources": "0-3"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, c := range []struct {
		pol   string
		avail experiment.AvailSpec
	}{
		{"easy", experiment.AvailSpec{Reservations: []string{"1000:1300:16"}}},
		{"fcfs", experiment.AvailSpec{Reservations: []string{"1000:1300:16"}, Events: ev}},
		{"conservative", experiment.AvailSpec{}},
	} {
		run := filepath.Join(dir, c.pol)
		if _, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: "testdata/tiny.swf"}, Platform: experiment.PlatformSpec{Avail: c.avail}, Policy: experiment.PolicySpec{Name: c.pol}, Outputs: experiment.OutputSpec{Dir: run}}).Run(); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, run)
	}
	page := filepath.Join(dir, "compare.html")
	if err := Compare(dirs, page); err != nil {
		t.Fatal(err)
	}
	sc := load(t, bin, page, "gantt-0", "gantt-1", "gantt-2", "util", "queue", "diff-1", "diff-2")
	if fmt.Sprint(sc.RunSpans) != "[1 2 0]" || len(sc.RunSpanSamples) != 3 || sc.RunSpanSamples[2] != nil {
		t.Fatalf("spans per run %v, samples %v; want [1 2 0]", sc.RunSpans, sc.RunSpanSamples)
	}
	if s := sc.RunSpanSamples[0]; s == nil || s.Kind != "reserved" || s.Color != "#D0D0D0" {
		t.Errorf("easy: first span %+v, want the window drawn in grey #D0D0D0", s)
	}
	// fcfs: the failure at 400 comes first, hatched: never the
	// background or a job's colour
	if s := sc.RunSpanSamples[1]; s == nil || s.Kind != "down" || s.Color == "#FFFFFF" || contains([]string{"#009E73", "#0072B2", "#E69F00", "#999999", "#D0D0D0"}, s.Color) {
		t.Errorf("fcfs: first span %+v, want the failure, hatched", s)
	}
}

// --no-gantt: the run and comparison pages without their Gantt charts
// load with no error, draw their other charts, and are much smaller.
func TestBrowserNoGantt(t *testing.T) {
	bin := browser(t)
	dir := tinyRun(t)
	full, err := writeOne(dir)
	if err != nil {
		t.Fatal(err)
	}
	fb, _ := os.ReadFile(full)
	pages, err := WriteOpts(dir, Options{NoGantt: true})
	if err != nil {
		t.Fatal(err)
	}
	lb, _ := os.ReadFile(pages[0])
	if strings.Contains(string(lb), `id="gantt"`) || !strings.Contains(string(lb), "--no-gantt") {
		t.Error("the light run page has a Gantt chart, or does not say it left it out")
	}
	if len(lb) >= len(fb) {
		t.Errorf("light page %d bytes, full %d", len(lb), len(fb))
	}
	load(t, bin, pages[0], "util", "queue", "wait", "bsld")
	dirs := tinyRuns(t, "easy", "fcfs")
	page := filepath.Join(t.TempDir(), "light.html")
	if err := CompareOpts(dirs, page, Options{NoGantt: true}); err != nil {
		t.Fatal(err)
	}
	sc := load(t, bin, page, "util", "queue", "diff-1")
	if sc.Runs != 2 || len(sc.DiffSamples) != 3 {
		t.Errorf("light comparison: %d runs, %d difference samples", sc.Runs, len(sc.DiffSamples))
	}
}

// A page restricted to a window (report --from/--to): drawn without
// error, with exactly the window's jobs and rectangles, and a comparison
// of two runs restricted the same way.
func TestBrowserWindow(t *testing.T) {
	bin := browser(t)
	dir := tinyRun(t)
	jobs, err := readJobs(filepath.Join(dir, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	from, to := jobs.submit[10], jobs.submit[30]
	in := jobs.within(from, to)
	w := &Window{From: from, To: to, Text: "from A to B"}
	pages, err := WriteOpts(dir, Options{Window: w})
	if err != nil {
		t.Fatal(err)
	}
	sc := load(t, bin, pages[0], "gantt", "util", "queue", "wait", "bsld")
	if sc.Jobs != len(in.id) || sc.Rects != len(in.ivLo) || sc.Jobs == len(jobs.id) {
		t.Errorf("page: %d jobs, %d rectangles; window: %d jobs, %d intervals (of %d jobs)", sc.Jobs, sc.Rects, len(in.id), len(in.ivLo), len(jobs.id))
	}
	page := filepath.Join(t.TempDir(), "window.html")
	if err := CompareOpts(tinyRuns(t, "easy", "fcfs"), page, Options{Window: w}); err != nil {
		t.Fatal(err)
	}
	if sc := load(t, bin, page, "gantt-0", "gantt-1", "util", "queue", "diff-1"); sc.Runs != 2 {
		t.Errorf("windowed comparison: %d runs", sc.Runs)
	}
}

// With a Clock (the trace header's UnixStartTime and TimeZoneString),
// the time axes show dates in the trace's zone: tiny.swf's first
// submission, 46 s after a start of 1,700,000,000 (2023-11-14 22:13:20
// UTC), is 23:14:06 in Stockholm (CET, UTC+1); the span is seconds, so
// the ticks read hours, minutes and seconds. Without one, the axis is the
// time since the first submission.
func TestBrowserCalendarAxis(t *testing.T) {
	bin := browser(t)
	dir := tinyRun(t)
	pages, err := WriteOpts(dir, Options{Clock: &Clock{Start: 1_700_000_000, Zone: "Europe/Stockholm"}})
	if err != nil {
		t.Fatal(err)
	}
	sc := load(t, bin, pages[0], "gantt", "util", "queue", "wait", "bsld")
	if a := sc.Axes["util"]; a.Label != "date (Europe/Stockholm)" || a.First != "23:14:06" {
		t.Errorf("util axis %+v, want date (Europe/Stockholm) from 23:14:06", a)
	}
	// The tooltip of job 1 (submitted at 46, started at once, 285 s):
	// its times as dates too, its durations in minutes.
	for _, w := range []string{"submission_time: 46 (2023-11-14 23:14:06)", "starting_time: 46 (2023-11-14 23:14:06)",
		"finish_time: 331 (2023-11-14 23:18:51)", "execution_time: 285 (4.75 min)", "waiting_time: 0\n"} {
		if !strings.Contains(sc.Tip0, w) {
			t.Errorf("job 1's tooltip %q lacks %q", sc.Tip0, w)
		}
	}
	pages, err = WriteOpts(dir, Options{Clock: &Clock{Start: 1_700_000_000, Zone: "Nowhere/Atall"}})
	if err != nil {
		t.Fatal(err)
	}
	sc = load(t, bin, pages[0], "gantt", "util", "queue", "wait", "bsld")
	if a := sc.Axes["util"]; a.Label != "date (UTC)" || a.First != "22:14:06" {
		t.Errorf("unknown zone: util axis %+v, want date (UTC) from 22:14:06", a)
	}
	pages, err = WriteOpts(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc = load(t, bin, pages[0], "gantt", "util", "queue", "wait", "bsld")
	if a := sc.Axes["util"]; a.Label != "time since the first submission (s)" {
		t.Errorf("no clock: util axis %+v", a)
	}
	if !strings.Contains(sc.Tip0, "submission_time: 46\n") {
		t.Errorf("no clock: job 1's tooltip %q, want its submission in seconds alone", sc.Tip0)
	}
}

// run --planned: the page marks each reserved job's last planned start.
// On the five-job teaching trace under conservative backfilling jobs 2
// and 5 held reservations (experiment.TestPlannedCSV works them out), and
// the whole-schedule view is wide enough for both ticks.
func TestBrowserPlannedStarts(t *testing.T) {
	bin := browser(t)
	run := filepath.Join(t.TempDir(), "run")
	if _, err := (experiment.RunSpec{Workload: experiment.WorkloadSpec{Trace: "../../examples/teaching/five-jobs.swf"}, Policy: experiment.PolicySpec{Name: "conservative"}, Outputs: experiment.OutputSpec{Dir: run, Planned: true}}).Run(); err != nil {
		t.Fatal(err)
	}
	page, err := writeOne(run)
	if err != nil {
		t.Fatal(err)
	}
	sc := load(t, bin, page, "gantt", "util", "queue", "wait", "bsld")
	if sc.Planned != 2 || sc.Marked != 2 {
		t.Fatalf("planned %d, marked %d: want jobs 2 and 5 marked", sc.Planned, sc.Marked)
	}
}
