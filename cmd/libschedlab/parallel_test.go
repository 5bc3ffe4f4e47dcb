//go:build cgo

package main

import (
	"sync/atomic"
	"testing"
)

// parallel calls f once for each index given, whatever the number of
// goroutines, and returns after all calls.
func TestParallelCallsEachOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 64, 1000} {
		ks := make([]int, n)
		for i := range ks {
			ks[i] = 2 * i // (not 0..n-1: f gets the values, not positions)
		}
		calls := make([]atomic.Int32, 2*n+1)
		parallel(ks, func(k int) { calls[k].Add(1) })
		for k := range calls {
			want := int32(0)
			if k%2 == 0 && k < 2*n {
				want = 1
			}
			if got := calls[k].Load(); got != want {
				t.Fatalf("n=%d: f(%d) called %d times, want %d", n, k, got, want)
			}
		}
	}
}
