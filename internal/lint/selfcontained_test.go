package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The project's text stands on its own: no file of the tree (docs,
// examples, messages, comments) points at documents that are not in it.
func TestNoOutsideReferences(t *testing.T) {
	banned := []string{"DESIGN.md", "shared/research", "/work/shared"}
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == ".git" || d.Name() == "testdata" && strings.Contains(path, "golden") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".yaml", ".yml", ".txtar", ".txt":
		default:
			return nil
		}
		if strings.HasSuffix(path, "selfcontained_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, s := range banned {
			if strings.Contains(string(b), s) {
				t.Errorf("%s mentions %s, which is not part of the project", path, s)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
