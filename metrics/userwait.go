package metrics

import (
	"github.com/schedlab/schedlab/engine"
)

// UserWaits measures the mean wait of the jobs of chosen users (the
// cluster model's per-user metrics "user<u>_mean_wait"). Like Summary
// after Skip(n), it leaves the first n ended jobs out (a warm-up).
type UserWaits struct {
	engine.NopListener
	users []int32
	skip  int64
	sum   []float64
	n     []int64
}

// NewUserWaits measures the users listed (a user may be listed more
// than once; each entry gets its own, equal, mean), skipping the first
// skip ended jobs.
func NewUserWaits(users []int32, skip int64) *UserWaits {
	return &UserWaits{users: users, skip: skip, sum: make([]float64, len(users)), n: make([]int64, len(users))}
}

func (w *UserWaits) JobFinished(now float64, r *engine.Record) { w.add(r) }
func (w *UserWaits) JobKilled(now float64, r *engine.Record)   { w.add(r) }

func (w *UserWaits) add(r *engine.Record) {
	if w.skip > 0 {
		w.skip--
		return
	}
	for i, u := range w.users {
		if r.Job.User == u {
			w.sum[i] += r.Wait()
			w.n[i]++
		}
	}
}

// Means are the users' mean waits, in the order listed; 0 for a user
// with no measured job.
func (w *UserWaits) Means() []float64 {
	out := make([]float64, len(w.users))
	for i := range w.users {
		if w.n[i] > 0 {
			out[i] = w.sum[i] / float64(w.n[i])
		}
	}
	return out
}
