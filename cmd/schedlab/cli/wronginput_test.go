package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A policy name or a flag's value in another case runs exactly what the
// registered spelling runs: the same jobs.csv and summary.json, byte
// for byte (both name the policy and the estimate as registered).
func TestCaseInsensitiveNamesSameOutput(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "good.swf", goodSWF)
	run := func(name string, flags ...string) (jobs, sum []byte) {
		t.Helper()
		out := filepath.Join(dir, name)
		args := append([]string{"run", "--trace", trace, "--out", out}, flags...)
		if code, stderr := runMain(args...); code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, stderr)
		}
		var err error
		if jobs, err = os.ReadFile(filepath.Join(out, "jobs.csv")); err != nil {
			t.Fatal(err)
		}
		if sum, err = os.ReadFile(filepath.Join(out, "summary.json")); err != nil {
			t.Fatal(err)
		}
		return jobs, sum
	}
	wantJobs, wantSum := run("lower", "--policy", "easy", "--order", "sjf", "--estimate", "request", "--on-overrun", "continue")
	if !bytes.Contains(wantSum, []byte(`"policy": "easy"`)) {
		t.Fatalf("summary.json does not name easy:\n%s", wantSum)
	}
	for i, flags := range [][]string{
		{"--policy", "EASY", "--order", "SJF", "--estimate", "Request", "--on-overrun", "CONTINUE"},
		{"--policy=Easy", "--order=Sjf", "--estimate=REQUEST", "--on-overrun=Continue"},
	} {
		jobs, sum := run("upper"+string(rune('0'+i)), flags...)
		if !bytes.Equal(jobs, wantJobs) || !bytes.Equal(sum, wantSum) {
			t.Errorf("%q: the outputs differ from the lower-case run's:\n%s\nwant\n%s", flags, sum, wantSum)
		}
	}
}

// A misspelt policy, option value or flag value says what it is
// closest to; a value of an option given as a policy says which flag
// takes it.
func TestDidYouMean(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "good.swf", goodSWF)
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--policy", "eazy"}, `unknown policy "eazy" (known: `},
		{[]string{"--policy", "eazy"}, `did you mean easy?`},
		{[]string{"--policy", "conservativ"}, `did you mean conservative?`},
		{[]string{"--policy", "sjf"}, `sjf is a value of option order (of `},
		{[]string{"--policy", "sjf"}, `e.g. --policy easy --order sjf`},
		{[]string{"--policy", "easy", "--order", "sfj"}, `option order: "sfj" is not one of fcfs, sjf, multifactor; did you mean sjf?`},
		{[]string{"--policy", "easy", "--estimate", "reqest"}, `--estimate: "reqest" is not one of request, exact, tsafrir, predict; did you mean request?`},
		{[]string{"--policy", "easy", "--on-overrun=kil"}, `--on-overrun: "kil" is not one of kill, continue; did you mean kill?`},
		{[]string{"--policy", "easy", "--metrics-by", "usr"}, `--metrics-by: "usr" is not one of user, group, qos, nodegroup (or none: leave the flag out); did you mean user?`},
	} {
		args := append([]string{"run", "--trace", trace, "--no-out"}, c.flags...)
		code, stderr := runMain(args...)
		if code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want exit 2 and %q", c.flags, code, stderr, c.want)
		}
	}
}

// A file that is not an SWF trace, given as --trace, says what it looks
// like and what to run instead (the SWF reader looks only at the first
// job line that fails to parse: the normal path reads nothing twice).
func TestTraceTypeDetection(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.swf", goodSWF)
	run := filepath.Join(dir, "run")
	if code, stderr := runMain("run", "--trace", good, "--policy", "fcfs", "--out", run); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, c := range []struct {
		name, path, want string
	}{
		{"jobs.csv", filepath.Join(run, "jobs.csv"), "looks like a jobs.csv a run wrote"},
		{"summary.json", filepath.Join(run, "summary.json"), "a summary.json is a run's output, not a trace"},
		{"sacct", writeFile(t, dir, "sacct.txt", "JobIDRaw|Submit|Start|End|NCPUS|State\n1|2024-01-01T00:00:00|2024-01-01T00:00:05|2024-01-01T00:01:00|4|COMPLETED\n"),
			"looks like a sacct --parsable2 export, not an SWF trace: convert it with schedlab trace import --from sacct"},
		{"batsim", writeFile(t, dir, "w.json", `{"nb_res": 4, "jobs": [], "profiles": {}}`+"\n"),
			"looks like JSON, not an SWF trace: a Batsim workload or sacct --json output converts with schedlab trace import --from batsim|sacct"},
	} {
		code, stderr := runMain("run", "--trace", c.path, "--policy", "fcfs", "--no-out")
		if code == 0 || !strings.Contains(stderr, c.want) || !strings.Contains(stderr, ":1: wrong number of fields") {
			t.Errorf("%s: exit %d, stderr %q; want %q", c.name, code, stderr, c.want)
		}
	}
}
