package experiment

import (
	"io"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/tsafrir"
)

// estimate tsafrir: a job with a request keeps it; a job without one
// gets one of the model's values, at least its runtime; the same seed
// and replication draw the same requests.
func TestTsafrirRequestsOnlyMissing(t *testing.T) {
	jobs := []actual.Job{
		{ID: 1, Runtime: 100, Request: 600, Procs: 1},
		{ID: 2, Runtime: 5000, Request: -1, Procs: 1},
		{ID: 3, Runtime: 30, Request: -1, Procs: 1},
		{ID: 4, Runtime: 70000, Request: -1, Procs: 1}, // over the 18 h maximum
	}
	m, err := tsafrir.New(tsafrir.Default(), rng.New(9, 0, "tsafrir-histogram"))
	if err != nil {
		t.Fatal(err)
	}
	values := map[float64]bool{}
	for _, v := range m.Values() {
		values[float64(v.Seconds)] = true
	}
	draw := func(rep int) []actual.Job {
		src, err := tsafrirRequests(workload.FromSlice(append([]actual.Job(nil), jobs...)), 9, rep)
		if err != nil {
			t.Fatal(err)
		}
		var out []actual.Job
		for {
			j, err := src.Next()
			if err == io.EOF {
				return out
			}
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, j)
		}
	}
	a := draw(0)
	if a[0].Request != 600 || a[0].Estimate != 600 {
		t.Fatalf("job 1 request %g estimate %g: want its own 600", a[0].Request, a[0].Estimate)
	}
	for _, j := range a[1:3] {
		if j.Request < j.Runtime || !values[j.Request] || j.Estimate != j.Request {
			t.Fatalf("job %d: request %g estimate %g for runtime %g: want a model value >= the runtime", j.ID, j.Request, j.Estimate, j.Runtime)
		}
	}
	if a[3].Request != 70020 { // the runtime rounded up to the minute
		t.Fatalf("job 4 (over the maximum): request %g, want 70020", a[3].Request)
	}
	b := draw(0)
	for i := range a {
		if a[i].Request != b[i].Request {
			t.Fatal("same seed and replication, different requests")
		}
	}
}
