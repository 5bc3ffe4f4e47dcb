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
