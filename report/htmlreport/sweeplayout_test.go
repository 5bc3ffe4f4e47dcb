package htmlreport

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// box is an element's [left, top, right, bottom] in CSS pixels.
type box [4]float64

func (a box) meets(b box) bool { return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3] }

func (a box) within(b box) bool {
	const slack = 1 // sub-pixel rounding of text boxes
	return a[0] >= b[0]-slack && a[1] >= b[1]-slack && a[2] <= b[2]+slack && a[3] <= b[3]+slack
}

// chartBoxes are the boxes of a chart's labels, as the page's self-check
// reads them from the browser's layout.
type chartBoxes struct {
	XTicks    []box `json:"xticks"`
	YTicks    []box `json:"yticks"`
	Titles    []box `json:"titles"`
	RowLabels []box `json:"rowlabels"`
	Chart     box   `json:"chart"`
}

// sweepCheck is the sweep page's part of the self-check.
type sweepCheck struct {
	Points int            `json:"points"`
	SVG    map[string]int `json:"svg"` // marks drawn per chart
	// Numbered: the charts of points whose x labels are the points'
	// numbers (their names do not fit).
	Numbered map[string]bool       `json:"numbered"`
	Boxes    map[string]chartBoxes `json:"boxes"`
	// FilteredPairs: the rows of the charts of differences with the
	// first value of the first filter chosen.
	FilteredPairs int     `json:"filteredPairs"`
	ScrollWidth   float64 `json:"scrollWidth"`
	WindowWidth   float64 `json:"windowWidth"`
}

var (
	cliOnce sync.Once
	cliPath string
	cliWhy  string
)

// schedlab builds the command (once per test binary) for the tests that
// need a sweep folder as 'schedlab sweep' writes it; the lint test keeps
// this package's tests from importing the sweep's packages. It skips
// the test, saying why, when the go tool cannot build it.
func schedlab(t *testing.T) string {
	t.Helper()
	cliOnce.Do(func() {
		goBin, err := exec.LookPath("go")
		if err != nil {
			cliWhy = "no go tool on PATH to build schedlab"
			return
		}
		dir, err := os.MkdirTemp("", "schedlab-report-test")
		if err != nil {
			cliWhy = err.Error()
			return
		}
		bin := filepath.Join(dir, "schedlab")
		if out, err := exec.Command(goBin, "build", "-o", bin, "github.com/schedlab/schedlab/cmd/schedlab").CombinedOutput(); err != nil {
			cliWhy = "go build ./cmd/schedlab: " + lastLine(string(out)) + errText(err)
			return
		}
		cliPath = bin
	})
	if cliPath == "" {
		t.Skip(cliWhy)
	}
	return cliPath
}

// traceSweep runs 'schedlab sweep' on a small scenario: two traces
// under long names, as the archive's are, and three queue policies (six
// points), two replications made distinct by failures. It returns the
// sweep's folder.
func traceSweep(t *testing.T) string {
	t.Helper()
	bin := schedlab(t)
	work := t.TempDir()
	tiny, err := os.ReadFile("testdata/tiny.swf")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"LONGNAME-SITE-A-1996-2.1-cln.swf", "LONGNAME-SITE-B-2000-4.2-cln.swf"}
	for _, n := range names {
		write(t, filepath.Join(work, n), string(tiny))
	}
	write(t, filepath.Join(work, "layout.yaml"), `name: two traces, three policies
model: cluster
seed: 3
replications: 2
stop: trace
platform:
  procs: 16
  failures: {mtbf: 3000, mttr: 300, group: 4}
workload:
  trace: [`+strings.Join(names, ", ")+`]
  estimate: request
policy:
  queue: [fcfs, easy, conservative]
`)
	out := filepath.Join(work, "sweep")
	cmd := exec.Command(bin, "sweep", "layout.yaml", "--out", out)
	cmd.Dir = work
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("schedlab sweep: %v\n%s", err, b)
	}
	return out
}

// The sweep page of six points with long labels, in a 1,400 px window:
// no two x labels of a chart overlap, no tick label touches an axis
// title, every label lies inside its chart, one chart of paired
// differences per metric exists and draws its comparisons, and the page
// is no wider than the window.
func TestBrowserSweepLayout(t *testing.T) {
	bin := browser(t)
	dir := traceSweep(t)
	page, err := writeOne(dir)
	if err != nil {
		t.Fatal(err)
	}
	sc, sw := loadSweep(t, bin, page, "1400,1000")
	if sc.Points != 6 {
		t.Fatalf("%d points, want 6", sc.Points)
	}
	checkLayout(t, sw, 7, 7, 6, 4)
	if sw.WindowWidth != 1400 || sw.ScrollWidth > 1400 {
		t.Errorf("page %v px wide in a window of %v px, want at most 1400", sw.ScrollWidth, sw.WindowWidth)
	}
	// The labels fit as words: the charts name the points by trace and
	// policy (wrapped, on a chart as wide as the page), not by number.
	for id, n := range sw.Numbered {
		if n {
			t.Errorf("%s: x labels are the points' numbers, want their trace and policy", id)
		}
	}
}

// checkLayout checks the label boxes of a sweep page with ci charts of
// points (points marks each) and pairs charts of paired differences
// (rows comparisons each).
func checkLayout(t *testing.T, sw sweepCheck, ci, pairs, points, rows int) {
	t.Helper()
	nci, npair := 0, 0
	for id, b := range sw.Boxes {
		switch {
		case strings.HasPrefix(id, "ci-"):
			nci++
			if sw.SVG[id] != points || len(b.XTicks) == 0 || len(b.YTicks) < 2 || len(b.Titles) != 2 {
				t.Errorf("%s: %d marks, %d x labels, %d y labels, %d axis titles; want %d marks, both titles", id, sw.SVG[id], len(b.XTicks), len(b.YTicks), len(b.Titles), points)
			}
		case strings.HasPrefix(id, "pair-"):
			npair++
			if sw.SVG[id] != rows || len(b.RowLabels) != rows || len(b.XTicks) < 2 || len(b.Titles) != 1 {
				t.Errorf("%s: %d rows drawn, %d row labels, %d ticks, %d titles; want %d rows", id, sw.SVG[id], len(b.RowLabels), len(b.XTicks), len(b.Titles), rows)
			}
		default:
			t.Errorf("unexpected chart %s", id)
		}
		for name, group := range map[string][]box{"x label": b.XTicks, "y label": b.YTicks, "axis title": b.Titles, "row label": b.RowLabels} {
			for i := range group {
				if !group[i].within(b.Chart) {
					t.Errorf("%s: %s %d %v sticks out of the chart %v", id, name, i, group[i], b.Chart)
				}
				for j := i + 1; j < len(group); j++ {
					if group[i].meets(group[j]) {
						t.Errorf("%s: %ss %d %v and %d %v overlap", id, name, i, group[i], j, group[j])
					}
				}
			}
		}
		for _, tick := range append(append(append([]box{}, b.XTicks...), b.YTicks...), b.RowLabels...) {
			for _, title := range b.Titles {
				if tick.meets(title) {
					t.Errorf("%s: label %v overlaps the axis title %v", id, tick, title)
				}
			}
		}
	}
	if nci != ci || npair != pairs {
		t.Errorf("%d charts of points and %d of paired differences, want %d and %d", nci, npair, ci, pairs)
	}
}

// loadSweep is load for a sweep page in a window of size "w,h": the
// self-check and its sweep part.
func loadSweep(t *testing.T, bin, page, size string) (selfCheck, sweepCheck) {
	t.Helper()
	sc, raw := loadRaw(t, bin, page, "--window-size="+size)
	var sw sweepCheck
	if err := json.Unmarshal(raw, &sw); err != nil {
		t.Fatalf("self-check: %v", err)
	}
	if len(sw.Boxes) == 0 {
		t.Fatal("the self-check has no chart boxes")
	}
	return sc, sw
}

// Ninety points whose names cannot be broken: the charts name them by
// number (every few when even those do not fit), and still no two labels
// overlap.
func TestBrowserSweepManyPoints(t *testing.T) {
	bin := browser(t)
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("point,key,labels,metric,mean,ci_low,ci_high,n\n")
	for i := 0; i < 90; i++ {
		fmt.Fprintf(&b, "%d,k%d,workload.trace=ANAMEWITHOUTANYPLACETOBREAKIT%d policy.queue=easy,mean_wait,%d,%d,%d,2\n", i, i, i, 1000*i, 900*i, 1100*i)
	}
	write(t, filepath.Join(dir, "summary.csv"), b.String())
	write(t, filepath.Join(dir, "comparisons.csv"), "axis,baseline,value,context,metric,diff,ci_low,ci_high,n\n")
	page, err := writeOne(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, sw := loadSweep(t, bin, page, "1400,1000")
	checkLayout(t, sw, 1, 0, 90, 0)
	if !sw.Numbered["ci-0"] {
		t.Error("the x labels are not the points' numbers")
	}
	if n := len(sw.Boxes["ci-0"].XTicks); n >= 90 || n < 20 {
		t.Errorf("%d x labels of 90 points, want every few", n)
	}
}
