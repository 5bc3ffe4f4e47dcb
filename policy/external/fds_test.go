//go:build unix

package external

import (
	"bufio"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// pipe returns a pipe's read and write descriptors, the policy's end
// non-blocking (as the Python package sets it).
func pipe(t *testing.T, nonblock int) (int, int) {
	var fd [2]int
	if err := syscall.Pipe(fd[:]); err != nil {
		t.Fatal(err)
	}
	if err := syscall.SetNonblock(fd[nonblock], true); err != nil {
		t.Fatal(err)
	}
	return fd[0], fd[1]
}

// Option fds: the protocol over two inherited descriptors, nothing
// started; the timeout holds on them, and the failure names them.
func TestFDs(t *testing.T) {
	reqR, reqW := pipe(t, 1) // the policy writes requests on reqW
	repR, repW := pipe(t, 0) // and reads replies from repR
	p := New(platform.MustCluster(4), Options{FDs: [2]int{repR, reqW}, Timeout: 300 * time.Millisecond})
	requests := bufio.NewReader(os.NewFile(uintptr(reqR), "requests"))
	replies := os.NewFile(uintptr(repW), "replies")
	defer replies.Close()
	got := make(chan string, 2)
	go func() { // the other side: starts job 1, then stops answering
		line, _ := requests.ReadString('\n')
		got <- line
		replies.WriteString(`{"events":[{"type":"EXECUTE_JOB","data":{"job_id":1}}]}` + "\n")
		line, _ = requests.ReadString('\n')
		got <- line
	}()
	var plan policy.Plan
	p.Submit(0, job.Info{ID: 1, Procs: 2, Estimate: 10})
	p.Schedule(0, free{4}, &plan)
	if err := p.Err(); err != nil || len(plan.Starts) != 1 || plan.Starts[0].ID != 1 || plan.Starts[0].Reason != job.Immediate {
		t.Fatalf("first pass: err %v, plan %+v", err, plan.Starts)
	}
	if l := <-got; !strings.Contains(l, `"type":"SIMULATION_BEGINS"`) || !strings.Contains(l, `"job_id":1`) {
		t.Errorf("first request %s", l)
	}
	p.Submit(1, job.Info{ID: 2, Submit: 1, Procs: 1, Estimate: 10})
	plan.Reset()
	start := time.Now()
	p.Schedule(1, free{2}, &plan)
	want := "policy external at t=1: no reply within 300ms (option timeout) [fds " // then the numbers
	if err := p.Err(); err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("second pass: %v, want %q...", err, want)
	}
	if d := time.Since(start); d < 300*time.Millisecond || d > 5*time.Second {
		t.Errorf("failed after %v, want the timeout (300ms)", d)
	}
	<-got
	if err := p.Close(); err == nil {
		t.Error("Close after a failure: nil, want the failure")
	}
}
