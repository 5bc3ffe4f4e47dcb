package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
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
