package htmlreport

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// axis is one swept parameter and its values in order of appearance.
type axis struct {
	Name   string
	Values []string
}

// estimate is a mean with its 95% confidence interval.
type estimate struct {
	Mean, Lo, Hi float64
	N            string
}

func (e estimate) Text() string {
	if math.IsNaN(e.Mean) {
		return ""
	}
	if math.IsNaN(e.Lo) || math.IsNaN(e.Hi) {
		return g(e.Mean)
	}
	return g(e.Mean) + " [" + g(e.Lo) + ", " + g(e.Hi) + "]"
}

// shown is an estimate as a table shows it, in its metric's display
// unit: the mean, and the interval ("" without one).
type shown struct{ Mean, CI string }

func (d display) show(e estimate) shown {
	if math.IsNaN(e.Mean) {
		return shown{}
	}
	s := shown{Mean: num4(d.of(e.Mean))}
	if !math.IsNaN(e.Lo) && !math.IsNaN(e.Hi) {
		s.CI = "[" + num4(d.of(e.Lo)) + ", " + num4(d.of(e.Hi)) + "]"
	}
	return s
}

// sweepPoint is one row of the points table.
type sweepPoint struct {
	Point  string
	Labels []string // one per axis ("" when the point lacks it)
	Cells  []estimate
	Shown  []shown // Cells in the metrics' display units
	Filter string  // JSON {axis: [values]} for the page's filters
}

// comparisonRow is one paired comparison.
type comparisonRow struct {
	Axis, Baseline, Value, Context, Metric string
	Diff                                   estimate
	Verdict                                string // "higher", "lower" or "" (the CI holds 0)
	Judgement                              string // "better", "worse" or "" (a tie, or a metric with no better direction)
	Filter                                 string
	metric                                 int   // index in sweepPage.Metrics
	Shown                                  shown // Diff in the metric's display unit for differences
	Unit                                   string
}

// metricColumn is a metric as the page heads it: its name (as in
// summary.csv), its title for axes (metricTitle), the unit its values
// and its differences are shown in, and its doc.
type metricColumn struct {
	Name, Title, Doc string
	Values, Diffs    display
}

type sweepPage struct {
	Title       string
	Axes        []axis
	Metrics     []string
	Points      []sweepPoint
	Comparisons []comparisonRow
	// Notes say why the comparisons say nothing, where they do not
	// (sweepNotes).
	Notes []string
	// Columns say how each metric of Metrics is named and shown.
	Columns []metricColumn
	// decls are the metrics' declarations, from the sweep folder's
	// metrics.json (sweepMetrics; nil without it).
	decls map[string]metricDecl
	// seconds: the sweep's times are seconds (timeInSeconds).
	seconds bool
}

// parseLabels splits "a=x b=y" into pairs.
func parseLabels(s string) [][2]string {
	var out [][2]string
	for _, f := range strings.Fields(s) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		out = append(out, [2]string{k, v})
	}
	return out
}

func filterJSON(m map[string][]string) string {
	b, _ := json.Marshal(m) // map keys sorted: deterministic
	return string(b)
}

// readSweep reads summary.csv and comparisons.csv of a sweep folder.
func readSweep(dir string) (*sweepPage, error) {
	sum, err := readTable(filepath.Join(dir, "summary.csv"), "point", "labels", "metric", "mean", "ci_low", "ci_high", "n")
	if err != nil {
		return nil, err
	}
	cmp, err := readTable(filepath.Join(dir, "comparisons.csv"), "axis", "baseline", "value", "context", "metric", "diff", "ci_low", "ci_high", "n")
	if err != nil {
		return nil, err
	}
	p := &sweepPage{Title: filepath.Base(filepath.Clean(dir))}
	if p.decls, err = sweepMetrics(dir); err != nil {
		return nil, err
	}
	if name, err := sweepName(dir); err != nil {
		return nil, err
	} else if name != "" {
		p.Title = name
	}
	axisAt := map[string]int{}
	addAxis := func(k, v string) {
		i, ok := axisAt[k]
		if !ok {
			i = len(p.Axes)
			axisAt[k] = i
			p.Axes = append(p.Axes, axis{Name: k})
		}
		if !slices.Contains(p.Axes[i].Values, v) {
			p.Axes[i].Values = append(p.Axes[i].Values, v)
		}
	}
	metricAt := map[string]int{}
	pointAt := map[string]int{}
	type cellAt struct{ point, metric int }
	cells := map[cellAt]estimate{}
	var pointLabels [][][2]string
	var keys []string
	for i := range sum.rows {
		pt, labels, metric := sum.get(i, "point"), sum.get(i, "labels"), sum.get(i, "metric")
		if metric == "" {
			return nil, fmt.Errorf("%s:%d: column metric: empty", sum.path, sum.line[i])
		}
		var e estimate
		if e.Mean, err = sum.num(i, "mean", true); err != nil {
			return nil, err
		}
		if e.Lo, err = sum.num(i, "ci_low", true); err != nil {
			return nil, err
		}
		if e.Hi, err = sum.num(i, "ci_high", true); err != nil {
			return nil, err
		}
		e.N = sum.get(i, "n")
		pi, ok := pointAt[pt]
		if !ok {
			pi = len(p.Points)
			pointAt[pt] = pi
			p.Points = append(p.Points, sweepPoint{Point: pt})
			keys = append(keys, sum.get(i, "key"))
			ls := parseLabels(labels)
			pointLabels = append(pointLabels, ls)
			for _, kv := range ls {
				addAxis(kv[0], kv[1])
			}
		}
		mi, ok := metricAt[metric]
		if !ok {
			mi = len(p.Metrics)
			metricAt[metric] = mi
			p.Metrics = append(p.Metrics, metric)
		}
		if _, dup := cells[cellAt{pi, mi}]; dup {
			return nil, fmt.Errorf("%s:%d: point %s has metric %s twice", sum.path, sum.line[i], pt, metric)
		}
		cells[cellAt{pi, mi}] = e
	}
	nan := estimate{math.NaN(), math.NaN(), math.NaN(), ""}
	for pi := range p.Points {
		pt := &p.Points[pi]
		f := map[string][]string{}
		pt.Labels = make([]string, len(p.Axes))
		for _, kv := range pointLabels[pi] {
			pt.Labels[axisAt[kv[0]]] = kv[1]
			f[kv[0]] = []string{kv[1]}
		}
		pt.Filter = filterJSON(f)
		for mi := range p.Metrics {
			e, ok := cells[cellAt{pi, mi}]
			if !ok {
				e = nan
			}
			pt.Cells = append(pt.Cells, e)
		}
	}
	for i := range cmp.rows {
		r := comparisonRow{Axis: cmp.get(i, "axis"), Baseline: cmp.get(i, "baseline"), Value: cmp.get(i, "value"),
			Context: cmp.get(i, "context"), Metric: cmp.get(i, "metric")}
		if r.Diff.Mean, err = cmp.num(i, "diff", false); err != nil {
			return nil, err
		}
		if r.Diff.Lo, err = cmp.num(i, "ci_low", true); err != nil {
			return nil, err
		}
		if r.Diff.Hi, err = cmp.num(i, "ci_high", true); err != nil {
			return nil, err
		}
		r.Diff.N = cmp.get(i, "n")
		switch {
		case r.Diff.Lo > 0:
			r.Verdict = "higher"
		case r.Diff.Hi < 0:
			r.Verdict = "lower"
		}
		switch b := p.metricBetter(r.Metric); {
		case r.Verdict == "":
		case b == "lower is better" && r.Verdict == "lower", b == "higher is better" && r.Verdict == "higher":
			r.Judgement = "better"
		case b != "":
			r.Judgement = "worse"
		}
		f := map[string][]string{r.Axis: {r.Baseline, r.Value}}
		for _, kv := range parseLabels(r.Context) {
			f[kv[0]] = []string{kv[1]}
		}
		r.Filter = filterJSON(f)
		r.metric = -1
		if mi, ok := metricAt[r.Metric]; ok {
			r.metric = mi
		}
		p.Comparisons = append(p.Comparisons, r)
	}
	p.Notes = sweepNotes(p, maxN(sum))
	p.showUnits(timeInSeconds(keys))
	return p, nil
}

// showUnits chooses the display unit of each metric's values (by the
// largest magnitude of its means and bounds over the points) and of its
// differences (by theirs), and writes the tables' cells in them.
func (p *sweepPage) showUnits(seconds bool) {
	p.seconds = seconds
	p.Columns = make([]metricColumn, len(p.Metrics))
	titles := metricTitles(p.Metrics, p.decls)
	for mi, m := range p.Metrics {
		var vs, ds []float64
		for _, pt := range p.Points {
			e := pt.Cells[mi]
			vs = append(vs, e.Mean, e.Lo, e.Hi)
		}
		for _, c := range p.Comparisons {
			if c.metric == mi {
				ds = append(ds, c.Diff.Mean, c.Diff.Lo, c.Diff.Hi)
			}
		}
		d := p.decls[m]
		p.Columns[mi] = metricColumn{Name: m, Title: titles[mi], Doc: d.Doc,
			Values: showAs(d.Unit, seconds, magnitude(vs...)), Diffs: showAs(d.Unit, seconds, magnitude(ds...))}
	}
	for pi := range p.Points {
		pt := &p.Points[pi]
		pt.Shown = make([]shown, len(pt.Cells))
		for mi, e := range pt.Cells {
			pt.Shown[mi] = p.Columns[mi].Values.show(e)
		}
	}
	for ci := range p.Comparisons {
		c := &p.Comparisons[ci]
		dd := display{Scale: 1}
		if c.metric >= 0 {
			dd = p.Columns[c.metric].Diffs
		}
		c.Shown, c.Unit = dd.show(c.Diff), dd.Unit
		if c.Shown.Mean != "" && c.Diff.Mean > 0 {
			c.Shown.Mean = "+" + c.Shown.Mean
		}
	}
}

// maxN is the largest replication count (column n) of summary.csv.
func maxN(sum *table) int {
	n := 0
	for i := range sum.rows {
		if k, err := strconv.Atoi(sum.get(i, "n")); err == nil {
			n = max(n, k)
		}
	}
	return n
}

// sweepNotes is the page's version of the sweep's console notes
// (sweep.Notes), worked out from the two tables: why there are
// no comparisons, or which compared points gave exactly the baseline's
// results (every metric's difference 0 with a zero-width interval).
func sweepNotes(p *sweepPage, reps int) []string {
	if len(p.Comparisons) == 0 {
		policyAxis := slices.ContainsFunc(p.Axes, func(a axis) bool {
			return strings.HasPrefix(a.Name, "policy.") || strings.HasPrefix(a.Name, "workload.estimate") || a.Name == "workload.predictor" || a.Name == "workload.correction"
		})
		switch {
		case len(p.Points) <= 1:
			return []string{"No paired comparisons: the sweep has one point (comparisons pair points that differ in one policy setting)."}
		case !policyAxis:
			return []string{"No paired comparisons: no policy setting is swept (comparisons pair points that differ in one policy.* setting or in workload.estimate, all else equal)."}
		case reps < 2:
			return []string{"No paired comparisons: every point has 1 replication, and a confidence interval needs at least 2 (set replications; a trace scenario gets distinct replications with workload.resample or platform.failures)."}
		}
		return nil
	}
	type pair struct{ axis, base, value, ctx string }
	zero := map[pair]bool{}
	var order []pair
	for _, c := range p.Comparisons {
		k := pair{c.Axis, c.Baseline, c.Value, c.Context}
		z := c.Diff.Mean == 0 && c.Diff.Lo == 0 && c.Diff.Hi == 0
		if was, ok := zero[k]; ok {
			zero[k] = was && z
			continue
		}
		zero[k] = z
		order = append(order, k)
	}
	var same []string
	for _, k := range order {
		if zero[k] {
			s := k.axis + " " + k.value + " = " + k.base
			if k.ctx != "" {
				s += " (" + k.ctx + ")"
			}
			same = append(same, s)
		}
	}
	switch {
	case len(same) == 0:
		return nil
	case len(same) == len(order):
		return []string{"Every compared point gave exactly the same results as its baseline in every replication: the policies made the same schedule on this workload (one-CPU jobs with exact estimates, for example, leave a queue policy nothing to choose; the lublin workload model gives parallel jobs with user estimates)."}
	}
	return []string{"Identical results in every replication (the same schedule): " + strings.Join(same, "; ") + "."}
}

// sweepData is the JSON the page's script reads: per metric, per point,
// mean and CI (null where missing), for the CI charts.
type sweepData struct {
	Kind    string   `json:"kind"`
	Metrics []string `json:"metrics"`
	Better  []string `json:"better"` // per metric: "lower is better", "higher is better" or ""
	Points  []string `json:"points"`
	// Labels name each point by the values of the axes that vary (the
	// x-axis labels of the charts), XLabel names those axes.
	Labels []string       `json:"labels"`
	XLabel string         `json:"xlabel"`
	Values [][][3]float64 `json:"values"` // [metric][point] = mean, lo, hi (NaN → 0 with ok false)
	OK     [][]bool       `json:"ok"`
	// Titles name each metric for its charts ("mean wait"); Units and
	// Scales show its values (value / scale, in unit: "h", "%", "" for
	// none), DiffUnits and DiffScales its paired differences.
	Titles     []string  `json:"titles"`
	Units      []string  `json:"units"`
	Scales     []float64 `json:"scales"`
	DiffUnits  []string  `json:"diffunits"`
	DiffScales []float64 `json:"diffscales"`
	// Pairs are the paired comparisons, in the order of the page's
	// table of comparisons (whose rows the filters hide).
	Pairs []pairData `json:"pairs"`
}

// pairData is one paired comparison for the chart of differences: its
// metric (index in Metrics, -1 for none of them), its label, the mean
// difference and its 95% CI (lo = hi = mean without one), and whether
// the value is better or worse than the baseline ("" for a tie or no
// direction).
type pairData struct {
	Metric    int        `json:"metric"`
	Label     string     `json:"label"`
	Diff      [3]float64 `json:"diff"`
	Judgement string     `json:"judgement"`
}

// diffLabel names a comparison in the chart of differences: "value −
// baseline", then the context; the axis first when the sweep compares
// along several.
func diffLabel(c comparisonRow, manyAxes bool) string {
	l := c.Value + " − " + c.Baseline
	if manyAxes {
		l = c.Axis + ": " + l
	}
	if c.Context != "" {
		l += " | " + c.Context
	}
	return l
}

func (p *sweepPage) data() sweepData {
	d := sweepData{Kind: "sweep", Metrics: p.Metrics}
	var varying []int
	var names []string
	for ai, a := range p.Axes {
		if len(a.Values) > 1 {
			varying = append(varying, ai)
			names = append(names, a.Name)
		}
	}
	d.XLabel = "point"
	if len(names) > 0 {
		d.XLabel = strings.Join(names, " / ")
	}
	for _, pt := range p.Points {
		d.Points = append(d.Points, pt.Point)
		var vs []string
		for _, ai := range varying {
			vs = append(vs, pt.Labels[ai])
		}
		l := strings.Join(vs, " / ")
		if l == "" {
			l = "point " + pt.Point
		}
		d.Labels = append(d.Labels, l)
	}
	for _, m := range p.Metrics {
		d.Better = append(d.Better, p.metricBetter(m))
	}
	for mi := range p.Metrics {
		vs := make([][3]float64, len(p.Points))
		ok := make([]bool, len(p.Points))
		for pi, pt := range p.Points {
			e := pt.Cells[mi]
			if math.IsNaN(e.Mean) {
				continue
			}
			lo, hi := e.Lo, e.Hi
			if math.IsNaN(lo) || math.IsNaN(hi) {
				lo, hi = e.Mean, e.Mean
			}
			vs[pi], ok[pi] = [3]float64{e.Mean, lo, hi}, true
		}
		d.Values = append(d.Values, vs)
		d.OK = append(d.OK, ok)
	}
	for _, c := range p.Columns {
		d.Titles = append(d.Titles, c.Title)
		d.Units, d.Scales = append(d.Units, c.Values.Unit), append(d.Scales, c.Values.Scale)
		d.DiffUnits, d.DiffScales = append(d.DiffUnits, c.Diffs.Unit), append(d.DiffScales, c.Diffs.Scale)
	}
	axes := map[string]bool{}
	for _, c := range p.Comparisons {
		axes[c.Axis] = true
	}
	d.Pairs = []pairData{}
	for _, c := range p.Comparisons {
		lo, hi := c.Diff.Lo, c.Diff.Hi
		if math.IsNaN(lo) || math.IsNaN(hi) {
			lo, hi = c.Diff.Mean, c.Diff.Mean
		}
		d.Pairs = append(d.Pairs, pairData{Metric: c.metric, Label: diffLabel(c, len(axes) > 1),
			Diff: [3]float64{c.Diff.Mean, lo, hi}, Judgement: c.Judgement})
	}
	return d
}

// metricBetter says which way a metric of the sweep is better: "lower
// is better", "higher is better", or "" when its declaration gives no
// direction (the offered load, a decision cost) or the folder has no
// metrics.json (a sweep written before it existed).
func (p *sweepPage) metricBetter(name string) string {
	switch p.decls[name].Better {
	case "lower":
		return "lower is better"
	case "higher":
		return "higher is better"
	}
	return ""
}

// sweepMetrics reads the declaration of each metric (unit, doc, better
// direction) from the sweep folder's metrics.json, which 'schedlab
// sweep' and 'schedlab merge' write from the metrics' declarations
// (package registry, which this package does not import: it reads what
// the sweep wrote). A folder without the file gives no declarations:
// no directions, no units, titles from the names.
func sweepMetrics(dir string) (map[string]metricDecl, error) {
	path := filepath.Join(dir, "metrics.json")
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var info struct {
		Metrics []metricDecl `json:"metrics"`
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return nil, fmt.Errorf("%s: not the metrics of a sweep: %v", path, err)
	}
	out := map[string]metricDecl{}
	for _, m := range info.Metrics {
		out[m.Name] = m
	}
	return out, nil
}

// sweepName is the scenario's name from the sweep folder's sweep.json
// ("" when the folder has none: a sweep written before it existed; the
// page is then titled by the folder's name).
func sweepName(dir string) (string, error) {
	path := filepath.Join(dir, "sweep.json")
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var info struct {
		Name string `json:"name"`
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return "", fmt.Errorf("%s: not the JSON of a sweep: %v", path, err)
	}
	return strings.TrimSpace(info.Name), nil
}

// PairCharts are the metrics (indexes in Metrics) that have paired
// comparisons: one chart of differences each.
func (p *sweepPage) PairCharts() []int {
	var out []int
	for mi := range p.Metrics {
		if slices.ContainsFunc(p.Comparisons, func(c comparisonRow) bool { return c.metric == mi }) {
			out = append(out, mi)
		}
	}
	return out
}

// TimeNote says what the page's times are in.
func (p *sweepPage) TimeNote() string {
	if p.seconds {
		return "times in s, min, h or d"
	}
	return "times in the model's time units: the mean service time of a Poisson workload"
}

// NameParts is the metric's name cut after each "_", the places where
// the table's heading may break it ("mean_bounded_" "slowdown").
func (c metricColumn) NameParts() []string { return strings.SplitAfter(c.Name, "_") }
