package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The packages whose tests are built only with the tag invariants are
// exactly the ones the test script (./test, which CI runs) tests again
// with -tags invariants: a new such test is never left out of the one
// test command, and the list names nothing that has none.
func TestInvariantsPackagesTested(t *testing.T) {
	root := filepath.Join("..", "..")
	var have []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "schedlab-out") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if first, _, _ := strings.Cut(string(b), "\n"); strings.TrimSpace(first) == "//go:build invariants" {
			dir, _ := filepath.Rel(root, filepath.Dir(p))
			if pkg := "./" + filepath.ToSlash(dir) + "/"; !slices.Contains(have, pkg) {
				have = append(have, pkg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join(root, "test"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^invariants_pkgs="([^"]*)"$`).FindSubmatch(script)
	if m == nil {
		t.Fatal(`./test has no line invariants_pkgs="..."`)
	}
	listed := strings.Fields(string(m[1]))
	slices.Sort(have)
	slices.Sort(listed)
	if !slices.Equal(have, listed) {
		t.Errorf("./test runs -tags invariants on %v; the packages with tests built only with that tag are %v", listed, have)
	}
	if len(have) == 0 {
		t.Error("no test is built with the tag invariants: the walk found nothing")
	}
}

// The build tag invariants has one switch, internal/invariants.Enabled:
// a non-test file built only with the tag (or only without it) outside
// that package is a type that must differ between the two builds, and it
// asserts the shared switch's value (invariants.Enabled), so that the
// tag and the switch cannot drift apart.
func TestInvariantsSwitch(t *testing.T) {
	root := filepath.Join("..", "..")
	n := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "schedlab-out") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		first, _, _ := strings.Cut(string(b), "\n")
		if c := strings.TrimSpace(first); c != "//go:build invariants" && c != "//go:build !invariants" {
			return nil
		}
		dir, _ := filepath.Rel(root, filepath.Dir(p))
		if filepath.ToSlash(dir) == "internal/invariants" {
			return nil
		}
		n++
		if !strings.Contains(string(b), "invariants.Enabled") {
			rel, _ := filepath.Rel(root, p)
			t.Errorf("%s is built by the tag invariants but does not read the shared switch invariants.Enabled (internal/invariants)", filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Error("no file outside internal/invariants is built by the tag invariants: the walk found nothing")
	}
}
