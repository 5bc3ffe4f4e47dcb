package experiment

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/testref"
)

// Partitions against the independent naive simulators: a partitioned
// run is each partition's jobs run alone on its CPUs (the partitions
// share only the clock). On 20 random workloads of 300 jobs (runtimes
// within requests, so no kill; ties of submit times and CPU counts
// frequent), 2 to 4 partitions of random sizes, every job's start under
// fcfs, easy and conservative equals the naive simulator's on its
// partition's jobs alone.
func TestPartitionsAgreeWithNaive(t *testing.T) {
	refs := map[string]func([]testref.Job, int) []float64{"fcfs": testref.FCFS, "easy": testref.EASY, "conservative": testref.Conservative}
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 7))
		procs := 8 + r.IntN(57)
		nparts := 2 + r.IntN(3)
		// cut [0, procs) into nparts runs of at least one CPU
		cuts := []int{0}
		for k := 1; k < nparts; k++ {
			cuts = append(cuts, cuts[k-1]+1+r.IntN((procs-cuts[k-1])-(nparts-k)))
		}
		cuts = append(cuts, procs)
		var parts []string
		var sb strings.Builder
		fmt.Fprintf(&sb, "; MaxProcs: %d\n", procs)
		for k := range nparts {
			parts = append(parts, fmt.Sprintf("%d:%d-%d", k+1, cuts[k], cuts[k+1]-1))
		}
		jobs := make([][]testref.Job, nparts)
		submit := 0.0
		for id := 1; id <= 300; id++ {
			if r.IntN(3) > 0 {
				submit += float64(r.IntN(40))
			}
			k := r.IntN(nparts)
			size := cuts[k+1] - cuts[k]
			cpus := 1 + r.IntN(size)
			if r.IntN(2) == 0 {
				cpus = 1 + r.IntN(min(size, 4))
			}
			req := float64(10 * (1 + r.IntN(30)))
			run := float64(1 + r.IntN(int(req)))
			fmt.Fprintf(&sb, "%d %g -1 %g %d -1 -1 %d %g -1 1 1 1 -1 -1 %d -1 -1\n", id, submit, run, cpus, cpus, req, k+1)
			jobs[k] = append(jobs[k], testref.Job{ID: int64(id), Submit: submit, Duration: run, Estimate: req, Procs: cpus})
		}
		tr := filepath.Join(t.TempDir(), "r.swf")
		if err := os.WriteFile(tr, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		for pol, ref := range refs {
			out := filepath.Join(t.TempDir(), pol)
			if _, err := RunTrace(TraceRun{Trace: tr, Policy: pol, Out: out, Check: true, Partitions: parts}); err != nil {
				t.Fatalf("seed %d %s %v: %v", seed, pol, parts, err)
			}
			got := startsFromCSV(t, filepath.Join(out, "jobs.csv"))
			for k, js := range jobs {
				want := ref(js, cuts[k+1]-cuts[k])
				for i, j := range js {
					if got[j.ID] != want[i] {
						t.Fatalf("seed %d %s %v: job %d (partition %d) starts at %v, naive %s alone on the partition says %v", seed, pol, parts, j.ID, k+1, got[j.ID], pol, want[i])
					}
				}
			}
		}
	}
}
