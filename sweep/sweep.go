package sweep

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/stats"
)

// Metric is one metric of a point over its replications.
type Metric struct {
	Name   string    `json:"name"`
	Mean   float64   `json:"mean"`
	Low    float64   `json:"ci_low"`  // 95% Student-t; NaN with one replication
	High   float64   `json:"ci_high"` //
	N      int       `json:"n"`
	Values []float64 `json:"values"` // per replication, for paired comparisons
}

// PointResult is the outcome of one point of a sweep.
type PointResult struct {
	Index   int              `json:"index"`
	Key     string           `json:"key"`
	Labels  []scenario.Label `json:"labels"`
	Model   string           `json:"model"`
	Reps    int              `json:"replications"`
	Metrics []Metric         `json:"metrics"`
	Reused  bool             `json:"-"` // read from the folder of an earlier sweep, not run
}

// Sweep runs every point of a scenario file: all replications of all
// points in parallel (results independent of the number of workers). With
// dir set, each point's result is written to dir/points/NNNN-KEY.json as
// soon as its last replication ends, and points whose file already exists
// (with the same key) are not run again: a killed or failed sweep resumes
// where it stopped.
//
// With records, every replication also writes its per-job records to
// dir/records/NNNN-KEY-rR.csv (jobs.csv columns plus kind and sites; for a
// trace, a folder with jobs.csv and summary.json).
func Sweep(points []scenario.Point, dir string, workers int, prog Progress, records bool) ([]PointResult, error) {
	res, _, err := SweepReuse(points, dir, workers, prog, records, Reuse{})
	return res, err
}

// SweepReuse is Sweep with the point files of dir reused as reuse says:
// with reuse.Version set, only those that version computed (the others
// are run again and returned as stale, in point order), and every point
// run is recorded as computed by it; with reuse.Force, none.
func SweepReuse(points []scenario.Point, dir string, workers int, prog Progress, records bool, reuse Reuse) ([]PointResult, []Stale, error) {
	if err := CheckPoints(points); err != nil {
		return nil, nil, err
	}
	results := make([]PointResult, len(points))
	var todo []int // indexes of the points to run
	var stale []Stale
	for i, p := range points {
		sc := p.Scenario
		if dir != "" && !reuse.Force {
			if r, ok := loadPoint(pointPath(dir, p)); ok && r.Key == sc.Key() && r.Reps == sc.Replications && hasMetrics(r, sc.Metrics) {
				if v := readVersion(dir, p); reuse.Version == "" || v == reuse.Version {
					r.Reused = true
					results[i] = r
					continue
				} else {
					stale = append(stale, Stale{Index: p.Index, Version: v})
				}
			}
		}
		todo = append(todo, i)
	}
	// dir/points is made by the first point written (atomicfile), so a
	// sweep that fails before any point ends leaves no empty folder.
	var rec func(p scenario.Point, rep int) string
	if records && dir != "" {
		rec = func(p scenario.Point, rep int) string { return recordsPath(dir, p, rep) }
	}
	err := replicate(points, todo, workers, prog, false, rec, func(i int, reps []experiment.RepMetrics) error {
		results[i] = summarize(points[i], reps)
		if dir != "" {
			if err := writeJSONAtomic(pointPath(dir, points[i]), results[i]); err != nil {
				return err
			}
			return recordVersion(dir, points[i], reuse.Version)
		}
		return nil
	})
	if err != nil {
		return nil, stale, err
	}
	return results, stale, nil
}

// hasMetrics reports whether r has every metric of names (a point file
// written before its scenario asked for a metric that is off by default
// lacks it: the key leaves the metrics list out).
func hasMetrics(r PointResult, names []string) bool {
	for _, n := range names {
		found := false
		for _, m := range r.Metrics {
			found = found || m.Name == n
		}
		if !found {
			return false
		}
	}
	return true
}

// Selected returns the metrics of r that the scenario asks for (all when
// its metrics list is empty). Point files keep every metric.
func Selected(p scenario.Point, r PointResult) []Metric {
	if len(p.Scenario.Metrics) == 0 {
		return r.Metrics
	}
	want := map[string]bool{}
	for _, m := range p.Scenario.Metrics {
		want[m] = true
	}
	var out []Metric
	for _, m := range r.Metrics {
		if want[m.Name] {
			out = append(out, m)
		}
	}
	return out
}

func summarize(p scenario.Point, reps []experiment.RepMetrics) PointResult {
	r := PointResult{Index: p.Index, Key: p.Scenario.Key(), Labels: p.Labels, Model: p.Scenario.Model, Reps: len(reps)}
	if len(reps) == 0 {
		return r
	}
	for j, name := range reps[0].Names {
		xs := make([]float64, len(reps))
		for i := range reps {
			xs[i] = reps[i].Values[j]
		}
		c := stats.CI95(xs)
		r.Metrics = append(r.Metrics, Metric{Name: name, Mean: c.Mean, Low: c.Low, High: c.High, N: len(xs), Values: xs})
	}
	return r
}

func pointPath(dir string, p scenario.Point) string {
	return filepath.Join(dir, "points", fmt.Sprintf("%04d-%s.json", p.Index, p.Scenario.Key()))
}

func loadPoint(path string) (PointResult, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return PointResult{}, false
	}
	var r jsonPoint
	if err := json.Unmarshal(b, &r); err != nil {
		return PointResult{}, false
	}
	return r.decode(), true
}

// JSON has no NaN: intervals of single replications are written as null.
type jsonMetric struct {
	Name   string    `json:"name"`
	Mean   float64   `json:"mean"`
	Low    *float64  `json:"ci_low"`
	High   *float64  `json:"ci_high"`
	N      int       `json:"n"`
	Values []float64 `json:"values"`
}

type jsonPoint struct {
	Index   int              `json:"index"`
	Key     string           `json:"key"`
	Labels  []scenario.Label `json:"labels"`
	Model   string           `json:"model"`
	Reps    int              `json:"replications"`
	Metrics []jsonMetric     `json:"metrics"`
}

func opt(v float64) *float64 {
	if math.IsNaN(v) {
		return nil
	}
	return &v
}

func unopt(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

func encodePoint(r PointResult) jsonPoint {
	j := jsonPoint{Index: r.Index, Key: r.Key, Labels: r.Labels, Model: r.Model, Reps: r.Reps}
	for _, m := range r.Metrics {
		j.Metrics = append(j.Metrics, jsonMetric{m.Name, m.Mean, opt(m.Low), opt(m.High), m.N, m.Values})
	}
	return j
}

func (j jsonPoint) decode() PointResult {
	r := PointResult{Index: j.Index, Key: j.Key, Labels: j.Labels, Model: j.Model, Reps: j.Reps}
	for _, m := range j.Metrics {
		r.Metrics = append(r.Metrics, Metric{m.Name, m.Mean, unopt(m.Low), unopt(m.High), m.N, m.Values})
	}
	return r
}

func writeJSONAtomic(path string, r PointResult) error {
	return atomicfile.Write(path, func(w io.Writer) error { return metrics.WriteJSON(w, encodePoint(r)) })
}

// Comparison is a paired difference between two points that differ only in
// one policy setting (common random numbers make the pairing meaningful).
type Comparison struct {
	Axis, Baseline, Value string // e.g. policy.grid, random, deferred
	Context               string // the other labels of the pair
	Metric                string
	Diff                  stats.MeanCI // value minus baseline
}

// Compare pairs points along every policy axis (and the estimate model's
// axes: compared): each value against the axis's first value, all other
// settings equal.
func Compare(points []scenario.Point, results []PointResult) []Comparison {
	var out []Comparison
	if len(points) == 0 {
		return nil
	}
	pairs(points, func(ai, b, i int) {
		base := results[b]
		for mi, m := range results[i].Metrics {
			if mi >= len(base.Metrics) || base.Metrics[mi].Name != m.Name || m.N < 2 {
				continue
			}
			d, err := stats.Paired(m.Values, base.Metrics[mi].Values)
			if err != nil {
				continue
			}
			out = append(out, Comparison{Axis: points[i].Labels[ai].Key, Baseline: points[b].Labels[ai].Value, Value: points[i].Labels[ai].Value,
				Context: pairContext(points[i], ai), Metric: m.Name, Diff: d})
		}
	})
	return out
}

// WriteSummaryCSV writes one row per point and selected metric.
func WriteSummaryCSV(w io.Writer, points []scenario.Point, results []PointResult) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"point", "key", "labels", "metric", "mean", "ci_low", "ci_high", "n"})
	for _, r := range results {
		var ls []string
		for _, l := range r.Labels {
			ls = append(ls, l.Key+"="+l.Value)
		}
		for _, m := range Selected(points[r.Index], r) {
			cw.Write([]string{strconv.Itoa(r.Index), r.Key, strings.Join(ls, " "), m.Name, fmtF(m.Mean), fmtF(m.Low), fmtF(m.High), strconv.Itoa(m.N)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteComparisonsCSV writes the paired differences.
func WriteComparisonsCSV(w io.Writer, cs []Comparison) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"axis", "baseline", "value", "context", "metric", "diff", "ci_low", "ci_high", "n"})
	for _, c := range cs {
		cw.Write([]string{c.Axis, c.Baseline, c.Value, c.Context, c.Metric, fmtF(c.Diff.Mean), fmtF(c.Diff.Low), fmtF(c.Diff.High), strconv.Itoa(c.Diff.N)})
	}
	cw.Flush()
	return cw.Error()
}

func fmtF(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
