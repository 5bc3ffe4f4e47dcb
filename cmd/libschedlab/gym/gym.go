package gym

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedlab/schedlab/policy/external"
)

// The observation's layout: Features numbers per slot of the window,
// then MachineFeatures for the machine.
const (
	Features        = 5 // present, CPUs, estimate, waited, fits now
	MachineFeatures = 3 // free CPUs, running jobs, waiting jobs
)

// Config is the environment's shape and scales (SchedulingEnv's window,
// time_scale and queue_scale).
type Config struct {
	Window     int     // slots, >= 1
	TimeScale  float64 // seconds that map to 1 (estimate, waited)
	QueueScale float64 // waiting jobs that map to 1
}

// Runner is a run driven one instant at a time (*inproc.Sim): Next
// hands it the decision for the current instant and returns the next
// request, nil at the end (with the run's failure, if any).
type Runner interface {
	Next(external.Decision) (*external.Request, error)
}

// Env is one episode: a run and the window over its queue. Build it
// with New, call Start once, then Step until it returns false.
type Env struct {
	cfg  Config
	run  Runner
	obs  []float32 // the caller's: Window*Features + MachineFeatures
	mask []int8    // the caller's: Window

	req   *external.Request // the current instant's request
	now   float64           // its time (the last request's after the end)
	cpus  float64           // the platform's CPUs, all machines
	free  int               // CPUs of machine 0 still free at this instant
	rows  []int             // the window: per slot, its job's index in req.Waiting
	next  int               // the first index in req.Waiting not yet in the window
	picks []external.Exec   // this instant's picks, in order

	started, ended bool
}

// New prepares an episode on run, which must not have been stepped yet.
// obs and mask are the caller's buffers, which the Env fills (zeroed
// here); they must stay valid until the episode ends.
func New(run Runner, cfg Config, obs []float32, mask []int8) (*Env, error) {
	if cfg.Window < 1 {
		return nil, fmt.Errorf("gym: window %d (want >= 1)", cfg.Window)
	}
	for _, sc := range []struct {
		name string
		v    float64
	}{{"time_scale", cfg.TimeScale}, {"queue_scale", cfg.QueueScale}} {
		if !(sc.v > 0) || math.IsInf(sc.v, 0) {
			return nil, fmt.Errorf("gym: %s=%g: want a finite number > 0", sc.name, sc.v)
		}
	}
	if len(obs) != cfg.Window*Features+MachineFeatures || len(mask) != cfg.Window {
		return nil, fmt.Errorf("gym: buffers of %d and %d elements for a window of %d (want %d and %d)",
			len(obs), len(mask), cfg.Window, cfg.Window*Features+MachineFeatures, cfg.Window)
	}
	clear(obs)
	clear(mask)
	return &Env{cfg: cfg, run: run, obs: obs, mask: mask, rows: make([]int, 0, cfg.Window)}, nil
}

// Now is the current instant's time (after the end, the last request's).
func (e *Env) Now() float64 { return e.now }

// Ended reports whether the run has ended (Step then fails).
func (e *Env) Ended() bool { return e.ended }

// Start runs to the first instant at which some job of the window fits
// and fills the observation and the mask; false when the run ended
// before (or failed: err).
func (e *Env) Start() (bool, error) {
	if e.started {
		return false, errors.New("gym: Start called twice")
	}
	e.started = true
	return e.advance()
}

// Step starts the job of slot action at this instant; an action that is
// not legal (out of range, or its slot's mask 0) is replaced by the
// first legal slot, and replaced says so. It then fills the observation
// and the mask of the next decision and returns true, or returns false
// at the end of the run (or on its failure: err).
func (e *Env) Step(action int) (ok, replaced bool, err error) {
	if !e.started || e.ended {
		return false, false, errors.New("gym: Step before Start or after the end")
	}
	n, F, o := len(e.rows), Features, e.obs
	replaced = action < 0 || action >= n || e.mask[action] == 0
	if replaced {
		action = 0
		for e.mask[action] == 0 { // (an instant always has a legal slot)
			action++
		}
	}
	j := &e.req.Waiting[e.rows[action]]
	e.picks = append(e.picks, external.Exec{ID: j.ID})
	e.free -= j.Procs
	// the slot leaves the window: the later ones move up one, and the
	// next waiting job (if any) enters the last slot
	copy(o[action*F:(n-1)*F], o[(action+1)*F:n*F])
	e.rows = append(e.rows[:action], e.rows[action+1:]...)
	if e.next < len(e.req.Waiting) {
		e.row(n-1, e.next)
		e.rows = append(e.rows, e.next)
		e.next++
	} else {
		clear(o[(n-1)*F : n*F])
		e.mask[n-1] = 0
	}
	if e.fits() {
		return true, replaced, nil
	}
	ok, err = e.advance()
	return ok, replaced, err
}

// advance hands the instant's picks to the run and runs on to the next
// instant at which some job of the window fits; false at the end.
func (e *Env) advance() (bool, error) {
	for {
		r, err := e.run.Next(external.Decision{Starts: e.picks})
		e.picks = e.picks[:0]
		if r != nil && r.Ends { // (its decision is ignored)
			e.now = r.Now
			r, err = e.run.Next(external.Decision{})
		}
		if r == nil {
			e.ended, e.req = true, nil
			return false, err
		}
		e.now = r.Now
		if e.instant(r) {
			return true, nil
		}
	}
}

// instant builds the window of a new instant, nothing picked yet, and
// reports whether some job of it fits.
func (e *Env) instant(r *external.Request) bool {
	if e.cpus == 0 {
		e.cpus = float64(r.Platform.CPUs())
	}
	e.req = r
	n, was := min(len(r.Waiting), e.cfg.Window), len(e.rows)
	e.rows = e.rows[:0]
	for k := range n {
		e.row(k, k)
		e.rows = append(e.rows, k)
	}
	if was > n { // (beyond the window, the slots are kept at 0)
		clear(e.obs[n*Features : was*Features])
		clear(e.mask[n:was])
	}
	e.next = n
	e.free = r.Free[0]
	b := e.cfg.Window * Features
	e.obs[b+1] = clip(float64(r.Running) / e.cpus)
	e.obs[b+2] = clip(float64(len(r.Waiting)) / e.cfg.QueueScale)
	return e.fits()
}

// row writes the features of queue index k into slot s, "fits now" 0
// (fits sets it).
func (e *Env) row(s, k int) {
	j := &e.req.Waiting[k]
	o := e.obs[s*Features : (s+1)*Features]
	o[0] = 1
	o[1] = clip(float64(j.Procs) / e.cpus)
	o[2] = clip(j.Estimate / e.cfg.TimeScale)
	o[3] = clip((e.now - j.Submit) / e.cfg.TimeScale)
	o[4] = 0
}

// fits marks the slots whose job fits the CPUs still free (mask and
// "fits now") and the free CPUs; false when none fits (the instant is
// over).
func (e *Env) fits() bool {
	some := false
	for s, k := range e.rows {
		var f int8
		if e.req.Waiting[k].Procs <= e.free {
			f, some = 1, true
		}
		e.mask[s] = f
		e.obs[s*Features+4] = float32(f)
	}
	if some {
		e.obs[e.cfg.Window*Features] = clip(float64(e.free) / e.cpus)
	}
	return some
}

// clip is x in [0, 1] as a float32 (NaN stays NaN, as numpy's clip).
func clip(x float64) float32 {
	switch {
	case x > 1:
		return 1
	case x < 0:
		return 0
	}
	return float32(x)
}
