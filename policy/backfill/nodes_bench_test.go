package backfill

import (
	"testing"

	"github.com/schedlab/schedlab/job/actual"
)

// benchNodes runs EASY and conservative over jobs on the pool of procs
// CPUs (engine.Cluster) and on each platform of nodes
// (engine.NodeCluster), every run through the engine.
func benchNodes(b *testing.B, jobs []actual.Job, procs int, plats []string, pols []string) {
	specs := specsOf(jobs)
	for _, name := range pols {
		depth := 1
		if name == "conservative" {
			depth = Unlimited
		}
		b.Run("pool/"+name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				poolStarts(b, jobs, procs, NewBackfill(name, procs, depth, OrderFCFS))
			}
		})
		for _, plat := range plats {
			ns := mustNodes(b, plat)
			b.Run(plat+"/"+name, func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					nb, err := NewNodePolicy(NodeConfig{Name: name, Nodes: ns, Depth: depth, Order: OrderFCFS})
					if err != nil {
						b.Fatal(err)
					}
					engineNodes(b, ns, nb, specs)
				}
			})
		}
	}
}

// The whole KTH trace (27,992 jobs, 100 CPUs; embedded) under EASY
// and conservative backfilling, on the pool of CPUs and on nodes: 100 x
// 1 core and 25 x 4 cores.
func BenchmarkKTHNodes(b *testing.B) {
	jobs, procs := kthJobs(b, 0)
	benchNodes(b, jobs, procs, []string{"n[1-100]:cores=1", "n[1-25]:cores=4"}, []string{"easy", "conservative"})
}

// HPC2N (about 200,000 jobs, 240 CPUs) as 120 nodes of 2 cores, and
// RICC (about 447,000 jobs at 8,192 CPUs) as 1,024 nodes of 8 cores,
// under EASY; skipped where the traces are not beside the repository.
func BenchmarkHPC2NNodesEASY(b *testing.B) {
	jobs, procs := loadTrace(b, hpc2nTrace)
	benchNodes(b, jobs, procs, []string{"n[1-120]:cores=2"}, []string{"easy"})
}

func BenchmarkRICCNodesEASY(b *testing.B) {
	jobs, _ := loadTrace(b, riccTrace)
	benchNodes(b, jobs, 8192, []string{"n[1-1024]:cores=8"}, []string{"easy"})
}

// RICC's first 10 days (8,907 jobs) under the slurm policy with Slurm's
// defaults (DefaultSlurm) on 1,024 nodes of 8 cores, the grouped
// will-run test and the exact one (docs/performance.md).
func BenchmarkRICCSlurm10Days(b *testing.B) {
	jobs, _ := loadTrace(b, riccTrace)
	n := 0
	for n < len(jobs) && jobs[n].Submit < benchSlurmUntil {
		n++
	}
	specs := specsOf(jobs[:n])
	ns := mustNodes(b, "n[1-1024]:cores=8")
	for _, exact := range []bool{false, true} {
		name := "grouped"
		if exact {
			name = "exact"
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p := DefaultSlurm()
				p.ExactWillRun = exact
				nb, err := NewNodePolicy(NodeConfig{Name: "slurm", Nodes: ns, Order: OrderFCFS, Slurm: &p})
				if err != nil {
					b.Fatal(err)
				}
				engineNodes(b, ns, nb, specs)
			}
		})
	}
}

// benchSlurmUntil is the end of BenchmarkRICCSlurm10Days's submissions.
var benchSlurmUntil = 864000.0
