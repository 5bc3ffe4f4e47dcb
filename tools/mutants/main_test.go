package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every mutation still applies to the tree: its text occurs exactly once
// in its file (a refactor that moves the code updates mutations.go), and
// it changes something.
func TestMutationsApply(t *testing.T) {
	names := map[string]bool{}
	for _, m := range mutations {
		if names[m.Name] {
			t.Errorf("two mutations named %s", m.Name)
		}
		names[m.Name] = true
		b, err := os.ReadFile(filepath.Join("../..", m.File))
		if err != nil {
			t.Errorf("%s: %v", m.Name, err)
			continue
		}
		if n := bytes.Count(b, []byte(m.Old)); n != 1 {
			t.Errorf("%s: %q occurs %d times in %s, want once: update mutations.go", m.Name, m.Old, n, m.File)
		}
		if m.Old == m.New || m.What == "" {
			t.Errorf("%s: no change or no description", m.Name)
		}
	}
	if len(mutations) < 10 {
		t.Errorf("%d mutations, want at least 10", len(mutations))
	}
}

// apply plants the mutation for the test only, restores the file, and
// refuses a text that is not there exactly once.
func TestApply(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.go")
	os.WriteFile(path, []byte("x := 1 < 2\n"), 0o644)
	m := mutation{Name: "m", File: "a.go", Old: "1 < 2", New: "1 <= 2"}
	var seen string
	if _, err := apply(dir, m, func() result {
		b, _ := os.ReadFile(path)
		seen = string(b)
		return result{}
	}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); seen != "x := 1 <= 2\n" || string(b) != "x := 1 < 2\n" {
		t.Errorf("during the test %q, after %q", seen, b)
	}
	m.Old = "3"
	if _, err := apply(dir, m, func() result { return result{} }); err == nil || !strings.Contains(err.Error(), "occurs 0 times") {
		t.Errorf("missing text: err %v", err)
	}
}

// parse keeps the top-level failing tests per package, and a package that
// failed without a failing test (a build failure or a timeout).
func TestParse(t *testing.T) {
	r := parse(strings.NewReader(`{"Action":"fail","Package":"github.com/schedlab/schedlab/a","Test":"TestX/sub"}
{"Action":"fail","Package":"github.com/schedlab/schedlab/a","Test":"TestX"}
{"Action":"fail","Package":"github.com/schedlab/schedlab/a","Test":"TestB"}
{"Action":"pass","Package":"github.com/schedlab/schedlab/a","Test":"TestC"}
{"Action":"fail","Package":"github.com/schedlab/schedlab/a"}
{"Action":"fail","Package":"github.com/schedlab/schedlab/b"}
{"Action":"pass","Package":"github.com/schedlab/schedlab/c"}
`))
	got := strings.Join(r.caught(), "; ")
	if want := "b: (package failed: build, timeout or panic); a: TestB, TestX"; got != want || r.ok() {
		t.Errorf("caught %q (ok %v), want %q", got, r.ok(), want)
	}
	if r := parse(strings.NewReader(`{"Action":"pass","Package":"x"}`)); !r.ok() {
		t.Errorf("all passing: %+v", r)
	}
}
