package backfill_test

import (
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/workload/synth"
)

// One replication of the klusacek-2008 setting at mean inter-arrival 3:
// 150 machines (1..16 CPUs, speeds 200..600), 3000 jobs (1..8 CPUs,
// Estimated uniform 500..3000 at BM_est uniform 200..600, exact; 70% with
// deadline submit + U[2,4] x Estimated), through the real model. Reported
// per run, with the scheduling passes and the largest queue.
func benchHetero(b *testing.B, name string) {
	p, err := synth.Machines(1, 0, synth.PaperMachines())
	if err != nil {
		b.Fatal(err)
	}
	var st engine.Stats
	for i := 0; i < b.N; i++ {
		src, err := synth.NewHetero(1, 0, synth.PaperJobs(3), p)
		if err != nil {
			b.Fatal(err)
		}
		pol, err := declaredMulti(name, p, nil)
		if err != nil {
			b.Fatal(err)
		}
		c, err := engine.NewCluster(engine.ClusterConfig{Platform: p, Policy: pol, Source: src})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Run(); err != nil {
			b.Fatal(err)
		}
		st = c.Stats()
	}
	b.ReportMetric(float64(st.Passes), "passes")
	b.ReportMetric(float64(st.MaxQueued), "max-queue")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(st.Passes), "ns/pass")
}

func BenchmarkHeteroFCFS(b *testing.B)     { benchHetero(b, "fcfs") }
func BenchmarkHeteroEASY(b *testing.B)     { benchHetero(b, "easy") }
func BenchmarkHeteroFlexible(b *testing.B) { benchHetero(b, "flexible") }
