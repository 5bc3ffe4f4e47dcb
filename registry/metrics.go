package registry

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/schedlab/schedlab/metrics"
)

// Metric is one declared metric (metrics.Decl): name, unit, doc, the
// direction that is better, the models it serves, whether it is on by
// default, and, for a metric that is its own listener, its factory.
type Metric = metrics.Decl

// The metrics' scopes and directions (metrics.Scope, metrics.Lower, ...).
const (
	PerRun  = metrics.PerRun
	PerSite = metrics.PerSite
	PerUser = metrics.PerUser
	Lower   = metrics.Lower
	Higher  = metrics.Higher
)

// declaredMetricsOnce holds the metric declarations, gathered once and
// checked (names well formed and unique per model, models known,
// directions known, per-user metrics never on by default).
var declaredMetricsOnce = sync.OnceValue(func() []Metric {
	ds := declaredMetrics()
	if err := checkMetrics(ds); err != nil {
		panic(err) // a declaration error is a programming error, caught by every test
	}
	return ds
})

func checkMetrics(ds []Metric) error {
	known := map[string]bool{}
	for _, m := range models() {
		known[m.Name] = true
	}
	type at struct {
		model, name string
		scope       metrics.Scope
	}
	seen := map[at]bool{}
	for _, d := range ds {
		if !validMetricName(d.Name) {
			return fmt.Errorf("metric %q: a name is lower-case letters, digits and _", d.Name)
		}
		if d.Better != "" && d.Better != Lower && d.Better != Higher {
			return fmt.Errorf("metric %s: better is %q, not lower, higher or empty", d.Name, d.Better)
		}
		if d.Scope == PerUser && d.Default {
			return fmt.Errorf("metric %s: a per-user metric is reported only when asked for, never by default", d.Name)
		}
		if d.New != nil && d.Scope != PerRun {
			return fmt.Errorf("metric %s: a listener metric gives one value per run", d.Name)
		}
		if len(d.Models) == 0 {
			return fmt.Errorf("metric %s: serves no model", d.Name)
		}
		for _, m := range d.Models {
			if !known[m] {
				return fmt.Errorf("metric %s: unknown model %q", d.Name, m)
			}
			k := at{m, d.Name, d.Scope}
			if seen[k] {
				return fmt.Errorf("metric %s: declared twice for model %s", d.Name, m)
			}
			seen[k] = true
		}
	}
	return nil
}

func validMetricName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return true
}

// Metrics lists every declared metric in the registry's order (a fresh
// copy).
func Metrics() []Metric { return cloneMetrics(declaredMetricsOnce()) }

// ModelMetrics lists the metrics of model in the registry's order (the
// order a replication reports the ones it measures).
func ModelMetrics(model string) []Metric {
	var out []Metric
	for _, d := range declaredMetricsOnce() {
		if d.Serves(model) {
			out = append(out, d)
		}
	}
	return cloneMetrics(out)
}

func cloneMetrics(ds []Metric) []Metric {
	out := slices.Clone(ds)
	for i := range out {
		out[i].Models = slices.Clone(out[i].Models)
	}
	return out
}

// LookupMetric returns the declaration behind a reported metric name of
// model: a per-run metric's name, "site<i>_<name>" for a per-site one or
// "user<u>_<name>" for a per-user one.
func LookupMetric(model, name string) (Metric, bool) {
	base, scope := name, PerRun
	if _, m, ok := UserMetric(name); ok {
		base, scope = m, PerUser
	} else if m, ok := siteMetric(name); ok {
		base, scope = m, PerSite
	}
	for _, d := range declaredMetricsOnce() {
		if d.Name == base && d.Scope == scope && d.Serves(model) {
			return cloneMetrics([]Metric{d})[0], true
		}
	}
	if scope != PerRun {
		// A per-run metric whose name happens to start with site or user.
		for _, d := range declaredMetricsOnce() {
			if d.Name == name && d.Scope == PerRun && d.Serves(model) {
				return cloneMetrics([]Metric{d})[0], true
			}
		}
	}
	return Metric{}, false
}

// siteMetric splits "site<i>_<metric>" (i without leading zeros).
func siteMetric(name string) (string, bool) {
	rest, ok := strings.CutPrefix(name, "site")
	if !ok {
		return "", false
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || i > 1 && rest[0] == '0' || i >= len(rest) || rest[i] != '_' {
		return "", false
	}
	return rest[i+1:], true
}

// fillMetrics sets m's metric lists from the declarations.
func fillMetrics(m *Model) {
	m.Metrics, m.SiteMetrics, m.UserMetrics, m.Requestable = nil, nil, nil, nil
	for _, d := range declaredMetricsOnce() {
		if !d.Serves(m.Name) {
			continue
		}
		switch {
		case d.Scope == PerSite:
			m.SiteMetrics = append(m.SiteMetrics, d.Name)
		case d.Scope == PerUser:
			m.UserMetrics = append(m.UserMetrics, d.Name)
		case d.Default:
			m.Metrics = append(m.Metrics, d.Name)
		default:
			m.Requestable = append(m.Requestable, d.Name)
		}
	}
}
