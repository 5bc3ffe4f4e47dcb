package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/workload/jobtable"
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
	// To a job table: its first line, and a row of res tasks of one CPU.
	run(t, 0, "trace", "import", src, "--from", "batsim", "--out", filepath.Join(dir, "a.jobs"))
	if tab, _ := os.ReadFile(filepath.Join(dir, "a.jobs")); !strings.HasPrefix(string(tab), "# schedlab job table v1\n") ||
		!strings.Contains(string(tab), "\n7\t100.25\t-1\t3600.5\t16\t16\t-1\t-1\t-1\t1\t-1\t-1\t-1\t-1\t0\t0\t16\t1\t0\t0\t\t\t\t0\t\n") {
		t.Errorf("batsim job table:\n%s", tab)
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

// trace import of an export with NNodes, ReqNodes, ReqTRES, AllocTRES
// and Constraints: to SWF, stderr says what SWF does not keep (jobs 200,
// 201, 202 ask for GPUs; 200 and 202 for 2 nodes and a constraint; 201's
// constraint is Slurm's matching OR, not read); to a .jobs file (or
// --format jobtable) the requests are kept, and no notice but the
// constraint not read; the table's job lines, read as SWF, are the SWF
// import's.
func TestSacctImportJobTable(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "..", "workload", "slurm", "testdata", "requests.txt")
	sw, tab, tabgz := filepath.Join(dir, "r.swf"), filepath.Join(dir, "r.jobs"), filepath.Join(dir, "r.tsv.gz")
	_, stderr := run(t, 0, "trace", "import", src, "--from", "sacct", "--out", sw, "--procs", "64")
	if !strings.Contains(stderr, "schedlab: 3 job(s) ask for more than CPUs (3 GRES (GPUs), 2 more than one node, 2 a feature constraint): SWF has no field for that and "+sw+" does not keep it; write --format jobtable") {
		t.Errorf("to SWF, stderr %q", stderr)
	}
	const unread = "schedlab: 1 job(s): constraints schedlab does not read (Slurm's [a|b] matching OR, counts a*2, or another syntax): left out of their requests"
	if !strings.Contains(stderr, unread) {
		t.Errorf("to SWF, no word of the constraint not read: %q", stderr)
	}
	for _, args := range [][]string{{"--out", tab}, {"--out", tabgz, "--format", "jobtable"}} {
		_, stderr = run(t, 0, append([]string{"trace", "import", src, "--from", "sacct", "--procs", "64"}, args...)...)
		if strings.Contains(stderr, "SWF has no field") || !strings.Contains(stderr, unread) {
			t.Errorf("%q: stderr %q", args, stderr)
		}
	}
	text, err := os.ReadFile(tab)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(text), "\n")
	if lines[0] != "# schedlab job table v1" || !strings.Contains(string(text), "\n200\t0\t10\t3600\t16\t16\t7200\t-1\t524288\t1\t1\t1\t1\t1\t2\t0\t16\t1\t4096\t0\t\tgpu:4\ta100&ib\t0\t\n") {
		t.Errorf("job table:\n%s", text)
	}
	for _, p := range []string{tab, tabgz} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		jr, err := jobtable.NewReader(f, p)
		if err != nil {
			t.Fatal(err)
		}
		a, err := swf.NewReader(jobtable.NewSWFReader(jr, nil), p)
		if err != nil {
			t.Fatal(err)
		}
		b, err := swf.Open(sw)
		if err != nil {
			t.Fatal(err)
		}
		if a.Header().MaxProcs != 64 || b.Header().MaxProcs != 64 {
			t.Errorf("MaxProcs %d, %d", a.Header().MaxProcs, b.Header().MaxProcs)
		}
		for {
			ra, ea := a.Next()
			rb, eb := b.Next()
			if ea != eb || ra != rb {
				t.Fatalf("%s: %+v (%v), SWF %+v (%v)", p, ra, ea, rb, eb)
			}
			if ea == io.EOF {
				break
			}
		}
		b.Close()
		f.Close()
	}
}

// An export without the request columns says nothing of requests, and
// its SWF is what it was (the goldens hold it byte for byte).
func TestSacctImportNoRequestNotice(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "..", "workload", "slurm", "testdata", "quirks.txt")
	_, stderr := run(t, 0, "trace", "import", src, "--from", "sacct", "--out", filepath.Join(dir, "q.swf"))
	if strings.Contains(stderr, "ask for more than CPUs") || strings.Contains(stderr, "left out of their requests") {
		t.Errorf("stderr %q", stderr)
	}
}
