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

// The simulation alone, the trace already in memory: EASY on HPC2N (the
// rest of BenchmarkHPC2NEASY is reading, on a goroutine of its own).
func BenchmarkHPC2NEASYSim(b *testing.B) {
	jobs, procs := loadTrace(b, hpc2nTrace)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		pol := NewBackfill("easy", procs, 1, OrderFCFS)
		c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: pol,
			Source: workload.FromSlice(jobs), Listener: engine.NopListener{}})
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Run(); err != nil {
			b.Fatal(err)
		}
	}
}
