package sweep

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

// Each reports the lowest failing task's error whatever the number of
// workers, and turns a panicking task into a *PanicError (not a crash).
func TestEach(t *testing.T) {
	for _, workers := range []int{1, 2, 7} {
		var ran atomic.Int64
		err := Each(100, workers, nil, func(i int) error {
			ran.Add(1)
			switch i {
			case 40:
				panic("boom")
			case 60:
				return fmt.Errorf("task %d", i)
			}
			return nil
		})
		var pe *PanicError
		if !errors.As(err, &pe) || pe.Task != 40 || pe.Value != "boom" || len(pe.Stack) == 0 {
			t.Errorf("workers %d: got %v, want task 40's panic", workers, err)
		}
		if ran.Load() < 41 {
			t.Errorf("workers %d: ran %d tasks, want every task up to 40", workers, ran.Load())
		}
	}
	if err := Each(0, 4, nil, func(int) error { panic("no task") }); err != nil {
		t.Errorf("no tasks: %v", err)
	}
}
