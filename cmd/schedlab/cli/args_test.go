package cli

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// allocated is the bytes Main allocates for the command line.
func allocated(args []string) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	runMain(args...)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// reservations is a run command line with n --reservation flags, half
// of them as two words; its trace is missing, so Main stops right
// after the parse.
func reservations(n int) []string {
	args := []string{"run", "--trace", "no-such-trace.swf", "--policy", "fcfs"}
	for i := range n {
		if i%2 == 0 {
			args = append(args, "--reservation=0:1:1")
		} else {
			args = append(args, "--reservation", "0:1:1")
		}
	}
	return args
}

// Reading the command line costs memory in proportion to the number of
// flags, not to its square (kong copies the arguments left at every
// argument: 4,000 flags took 410 MB).
func TestArgsMemoryLinear(t *testing.T) {
	small, large := allocated(reservations(1000)), allocated(reservations(4000))
	t.Logf("1000 flags: %d bytes, 4000 flags: %d bytes", small, large)
	if large > 8*small || large > 50<<20 {
		t.Errorf("4000 --reservation flags allocate %d bytes, 1000 allocate %d: more than linear", large, small)
	}
}

// 10,001 --reservation flags are refused at once with the bound.
func TestTooManyReservations(t *testing.T) {
	start := time.Now()
	args := reservations(10001)
	mem := allocated(args)
	code, stderr := runMain(args...)
	if code != 2 || !strings.Contains(stderr, "10001 --reservation flags: at most 10000 (engine.MaxWindows)") {
		t.Errorf("exit %d, stderr %q; want 2 and the bound", code, stderr)
	}
	if d := time.Since(start); d > 5*time.Second || mem > 20<<20 {
		t.Errorf("took %v and %d bytes", d, mem)
	}
}

// All --reservation values reach the run, in order: the third overlaps
// the first.
func TestReservationsAllRead(t *testing.T) {
	trace := writeFile(t, t.TempDir(), "good.swf", goodSWF)
	code, stderr := runMain("run", "--trace", trace, "--policy", "easy", "--out", t.TempDir(),
		"--reservation", "0:10:2", "--reservation=20:30:2", "--reservation", "5:15:1")
	if code != 2 || !strings.Contains(stderr, "--reservation 1 [0, 10) and --reservation 3 [5, 15) overlap on CPU 0") {
		t.Errorf("exit %d, stderr %q; want 2 and reservations 1 and 3 overlapping", code, stderr)
	}
}

// A command line longer than the parser's bound is refused with it.
func TestTooManyArgs(t *testing.T) {
	args := []string{"run", "--trace", "x", "--policy", "fcfs"}
	for range maxArgs {
		args = append(args, "--clamp")
	}
	code, stderr := runMain(args...)
	if code != 2 || !strings.Contains(stderr, "1005 arguments: at most 1000 besides run's --reservation flags (maxArgs") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, stderr = runMain(make([]string, maxAllArgs+1)...)
	if code != 2 || !strings.Contains(stderr, "50001 arguments: at most 50000 (maxAllArgs") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// report --from and --to beyond any trace time are refused (1e300 was
// written as the year 292277026623); within, they work.
func TestReportWindowBounded(t *testing.T) {
	dir := t.TempDir()
	trace := writeFile(t, dir, "dated.swf", "; UnixStartTime: 1000000000\n"+goodSWF)
	out := dir + "/run"
	if code, stderr := runMain("run", "--trace", trace, "--policy", "easy", "--out", out); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	for _, tt := range []struct{ flag, when, want string }{
		{"--from", "1e300", "--from 1e300: 1e+300 seconds from the trace's start, beyond any time a trace holds: at most 1e+12 in either direction (swf.MaxSeconds)"},
		{"--to", "-2e12", "--to -2e12: -2e+12 seconds"},
	} {
		code, stderr := runMain("report", out, tt.flag+"="+tt.when)
		if code != 2 || !strings.Contains(stderr, tt.want) {
			t.Errorf("report %s %s: exit %d, stderr %q; want 2 and %q", tt.flag, tt.when, code, stderr, tt.want)
		}
	}
	if code, stderr := runMain("report", out, "--from", "1"); code != 0 {
		t.Errorf("report --from 1: exit %d: %s", code, stderr)
	}
}
