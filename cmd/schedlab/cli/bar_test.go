package cli

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vbauerster/mpb/v8"
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

// syncBuffer is a buffer the bar's drawing goroutine writes while the
// test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The drawn bar (a terminal's) shows an ETA above 0 mid-run: 4 of 10
// runs done at 2 s each (the clock the bar reads is the test's), so its
// moving average is 2 s a run and the 6 runs left take about 12 s.
func TestDrawnBarETAMidRun(t *testing.T) {
	var out syncBuffer
	b := drawnBar(&out, "sweep", mpb.WithAutoRefresh())
	clock := time.Unix(1000, 0)
	b.now, b.lastAdd = func() time.Time { return clock }, clock
	b.Grow(10)
	for range 4 {
		clock = clock.Add(2 * time.Second)
		b.Add(1)
	}
	eta := regexp.MustCompile(`ETA (\d+)s`)
	deadline := time.Now().Add(5 * time.Second)
	var last string
	for time.Now().Before(deadline) {
		if m := eta.FindAllStringSubmatch(out.String(), -1); m != nil {
			last = m[len(m)-1][1]
			if last != "0" && strings.Contains(out.String(), "4/10 runs") {
				break
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.b.Abort(false)
	b.p.Wait()
	if n, err := strconv.Atoi(last); err != nil || n < 10 || n > 14 {
		t.Errorf("ETA %qs mid-run, want about 12 s; drawn:\n%q", last, out.String())
	}
}

// A plain line's time left: 4 of 10 runs in 20 s, 5 s a run, 30 s left.
func TestPlainETA(t *testing.T) {
	for _, c := range []struct {
		el          time.Duration
		done, total int64
		want        string
	}{
		{20 * time.Second, 4, 10, ", about 30s left"},
		{20 * time.Second, 0, 10, ""},
		{20 * time.Second, 10, 10, ""},
	} {
		if got := plainETA(c.el, c.done, c.total); got != c.want {
			t.Errorf("%v %d/%d: %q, want %q", c.el, c.done, c.total, got, c.want)
		}
	}
}
