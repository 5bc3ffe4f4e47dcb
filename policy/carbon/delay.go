package carbon

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/internal/endheap"
	"github.com/schedlab/schedlab/internal/idmap"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/signal"
	"github.com/schedlab/schedlab/policy"
)

// MaxDelay bounds Params.MaxDelay and Params.MaxEstimate: a year, in
// seconds.
const MaxDelay = 366 * 86400

// Params are the delay layer's settings.
type Params struct {
	// MaxDelay is the most a job is held, seconds (> 0): the window
	// [submit, submit + MaxDelay] whose lowest carbon intensity the job
	// waits for.
	MaxDelay float64
	// MaxEstimate, when above 0, makes only the jobs whose estimate is
	// at most MaxEstimate seconds deferrable; 0: every job.
	MaxEstimate float64
}

// ParseParams reads "MAX_S" or "MAX_S:EST_S" ('run --carbon-delay').
func ParseParams(s string) (Params, error) {
	a, b, two := strings.Cut(s, ":")
	var p Params
	var err error
	if p.MaxDelay, err = strconv.ParseFloat(strings.TrimSpace(a), 64); err != nil {
		return Params{}, fmt.Errorf("%q: the delay %q is not a number of seconds (want MAX_S or MAX_S:EST_S)", s, a)
	}
	if two {
		if p.MaxEstimate, err = strconv.ParseFloat(strings.TrimSpace(b), 64); err != nil {
			return Params{}, fmt.Errorf("%q: the estimate bound %q is not a number of seconds (want MAX_S:EST_S)", s, b)
		}
		if !(p.MaxEstimate > 0) {
			return Params{}, fmt.Errorf("%q: the estimate bound must be above 0 (leave it out for every job)", s)
		}
	}
	if err := p.Check(); err != nil {
		return Params{}, fmt.Errorf("%q: %v", s, err)
	}
	return p, nil
}

// Check reports settings out of their bounds.
func (p Params) Check() error {
	switch {
	case !(p.MaxDelay > 0 && p.MaxDelay <= MaxDelay):
		return fmt.Errorf("the delay %g s: want 0 < MAX_S <= %d", p.MaxDelay, MaxDelay)
	case !(p.MaxEstimate >= 0 && p.MaxEstimate <= MaxDelay):
		return fmt.Errorf("the estimate bound %g s: want 0 (every job) or up to %d", p.MaxEstimate, MaxDelay)
	}
	return nil
}

// Delay is a queue policy that holds deferrable jobs back from its inner
// policy until a lower carbon intensity (see the package doc).
// NodeDelay is the same over a platform of nodes; both are one core (the
// held jobs and their releases) around their inner policy.
type Delay struct {
	inner policy.QueueScheduler
	gate
}

// gate is what a delay does whatever the form of its inner policy: the
// held jobs, their release times, the counts.
type gate struct {
	sig  *signal.Signal
	p    Params
	caps policy.Caps

	held    idmap.Map[job.ID, heldJob]
	release endheap.Heap // the held jobs by (release time, id)

	deferred int64
	heldSec  float64

	// OnRelease, when set, is told of every held job handed to the
	// inner policy: job id, submitted to the layer at submit, released
	// at now
	// (tests, tools).
	OnRelease func(now float64, id job.ID, submit float64)
}

// heldJob is a held job and the time it reached the layer.
type heldJob struct {
	info job.Info
	at   float64
}

// New wraps inner: deferrable jobs reach it when the carbon intensity
// sig (gCO2/kWh) is at the lowest of their window. p must pass Check
// (ParseParams only returns such); New panics otherwise, a programming
// error.
func New(inner policy.QueueScheduler, sig *signal.Signal, p Params) *Delay {
	return &Delay{inner: inner, gate: newGate(policy.CapsOf(inner), sig, p)}
}

// newGate is a delay's core over an inner policy of capabilities in.
func newGate(in policy.Caps, sig *signal.Signal, p Params) gate {
	if err := p.Check(); err != nil {
		panic(fmt.Sprintf("carbon: %v", err))
	}
	if sig == nil {
		panic("carbon: no signal")
	}
	return gate{sig: sig, p: p, caps: in.Only(Forwards)}
}

// Inner is the wrapped policy.
func (d *Delay) Inner() policy.QueueScheduler { return d.inner }

// Params are the layer's settings.
func (d *gate) Params() Params { return d.p }

// Name is the inner policy's name.
func (d *Delay) Name() string { return d.inner.Name() }

// Deferred is the number of jobs held back at submission.
func (d *gate) Deferred() int64 { return d.deferred }

// HeldSeconds is the total time the jobs were held (release - the
// time they reached the layer, summed over the released jobs).
func (d *gate) HeldSeconds() float64 { return d.heldSec }

// Deferrable reports whether a job of estimate est may be held: every
// job, or with MaxEstimate those whose estimate is at most it.
func (d *gate) Deferrable(est float64) bool {
	return d.p.MaxEstimate == 0 || est <= d.p.MaxEstimate
}

// Release is when a deferrable job submitted at now is released: the
// first time in [now, now + MaxDelay] at which the signal takes the
// lowest value it has over that window (now itself when the value at
// now is that lowest).
func (d *gate) Release(now float64) float64 {
	_, at := d.sig.Lowest(now, now+d.p.MaxDelay)
	return at
}

// Submit passes j on, or holds it until its release time (Release)
// when it is deferrable and the carbon intensity now is above the
// lowest of its window.
func (d *Delay) Submit(now float64, j job.Info) {
	if !d.hold(now, j) {
		d.inner.Submit(now, j)
	}
}

// hold holds j until its release time when it is deferrable and the
// intensity now is above the lowest of its window, and reports whether
// it did.
func (d *gate) hold(now float64, j job.Info) bool {
	if d.Deferrable(j.Estimate) {
		if at := d.Release(now); at > now && !math.IsInf(at, 0) {
			d.deferred++
			d.held.Set(j.ID, heldJob{info: j, at: now})
			d.release.Push(endheap.Item{At: at, ID: j.ID})
			return true
		}
	}
	return false
}

// Finish tells the inner policy (a held job never runs, so never
// finishes).
func (d *Delay) Finish(now float64, id job.ID) { d.inner.Finish(now, id) }

// Schedule hands the inner policy every held job whose release time has
// come, in (release, id) order, at now; runs the inner policy's pass;
// and asks for a pass at the next release (Plan.Wake, the earlier of it
// and the inner policy's).
func (d *Delay) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	d.releaseDue(now, d.inner.Submit)
	d.inner.Schedule(now, v, plan)
	d.wake(now, plan)
}

// releaseDue hands submit every held job whose release time has come,
// in (release, id) order, at now.
func (d *gate) releaseDue(now float64, submit func(now float64, j job.Info)) {
	for len(d.release) > 0 && d.release[0].At <= now {
		it := d.release.Pop()
		h, ok := d.held.Get(it.ID)
		if !ok {
			continue
		}
		d.held.Delete(it.ID)
		d.heldSec += now - h.at
		if d.OnRelease != nil {
			d.OnRelease(now, it.ID, h.at)
		}
		submit(now, h.info)
	}
}

// wake asks for a pass at the next release (the earlier of it and the
// inner policy's Plan.Wake).
func (d *gate) wake(now float64, plan *policy.Plan) {
	if len(d.release) > 0 {
		if t := d.release[0].At; t > now && (plan.Wake <= now || t < plan.Wake) {
			plan.Wake = t
		}
	}
}

// Held is the number of jobs held now.
func (d *gate) Held() int { return len(d.release) }

// Forwards are the capabilities a Delay passes on from its inner policy
// (policy.Layer): refusals at submission (asked before the job reaches
// the layer), reservations, windows of jobs, new estimates of running
// jobs, availability planning, failures, closing and summary fields.
// Not the jobs of other partitions: the layer does not go with
// partitions.
const Forwards = policy.CapScreen | policy.CapReserve | policy.CapWindows | policy.CapReestimate |
	policy.CapAvail | policy.CapFail | policy.CapClose | policy.CapSummary

// Caps implements policy.Layer: the inner policy's capabilities among
// Forwards, as its own values.
func (d *gate) Caps() policy.Caps { return d.caps }

// Close closes the inner policy if it is an io.Closer.
func (d *gate) Close() error {
	if d.caps.Close != nil {
		return d.caps.Close.Close()
	}
	return nil
}

// ErrNoSignal is the error of a delay asked for without a carbon
// signal.
var ErrNoSignal = errors.New("the carbon-aware delay needs a carbon intensity signal (--carbon FILE, platform.carbon)")

var (
	_ policy.QueueScheduler = (*Delay)(nil)
	_ policy.Layer          = (*Delay)(nil)
	_ io.Closer             = (*Delay)(nil)
)
