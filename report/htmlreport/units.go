package htmlreport

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// metricDecl is what a sweep folder's metrics.json says of one metric:
// the declaration (package metrics, Decl) it is reported under.
type metricDecl struct {
	Name   string `json:"name"`
	Unit   string `json:"unit"`   // "time", "ratio", "fraction", "%", "jobs", "count", ...
	Better string `json:"better"` // "lower", "higher" or ""
	Doc    string `json:"doc"`
}

// display is how a page shows the values of one metric: divided by
// Scale, followed by Unit ("" for none: a ratio, or a time whose unit the
// page cannot know).
type display struct {
	Unit  string
	Scale float64
}

func (d display) of(v float64) float64 { return v / d.Scale }

// suffix is " (unit)", or "" without a unit.
func (d display) suffix() string {
	if d.Unit == "" {
		return ""
	}
	return " (" + d.Unit + ")"
}

// showAs chooses how to show values of the declared unit whose largest
// magnitude is mag. A time in seconds goes to s, min, h or d, the
// largest unit that keeps mag below 100 or so (as humanDuration); a time
// of another unit (Poisson workloads: the mean service time is the unit)
// is left as it is and called "time units"; a fraction becomes a
// percentage; other units are shown as they are, named by the
// declaration (a ratio and a count have no unit name).
func showAs(unit string, seconds bool, mag float64) display {
	switch unit {
	case "time":
		if !seconds {
			return display{"time units", 1}
		}
		switch {
		case !(mag >= 100): // also NaN: no values
			return display{"s", 1}
		case mag < 100*60:
			return display{"min", 60}
		case mag < 48*3600:
			return display{"h", 3600}
		}
		return display{"d", 86400}
	case "fraction":
		return display{"%", 0.01}
	case "ratio", "count", "":
		return display{"", 1}
	}
	return display{unit, 1}
}

// siteOrUser is the prefix of a per-site or per-user metric's name.
var siteOrUser = regexp.MustCompile(`^(site|user)([0-9]+)_(.+)$`)

// metricTitle names a metric for an axis: the first clause of its
// declaration's doc ("mean wait (start - submit) of the jobs after the
// warm-up" gives "mean wait") when that is a short phrase of two words
// or more without a formula, else its name with spaces ("utilization",
// whose doc is a formula). A per-site or per-user metric is named by its
// name ("site 0 utilization": the doc does not say which site).
func metricTitle(name, doc string) string {
	if m := siteOrUser.FindStringSubmatch(name); m != nil {
		return m[1] + " " + m[2] + " " + strings.ReplaceAll(m[3], "_", " ")
	}
	clause := doc
	for _, sep := range []string{" (", ", ", ": ", "; "} {
		if i := strings.Index(clause, sep); i >= 0 {
			clause = clause[:i]
		}
	}
	clause = strings.TrimSpace(clause)
	if clause == "" || len(clause) > 32 || strings.ContainsAny(clause, "/=") || len(strings.Fields(clause)) < 2 {
		return strings.ReplaceAll(name, "_", " ")
	}
	return clause
}

// metricTitles is metricTitle for each of names, except that metrics
// whose titles would be the same (missed_pct and missed_of_deadline_pct
// share "jobs that missed their deadline") are named by their names.
func metricTitles(names []string, decls map[string]metricDecl) []string {
	out := make([]string, len(names))
	seen := map[string]int{}
	for i, n := range names {
		out[i] = metricTitle(n, decls[n].Doc)
		seen[out[i]]++
	}
	for i, n := range names {
		if seen[out[i]] > 1 {
			out[i] = strings.ReplaceAll(n, "_", " ")
		}
	}
	return out
}

// timeInSeconds reports whether the times of a sweep are seconds, from
// its points' keys (column key of summary.csv). The keys of Poisson
// workloads (the grid and gang models, and a cluster given
// mean_interarrival and mean_service) hold "_svc=": their unit is the
// mean service time, not the second. Traces, the Lublin model and the
// hetero model's generator are in seconds. A folder without keys gives
// false (the page then says "time units" and converts nothing).
func timeInSeconds(keys []string) bool {
	if len(keys) == 0 {
		return false
	}
	for _, k := range keys {
		if k == "" || strings.Contains(k, "_svc=") {
			return false
		}
	}
	return true
}

// num4 writes a value for a page's table with four significant digits
// (numbers from 1,000 up to a million whole), "" for NaN.
func num4(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v):
		return ""
	case a >= 1000 && a < 1e6:
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// magnitude is the largest finite |v| of vs (NaN when there is none).
func magnitude(vs ...float64) float64 {
	m := math.NaN()
	for _, v := range vs {
		if a := math.Abs(v); !math.IsNaN(a) && !math.IsInf(a, 0) && !(a <= m) {
			m = a
		}
	}
	return m
}
