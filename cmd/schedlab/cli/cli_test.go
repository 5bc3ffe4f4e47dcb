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
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/sweep"
)

func TestMain(m *testing.M) {
	// A sweep inside a Slurm array task or a Kubernetes Indexed Job is
	// a shard: tests run in one must not be (the scripts set their own
	// environment for the commands they run).
	if filepath.Base(os.Args[0]) != "schedlab" {
		for _, v := range []string{envSlurmID, envSlurmCount, envK8sIndex} {
			os.Unsetenv(v)
		}
	}
	testscript.Main(m, map[string]func(){
		"schedlab":   func() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) },
		"fakepolicy": func() { os.Exit(fakePolicy(os.Args[1:])) },
	})
}

// The scripts in testdata/script drive the real command line: what a user
// types, what they see, which files appear, and the exit status.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{Dir: "testdata/script", Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
		"longline": longLine,
		"waittemp": waitTemp,
		"temps":    temps,
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
		// report: several folders without --out, or too many: 2; folders
		// that are not runs: 1.
		{[]string{"report", dir, dir}, 2},
		{[]string{"report", dir, dir, dir, dir, dir, dir, dir, dir, dir, "--out", filepath.Join(dir, "c.html")}, 2},
		{[]string{"report", dir, dir, "--out", filepath.Join(dir, "c.html")}, 1},
		{[]string{"report", dir, dir, "--out", filepath.Join(dir, "jobs.csv")}, 2},
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
// line (2); a panicking task arrives as an *sweep.PanicError.
func TestExitStatusOfPanic(t *testing.T) {
	err := sweep.Each(3, 2, nil, func(i int) error {
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

// waitTemp waits until DIR holds one of our temporary files (a command
// started in the background has begun writing), for at most a minute.
//
//	waittemp DIR
func waitTemp(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waittemp DIR")
	}
	for range 600 {
		ents, _ := os.ReadDir(ts.MkAbs(args[0]))
		for _, e := range ents {
			if atomicfile.IsTemp(e.Name()) {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	ts.Fatalf("no temporary file appeared in %s", args[0])
}

// temps succeeds if DIR holds one of our temporary files.
//
//	[!] temps DIR
func temps(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: [!] temps DIR")
	}
	ents, err := os.ReadDir(ts.MkAbs(args[0]))
	ts.Check(err)
	var found []string
	for _, e := range ents {
		if atomicfile.IsTemp(e.Name()) {
			found = append(found, e.Name())
		}
	}
	if neg && len(found) > 0 {
		ts.Fatalf("temporary files left in %s: %v", args[0], found)
	}
	if !neg && len(found) == 0 {
		ts.Fatalf("no temporary file in %s", args[0])
	}
}

// SIGTERM, which testscript cannot send: the temporary files of the
// folders in use are removed and the status is 143 (SIGINT: 130).
func TestInterrupted(t *testing.T) {
	for _, c := range []struct {
		sig  os.Signal
		want int
		name string
	}{{syscall.SIGTERM, 143, "SIGTERM"}, {os.Interrupt, 130, "SIGINT"}} {
		dir := t.TempDir()
		var errb bytes.Buffer
		g := &globals{stdout: io.Discard, stderr: &errb}
		if err := g.useOutDir(dir); err != nil {
			t.Fatal(err)
		}
		tmp := filepath.Join(dir, ".jobs.csv.tmp-42")
		done := filepath.Join(dir, "summary.json")
		for _, f := range []string{tmp, done} {
			if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got := g.interrupted(c.sig)
		atomicfile.Resume()
		if got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
		if _, err := os.Stat(tmp); !os.IsNotExist(err) {
			t.Errorf("%s: temporary file left", c.name)
		}
		if _, err := os.Stat(done); err != nil {
			t.Errorf("%s: a finished file was removed", c.name)
		}
		want := fmt.Sprintf("interrupted (%s): stopped, 1 temporary file(s) removed; finished files are kept (exit status %d)", c.name, c.want)
		if !strings.Contains(errb.String(), want) {
			t.Errorf("%s: stderr %q, want %q", c.name, errb.String(), want)
		}
	}
}
