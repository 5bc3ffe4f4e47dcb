package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/scenario"
)

// A sharded sweep splits a sweep's work units over N independent
// processes (the tasks of a Slurm job array or of a Kubernetes Indexed
// Job) that share one output folder, and merges their results into
// exactly the files the unsharded sweep writes.
//
// A work unit is one replication of one point. Units are numbered in
// point order, then replication order: the units of point p are
// First(p) .. First(p)+replications(p)-1. Unit u belongs to shard u mod N.
// A point is split into replications rather than kept whole because the
// sweeps that outgrow one machine are the ones with long replications
// (and often few points); round-robin numbering spreads a point's
// replications, and so the expensive points, over all shards. A unit's
// result does not depend on N (a replication's seed is its point's seed
// and its number), so the result files of a shard are the same whatever
// N is.
//
// The folder of a sharded sweep DIR holds:
//
//	DIR/shards/manifest.json       what every shard and the merge agree on (Manifest)
//	DIR/shards/scenario.yaml       a copy of the scenario file
//	DIR/shards/units/NNNN-KEY-rR.json  one file per finished unit (point NNNN, replication R)
//	DIR/records/NNNN-KEY-rR.csv    with records, as the unsharded sweep writes them
//
// and after the merge, as the unsharded sweep: DIR/points/NNNN-KEY.json,
// DIR/summary.csv, DIR/comparisons.csv.

// MaxShards bounds the number of shards N (docs/limits.md). Slurm's
// default MaxArraySize (1001) allows N <= 1001.
const MaxShards = 10_000

// Shard is shard Index of Count.
type Shard struct {
	Index, Count int // 0 <= Index < Count <= MaxShards
}

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Check reports a shard out of range.
func (s Shard) Check() error {
	if s.Count < 1 || s.Count > MaxShards {
		return fmt.Errorf("%d shards: want 1..%d", s.Count, MaxShards)
	}
	if s.Index < 0 || s.Index >= s.Count {
		return fmt.Errorf("shard %d of %d: want 0 <= I < N, here 0..%d (shards are numbered from 0)", s.Index, s.Count, s.Count-1)
	}
	return nil
}

// Owns reports whether unit u belongs to the shard.
func (s Shard) Owns(u int) bool { return u%s.Count == s.Index }

// Size is the number of the shard's units among total.
func (s Shard) Size(total int) int {
	if total <= s.Index {
		return 0
	}
	return (total-s.Index-1)/s.Count + 1
}

// ParseShard reads "I/N".
func ParseShard(text string) (Shard, error) {
	a, b, ok := strings.Cut(text, "/")
	if !ok {
		return Shard{}, fmt.Errorf("%q: want I/N, e.g. 0/4 (shard 0 of 4)", text)
	}
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("%q: want I/N with whole numbers, e.g. 0/4 (shard 0 of 4)", text)
	}
	s := Shard{Index: i, Count: n}
	return s, s.Check()
}

// Units numbers the work units of a sweep.
type Units struct {
	first []int // first[p]: the first unit of point p; first[len(points)]: the total
}

// NewUnits numbers the units of points.
func NewUnits(points []scenario.Point) Units {
	first := make([]int, len(points)+1)
	for i, p := range points {
		first[i+1] = first[i] + p.Scenario.Replications
	}
	return Units{first}
}

// Total is the number of units.
func (us Units) Total() int { return us.first[len(us.first)-1] }

// Unit is the number of replication rep of point p.
func (us Units) Unit(p, rep int) int { return us.first[p] + rep }

// Locate is the point and replication of unit u.
func (us Units) Locate(u int) (p, rep int) {
	p = sort.SearchInts(us.first, u+1) - 1
	return p, u - us.first[p]
}

// CheckPoints checks what a sweep refuses before running anything: a
// trace point with replications or a job-count stop, replications out
// of range, more than scenario.MaxRuns runs.
func CheckPoints(points []scenario.Point) error {
	runs := 0
	for i, p := range points {
		sc := p.Scenario
		if sc.Workload.Trace != "" {
			if sc.Replications > 1 && (sc.Workload.Resample == "" || sc.Workload.Resample == "none") && sc.Platform.Failures.MTBF == 0 {
				return fmt.Errorf("point %d (%s): a trace gives the same run every time; use replications: 1, or workload.resample: user-weeks for a different trace per replication, or platform.failures for different failures per replication", i, sc.Key())
			}
			if sc.Stop.Completed > 0 || sc.Warmup.Jobs > 0 {
				return fmt.Errorf("point %d (%s): stop.completed and warmup.jobs are not supported with a trace (the whole trace runs; workload.jobs runs its first N jobs)", i, sc.Key())
			}
		}
		if sc.Replications < 1 || sc.Replications > scenario.MaxReplications {
			return fmt.Errorf("point %d (%s): %d replications, want 1..%d", i, sc.Key(), sc.Replications, scenario.MaxReplications)
		}
		runs += sc.Replications
		if runs > scenario.MaxRuns {
			return fmt.Errorf("the sweep has more than %d runs (points x replications)", scenario.MaxRuns)
		}
	}
	return nil
}

// ShardsDir is the folder of a sharded sweep's own files in dir.
func ShardsDir(dir string) string { return filepath.Join(dir, "shards") }

// UnitsDir is the folder of the unit files in dir.
func UnitsDir(dir string) string { return filepath.Join(dir, "shards", "units") }

func unitName(p scenario.Point, rep int) string {
	return fmt.Sprintf("%04d-%s-r%d", p.Index, p.Scenario.Key(), rep)
}

func unitPath(dir string, p scenario.Point, rep int) string {
	return filepath.Join(UnitsDir(dir), unitName(p, rep)+".json")
}

func recordsPath(dir string, p scenario.Point, rep int) string {
	return filepath.Join(dir, "records", unitName(p, rep)+".csv")
}

// UnitOfFile is the unit a file of the units or records folder (or a
// temporary file of one: atomicfile) belongs to, or false for a name
// that is not one of this sweep's unit files.
func UnitOfFile(points []scenario.Point, us Units, name string) (int, bool) {
	if t, ok := atomicfile.TempTarget(name); ok {
		name = t
	}
	stem := strings.TrimSuffix(strings.TrimSuffix(name, ".json"), ".csv")
	if stem == name {
		return 0, false
	}
	p, rep, ok := parseUnitStem(points, stem)
	if !ok {
		return 0, false
	}
	return us.Unit(p, rep), true
}

// parseUnitStem reads "NNNN-KEY-rR" for a point of points.
func parseUnitStem(points []scenario.Point, stem string) (p, rep int, ok bool) {
	a, rest, ok1 := strings.Cut(stem, "-")
	j := strings.LastIndex(rest, "-r")
	if !ok1 || j < 0 {
		return 0, 0, false
	}
	p, err1 := strconv.Atoi(a)
	rep, err2 := strconv.Atoi(rest[j+2:])
	if err1 != nil || err2 != nil || p < 0 || p >= len(points) || rep < 0 || rep >= points[p].Scenario.Replications {
		return 0, 0, false
	}
	if rest[:j] != points[p].Scenario.Key() || stem != unitName(points[p], rep) {
		return 0, 0, false
	}
	return p, rep, true
}

// unitFile is the content of a unit file: one replication's metrics.
type unitFile struct {
	Unit        int          `json:"unit"`
	Point       int          `json:"point"`
	Key         string       `json:"key"`
	Replication int          `json:"replication"`
	Metrics     []unitMetric `json:"metrics"`
}

type unitMetric struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"` // JSON numbers round-trip float64 exactly
}

func writeUnit(path string, u, rep int, p scenario.Point, m experiment.RepMetrics) error {
	f := unitFile{Unit: u, Point: p.Index, Key: p.Scenario.Key(), Replication: rep}
	for i, name := range m.Names {
		f.Metrics = append(f.Metrics, unitMetric{name, m.Values[i]})
	}
	return atomicfile.Write(path, func(w io.Writer) error { return metrics.WriteJSON(w, f) })
}

// loadUnit reads the unit file of replication rep of p: ok false when it
// is missing; a non-nil error when it is there but not that unit's.
func loadUnit(path string, u, rep int, p scenario.Point) (experiment.RepMetrics, bool, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return experiment.RepMetrics{}, false, nil
	}
	if err != nil {
		return experiment.RepMetrics{}, false, err
	}
	var f unitFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return experiment.RepMetrics{}, false, fmt.Errorf("%s: not a unit file: %v", path, err)
	}
	if f.Unit != u || f.Point != p.Index || f.Key != p.Scenario.Key() || f.Replication != rep || len(f.Metrics) == 0 {
		return experiment.RepMetrics{}, false, fmt.Errorf("%s: holds unit %d (point %d %s replication %d), not unit %d", path, f.Unit, f.Point, f.Key, f.Replication, u)
	}
	var m experiment.RepMetrics
	for _, x := range f.Metrics {
		m.Names = append(m.Names, x.Name)
		m.Values = append(m.Values, x.Value)
	}
	return m, true, nil
}

// pointDone reports whether dir holds p's finished point file (an
// earlier unsharded sweep or merge wrote it).
func pointDone(dir string, p scenario.Point) (PointResult, bool) {
	r, ok := loadPoint(pointPath(dir, p))
	return r, ok && r.Key == p.Scenario.Key() && r.Reps == p.Scenario.Replications
}

// ShardStats counts what a shard did.
type ShardStats struct {
	Units  int // the shard's units
	Ran    int // run now
	Reused int // already in the folder: a unit file, or the point's file
}

// RunShard runs the units of shard sh that dir does not hold yet, on up
// to workers goroutines, and writes each one's result atomically to
// dir/shards/units/ as soon as it ends (with records, its per-job
// records to dir/records/ first, as Sweep does). It never writes the
// point files or the summary: that is Merge's. Tasks are numbered
// lazily, as in Sweep: memory grows with the points, not the units.
func RunShard(points []scenario.Point, dir string, sh Shard, workers int, prog Progress, records bool) (ShardStats, error) {
	if err := sh.Check(); err != nil {
		return ShardStats{}, err
	}
	if err := CheckPoints(points); err != nil {
		return ShardStats{}, err
	}
	us := NewUnits(points)
	st := ShardStats{Units: sh.Size(us.Total())}
	// Points already summarised in dir/points count as done.
	done := make([]bool, len(points))
	for i, p := range points {
		u := us.first[i] + ((sh.Index-us.first[i])%sh.Count+sh.Count)%sh.Count // the shard's first unit >= first[i]
		if u < us.first[i+1] {
			_, done[i] = pointDone(dir, p)
		}
	}
	var ran, reused atomic.Int64
	err := Each(st.Units, workers, prog, func(k int) error {
		u := sh.Index + k*sh.Count
		i, rep := us.Locate(u)
		p := points[i]
		path := unitPath(dir, p, rep)
		if done[i] {
			reused.Add(1)
			return nil
		}
		if _, ok, err := loadUnit(path, u, rep, p); ok && err == nil {
			reused.Add(1)
			return nil
		}
		rec := ""
		if records {
			rec = recordsPath(dir, p, rep)
		}
		m, err := experiment.RunReplication(p.Scenario, rep, rec)
		if err != nil {
			return fmt.Errorf("unit %d: point %d (%s) replication %d: %w", u, i, p.Scenario.Key(), rep, err)
		}
		if err := writeUnit(path, u, rep, p, m); err != nil {
			return err
		}
		ran.Add(1)
		return nil
	})
	st.Ran, st.Reused = int(ran.Load()), int(reused.Load())
	return st, err
}

// MissingUnit is a unit a merge did not find.
type MissingUnit struct {
	Unit, Point, Replication int
	Problem                  string // why a file that is there does not count; "" when there is none
}

// MissingError lists the units of a sharded sweep that its folder does
// not hold. Nothing was written.
type MissingError struct {
	Dir     string
	Total   int // units of the sweep
	Shards  int // N of the folder's manifest
	Missing []MissingUnit
}

func (e *MissingError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %d unit(s) missing (point x replication; nothing written): ", e.Dir, len(e.Missing), e.Total)
	const show = 10
	for i, m := range e.Missing {
		if i == show {
			fmt.Fprintf(&b, " and %d more", len(e.Missing)-show)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "unit %d (point %d replication %d", m.Unit, m.Point, m.Replication)
		if e.Shards > 0 {
			fmt.Fprintf(&b, ", shard %d/%d", m.Unit%e.Shards, e.Shards)
		}
		if m.Problem != "" {
			b.WriteString(": " + m.Problem)
		}
		b.WriteString(")")
	}
	if e.Shards > 0 {
		shards := e.ShardsToRerun()
		var s []string
		for i, x := range shards {
			if i == 20 {
				s = append(s, fmt.Sprintf("and %d more", len(shards)-20))
				break
			}
			s = append(s, strconv.Itoa(x))
		}
		fmt.Fprintf(&b, "; run shard(s) %s of %d (again), then merge", strings.Join(s, ", "), e.Shards)
	}
	return b.String()
}

// ShardsToRerun lists the shards (of e.Shards) that the missing units belong
// to, in order.
func (e *MissingError) ShardsToRerun() []int {
	if e.Shards == 0 {
		return nil
	}
	seen := map[int]bool{}
	var out []int
	for _, m := range e.Missing {
		if s := m.Unit % e.Shards; !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Ints(out)
	return out
}

// ForeignError lists files in a sharded sweep's folder that belong to
// no unit or point of its scenario: the folder mixes scenarios.
type ForeignError struct {
	Dir   string
	Files []string // paths
}

func (e *ForeignError) Error() string {
	files := e.Files
	more := ""
	if len(files) > 5 {
		more = fmt.Sprintf(" and %d more", len(files)-5)
		files = files[:5]
	}
	return fmt.Sprintf("%s holds results of another scenario (their keys are not this scenario's points): %s%s; remove them or use another folder (nothing written)",
		e.Dir, strings.Join(files, ", "), more)
}

// foreign lists the files of dir/shards/units and dir/points that are
// no unit or point file of points (temporary files of unit files are
// allowed: shards may be running).
func foreign(points []scenario.Point, us Units, dir string) ([]string, error) {
	var out []string
	ents, err := os.ReadDir(UnitsDir(dir))
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	for _, e := range ents {
		if _, ok := UnitOfFile(points, us, e.Name()); !ok || strings.HasSuffix(e.Name(), ".csv") {
			out = append(out, filepath.Join(UnitsDir(dir), e.Name()))
		}
	}
	pdir := filepath.Join(dir, "points")
	ents, err = os.ReadDir(pdir)
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	for _, e := range ents {
		name := e.Name()
		if atomicfile.IsTemp(name) {
			continue // the merge's own folder: its caller removes stale ones
		}
		a, _, _ := strings.Cut(name, "-")
		i, err := strconv.Atoi(a)
		if err != nil || i < 0 || i >= len(points) || filepath.Base(pointPath(dir, points[i])) != name {
			out = append(out, filepath.Join(pdir, name))
		}
	}
	return out, nil
}

// Merge reads the results a sharded sweep left in dir: each point from
// its point file when dir has it (as Sweep reuses one), else from its
// unit files. When every unit is there, it writes the point files
// Sweep would have written, byte for byte, and returns every point's
// result (Reused for those read from their point file); the caller
// writes the summary from them as after Sweep. Otherwise it returns a
// *MissingError naming every missing unit (shards is the folder's N, for
// naming the shards to run again), or a *ForeignError for files of
// another scenario, and writes nothing.
func Merge(points []scenario.Point, dir string, shards int) ([]PointResult, error) {
	if err := CheckPoints(points); err != nil {
		return nil, err
	}
	us := NewUnits(points)
	if files, err := foreign(points, us, dir); err != nil {
		return nil, err
	} else if len(files) > 0 {
		return nil, &ForeignError{Dir: dir, Files: files}
	}
	results := make([]PointResult, len(points))
	merr := &MissingError{Dir: dir, Total: us.Total(), Shards: shards}
	for i, p := range points {
		if r, ok := pointDone(dir, p); ok {
			r.Reused = true
			results[i] = r
			continue
		}
		reps := make([]experiment.RepMetrics, p.Scenario.Replications)
		complete := true
		var names []string // of the first unit of the point found
		for rep := range reps {
			u := us.Unit(i, rep)
			path := unitPath(dir, p, rep)
			m, ok, err := loadUnit(path, u, rep, p)
			switch {
			case err != nil:
				merr.Missing = append(merr.Missing, MissingUnit{u, i, rep, err.Error()})
			case !ok:
				merr.Missing = append(merr.Missing, MissingUnit{Unit: u, Point: i, Replication: rep})
			case names == nil:
				names = m.Names
			case !sameNames(m.Names, names):
				return nil, fmt.Errorf("%s: metrics %v, but other replications of the point have %v: the units were made by different versions of schedlab; remove the point's unit files and run its shards again", path, m.Names, names)
			}
			complete = complete && ok && err == nil
			reps[rep] = m
		}
		if complete && len(merr.Missing) == 0 {
			results[i] = summarize(p, reps)
		}
	}
	if len(merr.Missing) > 0 {
		return nil, merr
	}
	for i, p := range points {
		if !results[i].Reused {
			if err := writeJSONAtomic(pointPath(dir, p), results[i]); err != nil {
				return nil, err
			}
			// The units' version is not known: no record (a sweep
			// into dir runs the point again).
			if err := recordVersion(dir, p, ""); err != nil {
				return nil, err
			}
		}
	}
	return results, nil
}

func sameNames(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
