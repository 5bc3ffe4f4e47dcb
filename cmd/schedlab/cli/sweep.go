package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/sweep"
	"github.com/schedlab/schedlab/workload"
)

type sweepCmd struct {
	File    string `arg:"" name:"scenario" help:"Scenario file (YAML; see docs/scenarios.md and examples/)."`
	Out     string `placeholder:"DIR" help:"Results folder (default: schedlab-out/<scenario file name>). Points already there are not run again."`
	Workers int    `default:"0" help:"Parallel replications (0 = scenario's workers, else all cores). Results do not depend on it."`
	List    bool   `help:"Validate the file and list its points without running them."`
	Force   bool   `help:"Run every point again, reusing none of the results already in the folder (by default a point is reused when this build of schedlab computed it: DIR/versions/)."`
	Records bool   `help:"Also write every replication's per-job records to DIR/records/ (jobs.csv columns plus kind and sites; hetero: machine, speed, bm_est, deadline, and a .platform.csv beside each file)."`

	Shard  string `placeholder:"I/N" group:"shards" help:"Run only shard I of N (0 <= I < N): the work units (point x replication, numbered in point order) u with u mod N = I, each written to DIR/shards/units/; no summary ('schedlab merge DIR' writes it when every shard is done). Default in a Slurm array task: SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT (docs/cluster.md)."`
	Shards int    `placeholder:"N" group:"shards" help:"Number of shards: with --emit, or with I from JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (then SLURM_ARRAY_TASK_COUNT is not used)."`

	Emit        string `placeholder:"slurm|k8s" group:"cluster" help:"Run nothing; print what runs the sweep as --shards N shards on a cluster, then merges them: slurm, a bash script that submits a Slurm job array and a merge job that depends on it; k8s, a Kubernetes manifest: the scenario as a ConfigMap, an Indexed Job of the shards and a merge Job (docs/cluster.md)."`
	Name        string `placeholder:"NAME" group:"cluster" help:"--emit: the job name (default schedlab-<scenario file name>)."`
	Image       string `default:"${k8s_image}" group:"cluster" help:"--emit k8s: the container image; schedlab on its PATH (default ${k8s_image})."`
	Volume      string `default:"${k8s_volume}" group:"cluster" help:"--emit k8s: the PersistentVolumeClaim mounted at ${k8s_mount}, the containers' working folder: --out and relative trace paths are on it (default ${k8s_volume})."`
	Parallelism int    `placeholder:"P" group:"cluster" help:"--emit k8s: how many shards run at once (default: all)."`
}

// Environment variables that give a shard its number (sweepCmd.shard).
const (
	envSlurmID    = "SLURM_ARRAY_TASK_ID"
	envSlurmCount = "SLURM_ARRAY_TASK_COUNT"
	envK8sIndex   = "JOB_COMPLETION_INDEX"
)

// shard resolves which shard of the sweep to run: --shard I/N; else
// I from SLURM_ARRAY_TASK_ID (N from --shards, else from
// SLURM_ARRAY_TASK_COUNT) or from JOB_COMPLETION_INDEX (N from
// --shards). ok is false for an unsharded sweep; from says where I and N
// came from.
func (c *sweepCmd) shard(getenv func(string) string) (sh sweep.Shard, from string, ok bool, err error) {
	bad := func(format string, a ...any) (sweep.Shard, string, bool, error) {
		return sweep.Shard{}, "", false, usageError{fmt.Errorf(format, a...)}
	}
	if c.Shards < 0 || c.Shards > sweep.MaxShards {
		return bad("--shards %d: want 1..%d", c.Shards, sweep.MaxShards)
	}
	if c.Shard != "" {
		if c.Shards != 0 {
			return bad("--shard I/N names N itself: --shards does not go with it")
		}
		sh, err := sweep.ParseShard(c.Shard)
		if err != nil {
			return bad("--shard %w", err)
		}
		return sh, "", true, nil
	}
	slurm, k8s := getenv(envSlurmID), getenv(envK8sIndex)
	number := func(name, v string) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, usageError{fmt.Errorf("%s=%q: not a whole number (the task's index, set by the cluster)", name, v)}
		}
		return n, nil
	}
	switch {
	case slurm != "" && k8s != "":
		return bad("both %s and %s are set: is this a Slurm array task or a Kubernetes Indexed Job? Give --shard I/N", envSlurmID, envK8sIndex)
	case slurm != "":
		i, err := number(envSlurmID, slurm)
		if err != nil {
			return sweep.Shard{}, "", false, err
		}
		sh, from = sweep.Shard{Index: i, Count: c.Shards}, envSlurmID+" and --shards"
		if c.Shards == 0 {
			v := getenv(envSlurmCount)
			if v == "" {
				return bad("%s=%s is set but not %s: give --shards N", envSlurmID, slurm, envSlurmCount)
			}
			if sh.Count, err = number(envSlurmCount, v); err != nil {
				return sweep.Shard{}, "", false, err
			}
			from = envSlurmID + "/" + envSlurmCount
			if err := sh.Check(); err != nil {
				return bad("%s/%s = %s/%s: %w (submit the array as --array=0-%d)", envSlurmID, envSlurmCount, slurm, v, err, sh.Count-1)
			}
		}
	case k8s != "":
		i, err := number(envK8sIndex, k8s)
		if err != nil {
			return sweep.Shard{}, "", false, err
		}
		if c.Shards == 0 {
			return bad("%s=%s is set (a Kubernetes Indexed Job): give the number of shards, --shards N (the Job's completions)", envK8sIndex, k8s)
		}
		sh, from = sweep.Shard{Index: i, Count: c.Shards}, envK8sIndex+" and --shards"
	default:
		if c.Shards != 0 {
			return bad("--shards %d: which shard? Give --shard I/N, or run as a task that sets %s or %s", c.Shards, envSlurmID, envK8sIndex)
		}
		return sweep.Shard{}, "", false, nil
	}
	if err := sh.Check(); err != nil {
		return bad("%s: %w", from, err)
	}
	return sh, from, true, nil
}

func (c *sweepCmd) Run(g *globals) error {
	if c.Workers < 0 {
		return usageError{fmt.Errorf("--workers %d: must not be negative (0 = the scenario's workers, else all cores)", c.Workers)}
	}
	if err := c.checkEmit(); err != nil {
		return err
	}
	if c.List && (c.Out != "" || c.Records || c.Shard != "" || c.Shards != 0 || c.Force) {
		return usageError{fmt.Errorf("--list runs nothing and writes nothing: --out, --records, --shard, --shards and --force do not go with it")}
	}
	if c.Force && c.Emit != "" {
		return usageError{fmt.Errorf("--force runs a sweep again in its folder: it does not go with --emit")}
	}
	var sh sweep.Shard
	var from string
	sharded := false
	if !c.List && c.Emit == "" {
		var err error
		if sh, from, sharded, err = c.shard(os.Getenv); err != nil {
			return err
		}
	}
	data, err := os.ReadFile(c.File)
	if err != nil {
		return err
	}
	points, err := scenario.Parse(c.File, data)
	if err != nil {
		return err
	}
	if err := checkTraces(c.File, points); err != nil {
		return err
	}
	// What a sweep refuses before running, --list refuses too.
	if err := sweep.CheckPoints(points); err != nil {
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
	workers := c.Workers
	if workers == 0 {
		workers = points[0].Scenario.Workers
	}
	if c.Emit != "" {
		return c.emit(g, points, data, out, workers)
	}
	if sharded && c.Force {
		return usageError{fmt.Errorf("--force is for a sweep in one process: a shard reuses the unit files in %s; remove them to run its units again", sweep.UnitsDir(out))}
	}
	if sharded {
		return c.runShard(g, sh, from, points, data, out, workers)
	}
	if err := g.lockOutDir(out, false); err != nil {
		return err
	}
	for _, d := range []string{out, filepath.Join(out, "points"), sweep.VersionsDir(out), filepath.Join(out, "records")} {
		if err := g.useOutDir(d); err != nil {
			return err
		}
	}
	// A point is reused only when this build computed it (a policy's
	// code may have changed since): the build's identity, recorded
	// beside each point file (docs/scenarios.md).
	reuse := sweep.Reuse{Force: c.Force}
	if id, err := buildID(); err != nil {
		fmt.Fprintf(g.stderr, "schedlab: cannot tell which build of schedlab this is: %v; no point of %s is reused\n", err, out)
		reuse.Force = true
	} else {
		reuse.Version = id
	}
	total := 0
	for _, p := range points {
		total += p.Scenario.Replications
	}
	b := newBar(g.stderr, "sweep")
	b.Grow(total)
	res, stale, err := sweep.SweepReuse(points, out, workers, b, c.Records, reuse)
	b.done()
	sayStale(g, stale, out, reuse.Version)
	if err != nil {
		return err
	}
	sayReused(g, res, out, "reused from", "not run again")
	return writeSweep(g, out, sweepInfo{Name: scenarioName(points), File: filepath.Base(c.File)}, points, res)
}

// writeSweep writes the summary files of a finished sweep (the same
// after 'sweep' and after 'merge') and prints its table.
func writeSweep(g *globals, out string, info sweepInfo, points []scenario.Point, res []sweep.PointResult) error {
	cmp := sweep.Compare(points, res)
	info.Points = len(points)
	if err := writeFileAtomic(filepath.Join(out, "sweep.json"), func(w io.Writer) error { return writeSweepJSON(w, info) }); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(out, "metrics.json"), func(w io.Writer) error { return writeMetricsJSON(w, res) }); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(out, "summary.csv"), func(w io.Writer) error { return sweep.WriteSummaryCSV(w, points, res) }); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(out, "comparisons.csv"), func(w io.Writer) error { return sweep.WriteComparisonsCSV(w, cmp) }); err != nil {
		return err
	}
	printSweep(g.stdout, points, res, cmp)
	for _, n := range sweep.Notes(points, res, cmp) {
		fmt.Fprintf(g.stdout, "\nnote: %s\n", n)
	}
	fmt.Fprintf(g.stdout, "\nwrote %s (per point: %s)\n", filepath.Join(out, "summary.csv")+", "+filepath.Join(out, "comparisons.csv"), filepath.Join(out, "points"))
	return nil
}

// runShard runs shard sh of the sweep into out: its unit files, with
// records its records, and the folder's manifest; never the summary.
func (c *sweepCmd) runShard(g *globals, sh sweep.Shard, from string, points []scenario.Point, data []byte, out string, workers int) error {
	if err := sweep.CheckPoints(points); err != nil {
		return err
	}
	// Other shards write into the same folders at the same time: only
	// the temporary files of this shard's units are this shard's.
	us := sweep.NewUnits(points)
	ours := func(target string) bool {
		u, ok := sweep.UnitOfFile(points, us, target)
		return ok && sh.Owns(u)
	}
	for _, d := range []string{out, sweep.ShardsDir(out), filepath.Join(out, "points")} {
		if err := checkOutDir(d); err != nil {
			return err
		}
	}
	if err := g.lockOutDir(out, true); err != nil {
		return err
	}
	for _, d := range []string{sweep.UnitsDir(out), filepath.Join(out, "records")} {
		if err := g.useSharedOutDir(d, ours); err != nil {
			return err
		}
	}
	m := sweep.NewManifest(c.File, points, sh.Count, c.Records)
	if err := sweep.BeginShards(out, m, data, points); err != nil {
		return err
	}
	b := newBar(g.stderr, "shard "+sh.String())
	b.Grow(sh.Size(us.Total()))
	st, err := sweep.RunShard(points, out, sh, workers, b, c.Records)
	b.done()
	if err != nil {
		return err
	}
	// Shards of two sweeps that began the folder at the same moment both
	// found it empty: the manifest that stayed is one of them.
	if now, err := sweep.ReadManifest(out); err != nil {
		return err
	} else if err := sweep.CheckManifest(out, now, m, points); err != nil {
		return fmt.Errorf("after this shard ran, %w", err)
	}
	if from != "" {
		from = " (from " + from + ")"
	}
	fmt.Fprintf(g.stdout, "shard %s%s: %d of the sweep's %d unit(s) (point x replication): %d run, %d already in %s (not run again)\n",
		sh, from, st.Units, us.Total(), st.Ran, st.Reused, out)
	fmt.Fprintf(g.stdout, "when every shard has finished: schedlab merge %s\n", out)
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
			if p.TraceLine > 0 {
				return fmt.Errorf("%s:%d:%d: workload.trace: %w", file, p.TraceLine, p.TraceColumn, err)
			}
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

func ci(m sweep.Metric) string {
	if math.IsNaN(m.Low) {
		return fmt.Sprintf("%.4g", m.Mean)
	}
	return fmt.Sprintf("%.4g ±%.2g", m.Mean, (m.High-m.Low)/2)
}

func printSweep(w io.Writer, points []scenario.Point, res []sweep.PointResult, cmp []sweep.Comparison) {
	if len(res) == 0 {
		return
	}
	want := map[string]bool{}
	for _, m := range sweep.Selected(points[0], res[0]) {
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

// sweepInfo is sweep.json: what the sweep was, for the pages that show
// it (schedlab report titles a sweep's page by its name).
type sweepInfo struct {
	Name   string `json:"name"`   // the scenario's name (its name key, else the file's base name)
	File   string `json:"file"`   // the scenario file's base name
	Points int    `json:"points"` // the number of points
}

// metricInfo is one entry of metrics.json: the declaration
// (registry.Metric) behind a metric a sweep reports, under the name it
// is reported by (site0_load, user3_mean_wait), for the pages that show
// the sweep (schedlab report judges a comparison better or worse by its
// better direction).
type metricInfo struct {
	Name   string `json:"name"`
	Unit   string `json:"unit"`
	Better string `json:"better"` // "lower", "higher" or "" (no better direction)
	Doc    string `json:"doc"`
}

// writeMetricsJSON writes metrics.json: the declarations of every metric
// the points of res report, in order of first appearance.
func writeMetricsJSON(w io.Writer, res []sweep.PointResult) error {
	var list []metricInfo
	seen := map[string]bool{}
	for _, r := range res {
		for _, m := range r.Metrics {
			if seen[m.Name] {
				continue
			}
			seen[m.Name] = true
			mi := metricInfo{Name: m.Name}
			if d, ok := registry.LookupMetric(r.Model, m.Name); ok {
				mi.Unit, mi.Better, mi.Doc = d.Unit, d.Better, d.Doc
			}
			list = append(list, mi)
		}
	}
	b, err := json.MarshalIndent(struct {
		Metrics []metricInfo `json:"metrics"`
	}{list}, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

func writeSweepJSON(w io.Writer, info sweepInfo) error {
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// scenarioName is the name of the scenario of points ("" for none).
func scenarioName(points []scenario.Point) string {
	if len(points) == 0 {
		return ""
	}
	return points[0].Scenario.Name
}

// sayReused tells which points of res were taken from dir's points
// folder rather than computed ("schedlab: N of M point(s) <how> DIR/points
// (<not>): i, j, ...").
// sayStale says which point files of dir were run again because another
// build of schedlab, or one not recorded, computed them.
func sayStale(g *globals, stale []sweep.Stale, dir, version string) {
	var other, unknown []string
	versions := map[string]bool{}
	for _, s := range stale {
		if s.Version == "" {
			unknown = append(unknown, strconv.Itoa(s.Index))
		} else {
			other = append(other, strconv.Itoa(s.Index))
			versions[s.Version] = true
		}
	}
	pts := filepath.Join(dir, "points")
	if len(other) > 0 {
		was := fmt.Sprintf("%d other builds of schedlab", len(versions))
		if len(versions) == 1 {
			for v := range versions {
				was = "another build of schedlab (" + v + ")"
			}
		}
		fmt.Fprintf(g.stderr, "schedlab: %d point(s) in %s were computed by %s, not by this one (%s): run again: %s\n",
			len(other), pts, was, version, strings.Join(other, ", "))
	}
	if len(unknown) > 0 {
		fmt.Fprintf(g.stderr, "schedlab: %d point(s) in %s have no record in %s of the build of schedlab that computed them (an older schedlab, or a merge of shards): run again: %s\n",
			len(unknown), pts, sweep.VersionsDir(dir), strings.Join(unknown, ", "))
	}
}

func sayReused(g *globals, res []sweep.PointResult, dir, how, not string) {
	var reused []string
	for _, r := range res {
		if r.Reused {
			reused = append(reused, strconv.Itoa(r.Index))
		}
	}
	if len(reused) > 0 {
		fmt.Fprintf(g.stderr, "schedlab: %d of %d point(s) %s %s (%s): %s\n",
			len(reused), len(res), how, filepath.Join(dir, "points"), not, strings.Join(reused, ", "))
	}
}
