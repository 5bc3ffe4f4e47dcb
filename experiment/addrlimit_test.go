package experiment

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/scenario"
)

// overloadedGrid is a grid scenario at an offered load of 20: its queue
// grows until MaxWaiting jobs wait.
const overloadedGrid = `model: grid
seed: 1
stop: {completed: 30000}
platform: {sites: 1, procs_per_site: 1}
workload: {mean_interarrival: 0.05, mean_service: 1}
policy: {grid: random, local: sq}
`

// addrLimitKB is the address-space limit (ulimit -v, in KiB) under which
// an overloaded model must still end with its message. Go's runtime
// reserves about 1.2 GB of address space at start, which leaves about
// 270 MB for the heap: MaxWaiting waiting jobs must fit in it.
const addrLimitKB = 1_500_000

// An overloaded grid model ends with the MaxWaiting message, not with
// the memory exhausted, in a process limited to 1.5 GB of address space
// (ulimit -v 1500000). The test runs itself again under the limit.
// (The job slots were a slice doubled by append: the old and the new
// array at once, and the old ones as garbage, about 440 MB for 500,000
// waiting jobs, and the process died under the limit; each slot also
// had room for 16 CPU ids where a grid job holds one run. Now about
// 105 MB a run. The sweep of two such runs under the same limit, with
// the schedlab binary as a user builds it, is cmd/schedlab's
// TestOverloadedSweepUnderAddressLimit.)
func TestOverloadedGridUnderAddressLimit(t *testing.T) {
	if os.Getenv("SCHEDLAB_ADDRLIMIT_CHILD") == "1" {
		overloadedChild()
		return
	}
	if testing.Short() {
		t.Skip("runs a process of 500,000 waiting jobs (-short)")
	}
	if runtime.GOOS != "linux" {
		t.Skip("ulimit -v (an address-space limit) is tried on Linux only")
	}
	if err := exec.Command("sh", "-c", fmt.Sprintf("ulimit -v %d", addrLimitKB)).Run(); err != nil {
		t.Skipf("no ulimit -v here (sh -c 'ulimit -v %d': %v)", addrLimitKB, err)
	}
	cmd := exec.Command("sh", "-c", fmt.Sprintf(`ulimit -v %d && exec "$0" "$@"`, addrLimitKB),
		os.Args[0], "-test.run=^TestOverloadedGridUnderAddressLimit$", "-test.count=1")
	cmd.Env = append(os.Environ(), "SCHEDLAB_ADDRLIMIT_CHILD=1", "GOMAXPROCS=2")
	out, err := cmd.CombinedOutput()
	text := string(out)
	if err != nil || !strings.Contains(text, "overloaded: grid model: more than 500000 jobs waiting at t=") {
		if i := strings.Index(text, "\ngoroutine "); i >= 0 {
			text = text[:i] // the runtime's "out of memory", without every stack
		}
		t.Fatalf("under ulimit -v %d: %v\n%s", addrLimitKB, err, text)
	}
}

// overloadedChild runs overloadedGrid, prints its error and exits 0 when
// it is the MaxWaiting one.
func overloadedChild() {
	pts, err := scenario.Parse("over.yaml", []byte(overloadedGrid))
	if err == nil {
		_, err = RunReplication(pts[0].Scenario, 0, "")
	}
	fmt.Printf("overloaded: %v\n", err)
	if !errors.Is(err, engine.ErrTooManyWaiting) {
		os.Exit(1)
	}
	os.Exit(0)
}
