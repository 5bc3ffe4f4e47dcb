package sweep

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/scenario"
)

// Manifest is DIR/shards/manifest.json: what every shard of a sweep and
// its merge must agree on. The first shard writes it, with a copy of the
// scenario file beside it (DIR/shards/scenario.yaml); every later shard
// checks it and refuses a folder begun by another scenario, another
// number of shards or another --records. The merge reads the scenario
// from the copy.
type Manifest struct {
	Format int `json:"format"` // manifestFormat
	// Scenario is the base name of the scenario file the first shard
	// read (the copy is scenario.yaml, beside the manifest).
	Scenario string `json:"scenario"`
	// Fingerprint is the SHA-256 of every point's number, key, labels
	// and metric selection: everything the merged files depend on.
	// Scenario files that differ only in what changes no result (the
	// workers, comments, layout) have the same fingerprint.
	Fingerprint string `json:"fingerprint"`
	Points      int    `json:"points"`
	Units       int    `json:"units"`
	Unit        string `json:"unit"` // what a unit is: "point x replication"
	Shards      int    `json:"shards"`
	Records     bool   `json:"records"`
}

const manifestFormat = 1

// NewManifest describes a sharded sweep of points read from a scenario
// file named name.
func NewManifest(name string, points []scenario.Point, shards int, records bool) Manifest {
	return Manifest{Format: manifestFormat, Scenario: filepath.Base(name), Fingerprint: Fingerprint(points),
		Points: len(points), Units: NewUnits(points).Total(), Unit: "point x replication", Shards: shards, Records: records}
}

// Fingerprint is the SHA-256 (hex) of what the files of a sweep depend
// on besides its results: each point's number, key (which holds every
// setting that changes results), labels and metric selection.
func Fingerprint(points []scenario.Point) string {
	h := sha256.New()
	for _, p := range points {
		fmt.Fprintf(h, "%d\t%s\t%s\t%s\n", p.Index, p.Scenario.Key(), labelText(p.Labels), strings.Join(p.Scenario.Metrics, ","))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func labelText(ls []scenario.Label) string {
	var s []string
	for _, l := range ls {
		s = append(s, fmt.Sprintf("%q=%q", l.Key, l.Value))
	}
	return strings.Join(s, " ")
}

func manifestPath(dir string) string     { return filepath.Join(ShardsDir(dir), "manifest.json") }
func scenarioCopyPath(dir string) string { return filepath.Join(ShardsDir(dir), "scenario.yaml") }

// ErrNoShards is returned by OpenShards for a folder without a manifest.
var ErrNoShards = errors.New("no sharded sweep here")

// ReadManifest reads dir's manifest (fs.ErrNotExist when there is none).
func ReadManifest(dir string) (Manifest, error) {
	b, err := os.ReadFile(manifestPath(dir))
	if err != nil {
		return Manifest{}, err
	}
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Manifest{}, fmt.Errorf("%s: %v", manifestPath(dir), err)
	}
	if m.Format != manifestFormat {
		return Manifest{}, fmt.Errorf("%s: format %d, this schedlab reads format %d", manifestPath(dir), m.Format, manifestFormat)
	}
	return m, nil
}

// MismatchError is a shard or a merge refusing a folder begun by another
// sharded sweep.
type MismatchError struct {
	Dir    string
	What   string // e.g. "another scenario"
	Detail string
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("%s holds the shards of %s: %s (nothing written)", e.Dir, e.What, e.Detail)
}

// DiffPoints says how two scenarios' points differ in what the sweep's
// files depend on ("" when they do not): there names a and here b.
func DiffPoints(a, b []scenario.Point, there, here string) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%d point(s) in %s, %d in %s", len(a), there, len(b), here)
	}
	for i := range a {
		pa, pb := a[i], b[i]
		switch {
		case pa.Scenario.Key() != pb.Scenario.Key():
			return fmt.Sprintf("point %d is %s in %s, %s in %s (the points' keys differ)", i, pa.Scenario.Key(), there, pb.Scenario.Key(), here)
		case labelText(pa.Labels) != labelText(pb.Labels):
			return fmt.Sprintf("point %d is labelled %s in %s, %s in %s", i, labelText(pa.Labels), there, labelText(pb.Labels), here)
		case strings.Join(pa.Scenario.Metrics, ",") != strings.Join(pb.Scenario.Metrics, ","):
			return fmt.Sprintf("point %d reports metrics [%s] in %s, [%s] in %s", i, strings.Join(pa.Scenario.Metrics, ", "), there, strings.Join(pb.Scenario.Metrics, ", "), here)
		}
	}
	return ""
}

// BeginShards makes dir the folder of a sharded sweep described by m,
// whose scenario file holds data and expands to points, or checks that
// it already is: a folder begun by another scenario (a different
// fingerprint), another number of shards or another records setting is
// refused with a *MismatchError. Shards starting together may all write
// the manifest: they write the same bytes, atomically.
func BeginShards(dir string, m Manifest, data []byte, points []scenario.Point) error {
	old, err := ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		// The copy first: a manifest is never there without its scenario.
		if err := atomicfile.Write(scenarioCopyPath(dir), func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return err
		}
		return atomicfile.Write(manifestPath(dir), func(w io.Writer) error { return metrics.WriteJSON(w, m) })
	}
	if err != nil {
		return err
	}
	return CheckManifest(dir, old, m, points)
}

// CheckManifest compares the manifest old found in dir with the m of a
// shard about to run points.
func CheckManifest(dir string, old, m Manifest, points []scenario.Point) error {
	if old.Fingerprint != m.Fingerprint {
		detail := fmt.Sprintf("its fingerprint differs from %s's", m.Scenario)
		if _, theirs, err := OpenShards(dir); err == nil {
			if d := DiffPoints(theirs, points, filepath.Join(ShardsDir(dir), "scenario.yaml")+" (a copy of "+old.Scenario+")", m.Scenario); d != "" {
				detail = d
			}
		}
		return &MismatchError{Dir: dir, What: "another scenario", Detail: detail + "; use another folder"}
	}
	if old.Shards != m.Shards {
		return &MismatchError{Dir: dir, What: fmt.Sprintf("a sweep split into %d shards", old.Shards),
			Detail: fmt.Sprintf("this shard is one of %d, which splits the units differently; use N=%d (or, to change N, remove %s: finished units are kept, they do not depend on N)",
				m.Shards, old.Shards, manifestPath(dir))}
	}
	if old.Records != m.Records {
		with := map[bool]string{true: "with --records", false: "without --records"}
		return &MismatchError{Dir: dir, What: "a sweep run " + with[old.Records],
			Detail: fmt.Sprintf("this shard runs %s; run every shard the same way", with[m.Records])}
	}
	return nil
}

// OpenShards reads dir's manifest and the points of its copy of the
// scenario file, and checks that they agree.
func OpenShards(dir string) (Manifest, []scenario.Point, error) {
	m, err := ReadManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, nil, fmt.Errorf("%s: %w (no %s: run 'schedlab sweep SCENARIO --shard I/N --out %s' first)", dir, ErrNoShards, manifestPath(dir), dir)
	}
	if err != nil {
		return Manifest{}, nil, err
	}
	data, err := os.ReadFile(scenarioCopyPath(dir))
	if err != nil {
		return Manifest{}, nil, err
	}
	points, err := scenario.Parse(scenarioCopyPath(dir), data)
	if err != nil {
		return Manifest{}, nil, err
	}
	if Fingerprint(points) != m.Fingerprint || len(points) != m.Points {
		return Manifest{}, nil, fmt.Errorf("%s does not match %s (was one of them edited?)", scenarioCopyPath(dir), manifestPath(dir))
	}
	return m, points, nil
}
