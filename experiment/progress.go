package experiment

import (
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/workload"
)

// ProgressEvery is how often a long run or explain prints a progress
// line (on a terminal and piped alike): SCHEDLAB_PROGRESS overrides it
// with a Go duration ("2s"; "0" prints none).
const ProgressEvery = 5 * time.Second

func progressInterval() time.Duration {
	if v := os.Getenv("SCHEDLAB_PROGRESS"); v != "" {
		if v == "0" {
			return 0
		}
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			return d
		}
	}
	return ProgressEvery
}

// runProgress is a listener that prints, every interval of wall time,
// how far the simulation is: jobs submitted and ended, the simulated
// time, the wall time so far and the rate.
type runProgress struct {
	engine.NopListener
	w          io.Writer
	what       string
	every      time.Duration
	start      time.Time
	last       time.Time
	submitted  int64
	ended      int64
	now, first float64
	lines      int
	// span, for a run of a trace (NewTraceProgress): read once the first
	// line is due, in a goroutine of its own (spanDone closed when lo and
	// hi are set; ok false: no span, no ETA).
	spanOf   func() (lo, hi float64, ok bool)
	spanDone chan struct{}
	lo, hi   float64
	spanOK   bool
	// rate is the share of the span simulated per wall second, a moving
	// average over the lines (0: none yet); prevF, prevWall the share and
	// wall time of the previous line with an estimate.
	rate, prevF, prevWall float64
}

// NewProgress returns a listener that writes a progress line of the run
// what to w every ProgressEvery (or SCHEDLAB_PROGRESS) of wall time, for
// OutputSpec.Listeners; nil when progress lines are off.
func NewProgress(w io.Writer, what string) engine.Listener {
	p := newProgress(w, what)
	if p == nil {
		return nil
	}
	return p
}

func newProgress(w io.Writer, what string) *runProgress {
	every := progressInterval()
	if every == 0 {
		return nil
	}
	t := time.Now()
	return &runProgress{w: w, what: what, every: every, start: t, last: t, first: -1}
}

func (p *runProgress) JobSubmitted(now float64, _ *actual.Job) {
	if p.first < 0 {
		p.first = now
	}
	p.submitted++
	p.tick(now)
}

func (p *runProgress) JobFinished(now float64, _ *engine.Record) { p.ended++; p.tick(now) }
func (p *runProgress) JobKilled(now float64, _ *engine.Record)   { p.ended++; p.tick(now) }

func (p *runProgress) tick(now float64) {
	p.now = now
	if (p.submitted+p.ended)&127 != 0 {
		return
	}
	t := time.Now()
	if t.Sub(p.last) < p.every {
		return
	}
	p.last = t
	p.lines++
	wall := t.Sub(p.start).Seconds()
	fmt.Fprintf(p.w, "schedlab: %s: %d jobs submitted, %d ended; simulated %.1f days since the first submission; %.0f s so far, %.0f jobs/s%s\n",
		p.what, p.submitted, p.ended, (p.now-p.first)/86400, wall, float64(p.ended)/wall, p.eta(wall))
}

// eta is the line's estimate of the time left ("" until the trace's span
// is known): the share of the span of submissions simulated so far, f,
// and the wall time the rest takes at the recent rate, (1 - f) / rate. Once
// every job is submitted the queue's drain is left, which it cannot
// foresee.
func (p *runProgress) eta(wall float64) string {
	if p.spanOf == nil {
		return ""
	}
	if p.spanDone == nil {
		p.spanDone = make(chan struct{})
		go func() {
			p.lo, p.hi, p.spanOK = p.spanOf()
			close(p.spanDone)
		}()
		return ""
	}
	select {
	case <-p.spanDone:
	default:
		return "" // still reading
	}
	if !p.spanOK || !(p.hi > p.lo) {
		return ""
	}
	f := (p.now - p.lo) / (p.hi - p.lo)
	switch {
	case f >= 1:
		return "; every job submitted, the queue draining"
	case f <= 0:
		return ""
	}
	// The rate: the share per second since the previous line, averaged
	// with the rate before it (a stretch the simulation is slow on, a
	// crowded queue, lengthens the estimate as it goes); the first
	// estimate takes the rate since the start.
	if p.rate == 0 {
		p.rate = f / wall
	} else if wall > p.prevWall {
		p.rate = 0.5*p.rate + 0.5*(f-p.prevF)/(wall-p.prevWall)
	}
	p.prevF, p.prevWall = f, wall
	if !(p.rate > 0) {
		p.rate = f / wall
	}
	left := (1 - f) / p.rate
	return fmt.Sprintf("; %.0f%% of the trace's submissions' span, about %s left", 100*f, time.Duration(left*float64(time.Second)).Round(time.Second))
}

// NewTraceProgress is NewProgress for a run of the trace of ws: once the
// first line is due it reads the trace's span of submissions (the first
// and last submit time of its records, cut to ws's From and To or its
// First jobs) in a goroutine of its own, and from then on each line also
// says how much of that span the simulation has passed and the time left
// at the rate so far. A run over before its first line reads nothing
// more. The span is of the trace's records (skipped ones too), so the
// share is close, not exact.
func NewTraceProgress(w io.Writer, what string, ws WorkloadSpec) engine.Listener {
	p := newProgress(w, what)
	if p == nil {
		return nil
	}
	p.spanOf = func() (float64, float64, bool) { return traceSpan(ws) }
	return p
}

// traceSpan reads the trace of ws for its span of submissions.
func traceSpan(ws WorkloadSpec) (lo, hi float64, ok bool) {
	rd, err := workload.OpenTraceNotify(ws.Trace, nil)
	if err != nil {
		return 0, 0, false
	}
	defer rd.Close()
	from, to := math.Inf(-1), math.Inf(1)
	h := rd.Header()
	if ws.From != "" {
		if from, err = workload.ParseInstant(ws.From, h); err != nil {
			return 0, 0, false
		}
	}
	if ws.To != "" {
		if to, err = workload.ParseInstant(ws.To, h); err != nil {
			return 0, 0, false
		}
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	var n int64
	for {
		r, err := rd.Next()
		if err != nil {
			break
		}
		if r.Submit < from || r.Submit >= to {
			continue
		}
		lo, hi = math.Min(lo, r.Submit), math.Max(hi, r.Submit)
		if n++; ws.First > 0 && n >= ws.First {
			break
		}
	}
	return lo, hi, hi > lo
}
