package experiment

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Progress is told how many tasks have completed.
type Progress interface {
	Add(done int)
}

// Workers resolves a requested worker count: 0 or less means all cores.
func Workers(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// Parallel runs f(0..n-1) on up to workers goroutines and returns the
// results by index. Each task must be deterministic and independent, so
// the results do not depend on the number of workers or on timing. If
// tasks fail, the error returned is that of the lowest-indexed failing task
// (every task below it still runs, so which one that is does not depend on
// timing either); tasks above the lowest failure are skipped.
func Parallel[T any](n, workers int, prog Progress, f func(i int) (T, error)) ([]T, error) {
	out := make([]T, n)
	errs := make([]error, n)
	workers = min(Workers(workers), n)
	var next atomic.Int64
	var lowestFail atomic.Int64
	lowestFail.Store(int64(n))
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || int64(i) > lowestFail.Load() {
					return
				}
				out[i], errs[i] = f(i)
				if errs[i] != nil {
					for {
						cur := lowestFail.Load()
						if int64(i) >= cur || lowestFail.CompareAndSwap(cur, int64(i)) {
							break
						}
					}
				}
				if prog != nil {
					prog.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
