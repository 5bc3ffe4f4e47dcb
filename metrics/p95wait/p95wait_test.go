package p95wait

import (
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
)

// Twenty jobs waiting 1, 2, ..., 20 s: the 95th percentile by nearest
// rank is the wait of rank ceil(0.95 x 20) = 19, 19 s. With the first
// two ended jobs (waits 1 and 2) left out, 18 jobs: rank ceil(17.1) =
// 18, the 20 s wait.
func TestValue(t *testing.T) {
	for _, c := range []struct {
		skip int64
		want float64
	}{{0, 19}, {2, 20}} {
		w := New(c.skip)
		for i := 1; i <= 20; i++ {
			j := &actual.Job{Submit: 100}
			w.JobFinished(0, &engine.Record{Job: j, Start: 100 + float64(i), End: 200})
		}
		if got := w.Value(); got != c.want {
			t.Errorf("skip %d: p95 %g, want %g", c.skip, got, c.want)
		}
	}
	if v := New(0).Value(); v != 0 {
		t.Errorf("no jobs: %g, want 0", v)
	}
}
