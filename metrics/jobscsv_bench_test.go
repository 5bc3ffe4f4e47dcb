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

// BenchmarkSummary adds 200,000 finished jobs to a run's summary (on the
// simulation's goroutine in a run).
func BenchmarkSummary(b *testing.B) {
	const n = 200000
	recs := make([]engine.Record, n)
	jobs := make([]actual.Job, n)
	for i := range recs {
		jobs[i] = actual.Job{ID: job.ID(i + 1), Submit: float64(1000 + 37*i), Procs: 1 + i%64}
		recs[i] = engine.Record{Job: &jobs[i], Start: jobs[i].Submit + float64(i%1000),
			End: jobs[i].Submit + float64(i%1000+i%3000), Reason: job.Backfilled, State: job.Completed}
	}
	for b.Loop() {
		s := NewSummary(240, 10)
		for i := range recs {
			s.JobFinished(recs[i].End, &recs[i])
		}
		if s.Result().Jobs != n {
			b.Fatal("jobs")
		}
	}
}
