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

// In a folder other processes write into, RemoveTempsOf removes only the
// temporary files whose target the caller owns.
func TestRemoveTempsOf(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{".a.json.tmp-1", ".b.json.tmp-2", "a.json", ".c.tmp-x"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, ok := TempTarget(".a.json.tmp-1"); !ok || got != "a.json" {
		t.Errorf("TempTarget: %q, %v", got, ok)
	}
	if _, ok := TempTarget("a.json"); ok {
		t.Errorf("TempTarget of a finished file")
	}
	removed, err := RemoveTempsOf(dir, func(target string) bool { return target == "a.json" })
	if err != nil || len(removed) != 1 || filepath.Base(removed[0]) != ".a.json.tmp-1" {
		t.Fatalf("removed %v, %v; want only .a.json.tmp-1", removed, err)
	}
	ents, _ := os.ReadDir(dir)
	var left []string
	for _, e := range ents {
		left = append(left, e.Name())
	}
	if !slices.Equal(left, []string{".b.json.tmp-2", ".c.tmp-x", "a.json"}) {
		t.Errorf("left %v", left)
	}
}
