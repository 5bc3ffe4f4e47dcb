package predict_test

import (
	"io"
	"os"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/predict"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

const hpc2nTrace = "../../../shared/traces/HPC2N-2002-2.1-cln.swf.gz"

// loadTrace reads a whole trace into memory, requested times as
// estimates; it skips when the trace is not there.
func loadTrace(tb testing.TB, path string) ([]actual.Job, int) {
	tb.Helper()
	if _, err := os.Stat(path); err != nil {
		tb.Skipf("trace %s not available", path)
	}
	rd, err := swf.Open(path)
	if err != nil {
		tb.Fatal(err)
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
			tb.Fatal(err)
		}
		jobs = append(jobs, j)
	}
}

// waits sums the jobs' waits.
type waits struct {
	engine.NopListener
	sum  float64
	n    int
	recs []validate.Rec
}

func (w *waits) add(r *engine.Record) {
	w.sum += r.Wait()
	w.n++
	if w.recs != nil {
		w.recs = append(w.recs, validate.Rec{ID: int64(r.Job.ID), Submit: r.Job.Submit, Start: r.Start, Finish: r.End,
			Procs: r.Job.Procs, State: r.State.String()})
	}
}
func (w *waits) JobFinished(now float64, r *engine.Record) { w.add(r) }
func (w *waits) JobKilled(now float64, r *engine.Record)   { w.add(r) }

func runTrace(tb testing.TB, pol policy.QueueScheduler, jobs []actual.Job, procs int, l *waits) {
	c, err := engine.NewCluster(engine.ClusterConfig{Platform: platform.MustCluster(procs), Policy: pol,
		Source: workload.FromSlice(jobs), Listener: l})
	if err != nil {
		tb.Fatal(err)
	}
	if err := c.Run(); err != nil {
		tb.Fatal(err)
	}
}

// EASY with last2 predictions on the whole HPC2N trace (202,876 jobs):
// the schedule passes the independent validator, most jobs get a
// prediction from history, and corrections happen (the trace's users
// are often wrong about their next job).
func TestHPC2NPredicted(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole trace")
	}
	jobs, procs := loadTrace(t, hpc2nTrace)
	pr := predict.New(backfill.NewBackfill("easy", procs, 1, backfill.OrderFCFS), predict.Params{})
	l := &waits{recs: []validate.Rec{}}
	runTrace(t, pr, jobs, procs, l)
	in := make([]validate.Input, len(jobs))
	for i, j := range jobs {
		in[i] = validate.Input{ID: int64(j.ID), Submit: j.Submit, Runtime: j.Runtime, Request: j.Request, Procs: j.Procs}
	}
	if err := validate.Check(in, l.recs, validate.Options{Procs: procs, Kill: true}); err != nil {
		t.Fatal(err)
	}
	if l.n != len(jobs) || pr.Predicted() < int64(len(jobs))/2 || pr.Corrected() == 0 {
		t.Fatalf("%d jobs ran of %d; %d predicted from history, %d corrected", l.n, len(jobs), pr.Predicted(), pr.Corrected())
	}
	plain := &waits{}
	runTrace(t, backfill.NewBackfill("easy", procs, 1, backfill.OrderFCFS), jobs, procs, plain)
	t.Logf("HPC2N, %d jobs: %d predicted from history, %d corrections of %d jobs; mean wait %.0f s (EASY with requests: %.0f s)",
		len(jobs), pr.Predicted(), pr.Corrections(), pr.Corrected(), l.sum/float64(l.n), plain.sum/float64(plain.n))
}

// EASY with last2 predictions on HPC2N, the trace in memory: the cost of
// the predictor and of the passes its wake-ups add.
func BenchmarkHPC2NEASYPredicted(b *testing.B) {
	jobs, procs := loadTrace(b, hpc2nTrace)
	b.ResetTimer()
	var corr int64
	for i := 0; i < b.N; i++ {
		pr := predict.New(backfill.NewBackfill("easy", procs, 1, backfill.OrderFCFS), predict.Params{})
		runTrace(b, pr, jobs, procs, &waits{})
		corr += pr.Corrections()
	}
	b.ReportMetric(float64(corr)/float64(b.N), "corrections/op")
}
