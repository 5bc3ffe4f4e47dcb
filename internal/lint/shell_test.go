package lint

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The repository's shell scripts parse (bash -n) and are executable, so
// that the commands the docs give run from a fresh clone.
func TestShellScripts(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash not found:", err)
	}
	root := filepath.Join("..", "..")
	scripts := []string{filepath.Join(root, ".ci", "run")}
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "schedlab-out") {
			return filepath.SkipDir
		}
		if !d.IsDir() && filepath.Ext(p) == ".sh" {
			scripts = append(scripts, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scripts {
		fi, err := os.Stat(s)
		if err != nil {
			t.Errorf("%s: %v", s, err)
			continue
		}
		if fi.Mode()&0o111 == 0 {
			t.Errorf("%s is not executable", s)
		}
		if out, err := exec.Command(bash, "-n", s).CombinedOutput(); err != nil {
			t.Errorf("bash -n %s: %v\n%s", s, err, out)
		}
	}
}
