package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/workload/swf"
)

// A Batsim workload imported, exported and imported again through the
// commands: the two SWF traces have the same job lines, and the
// export of the second is the first export, byte for byte.
func TestBatsimRoundTripCommands(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "..", "workload", "batsim", "testdata", "workload.json")
	a, b := filepath.Join(dir, "a.swf"), filepath.Join(dir, "b.swf.gz")
	wa, wb := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	out, _ := run(t, 0, "trace", "import", src, "--from", "batsim", "--out", a)
	if !strings.Contains(out, "imported 4 jobs for 16 resources") {
		t.Errorf("import said %q", out)
	}
	run(t, 0, "trace", "export", a, "--to", "batsim", "--out", wa)
	run(t, 0, "trace", "import", wa, "--from", "batsim", "--out", b)
	out, _ = run(t, 0, "trace", "export", b, "--to", "batsim", "--out", wb)
	if !strings.Contains(out, "exported 4 jobs (3 delay profiles) for 16 resources") {
		t.Errorf("export said %q", out)
	}
	ja, _ := os.ReadFile(wa)
	jb, _ := os.ReadFile(wb)
	// Only the description names the file exported.
	if strings.Replace(string(ja), "a.swf", "b.swf.gz", 1) != string(jb) {
		t.Errorf("exports differ:\n%s\n%s", ja, jb)
	}
	// A non-delay profile is refused: exit 1, the job, profile and type
	// named, nothing written.
	bad := writeFile(t, dir, "bad.json", `{"nb_res": 4, "jobs": [{"id": "j", "subtime": 0, "res": 1, "profile": "m"}],
 "profiles": {"m": {"type": "parallel_homogeneous", "cpu": 1e9, "com": 0}}}`)
	code, stderr := runMain("trace", "import", bad, "--from", "batsim", "--out", filepath.Join(dir, "bad.swf"))
	if code != 1 || !strings.Contains(stderr, `bad.json:1: job "j" (jobs[0]): profile: profile "m" (line 2): of type "parallel_homogeneous"`) {
		t.Errorf("exit %d, %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.swf")); !os.IsNotExist(err) {
		t.Errorf("bad.swf written: %v", err)
	}
	// A trace without MaxProcs needs --procs.
	noProcs := writeFile(t, dir, "n.swf", "1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n")
	code, stderr = runMain("trace", "export", noProcs, "--to", "batsim", "--out", filepath.Join(dir, "n.json"))
	if code != 1 || !strings.Contains(stderr, "no MaxProcs: give the machine size with --procs") {
		t.Errorf("exit %d, %s", code, stderr)
	}
}

// The sacct import's notices: repeated ids are not blamed on a missing
// JobIDRaw column, and 50,001 distinct users make an SWF that the
// trace reader (and so run) reads, the note on the names left out said.
func TestSacctImportNotices(t *testing.T) {
	dir := t.TempDir()
	hdr := "JobIDRaw|JobID|User|Group|Submit|Start|End|Timelimit|NCPUS|State\n"
	line := "7|7|alice|g|2024-01-15T10:00:00|2024-01-15T10:00:00|2024-01-15T10:01:00|10|2|COMPLETED\n"
	dup := writeFile(t, dir, "dup.txt", hdr+line+line)
	out, _ := run(t, 0, "trace", "import", dup, "--from", "sacct", "--out", filepath.Join(dir, "dup.swf"))
	if !strings.Contains(out, "job id 7 appears more than once") || strings.Contains(out, "no JobIDRaw column") {
		t.Errorf("duplicates: %s", out)
	}
	var b strings.Builder
	b.WriteString(hdr)
	for i := range 50_001 {
		fmt.Fprintf(&b, "%d|%d|user%d|group%d|2024-01-15T10:00:00|2024-01-15T10:00:00|2024-01-15T10:01:00|10|2|COMPLETED\n", i+1, i+1, i, i)
	}
	many := writeFile(t, dir, "many.txt", b.String())
	out, _ = run(t, 0, "trace", "import", many, "--from", "sacct", "--out", filepath.Join(dir, "many.swf"), "--procs", "4")
	if !strings.Contains(out, "50001 users: the header names the first 20000 (slurm.MaxHeaderNames)") {
		t.Errorf("many users: %s", out)
	}
	rd, err := swf.Open(filepath.Join(dir, "many.swf"))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	n := 0
	for {
		if _, err := rd.Next(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 50_001 {
		t.Errorf("%d jobs read back", n)
	}
}
