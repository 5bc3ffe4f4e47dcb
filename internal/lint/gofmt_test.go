package lint

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"testing"
)

// Every Go file of the repository is as gofmt writes it (go vet does not
// check that, and a file that is not slips through review).
func TestGofmt(t *testing.T) {
	root := filepath.Join("..", "..")
	n := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "schedlab-out" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || filepath.Ext(p) != ".go" {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n++
		got, err := format.Source(src)
		if err != nil {
			t.Errorf("%s: %v", p, err)
		} else if !bytes.Equal(got, src) {
			t.Errorf("%s is not gofmt-formatted (run gofmt -w %s)", p, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 100 {
		t.Fatalf("only %d Go files found below %s", n, root)
	}
}
