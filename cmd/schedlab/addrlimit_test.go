package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// overloaded is a grid sweep at an offered load of 20, two replications:
// each replication's queue grows until experiment.MaxWaiting (500,000)
// jobs wait.
const overloaded = `model: grid
seed: 1
replications: 2
stop: {completed: 30000}
platform: {sites: 1, procs_per_site: 1}
workload: {mean_interarrival: 0.05, mean_service: 1}
policy: {grid: random, local: sq}
`

// The overloaded grid sweep ends with its MaxWaiting message, not with
// the runtime's "out of memory", under ulimit -v 1500000, built as a
// user builds it (go build: with cgo where a C compiler is found, the
// default here). Without the sweep's cap on replications at once under
// an address-space limit, the C library's per-thread arenas and stacks
// that this file's cgo constructor shrinks, and the memory limit set in
// main, the sweep died here (two replications at their bound need
// about 210 MB of heap; about 210 MB are left after the runtime's
// reservations).
func TestOverloadedSweepUnderAddressLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds schedlab and runs 500,000 waiting jobs (-short)")
	}
	if runtime.GOOS != "linux" {
		t.Skip("ulimit -v (an address-space limit) is tried on Linux only")
	}
	if err := exec.Command("sh", "-c", "ulimit -v 1500000").Run(); err != nil {
		t.Skipf("no ulimit -v here: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "schedlab")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	scen := filepath.Join(dir, "over.yaml")
	if err := os.WriteFile(scen, []byte(overloaded), 0o644); err != nil {
		t.Fatal(err)
	}
	for try := 0; try < 3; try++ { // the replications' timing varies: three tries, each must end right
		out := filepath.Join(dir, fmt.Sprintf("out%d", try))
		cmd := exec.Command("sh", "-c", `ulimit -v 1500000 && exec "$0" sweep "$1" --out "$2"`, bin, scen, out)
		cmd.Env = append(os.Environ(), "GOMAXPROCS=2")
		b, err := cmd.CombinedOutput()
		text := string(b)
		if i := strings.Index(text, "\ngoroutine "); i >= 0 {
			text = text[:i]
		}
		ee, ok := err.(*exec.ExitError)
		if !ok || ee.ExitCode() != 1 || !strings.Contains(text, "grid model: more than 500000 jobs waiting at t=") {
			t.Fatalf("try %d under ulimit -v 1500000: %v\n%s", try, err, text)
		}
	}
}
