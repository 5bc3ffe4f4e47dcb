package cli

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/workload"
)

type sweepCmd struct {
	File    string `arg:"" name:"scenario" help:"Scenario file (YAML; see docs/scenarios.md and examples/)."`
	Out     string `placeholder:"DIR" help:"Results folder (default: schedlab-out/<scenario file name>). Points already there are not run again."`
	Workers int    `default:"0" help:"Parallel replications (0 = scenario's workers, else all cores). Results do not depend on it."`
	List    bool   `help:"Validate the file and list its points without running them."`
	Records bool   `help:"Also write every replication's per-job records to DIR/records/ (jobs.csv columns plus kind and sites; hetero: machine, speed, bm_est, deadline, and a .platform.csv beside each file)."`
}

func (c *sweepCmd) Run(g *globals) error {
	if c.Workers < 0 {
		return usageError{fmt.Errorf("--workers %d: must not be negative (0 = the scenario's workers, else all cores)", c.Workers)}
	}
	if c.List && (c.Out != "" || c.Records) {
		return usageError{fmt.Errorf("--list runs nothing and writes nothing: --out and --records do not go with it")}
	}
	points, err := scenario.Load(c.File)
	if err != nil {
		return err
	}
	if err := checkTraces(c.File, points); err != nil {
		return err
	}
	if c.List {
		for _, p := range points {
			fmt.Fprintf(g.stdout, "%4d  %s  %s\n", p.Index, p.Scenario.Key(), labels(p.Labels))
		}
		fmt.Fprintf(g.stdout, "%d point(s), model %s, %d replication(s) each\n", len(points), points[0].Scenario.Model, points[0].Scenario.Replications)
		return nil
	}
	out := c.Out
	if out == "" {
		stem := strings.TrimSuffix(filepath.Base(c.File), filepath.Ext(c.File))
		out = filepath.Join("schedlab-out", stem)
	}
	for _, d := range []string{out, filepath.Join(out, "points"), filepath.Join(out, "records")} {
		if err := g.useOutDir(d); err != nil {
			return err
		}
	}
	workers := c.Workers
	if workers == 0 {
		workers = points[0].Scenario.Workers
	}
	total := 0
	for _, p := range points {
		total += p.Scenario.Replications
	}
	b := newBar(g.stderr, "sweep")
	b.Grow(total)
	res, err := experiment.Sweep(points, out, workers, b, c.Records)
	b.done()
	if err != nil {
		return err
	}
	var reused []string
	for _, r := range res {
		if r.Reused {
			reused = append(reused, strconv.Itoa(r.Index))
		}
	}
	if len(reused) > 0 {
		fmt.Fprintf(g.stderr, "schedlab: %d of %d point(s) reused from %s (not run again): %s\n",
			len(reused), len(res), filepath.Join(out, "points"), strings.Join(reused, ", "))
	}
	cmp := experiment.Compare(points, res)
	if err := writeFileAtomic(filepath.Join(out, "summary.csv"), func(w io.Writer) error { return experiment.WriteSummaryCSV(w, points, res) }); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(out, "comparisons.csv"), func(w io.Writer) error { return experiment.WriteComparisonsCSV(w, cmp) }); err != nil {
		return err
	}
	printSweep(g.stdout, points, res, cmp)
	fmt.Fprintf(g.stdout, "\nwrote %s (per point: %s)\n", filepath.Join(out, "summary.csv")+", "+filepath.Join(out, "comparisons.csv"), filepath.Join(out, "points"))
	return nil
}

// checkTraces opens every trace the points name, once each, so that a
// missing or unreadable trace is reported before anything runs (and by
// --list).
func checkTraces(file string, points []scenario.Point) error {
	seen := map[string]bool{}
	for _, p := range points {
		tr := p.Scenario.Workload.Trace
		if tr == "" || seen[tr] {
			continue
		}
		seen[tr] = true
		rd, err := workload.OpenTrace(tr)
		if err != nil {
			return fmt.Errorf("%s: point %d: workload.trace: %w", file, p.Index, err)
		}
		rd.Close()
	}
	return nil
}

func labels(ls []scenario.Label) string {
	var s []string
	for _, l := range ls {
		s = append(s, l.Key+"="+l.Value)
	}
	return strings.Join(s, " ")
}

func ci(m experiment.Metric) string {
	if math.IsNaN(m.Low) {
		return fmt.Sprintf("%.4g", m.Mean)
	}
	return fmt.Sprintf("%.4g ±%.2g", m.Mean, (m.High-m.Low)/2)
}

func printSweep(w io.Writer, points []scenario.Point, res []experiment.PointResult, cmp []experiment.Comparison) {
	if len(res) == 0 {
		return
	}
	want := map[string]bool{}
	for _, m := range experiment.Selected(points[0], res[0]) {
		want[m.Name] = true
	}
	shown := func(name string) bool { return want[name] && !strings.HasPrefix(name, "site") }
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "point\tsettings\t")
	for _, m := range res[0].Metrics {
		if shown(m.Name) {
			fmt.Fprintf(tw, "%s\t", m.Name)
		}
	}
	fmt.Fprintln(tw)
	for _, r := range res {
		l := labels(r.Labels)
		if l == "" {
			l = "-"
		}
		fmt.Fprintf(tw, "%d\t%s\t", r.Index, l)
		for _, m := range r.Metrics {
			if shown(m.Name) {
				fmt.Fprintf(tw, "%s\t", ci(m))
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if len(cmp) == 0 {
		return
	}
	fmt.Fprintln(w, "\nPaired differences (value - baseline, same seeds), 95% CI:")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "axis\tvalue - baseline\tsettings\tmetric\tdifference\tsignificant\t")
	for _, c := range cmp {
		if !shown(c.Metric) {
			continue
		}
		sig := "no"
		if c.Diff.Low > 0 || c.Diff.High < 0 {
			sig = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s - %s\t%s\t%s\t%.4g [%.4g, %.4g]\t%s\t\n", c.Axis, c.Value, c.Baseline, c.Context, c.Metric, c.Diff.Mean, c.Diff.Low, c.Diff.High, sig)
	}
	tw.Flush()
}

func writeFileAtomic(path string, f func(io.Writer) error) error { return atomicfile.Write(path, f) }
