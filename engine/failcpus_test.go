package engine

import (
	"io"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/workload"
)

// The CPUs failure changes flip are bounded, as their number is: a
// change costs a step per CPU, so failures of a whole large machine
// (one group of 1,000,000 CPUs, --failures 1e-6:1e-6) took minutes
// before MaxFailureChanges. The bound is lowered here to keep the test
// short; the run must stop at it, naming the constant.
func TestFailureCPUsLimit(t *testing.T) {
	defer func(n int64) { maxFailureCPUs = n }(maxFailureCPUs)
	maxFailureCPUs = 1000 * 1000
	err := runFlips(t, 1000, 3000)
	if err == nil || !errContains(err, "engine.MaxFailureCPUs") {
		t.Fatalf("error %v, want more than engine.MaxFailureCPUs", err)
	}
	// Under the bound the same run ends.
	maxFailureCPUs = 1000 * 3000
	if err := runFlips(t, 1000, 2000); err != nil {
		t.Fatal(err)
	}
}

// flips alternates a failure and a return of CPUs 1..procs-1, one a
// second, n changes in all.
type flips struct {
	cpus platform.Runs
	i, n int
}

func (f *flips) Next() (Change, error) {
	if f.i == f.n {
		return Change{}, io.EOF
	}
	f.i++
	return Change{Time: float64(f.i), CPUs: f.cpus, Down: f.i%2 == 1}, nil
}

// runFlips runs one job on CPU 0 of procs CPUs through n changes of the
// other CPUs.
func runFlips(t *testing.T, procs, n int) error {
	t.Helper()
	p := backfill.NewBackfill("easy", procs, 1, backfill.OrderFCFS)
	jobs := []actual.Job{{ID: 1, Submit: 0, Procs: 1, Runtime: 1e7, Request: 1e7, Estimate: 1e7}}
	c, err := NewCluster(ClusterConfig{Platform: platform.MustCluster(procs), Policy: p, Source: workload.FromSlice(jobs),
		Availability: &Availability{Failures: &flips{cpus: platform.Runs{1, int32(procs - 1)}, n: n}}})
	if err != nil {
		t.Fatal(err)
	}
	return c.Run()
}

func errContains(err error, s string) bool { return strings.Contains(err.Error(), s) }
