package lint

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// The default output folder of run, sweep and reproduce is never
// committed by accident, wherever the commands were run in the tree.
func TestGitignoreOutputs(t *testing.T) {
	b, err := os.ReadFile("../../.gitignore")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(strings.Split(string(b), "\n"), "schedlab-out/") {
		t.Errorf(".gitignore has no line schedlab-out/ (unanchored, so any schedlab-out folder is ignored)")
	}
}
