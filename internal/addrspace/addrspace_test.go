package addrspace

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// VmSize reads this process's size: positive, and at least the Go
// runtime's own reservations (hundreds of MB on linux/amd64).
func TestVmSize(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/status is Linux's")
	}
	if v := VmSize(); v < 1<<20 {
		t.Fatalf("VmSize() = %d bytes", v)
	}
}

// Under ulimit -v the child sees a limit, free space below it, a
// memory limit of free - Spare and Workers capped at free/PerWorker.
func TestUnderLimit(t *testing.T) {
	if os.Getenv("ADDRSPACE_CHILD") == "1" {
		free, ok := Free()
		SetMemoryLimit()
		lim := debugLimit()
		os.Stdout.WriteString(strconv.FormatBool(ok) + " " + strconv.FormatInt(free, 10) + " " + strconv.FormatInt(lim, 10) + " " + strconv.Itoa(Workers(64)) + "\n")
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("ulimit -v is tried on Linux only")
	}
	if _, ok := Free(); ok {
		t.Skip("this test process already runs under an address-space limit")
	}
	if Workers(7) != 7 {
		t.Fatalf("Workers(7) without a limit = %d, want 7", Workers(7))
	}
	const limitKB = 3_000_000
	cmd := exec.Command("sh", "-c", "ulimit -v 3000000 && exec \"$0\" -test.run=^TestUnderLimit$ -test.count=1", os.Args[0])
	cmd.Env = append(os.Environ(), "ADDRSPACE_CHILD=1", "GOMEMLIMIT=")
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("cannot run under ulimit -v: %v", err)
	}
	f := strings.Fields(strings.SplitN(string(out), "\n", 2)[0])
	if len(f) != 4 || f[0] != "true" {
		t.Fatalf("child said %q", out)
	}
	free, _ := strconv.ParseInt(f[1], 10, 64)
	lim, _ := strconv.ParseInt(f[2], 10, 64)
	w, _ := strconv.Atoi(f[3])
	if free <= 0 || free >= limitKB<<10 {
		t.Fatalf("free %d outside (0, %d)", free, int64(limitKB)<<10)
	}
	// Free and SetMemoryLimit measure a moment apart: the process can
	// only have grown in between, by far less than 64 MB.
	if lim > free-Spare || lim < free-Spare-64<<20 {
		t.Fatalf("memory limit %d, want free-Spare = %d", lim, free-Spare)
	}
	if want := max(1, min(64, int(free/PerWorker))); w != want && w != want-1 {
		t.Fatalf("Workers(64) = %d, want %d", w, want)
	}
}
