package cli

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// docs/scheduling.md shows what 'schedlab explain' prints for the
// teaching example, byte for byte.
func TestExplainDocs(t *testing.T) {
	t.Chdir("../../..")
	doc, err := os.ReadFile("docs/scheduling.md")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if st := Main([]string{"explain", "--trace", "examples/teaching/five-jobs.swf", "--policy", "easy", "--job", "5", "--gantt"}, &out, &errb); st != 0 {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
	if !strings.Contains(string(doc), out.String()) {
		t.Errorf("docs/scheduling.md does not show the output of explain:\n%s", out.String())
	}
}

// --job takes a job number, digits only: Go's integer syntax would read
// 1005_1 as 10051, a Slurm array task; it is refused with what to give.
func TestExplainJobID(t *testing.T) {
	for _, c := range []struct {
		in   string
		id   int64
		want string
	}{
		{"5", 5, ""},
		{" 1005 ", 1005, ""},
		{"1005_1", 0, "--job 1005_1: a Slurm id of an array task; a trace numbers its jobs by JobIDRaw (SWF field 1), and this trace's header names no job by it (trace import lists them: ; JobID 1006: 1005_1): give that number (sacct -j 1005_1 -o JobIDRaw)"},
		{"1005+0", 0, "a heterogeneous job's component"},
		{"1_000", 0, "array task"},
		{"0x10", 0, `--job "0x10": want a job number`},
		{"-3", 0, "want a job number"},
		{"0", 0, "job numbers start at 1"},
		{"12345678901234567", 0, "want a job number"},
	} {
		id, err := explainID(c.in)
		if c.want == "" {
			if err != nil || id != c.id {
				t.Errorf("%q: %d, %v; want %d", c.in, id, err, c.id)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %d, %v; want an error with %q", c.in, id, err, c.want)
		}
	}
	var out, errb bytes.Buffer
	if st := Main([]string{"explain", "--trace", "../../../examples/teaching/five-jobs.swf", "--policy", "easy", "--job", "5_1"}, &out, &errb); st != 2 || !strings.Contains(errb.String(), "array task") || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", st, out.String(), errb.String())
	}
}

// explain under --policy slurm says the passes in Slurm's terms. Two
// nodes of 4 cores, bf_interval and bf_resolution 1. Worked by hand:
// job 1 (8 CPUs, both nodes) runs over [0, 100). Job 2 (4 CPUs,
// submitted at 1) does not fit: the main scheduler stops at it
// (Resources) and the backfill pass reserves a whole node from 100.
// Job 3 (1 CPU, at 2): the main scheduler does not reach it (Priority,
// behind job 2); the backfill pass finds no free core before 100 and
// reserves the other node from 100 (job 2's holds the first whole). At
// 100 the main scheduler starts jobs 2 and 3. Job 4 (user 1 again,
// QOS 1 of MaxJobsPU 1, at 3): the main scheduler, stopped at job 2,
// does not reach it (Priority); the backfill pass finds the limit
// holding it while job 1 runs (QOSMaxJobsPerUserLimit); started at 100
// by the main scheduler once job 1 has ended.
func TestExplainSlurm(t *testing.T) {
	dir := t.TempDir()
	tr := writeFile(t, dir, "t.swf", "; MaxProcs: 8\n"+
		"1 0 -1 100 8 -1 -1 8 100 -1 1 1 1 -1 1 -1 -1 -1\n"+
		"2 1 -1 50 4 -1 -1 4 200 -1 1 2 1 -1 2 -1 -1 -1\n"+
		"3 2 -1 50 1 -1 -1 1 50 -1 1 3 1 -1 2 -1 -1 -1\n"+
		"4 3 -1 10 1 -1 -1 1 50 -1 1 1 1 -1 1 -1 -1 -1\n")
	base := []string{"explain", "--trace", tr, "--policy", "slurm", "--nodes", "n[1-2]:cores=4", "--set", "bf_interval=1", "--set", "bf_resolution=1", "--set", "qos_limits=1:maxjobspu=1"}
	for _, c := range []struct {
		job  string
		want []string
	}{
		{"2", []string{"submitted at 1, started at 100 (reserved)",
			"  at 1: position 1 of 1 in the priority order; planned start (backfill reservation): 100\n    Slurm's reason: Resources (main scheduler: it does not fit the nodes now, and the scheduler stops at it); then Resources (backfill: it does not fit now; whole nodes reserved for it from its earliest start)",
			"  at 100:", "Started by the main scheduler on 1 node(s)"}},
		{"3", []string{"submitted at 2, started at 100",
			"  at 2: position 2 of 2 in the priority order; planned start (backfill reservation): 100\n    Slurm's reason: Priority (main scheduler: not tested, behind job 2 of higher priority, which cannot start); then Resources (backfill:"}},
		{"4", []string{"submitted at 3, started at 100",
			"  at 3: position 3 of 3 in the priority order\n    Slurm's reason: Priority (main scheduler: not tested, behind job 2 of higher priority, which cannot start); then QOSMaxJobsPerUserLimit (backfill: a QOS limit holds it (no start, no reservation))"}},
	} {
		var out, errb bytes.Buffer
		if st := Main(append(base, "--job", c.job), &out, &errb); st != 0 {
			t.Fatalf("job %s: exit %d: %s", c.job, st, errb.String())
		}
		for _, w := range c.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("job %s: output lacks %q:\n%s", c.job, w, out.String())
			}
		}
	}
	// Jobs 1 and 4 alone: the main scheduler reaches job 4, held by the
	// QOS limit while job 1 runs, and goes on.
	base[2] = writeFile(t, dir, "q.swf", "; MaxProcs: 8\n1 0 -1 100 8 -1 -1 8 100 -1 1 1 1 -1 1 -1 -1 -1\n4 3 -1 10 1 -1 -1 1 50 -1 1 1 1 -1 1 -1 -1 -1\n")
	var out, errb bytes.Buffer
	if st := Main(append(base, "--job", "4"), &out, &errb); st != 0 {
		t.Fatalf("exit %d: %s", st, errb.String())
	}
	if w := "  at 3: position 1 of 1 in the priority order\n    Slurm's reason: QOSMaxJobsPerUserLimit (main scheduler: a QOS limit holds it; the scheduler goes on to the next job); then QOSMaxJobsPerUserLimit (backfill:"; !strings.Contains(out.String(), w) {
		t.Errorf("output lacks %q:\n%s", w, out.String())
	}
}
