package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// run reports every problem of its settings at once (RunSpec.Check), each
// on its line and naming its flag, with status 2 and nothing written;
// explain too.
func TestRunEveryProblemAtOnce(t *testing.T) {
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.swf")
	if err := os.WriteFile(tr, []byte("; MaxProcs: 8\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--trace", tr, "--policy", "easy", "--out", out, "--procs=-1", "--metric", "nope", "--order", "random", "--seed", "7"},
			[]string{"schedlab: --seed draws deadlines", "\n--procs -1: want 1..4194304", "\n--order: policy easy: option order: \"random\" is not one of", "\n--metric: unknown metric \"nope\""}},
		{[]string{"run", "--trace", tr, "--policy", "matrix", "--out", out, "--threads", "--estimate", "predict", "--predictor", "last0", "--replication=-1"},
			[]string{"\n--replication must be 0..", "\n--predictor: ", "--replication chooses the random streams"}},
		{[]string{"explain", "--trace", tr, "--policy", "easy", "--job", "1", "--procs=-1", "--order", "nope"},
			[]string{"schedlab: --procs -1: want 1..4194304", "\n--order: policy easy: option order: \"nope\" is not one of"}},
	} {
		var o, e bytes.Buffer
		st := Main(c.args, &o, &e)
		if st != 2 {
			t.Errorf("%v: status %d, want 2\n%s", c.args, st, e.String())
		}
		for _, w := range c.want {
			if !strings.Contains(e.String(), w) {
				t.Errorf("%v: no %q in\n%s", c.args, w, e.String())
			}
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: output folder: %v", c.args, err)
		}
	}
}
