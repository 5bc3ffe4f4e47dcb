package experiment

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
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
		los, his := make([]int, nparts), make([]int, nparts)
		for k := range nparts {
			los[k], his[k] = cuts[k], cuts[k+1]-1
			parts = append(parts, fmt.Sprintf("%d:%d-%d", k+1, cuts[k], cuts[k+1]-1))
		}
		tr, jobs := randomPartitioned(t, r, procs, 300, 40, 0, los, his)
		for pol, ref := range refs {
			out := filepath.Join(t.TempDir(), pol)
			if _, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: parts}, Policy: PolicySpec{Name: pol}, Outputs: OutputSpec{Dir: out, Check: true}}).Run(); err != nil {
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
