package addrspace

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
)

// Spare is the address space (bytes) SetMemoryLimit leaves under the
// limit for what the Go memory limit does not count: the heap's
// reservation beyond its use (64 MB steps), thread stacks, the C
// library's arena.
const Spare = 96 << 20

// PerWorker is the address space (bytes) Workers allows each
// replication run at once under a limit: a trace run of the largest
// embedded trace, or a synthetic model at its bound of waiting jobs
// (experiment.MaxWaiting: about 105 MB for 500,000 jobs), with the
// heap's reservation steps.
const PerWorker = 256 << 20

// Free returns the address space (bytes) left under the limit and
// whether there is a limit at all. Where the limit or the process's
// size cannot be read, there is none.
func Free() (int64, bool) {
	var lim syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &lim) != nil || lim.Cur == ^uint64(0) || lim.Cur > 1<<62 {
		return 0, false
	}
	held := VmSize()
	if held <= 0 {
		return 0, false
	}
	return max(int64(lim.Cur)-held, 0), true
}

// SetMemoryLimit sets the Go runtime's soft memory limit to the address
// space left under the limit less Spare, so that the collector works
// harder as the heap nears what is left and a run that outgrows its
// memory ends with schedlab's own message (a bound such as
// experiment.MaxWaiting) rather than the runtime's "out of memory".
// Nothing changes without a limit, with GOMEMLIMIT set, or when less
// than Spare is left.
func SetMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	if free, ok := Free(); ok && free > Spare {
		debug.SetMemoryLimit(free - Spare)
	}
}

// Workers caps n replications at once to what the address-space limit
// leaves: one per PerWorker, at least one. Without a limit n is kept.
func Workers(n int) int {
	free, ok := Free()
	if !ok {
		return n
	}
	return max(1, min(n, int(free/PerWorker)))
}

// VmSize is the process's address space in bytes (VmSize of
// /proc/self/status), 0 where it cannot be read.
func VmSize() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmSize:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil || kb <= 0 {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}
