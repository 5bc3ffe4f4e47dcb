package experiment

import (
	"testing"
)

// The progress line's time left, worked by hand on a span of
// submissions from 0 to 100 s: at simulated 25 after 10 s of wall time
// a quarter is done at 0.025 a second, so 0.75 / 0.025 = 30 s are left;
// at 50 after 30 s the last 20 s did 0.25 (0.0125 a second), averaged
// with 0.025: 0.01875, and 0.5 / 0.01875 = 26.7 s, about 27 s; at 100
// every job is submitted. Before the span is read a line has none.
func TestProgressETA(t *testing.T) {
	p := &runProgress{spanOf: func() (float64, float64, bool) { return 0, 100, true }}
	if s := p.eta(5); s != "" {
		t.Fatalf("before the span is read: %q", s)
	}
	<-p.spanDone
	for _, c := range []struct {
		now, wall float64
		want      string
	}{
		{25, 10, "; 25% of the trace's submissions' span, about 30s left"},
		{50, 30, "; 50% of the trace's submissions' span, about 27s left"},
		{100, 40, "; every job submitted, the queue draining"},
	} {
		p.now = c.now
		if got := p.eta(c.wall); got != c.want {
			t.Errorf("at %g after %g s: %q, want %q", c.now, c.wall, got, c.want)
		}
	}
	// No span (a trace without two submission times): no estimate.
	q := &runProgress{spanOf: func() (float64, float64, bool) { return 0, 0, false }}
	q.eta(1)
	<-q.spanDone
	if q.now = 5; q.eta(2) != "" {
		t.Error("an estimate without a span")
	}
}

// traceSpan reads the first and last submissions, cut to the window or
// the first jobs: testdata/explain.swf submits jobs 1-5 at 0, 1, 2, 3, 4.
func TestTraceSpan(t *testing.T) {
	for _, c := range []struct {
		ws     WorkloadSpec
		lo, hi float64
	}{
		{WorkloadSpec{Trace: "testdata/explain.swf"}, 0, 4},
		{WorkloadSpec{Trace: "testdata/explain.swf", First: 3}, 0, 2},
		{WorkloadSpec{Trace: "testdata/explain.swf", From: "1", To: "4"}, 1, 3},
	} {
		lo, hi, ok := traceSpan(c.ws)
		if !ok || lo != c.lo || hi != c.hi {
			t.Errorf("%+v: %g %g %v, want %g %g", c.ws, lo, hi, ok, c.lo, c.hi)
		}
	}
	if _, _, ok := traceSpan(WorkloadSpec{Trace: "testdata/no-such.swf"}); ok {
		t.Error("a span of a missing trace")
	}
}
