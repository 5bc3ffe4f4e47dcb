package htmlreport

import (
	"encoding/json"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestHumanUnits(t *testing.T) {
	for _, c := range []struct {
		s    float64
		want string
	}{
		{0, "0 s"}, {52.3, "52.3 s"}, {99, "99.0 s"}, {100, "1.67 min"}, {5999, "100 min"}, {6000, "1.67 h"},
		{11259.831927, "3.13 h"}, {47 * 3600, "47.0 h"}, {-352541.441353, "-4.08 d"}, {400 * 86400, "400 d"},
	} {
		if got := humanDuration(c.s); got != c.want {
			t.Errorf("humanDuration(%v) = %q, want %q", c.s, got, c.want)
		}
	}
	if got := thousands(27992); got != "27,992" {
		t.Errorf("thousands: %q", got)
	}
	if got := thousands(-1234567); got != "-1,234,567" {
		t.Errorf("thousands: %q", got)
	}
}

// Changes against the first run: percent of the first run's value, or
// points for a share; better or worse by the metric's direction.
func TestChange(t *testing.T) {
	wait, util := headMetrics[0], headMetrics[4]
	for _, c := range []struct {
		m             headMetric
		base, v       float64
		text, verdict string
	}{
		{wait, 100, 69, "-31.0%", "better"},
		{wait, 100, 150, "+50.0%", "worse"},
		{wait, 100, 100.01, "+0.0%", "same"},
		{wait, 0, 0, "±0%", "same"},
		{wait, 0, 5, "(first run: 0)", "n/a"},
		{util, 0.70, 0.712, "+1.2 points", "better"},
		{util, 0.70, 0.65, "-5.0 points", "worse"},
	} {
		text, verdict := change(c.m, c.base, c.v)
		if text != c.text || verdict != c.verdict {
			t.Errorf("change(%s, %v, %v) = %q %q, want %q %q", c.m.key, c.base, c.v, text, verdict, c.text, c.verdict)
		}
	}
}

// summaryNumber reads one number of a run's summary.json.
func summaryNumber(t *testing.T, dir, key string) float64 {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	v, ok := m[key].(float64)
	if !ok {
		t.Fatalf("%s: no number %s", dir, key)
	}
	return v
}

// The comparison page of FCFS and EASY on KTH-SP2, as the browser shows
// it, opens with the headline: each metric in human units and EASY's
// change against FCFS, worked out here from the two summary.json files.
func TestBrowserCompareHeadline(t *testing.T) {
	bin := browser(t)
	dirs := traceRuns(t, "KTH-SP2-1996-2.1-cln.swf.gz", "fcfs", "easy")
	page := filepath.Join(t.TempDir(), "compare.html")
	if err := Compare(dirs, page); err != nil {
		t.Fatal(err)
	}
	dom, _ := headless(t, bin, page, "--dump-dom")
	text := html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(dom, " "))
	text = strings.Join(strings.Fields(text), " ")
	w0, w1 := summaryNumber(t, dirs[0], "mean_wait"), summaryNumber(t, dirs[1], "mean_wait")
	b0, b1 := summaryNumber(t, dirs[0], "mean_bounded_slowdown"), summaryNumber(t, dirs[1], "mean_bounded_slowdown")
	wantWait := fmt.Sprintf("mean wait %s %s (%+.1f%%, better)", humanDuration(w0), humanDuration(w1), 100*(w1-w0)/w0)
	wantBsld := fmt.Sprintf("(%+.1f%%, better)", 100*(b1-b0)/b0)
	for _, want := range []string{
		"In short",
		"2 runs of KTH-SP2-1996-2.1-cln.swf.gz, 27,992 jobs; changes are against the first run, fcfs.",
		wantWait, wantBsld, "lower is better", "higher is better",
		"easy against fcfs: mean wait " + fmt.Sprintf("%+.1f%%", 100*(w1-w0)/w0) + " (better)",
	} {
		if !strings.Contains(text, want) {
			i := strings.Index(text, "In short")
			t.Errorf("the page does not read %q; it reads:\n%s", want, text[max(i, 0):min(len(text), max(i, 0)+1200)])
		}
	}
	if !(w1 < w0) {
		t.Fatalf("EASY does not wait less than FCFS on KTH (%v vs %v): the test's premise", w1, w0)
	}
}

// A run page opens with one sentence and the headline numbers in human
// units, read from summary.json.
func TestRunHeadline(t *testing.T) {
	dir := tinyRuns(t, "easy")[0]
	pages, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pages[0])
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(string(b), " "))), " ")
	w := summaryNumber(t, dir, "mean_wait")
	want := fmt.Sprintf("easy on tiny.swf, %s jobs: mean wait %s,", thousands(int64(summaryNumber(t, dir, "jobs"))), humanDuration(w))
	if !strings.Contains(text, "In short "+want) {
		t.Errorf("the run page does not read %q", want)
	}
}

// With a Clock the headline says when the jobs were submitted, in the
// trace's zone: tiny.swf's submissions 46 s and 2,656 s after
// 1,700,000,000 (2023-11-14 22:13:20 UTC) are 23:14 and 23:57 in
// Stockholm (CET, UTC+1).
func TestHeadlineCalendarSpan(t *testing.T) {
	dir := tinyRun(t)
	pages, err := WriteOpts(dir, Options{Clock: &Clock{Start: 1_700_000_000, Zone: "Europe/Stockholm"}})
	if err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(pages[0])
	if want := "Jobs submitted from 2023-11-14 23:14 to 2023-11-14 23:57 (Europe/Stockholm)."; !strings.Contains(string(page), want) {
		t.Errorf("page lacks %q", want)
	}
	pages, err = WriteOpts(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if page, _ = os.ReadFile(pages[0]); strings.Contains(string(page), "Jobs submitted from") {
		t.Error("a page without a clock names dates")
	}
}
