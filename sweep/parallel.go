package sweep

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/schedlab/schedlab/internal/addrspace"
)

// Progress is told how many tasks have completed.
type Progress interface {
	Add(done int)
}

// Workers resolves a requested worker count: 0 or less means all
// cores, or fewer under an address-space limit (ulimit -v): one per
// addrspace.PerWorker (256 MB) the limit leaves, at least one.
func Workers(n int) int {
	if n <= 0 {
		return addrspace.Workers(runtime.GOMAXPROCS(0))
	}
	return n
}

// Each runs f(0..n-1) on up to workers goroutines. Each task must be
// deterministic and independent, so that what the tasks compute does not
// depend on the number of workers or on timing. Each keeps nothing per
// task: its memory does not grow with n, so tasks can be generated from
// their index as they are taken. If tasks fail, the error returned is
// that of the lowest-indexed failing task (every task below it still
// runs, so which one that is does not depend on timing either); tasks
// above the lowest failure are skipped.
func Each(n, workers int, prog Progress, f func(i int) error) error {
	workers = min(Workers(workers), n)
	var next atomic.Int64
	var mu sync.Mutex
	lowest, lowestErr := n, error(nil) // the lowest failing task, under mu
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
				if err := try(i, f); err != nil {
					mu.Lock()
					if i < lowest {
						lowest, lowestErr = i, err
						lowestFail.Store(int64(i))
					}
					mu.Unlock()
				}
				if prog != nil {
					prog.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return lowestErr
}

// PanicError is a task that panicked: a bug, reported as an error so
// that the other tasks end and the command can say so (exit status 3)
// instead of the process dying with a goroutine dump.
type PanicError struct {
	Task  int
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("internal error (a bug; please report it with the command line): task %d panicked: %v", e.Task, e.Value)
}

// try runs f(i), turning a panic into a *PanicError.
func try(i int, f func(int) error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Task: i, Value: v, Stack: debug.Stack()}
		}
	}()
	return f(i)
}
