package cli

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/schedlab/schedlab/experiment"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"schedlab": func() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// The scripts in testdata/script drive the real command line: what a user
// types, what they see, which files appear, and the exit status.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"longline": longLine,
	}})
}

// Exit statuses: a wrong command line is 2, whatever part of it is wrong
// (kong's parsing, or a name the registry does not know); a failed run 1.
func TestExitStatus(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.swf")
	if err := os.WriteFile(bad, []byte("1 0 0 1O 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want int
	}{
		{[]string{"run", "--trace", bad, "--policy", "nope", "--procs", "8"}, 2},
		{[]string{"run", "--trace", bad, "--policy", "easy", "--depth", "2", "--procs", "8"}, 2},
		{[]string{"run", "--trace", bad, "--policy", "fcfs", "--order", "sjf", "--procs", "8"}, 2},
		{[]string{"run", "--trace", bad, "--policy", "easy", "--order", "lifo", "--procs", "8"}, 2},
		{[]string{"run", "--trace", bad, "--policy", "easy", "--procs", "8", "--no-out"}, 1},
	} {
		var out, errb bytes.Buffer
		if got := Main(c.args, &out, &errb); got != c.want {
			t.Errorf("%v: exit %d, want %d (stderr %q)", c.args, got, c.want, errb.String())
		}
	}
}

// longLine writes FILE.swf.gz: a header, one job, then one line of N
// bytes (a few kilobytes of gzip for a line of any length).
//
//	longline FILE N
func longLine(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: longline FILE N")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	f, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	zw := gzip.NewWriter(f)
	_, err = io.WriteString(zw, "; MaxProcs: 8\n1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n")
	ts.Check(err)
	chunk := bytes.Repeat([]byte("7"), 1<<16)
	for left := n; left > 0; left -= len(chunk) {
		_, err = zw.Write(chunk[:min(left, len(chunk))])
		ts.Check(err)
	}
	ts.Check(zw.Close())
	ts.Check(f.Close())
}

// A bug is exit status 3, apart from bad input (1) and a wrong command
// line (2); a panicking task arrives as an *experiment.PanicError.
func TestExitStatusOfPanic(t *testing.T) {
	err := experiment.Each(3, 2, nil, func(i int) error {
		if i == 1 {
			var m map[string]int
			m["x"] = 1 // a bug: assignment to a nil map
		}
		return nil
	})
	if got := exitStatus(fmt.Errorf("sweep: %w", err)); got != 3 {
		t.Errorf("panic: exit %d, want 3 (%v)", got, err)
	}
	if got := exitStatus(usageError{errors.New("bad flag")}); got != 2 {
		t.Errorf("usage: exit %d, want 2", got)
	}
	if got := exitStatus(errors.New("bad file")); got != 1 {
		t.Errorf("input: exit %d, want 1", got)
	}
}
