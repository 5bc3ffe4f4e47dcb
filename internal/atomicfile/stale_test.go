package atomicfile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// RemoveTemps removes exactly the files our temporary naming makes, and
// a temporary file made by Write's pattern is one of them.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	f, err := os.CreateTemp(dir, TempPattern("jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	ours := []string{filepath.Base(f.Name()), ".summary.json.tmp-123"}
	others := []string{"jobs.csv", ".jobs.csv.tmp-", ".jobs.csv.tmp-12a", "x.tmp-12", ".hidden", "notes.tmp-1"}
	for _, n := range append(append([]string(nil), ours...), others...) {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, ".d.tmp-1"), 0o755); err != nil { // a folder is not ours to remove
		t.Fatal(err)
	}
	removed, err := RemoveTemps(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != len(ours) {
		t.Errorf("removed %v, want %v", removed, ours)
	}
	ents, _ := os.ReadDir(dir)
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	for _, n := range others {
		if !slices.Contains(left, n) {
			t.Errorf("%s was removed", n)
		}
	}
	for _, n := range ours {
		if slices.Contains(left, n) {
			t.Errorf("%s was left", n)
		}
	}
	if r, err := RemoveTemps(filepath.Join(dir, "missing")); err != nil || r != nil {
		t.Errorf("missing folder: %v %v", r, err)
	}
}
