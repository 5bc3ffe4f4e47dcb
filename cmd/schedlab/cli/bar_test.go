package cli

import (
	"bytes"
	"testing"
	"time"
)

// The bar's moving average is fed the real time between reports, so
// its ETA is not 0 mid-run (it was fed a constant millisecond a report).
func TestBarFeedsRealDurations(t *testing.T) {
	clock := time.Unix(1000, 0)
	var got []time.Duration
	b := &bar{now: func() time.Time { return clock }, lastAdd: clock,
		incr: func(n int, d time.Duration) { got = append(got, d/time.Duration(n)) }}
	b.Grow(10)
	for _, step := range []time.Duration{2 * time.Second, 3 * time.Second, time.Second} {
		clock = clock.Add(step)
		b.Add(1)
	}
	clock = clock.Add(4 * time.Second)
	b.Add(2)
	want := []time.Duration{2 * time.Second, 3 * time.Second, time.Second, 2 * time.Second}
	if len(got) != len(want) {
		t.Fatalf("fed %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("report %d: %v a run, want %v", i, got[i], want[i])
		}
	}
}

// Not a terminal, or a terminal of no size: plain lines, never a drawn
// bar that shows nothing.
func TestBarPlainWithoutSize(t *testing.T) {
	var buf bytes.Buffer
	if b := newBar(&buf, "x"); b.b != nil || b.plain == nil {
		t.Errorf("a buffer got a drawn bar")
	}
	if hasSize(&buf) {
		t.Error("a buffer has a size")
	}
}
