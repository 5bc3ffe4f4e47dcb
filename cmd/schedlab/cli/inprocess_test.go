package cli

import (
	"bytes"
	"os"
	"testing"
)

// Main's `run` parses with the run command alone (runLine) where the other commands parse with every command (cliSpec):
// for wrong command lines, --help and --version, the same status, output
// and messages as the full command line.
func TestRunSpecSameMessages(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.WriteFile("tiny.swf", []byte("1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"run"},
		{"run", "--help"},
		{"run", "-h"},
		{"run", "--version"},
		{"run", "--bogus"},
		{"run", "--tace", "tiny.swf"},
		{"run", "--trace", "tiny.swf", "--policy"},
		{"run", "--trace", "tiny.swf", "--policy", "nosuch", "--no-out"},
		{"run", "--trace", "tiny.swf", "--policy", "fcfs", "--no-out", "--estimate", "nope"},
		{"run", "--trace", "tiny.swf", "--policy", "backfill", "--depth", "0", "--no-out"},
		{"run", "--trace", "tiny.swf", "--policy", "easy", "--no-out", "extra"},
		{"run", "--trace", "missing.swf", "--no-out"},
		{"run", "--trace", "tiny.swf", "--policy", "conservative", "--no-out"},
		{"run", "--trace=tiny.swf", "--policy=jrb", "--no-out"},
	} {
		var o1, e1, o2, e2 bytes.Buffer
		s1 := mainWith(args, &o1, &e1, &globals{stdout: &o1, stderr: &e1}, true, &cliSpec{})
		s2 := Main(args, &o2, &e2)
		if s1 != s2 || o1.String() != o2.String() || e1.String() != e2.String() || e2.Len()+o2.Len() == 0 {
			t.Errorf("%v: status %d, with runLine %d\nstdout %q\nwith runLine %q\nstderr %q\nwith runLine %q",
				args, s1, s2, o1.String(), o2.String(), e1.String(), e2.String())
		}
	}
}
