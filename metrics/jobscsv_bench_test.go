package metrics

import (
	"io"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
)

// BenchmarkJobsCSV formats and writes 200,000 rows shaped like HPC2N's
// (whole-second times, a stretch that is not whole, one run of CPUs) to
// io.Discard: the formatting goroutines' share of a whole run.
func BenchmarkJobsCSV(b *testing.B) {
	const n = 200000
	var cpus platform.Runs
	for b.Loop() {
		w := NewJobsCSV(io.Discard)
		for i := range n {
			j := actual.Job{ID: job.ID(i + 1), Submit: float64(1000 + 37*i), Request: 3600, Procs: 1 + i%64,
				User: int32(i % 97), Group: 1, Partition: -1}
			cpus = cpus[:0].AddRun(int32(i%100), int32(i%100+j.Procs-1))
			rec := engine.Record{Job: &j, Start: j.Submit + float64(i%1000), End: j.Submit + float64(i%1000+1+i%3000),
				Reason: job.Backfilled, State: job.Completed, Machine: 0, CPUs: cpus}
			w.JobFinished(rec.End, &rec)
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
	}
}
