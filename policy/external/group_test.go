//go:build linux

package external

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// alive reports whether process pid runs (a zombie, killed and not yet
// reaped by its new parent, does not).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// pid (comm) state ...
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// A child the decision process leaves running is ended with the run,
// after a successful one too: it would otherwise run on, holding the
// standard error that a caller reads to its end.
func TestChildOfDecisionProcessEndsWithTheRun(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidfile := filepath.Join(t.TempDir(), "pid")
	cmd := "sleep 300 </dev/null >/dev/null 2>&1 & echo $! > '" + pidfile + "'; SCHEDLAB_EXTERNAL_HELPER=idle exec '" + exe + "'"
	p := New(platform.MustCluster(4), Options{Command: cmd, Timeout: 10 * time.Second})
	var plan policy.Plan
	p.Submit(0, job.Info{ID: 1, Procs: 1, Estimate: 10})
	p.Schedule(0, free{4}, &plan)
	if err := p.Err(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(pidfile)
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	if !alive(pid) {
		t.Fatalf("the decision process's child %d is not running before the end", pid)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); alive(pid); {
		if time.Now().After(deadline) {
			t.Fatalf("the decision process's child %d still runs 5 s after a successful run", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
