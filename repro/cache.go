package repro

import (
	"fmt"

	"github.com/schedlab/schedlab/sweep"
)

// cache runs configurations (all their replications in parallel) once
// and keeps their results; K is a comparable configuration, R one
// replication's result.
type cache[K comparable, R any] struct {
	opt  Options
	run  func(c K, rep int) (R, error)
	jobs func(R) int64
	m    map[K][]R
	n    int64 // simulated jobs so far
}

func newCache[K comparable, R any](opt Options, run func(K, int) (R, error), jobs func(R) int64) *cache[K, R] {
	return &cache[K, R]{opt: opt, run: run, jobs: jobs, m: map[K][]R{}}
}

// eval runs every configuration not yet in the cache.
func (c *cache[K, R]) eval(cfgs []K) error {
	var todo []K
	seen := map[K]bool{}
	for _, k := range cfgs {
		if _, ok := c.m[k]; !ok && !seen[k] {
			seen[k] = true
			todo = append(todo, k)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	reps := c.opt.Reps
	if reps < 1 || reps > MaxReps {
		return fmt.Errorf("%d replications, want 1..%d", reps, MaxReps)
	}
	c.opt.Progress.Grow(len(todo) * reps)
	res, err := sweep.Parallel(len(todo)*reps, c.opt.Workers, c.opt.Progress, func(i int) (R, error) {
		return c.run(todo[i/reps], i%reps)
	})
	if err != nil {
		return err
	}
	for k, cfg := range todo {
		c.m[cfg] = res[k*reps : (k+1)*reps]
		for _, r := range c.m[cfg] {
			c.n += c.jobs(r)
		}
	}
	return nil
}

// col returns metric f of configuration k over its replications.
func (c *cache[K, R]) col(k K, f func(R) float64) []float64 {
	rs, ok := c.m[k]
	if !ok {
		panic(fmt.Sprintf("repro: configuration %+v was not evaluated", k))
	}
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = f(r)
	}
	return out
}
