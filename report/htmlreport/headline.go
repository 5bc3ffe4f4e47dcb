package htmlreport

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"
)

// The headline ("in short") of run and comparison pages: the few numbers
// a manager asks for, in human units, and for a comparison each run's
// change against the first with the direction that is better said in
// words. Everything comes from summary.json.

// headKind says how a headline number is written.
type headKind uint8

const (
	headDuration headKind = iota // seconds, written in s, min, h or d
	headNumber                   // a plain number
	headShare                    // a fraction, written as a percentage
)

// headMetric is one headline number: its summary.json key, label, unit
// kind and which way is better.
type headMetric struct {
	key, label  string
	kind        headKind
	lowerBetter bool
}

// headMetrics are the headline numbers, in display order. span is not a
// summary.json key: it is makespan - first_submit, the time from the
// first submission to the last end.
var headMetrics = []headMetric{
	{"mean_wait", "mean wait", headDuration, true},
	{"mean_response", "mean response", headDuration, true},
	{"mean_bounded_slowdown", "mean bounded slowdown", headNumber, true},
	{"max_wait", "longest wait", headDuration, true},
	{"utilization", "utilization", headShare, false},
	{"span", "first submission to last end", headDuration, true},
}

// metricValue is a headline number of a run (ok false when summary.json
// lacks it).
func metricValue(nums map[string]float64, key string) (float64, bool) {
	if key == "span" {
		a, ok1 := nums["makespan"]
		b, ok2 := nums["first_submit"]
		return a - b, ok1 && ok2
	}
	v, ok := nums[key]
	return v, ok && !math.IsInf(v, 0) && !math.IsNaN(v)
}

// humanDuration writes seconds in the largest unit that keeps the number
// below 100 or so (s, min, h, d), with three significant digits.
func humanDuration(s float64) string {
	a := math.Abs(s)
	var v float64
	var unit string
	switch {
	case a < 100:
		v, unit = s, "s"
	case a < 100*60:
		v, unit = s/60, "min"
	case a < 48*3600:
		v, unit = s/3600, "h"
	default:
		v, unit = s/86400, "d"
	}
	return sig3(v) + " " + unit
}

// sig3 writes v with about three significant digits.
func sig3(v float64) string {
	a := math.Abs(v)
	switch {
	case a == 0:
		return "0"
	case a >= 99.95:
		return fmt.Sprintf("%.0f", v)
	case a >= 9.995:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

// headText writes a headline number.
func headText(m headMetric, v float64) string {
	switch m.kind {
	case headDuration:
		return humanDuration(v)
	case headShare:
		return sig3(100*v) + "%"
	}
	return sig3(v)
}

// change is a run's headline number against the first run's: the text
// ("-31.0%", or "+1.2 points" for a share) and whether it is better,
// worse or the same.
func change(m headMetric, base, v float64) (text, verdict string) {
	var d float64
	if m.kind == headShare {
		d = 100 * (v - base)
		text = fmt.Sprintf("%+.1f points", d)
	} else {
		if base == 0 {
			if v == 0 {
				return "±0%", "same"
			}
			return "(first run: 0)", "n/a"
		}
		d = 100 * (v - base) / math.Abs(base)
		text = fmt.Sprintf("%+.1f%%", d)
	}
	switch {
	case math.Abs(d) < 0.05:
		return text, "same"
	case (d < 0) == m.lowerBetter:
		return text, "better"
	}
	return text, "worse"
}

// headline is the "in short" part of a page.
type headline struct {
	Sentences []string
	Header    []string  // a comparison: the runs' policies
	Rows      []headRow // one per headline metric
}

// headRow is one metric across the runs.
type headRow struct {
	Label  string
	Better string // "lower is better" or "higher is better"
	Cells  []headCell
}

type headCell struct {
	Value   string
	Change  string // against the first run ("" for the first)
	Verdict string // better, worse, same, n/a ("" for the first)
}

// runHeadline is the headline of a run page.
func runHeadline(p *runPage) *headline {
	h := &headline{Header: []string{p.policyName()}}
	var parts []string
	for _, m := range headMetrics {
		v, ok := metricValue(p.nums, m.key)
		if !ok {
			continue
		}
		h.Rows = append(h.Rows, headRow{Label: m.label, Better: better(m), Cells: []headCell{{Value: headText(m, v)}}})
		parts = append(parts, m.label+" "+headText(m, v))
	}
	if len(parts) > 0 {
		h.Sentences = append(h.Sentences, fmt.Sprintf("%s on %s, %s jobs: %s.", p.policyName(), shortTrace(p.trace),
			jobsText(p.nums), strings.Join(parts, ", ")))
	}
	if span := calendarSpan(p); span != "" {
		h.Sentences = append(h.Sentences, span)
	}
	return h
}

// calendarSpan says when the run's jobs were submitted, in calendar
// dates of the trace's time zone ("" without a Clock or jobs).
func calendarSpan(p *runPage) string {
	if p.clock == nil || len(p.jobs.submit) == 0 {
		return ""
	}
	t0, t1 := math.Inf(1), math.Inf(-1)
	for _, t := range p.jobs.submit {
		t0, t1 = math.Min(t0, t), math.Max(t1, t)
	}
	loc, zone := p.clock.location()
	at := func(t float64) string {
		return time.Unix(int64(math.Floor(p.clock.Start+t)), 0).In(loc).Format("2006-01-02 15:04")
	}
	return fmt.Sprintf("Jobs submitted from %s to %s (%s).", at(t0), at(t1), zone)
}

// location is the clock's time zone and its name (UTC when it has none
// or one this machine does not know, as the page's script does).
func (c *Clock) location() (*time.Location, string) {
	if c.Zone != "" {
		if l, err := time.LoadLocation(c.Zone); err == nil {
			return l, c.Zone
		}
	}
	return time.UTC, "UTC"
}

// Date writes trace time t as a date and time to the second in the
// clock's zone ("2003-07-04 16:35:55"); a nil clock writes the seconds.
func (c *Clock) Date(t float64) string {
	if c == nil || math.IsNaN(t) || math.IsInf(t, 0) {
		return num(t)
	}
	loc, _ := c.location()
	return time.Unix(int64(math.Floor(c.Start+t)), 0).In(loc).Format("2006-01-02 15:04:05")
}

// compareHeadline is the headline of a comparison: each metric for each
// run, with its change against the first run, and a sentence per later
// run naming its changes.
func compareHeadline(runs []*runPage) *headline {
	h := &headline{}
	for _, r := range runs {
		h.Header = append(h.Header, r.policyName())
	}
	changes := make([][]string, len(runs))
	for _, m := range headMetrics {
		base, ok := metricValue(runs[0].nums, m.key)
		if !ok {
			continue
		}
		row := headRow{Label: m.label, Better: better(m)}
		for i, r := range runs {
			v, ok := metricValue(r.nums, m.key)
			if !ok {
				row.Cells = append(row.Cells, headCell{Value: "—"})
				continue
			}
			c := headCell{Value: headText(m, v)}
			if i > 0 {
				c.Change, c.Verdict = change(m, base, v)
				if c.Verdict == "better" || c.Verdict == "worse" {
					changes[i] = append(changes[i], fmt.Sprintf("%s %s (%s)", m.label, c.Change, c.Verdict))
				}
			}
			row.Cells = append(row.Cells, c)
		}
		h.Rows = append(h.Rows, row)
	}
	first := runs[0].policyName()
	h.Sentences = append(h.Sentences, fmt.Sprintf("%d runs of %s, %s jobs; changes are against the first run, %s.",
		len(runs), shortTrace(runs[0].trace), jobsText(runs[0].nums), first))
	if span := calendarSpan(runs[0]); span != "" {
		h.Sentences = append(h.Sentences, span)
	}
	for i := 1; i < len(runs); i++ {
		if len(changes[i]) == 0 {
			h.Sentences = append(h.Sentences, fmt.Sprintf("%s: the same as %s on every headline metric.", runs[i].policyName(), first))
			continue
		}
		h.Sentences = append(h.Sentences, fmt.Sprintf("%s against %s: %s.", runs[i].policyName(), first, strings.Join(changes[i], ", ")))
	}
	return h
}

func better(m headMetric) string {
	if m.lowerBetter {
		return "lower is better"
	}
	return "higher is better"
}

// shortTrace is a trace's file name without its folder ("?" if unknown).
func shortTrace(path string) string {
	if path == "" {
		return "?"
	}
	return filepath.Base(path)
}

// jobsText is the job count with thousands separators.
func jobsText(nums map[string]float64) string {
	n, ok := nums["jobs"]
	if !ok {
		return "?"
	}
	return thousands(int64(n))
}

// thousands writes n with commas between groups of three digits.
func thousands(n int64) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
