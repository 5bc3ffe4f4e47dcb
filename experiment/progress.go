package experiment

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
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
	fmt.Fprintf(p.w, "schedlab: %s: %d jobs submitted, %d ended; simulated %.1f days since the first submission; %.0f s so far, %.0f jobs/s\n",
		p.what, p.submitted, p.ended, (p.now-p.first)/86400, wall, float64(p.ended)/wall)
}
