package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/schedlab/schedlab/internal/atomicfile"
)

// goodSWF is a small valid trace: 8 CPUs, two jobs.
const goodSWF = "; MaxProcs: 8\n" +
	"1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n" +
	"2 5 0 10 4 -1 -1 4 20 -1 1 1 1 -1 -1 -1 -1 -1\n"

// writeFile writes content to dir/name and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// runMain runs the command line and returns its exit status and stderr.
func runMain(args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, errb.String()
}

// --out names a FIFO: refused (exit 1, the path and what it is named),
// and the FIFO is still a FIFO, not replaced by a regular file.
func TestOutRefusesFIFO(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "good.swf", goodSWF)
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	code, stderr := runMain("trace", "repeat", trace, "--times", "2", "--out", fifo)
	if code != 1 || !strings.Contains(stderr, fifo+" is a FIFO (named pipe), not a regular file") {
		t.Errorf("exit %d, stderr %q; want 1 and the FIFO named", code, stderr)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", st.Mode(), err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("%d files in the folder, want 2 (the trace and the FIFO)", len(ents))
	}
}

// A run folder whose jobs.csv is a FIFO: refused before the run, nothing
// replaced.
func TestRunOutRefusesFIFOInFolder(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "good.swf", goodSWF)
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	fifo := filepath.Join(out, "jobs.csv")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	code, stderr := runMain("run", "--trace", trace, "--policy", "easy", "--out", out)
	if code != 1 || !strings.Contains(stderr, fifo+" is a FIFO") {
		t.Errorf("exit %d, stderr %q; want 1 and the FIFO named", code, stderr)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v %v", st.Mode(), err)
	}
}

// A wrong --window of --policy matrix and a --jobs above a paper's own
// limit are wrong command lines (exit 2), refused before any work.
func TestExitTwoForFlagValues(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "good.swf", goodSWF)
	out := filepath.Join(dir, "out")
	matrix := []string{"run", "--trace", trace, "--policy", "matrix", "--out", out}
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{append(matrix, "--window", "fixed:0"), `--window: window "fixed:0": N must be an integer in 1..1048576`},
		{append(matrix, "--window", "fixed:1048577"), `--window: window "fixed:1048577": N must be an integer in 1..1048576`},
		{append(matrix, "--window", "bogus"), `--window: unknown window "bogus" (want lazy, eager or fixed:N)`},
		{[]string{"reproduce", "klusacek2008", "--jobs", "10000001", "--out", out}, "--jobs 10000001: want 1..10000000 for klusacek2008"},
		{[]string{"reproduce", "alnajjar2019", "--jobs", "2000001", "--out", out}, "--jobs 2000001: want 1..2000000 for alnajjar2019"},
		{[]string{"reproduce", "all", "--jobs", "2000001", "--out", out}, "--jobs 2000001: want 1..2000000 for alnajjar2019"},
	} {
		code, stderr := runMain(c.args...)
		if code != 2 || !strings.Contains(stderr, c.msg) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, stderr, c.msg)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was created", out)
	}
}

// --deadline-factor takes numbers in exponent form: the '-' of "1e-3" is
// not a range's.
func TestDeadlineFactorExponent(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "good.swf", goodSWF)
	for _, f := range []string{"1e-3", "1e-3-2E-3", "2-4"} {
		code, stderr := runMain("run", "--trace", trace, "--policy", "easy", "--deadline", "estimate", "--deadline-factor", f, "--no-out")
		if code != 0 {
			t.Errorf("--deadline-factor %s: exit %d, stderr %q", f, code, stderr)
		}
	}
	code, stderr := runMain("run", "--trace", trace, "--policy", "easy", "--deadline", "estimate", "--deadline-factor", "2e-3-1e-3", "--no-out")
	if code != 2 || !strings.Contains(stderr, `deadline factor "2e-3-1e-3": want 0 < MIN <= MAX`) {
		t.Errorf("a reversed range: exit %d, stderr %q", code, stderr)
	}
}

// A folder locked by another process (here: a lock taken by the test,
// as that process would) is refused at once by run, sweep and
// reproduce, naming the folder and the holder's pid, and nothing in it is
// removed; once released, the run goes ahead, removes the stale temporary
// file and leaves no lock file. The shards of a sweep share the lock
// (with each other and a merge), and a sweep is refused while they hold
// it.
func TestOutputFolderLock(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "good.swf", goodSWF)
	sc := writeFile(t, dir, "s.yaml", "model: grid\nreplications: 2\nstop: {completed: 50}\nplatform: {sites: 2, procs_per_site: 4}\nworkload: {mean_interarrival: 1}\npolicy: {grid: realtime, local: sq}\n")
	out := filepath.Join(dir, "out")
	os.Mkdir(out, 0o755)
	stale := writeFile(t, out, ".jobs.csv.tmp-123456", "half")
	held, err := lockDir(out, false)
	if err != nil {
		t.Fatal(err)
	}
	inUse := "output folder " + out + " is in use by another schedlab process (pid " + strconv.Itoa(os.Getpid()) + ")"
	for _, args := range [][]string{
		{"run", "--trace", trace, "--policy", "easy", "--out", out},
		{"sweep", sc, "--out", out},
		{"sweep", sc, "--out", out, "--shard", "0/2"},
		{"trace", "repeat", trace, "--times", "2", "--out", filepath.Join(out, "r.swf")},
	} {
		code, stderr := runMain(args...)
		if code != 1 || !strings.Contains(stderr, inUse) {
			t.Errorf("%q: exit %d, stderr %q; want 1 and %q", args, code, stderr, inUse)
		}
	}
	if _, err := os.Stat(stale); err != nil {
		t.Errorf("the holder's temporary file was removed: %v", err)
	}
	held.release()
	if code, stderr := runMain("run", "--trace", trace, "--policy", "easy", "--out", out); code != 0 || !strings.Contains(stderr, "removed 1 temporary file(s)") {
		t.Errorf("after the release: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, lockName)); err == nil {
		t.Errorf("%s left in the folder", lockName)
	}

	// Shards share the folder.
	shards := filepath.Join(dir, "shards")
	other, err := lockDir(shards, true)
	if err != nil {
		t.Fatal(err)
	}
	if code, stderr := runMain("sweep", sc, "--out", shards, "--shard", "1/2"); code != 0 {
		t.Errorf("a shard beside another: exit %d, stderr %q", code, stderr)
	}
	if code, stderr := runMain("sweep", sc, "--out", shards); code != 1 || !strings.Contains(stderr, "is in use by another schedlab process") {
		t.Errorf("a sweep while a shard runs: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(shards, lockName)); err != nil {
		t.Errorf("the other shard's lock file was removed: %v", err)
	}
	other.release()
	if code, stderr := runMain("sweep", sc, "--out", shards, "--shard", "0/2"); code != 0 {
		t.Errorf("the second shard: exit %d, stderr %q", code, stderr)
	}
	if code, stderr := runMain("merge", shards); code != 0 {
		t.Errorf("merge: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(shards, lockName)); err == nil {
		t.Errorf("%s left in the folder after the merge", lockName)
	}
}

// Once SIGINT or SIGTERM is being handled, workers create no more files:
// a temporary file created after the handler removed the folder's would
// stay behind when the process exits. Here workers keep writing files
// (each open 5 ms) while the handler runs; after it, none of their
// temporary files is in the folder, then or a little later.
func TestInterruptedStopsNewFiles(t *testing.T) {
	dir := t.TempDir()
	g := &globals{stdout: io.Discard, stderr: io.Discard}
	if err := g.useOutDir(dir); err != nil {
		t.Fatal(err)
	}
	defer atomicfile.Resume()
	var wg sync.WaitGroup
	quit := make(chan struct{})
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-quit:
					return
				default:
				}
				atomicfile.Write(filepath.Join(dir, fmt.Sprintf("r%d-%d.csv", w, i)), func(io.Writer) error {
					time.Sleep(5 * time.Millisecond)
					return nil
				})
			}
		}()
	}
	time.Sleep(30 * time.Millisecond)
	g.interrupted(syscall.SIGTERM)
	var left []string
	for range 3 {
		time.Sleep(20 * time.Millisecond)
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if atomicfile.IsTemp(e.Name()) {
				left = append(left, e.Name())
			}
		}
	}
	close(quit)
	wg.Wait()
	if len(left) > 0 {
		t.Errorf("temporary files created after the stop: %v", left)
	}
}
