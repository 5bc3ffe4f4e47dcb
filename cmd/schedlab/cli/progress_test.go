package cli

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// findTrace returns the path of a trace of the Parallel Workloads
// Archive beside the checkout or in $SCHEDLAB_TRACES ("" when absent).
func findTrace(name string) string {
	dirs := filepath.SplitList(os.Getenv("SCHEDLAB_TRACES"))
	dirs = append(dirs, "../../../traces", "../../../../shared/traces", "../../../../../shared/traces")
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			abs, _ := filepath.Abs(p)
			return abs
		}
	}
	return ""
}

// A run of RICC under conservative backfilling (about 20 s of
// simulation) with its stdout and stderr piped prints progress lines
// while it runs, not only at its end: the command, built here, is read
// line by line and is still running when its lines come; the second line
// on says how far it is through the trace's span of submissions and the
// time left (a real estimate: more than 0 s while the run goes on).
// SCHEDLAB_PROGRESS=1s makes a line a second; the test stops the run
// after three lines.
func TestPipedRunPrintsProgressBeforeItEnds(t *testing.T) {
	trace := findTrace("RICC-2010-2.swf.gz")
	if trace == "" {
		t.Skip("RICC-2010-2.swf.gz not found (put the archive's traces in $SCHEDLAB_TRACES)")
	}
	bin := filepath.Join(t.TempDir(), "schedlab")
	build := exec.Command("go", "build", "-o", bin, "..")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "run", "--trace", trace, "--procs", "8192", "--policy", "conservative", "--no-out")
	cmd.Env = append(os.Environ(), "SCHEDLAB_PROGRESS=1s")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cmd.StdoutPipe(); err != nil { // piped, never read: the summary comes at the end
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	defer func() {
		cmd.Process.Kill()
		<-exited
	}()
	go func() { cmd.Wait(); close(exited) }()
	line := regexp.MustCompile(`^schedlab: run RICC-2010-2.swf.gz conservative: (\d+) jobs submitted, \d+ ended; simulated [0-9.]+ days since the first submission; \d+ s so far, \d+ jobs/s(; (\d+)% of the trace's submissions' span, about (\S+) left)?$`)
	sc := bufio.NewScanner(stderr)
	var lines []string
	withETA := 0
	for len(lines) < 3 && sc.Scan() {
		l := sc.Text()
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("stderr line %q is not a progress line", l)
		}
		select {
		case <-exited:
			t.Fatalf("the run had ended when its line %q came", l)
		default:
		}
		if m[2] != "" {
			withETA++
			if left, err := time.ParseDuration(m[4]); err != nil || left <= 0 {
				t.Errorf("line %q: time left %q, want more than 0 s mid-run", l, m[4])
			}
		}
		lines = append(lines, l)
	}
	if len(lines) < 3 {
		t.Fatalf("%d progress lines before stderr closed: %q", len(lines), lines)
	}
	if withETA < 1 {
		t.Errorf("no line with the time left in %q", lines)
	}
}
