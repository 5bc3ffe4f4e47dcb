package matrix_test

import (
	"io"
	"testing"

	"github.com/schedlab/schedlab/internal/testref"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/policy/matrix"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

// On the whole KTH-SP2 trace (27,992 jobs, 100 CPUs; embedded), the engine
// and the naive simulator agree job for job (first start, last end) under
// the default lazy windows. Jobs run their full runtime (the matrix
// policy never reads estimates; kills are the model's, tested apart).
func TestMatrixMatchesNaiveKTH(t *testing.T) {
	if testing.Short() {
		t.Skip("whole trace")
	}
	rd, err := workload.OpenTrace("KTH-SP2-1996-2.1-cln.swf.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	src := swf.NewSource(rd, swf.Options{})
	var jobs []actual.Job
	for {
		j, err := src.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	procs := src.MaxProcs()
	res := run(t, jobs, procs, matrix.Options{})
	nj := make([]testref.Job, len(jobs))
	for i, j := range jobs {
		nj[i] = testref.Job{ID: int64(j.ID), Submit: j.Submit, Duration: j.Runtime, Estimate: j.Estimate, Procs: j.Procs}
	}
	want := testref.Matrix(nj, procs, testref.MatrixRule{})
	for i, j := range jobs {
		g, w := res.jobs[j.ID], want[i]
		if g.start != w.Start || g.end != w.End {
			t.Fatalf("job %d (%d CPUs, submit %g): runs %g-%g, naive %g-%g", j.ID, j.Procs, j.Submit, g.start, g.end, w.Start, w.End)
		}
	}
	if len(res.jobs) != len(jobs) || len(jobs) != 27992 {
		t.Fatalf("%d jobs folded, %d read; want 27992", len(res.jobs), len(jobs))
	}
}
