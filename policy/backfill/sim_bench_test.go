package backfill

import (
	"io"
	"os"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

const hpc2nTrace = "../../../shared/traces/HPC2N-2002-2.1-cln.swf.gz"

// loadTrace reads a whole trace into memory (requested times as
// estimates, as schedlab run does by default).
func loadTrace(b *testing.B, path string) ([]actual.Job, int) {
	b.Helper()
	if _, err := os.Stat(path); err != nil {
		b.Skipf("trace %s not available", path)
	}
	rd, err := swf.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer rd.Close()
	src := swf.NewSource(rd, swf.Options{})
	procs := src.MaxProcs()
	es := workload.WithEstimates(src, workload.EstimateRequest)
	var jobs []actual.Job
	for {
		j, err := es.Next()
		if err == io.EOF {
			return jobs, procs
		}
		if err != nil {
			b.Fatal(err)
		}
		jobs = append(jobs, j)
	}
}

// simulate runs pol over jobs on one machine of procs processors.
func simulate(b *testing.B, jobs []actual.Job, procs int, pol *Backfill) {
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: pol,
		Source: workload.FromSlice(jobs), Listener: engine.NopListener{}})
	if err != nil {
		b.Fatal(err)
	}
	if err := c.Run(); err != nil {
		b.Fatal(err)
	}
}

// The simulation alone, the trace already in memory: EASY on HPC2N (the
// rest of BenchmarkHPC2NEASY is reading, on a goroutine of its own).
func BenchmarkHPC2NEASYSim(b *testing.B) {
	jobs, procs := loadTrace(b, hpc2nTrace)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		simulate(b, jobs, procs, NewBackfill("easy", procs, 1, OrderFCFS))
	}
}

// Conservative backfilling on HPC2N, the trace in memory. Besides the
// time it reports the work of the dirty passes: re-placement queries of
// held reservations (replaces/op), how many of them moved (moves/op),
// each move a change of the profile, and how many the kept memo kept
// without a query (spared/op); the profile's span changes
// (changes/op: starts, reservations, moves, releases; profile.Changes)
// and the whole simulation's time per change (ns/change): the work bound
// is changes/op times what one change costs (docs/performance.md).
func BenchmarkHPC2NConservativeSim(b *testing.B) {
	jobs, procs := loadTrace(b, hpc2nTrace)
	b.ResetTimer()
	var replaces, moves, spared int64
	var changes uint64
	for i := 0; i < b.N; i++ {
		pol := NewBackfill("conservative", procs, Unlimited, OrderFCFS)
		simulate(b, jobs, procs, pol)
		replaces += pol.replaces
		moves += pol.moves
		spared += pol.spared
		changes += pol.pl.profiles()[0].Changes()
	}
	b.ReportMetric(float64(replaces)/float64(b.N), "replaces/op")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/op")
	b.ReportMetric(float64(spared)/float64(b.N), "spared/op")
	b.ReportMetric(float64(changes)/float64(b.N), "changes/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(changes), "ns/change")
}

const riccTrace = "../../../shared/traces/RICC-2010-2.swf.gz"

// EASY on RICC-2010 with 8192 processors (as `schedlab bench --procs
// 8192`), the trace in memory: queues of up to about 23,000 jobs, so the
// cost of a pass over a long queue shows.
func BenchmarkRICCEASYSim(b *testing.B) {
	jobs, _ := loadTrace(b, riccTrace)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		simulate(b, jobs, 8192, NewBackfill("easy", 8192, 1, OrderFCFS))
	}
}

// Conservative backfilling on RICC-2010 with 8192 processors, the trace in
// memory (about 30 s a run): the same counts as on HPC2N, over a profile
// of hundreds to thousands of breakpoints.
func BenchmarkRICCConservativeSim(b *testing.B) {
	jobs, _ := loadTrace(b, riccTrace)
	b.ResetTimer()
	var replaces, moves, spared int64
	var changes uint64
	for i := 0; i < b.N; i++ {
		pol := NewBackfill("conservative", 8192, Unlimited, OrderFCFS)
		simulate(b, jobs, 8192, pol)
		replaces += pol.replaces
		moves += pol.moves
		spared += pol.spared
		changes += pol.pl.profiles()[0].Changes()
	}
	b.ReportMetric(float64(replaces)/float64(b.N), "replaces/op")
	b.ReportMetric(float64(moves)/float64(b.N), "moves/op")
	b.ReportMetric(float64(spared)/float64(b.N), "spared/op")
	b.ReportMetric(float64(changes)/float64(b.N), "changes/op")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(changes), "ns/change")
}
