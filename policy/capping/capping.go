package capping

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/schedlab/schedlab/internal/idmap"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/powercap"
	"github.com/schedlab/schedlab/policy"
)

// farEnd is the end of the virtual window of a cap's last step, which
// lasts for ever (a finite time, after any job's end).
const farEnd = 1e300

// Capper is the power-capping layer around a queue policy (see the
// package doc).
type Capper struct {
	inner   policy.QueueScheduler
	caps    policy.Caps
	innerAv policy.AvailabilityPlanner
	model   powercap.Model
	cpus    int
	// times and allow: the cap's steps and the busy CPUs each allows;
	// sufMin[k] the least of allow[k:]; k the step in force at the last
	// pass.
	times  []float64
	allow  []int
	sufMin []int
	k      int
	maxW   float64

	jobs    idmap.Map[job.ID, jobInfo] // jobs waiting in the inner policy
	running []runJob                   // the running jobs, in no order
	where   idmap.Map[job.ID, int]     // their index in running
	busy    int
	reject  []job.ID // jobs to reject at the next pass

	view  capView
	ends  []runJob // scratch: running jobs by end
	hz    []float64
	plat  platform.Platform
	last  float64
	held  int // idle CPUs the cap kept from the jobs waiting since the last pass (0: none waited)
	heldS float64
	heldC float64
	nRej  int64
}

type jobInfo struct {
	procs     int
	est, bmEs float64
}

type runJob struct {
	id    job.ID
	procs int
	end   float64 // estimated end
}

// ErrMachines is the error of a layer asked for on a platform of more
// than one machine.
var ErrMachines = errors.New("the power-capping layer runs on a platform of one machine (a trace run's)")

// New wraps inner under the cap of the steps times, watts (engine.PowerCap's
// form: watts[k] from times[k], +Inf none) with the pool model m, on a
// platform of one machine of cpus CPUs.
func New(inner policy.QueueScheduler, times, watts []float64, m powercap.Model, plat platform.Platform) (*Capper, error) {
	if plat.Machines() != 1 {
		return nil, ErrMachines
	}
	if len(times) == 0 || len(times) != len(watts) {
		return nil, errors.New("capping: want one cap a time, at least one step")
	}
	c := &Capper{inner: inner, model: m, cpus: plat.CPUs(), plat: plat, times: slices.Clone(times), maxW: slices.Max(watts)}
	in := policy.CapsOf(inner)
	c.caps = in.Only(Forwards)
	if in.Avail != nil {
		c.caps.Avail, c.innerAv = c, in.Avail
	}
	for _, w := range watts {
		a := m.MaxBusy(c.cpus, w)
		if a < 0 {
			return nil, fmt.Errorf("a cap of %g W is below the machine's idle draw, %g W (%d CPUs at %g W idle)", w, m.Power(c.cpus, 0, 0, 0, 0), c.cpus, m.IdleW)
		}
		c.allow = append(c.allow, a)
	}
	c.sufMin = make([]int, len(c.allow))
	for k := len(c.allow) - 1; k >= 0; k-- {
		c.sufMin[k] = c.allow[k]
		if k+1 < len(c.allow) {
			c.sufMin[k] = min(c.sufMin[k], c.sufMin[k+1])
		}
	}
	c.view.c = c
	return c, nil
}

// Name is the inner policy's name.
func (c *Capper) Name() string { return c.inner.Name() }

// Inner is the wrapped policy.
func (c *Capper) Inner() policy.QueueScheduler { return c.inner }

// Allow is the most CPUs the cap lets run jobs over step k of the cap
// (the steps New was given).
func (c *Capper) Allow(k int) int { return c.allow[k] }

// HeldS is the time during which jobs waited in the inner policy while
// the cap kept idle CPUs from it; HeldCPUS those CPUs times that time.
func (c *Capper) HeldS() float64    { return c.heldS }
func (c *Capper) HeldCPUS() float64 { return c.heldC }

// Rejected is the jobs rejected because they could not run under the
// highest cap even on an idle machine.
func (c *Capper) Rejected() int64 { return c.nRej }

// Submit passes j on, or keeps it for rejection when no cap lets it run.
func (c *Capper) Submit(now float64, j job.Info) {
	if c.model.Power(c.cpus, j.Procs, 0, 0, 0) > c.maxW {
		c.reject = append(c.reject, j.ID)
		return
	}
	c.jobs.Set(j.ID, jobInfo{procs: j.Procs, est: j.Estimate, bmEs: j.BMEst})
	c.inner.Submit(now, j)
}

// Finish forgets the running job and passes on.
func (c *Capper) Finish(now float64, id job.ID) {
	var i int
	if c.where.Take(id, &i) {
		r := c.running[i]
		c.busy -= r.procs
		last := len(c.running) - 1
		if i != last {
			c.running[i] = c.running[last]
			c.where.Set(c.running[i].id, i)
		}
		c.running = c.running[:last]
	}
	c.inner.Finish(now, id)
}

// PlanAvailability hands the inner policy the cap as windows of CPUs
// (with the run's own windows, of which a capped run has none).
func (c *Capper) PlanAvailability(ws []policy.Window) {
	out := slices.Clone(ws)
	for k, a := range c.allow {
		if a >= c.cpus {
			continue
		}
		end := farEnd
		if k+1 < len(c.times) {
			end = c.times[k+1]
		}
		var cpus platform.Runs
		for cpu := a; cpu < c.cpus; cpu++ {
			cpus = cpus.Add(int32(cpu))
		}
		// merge with the window before when it is the same CPUs
		if n := len(out); n > 0 && out[n-1].End == c.times[k] && slices.Equal(out[n-1].CPUs, cpus) {
			out[n-1].End = end
			continue
		}
		out = append(out, policy.Window{Start: c.times[k], End: end, Machine: 0, CPUs: cpus})
	}
	if c.innerAv != nil {
		c.innerAv.PlanAvailability(out)
	}
}

// step moves k to the cap's step at now.
func (c *Capper) step(now float64) {
	for c.k+1 < len(c.times) && c.times[c.k+1] <= now {
		c.k++
	}
}

// Schedule is one pass: the inner policy's, over a view of the machine
// whose idle CPUs are as many as the cap lets start now, with their
// horizons; then the pass's starts are counted running until their
// estimated ends.
func (c *Capper) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	if c.held > 0 {
		c.heldS += now - c.last
		c.heldC += float64(c.held) * (now - c.last)
	}
	c.step(now)
	// The cluster model's view is an AvailabilityView whenever the run
	// has a cap (engine.ClusterConfig.Cap sets availability up).
	av := v.(policy.AvailabilityView)
	free := av.Free(0)
	shown := max(0, min(free, c.allow[c.k]-c.busy))
	c.view.AvailabilityView, c.view.now, c.view.free = av, now, shown
	c.inner.Schedule(now, &c.view, plan)
	started := 0
	for _, st := range plan.Starts {
		var ji jobInfo
		if !c.jobs.Take(st.ID, &ji) {
			continue
		}
		started += ji.procs
		end := now + c.plat.Machine(st.Machine).Duration(ji.est, ji.bmEs)
		c.where.Set(st.ID, len(c.running))
		c.running = append(c.running, runJob{st.ID, ji.procs, end})
		c.busy += ji.procs
	}
	for _, id := range plan.Rejects {
		c.jobs.Delete(id)
	}
	for _, id := range c.reject {
		plan.Reject(id)
		c.nRej++
	}
	c.reject = c.reject[:0]
	c.held, c.last = 0, now
	if c.jobs.Len() > 0 {
		c.held = free - shown
	}
}

// capView is the inner policy's view: the idle CPUs the cap lets start
// now, with the horizons of the cap's windows.
type capView struct {
	policy.AvailabilityView
	c    *Capper
	now  float64
	free int
}

func (v *capView) Free(m int) int { return v.free }

// Horizons: the k-th of the Free CPUs (k = 1..Free) has the horizon of
// the first time t after now at which A(t) - B(t) < k, ascending.
func (v *capView) Horizons(m int, dst []float64) []float64 {
	c := v.c
	n := v.free
	if n == 0 {
		return dst
	}
	h := c.hz[:0]
	for range n {
		h = append(h, math.Inf(1))
	}
	c.ends = append(c.ends[:0], c.running...)
	slices.SortFunc(c.ends, func(a, b runJob) int {
		switch {
		case a.end < b.end:
			return -1
		case a.end > b.end:
			return 1
		}
		return 0
	})
	// B(t) for t > now: the running jobs whose estimated end is after t
	// (a job past its estimated end is counted at now only, as the
	// backfilling policies hold it).
	b := 0
	i := 0
	for i < len(c.ends) && c.ends[i].end <= v.now {
		i++
	}
	for _, r := range c.ends[i:] {
		b += r.procs
	}
	remaining := n // CPUs 1..remaining have no horizon yet
	k := c.k + 1   // the next step of the cap
	for remaining > 0 {
		// the next change point: a job's end or a step of the cap
		t := math.Inf(1)
		if i < len(c.ends) {
			t = c.ends[i].end
		}
		if k < len(c.times) && c.times[k] < t {
			t = c.times[k]
		}
		if math.IsInf(t, 1) {
			break
		}
		for i < len(c.ends) && c.ends[i].end == t {
			b -= c.ends[i].procs
			i++
		}
		for k < len(c.times) && c.times[k] <= t {
			k++
		}
		if hr := c.allow[k-1] - b; hr < remaining {
			for j := max(hr, 0); j < remaining; j++ {
				h[j] = t
			}
			remaining = max(hr, 0)
		}
		if i == len(c.ends) && (k >= len(c.times) || c.sufMin[k] >= remaining) {
			break
		}
	}
	slices.Sort(h)
	c.hz = h
	return append(dst, h...)
}

// Forwards are the capabilities a Capper passes on from its inner
// policy (policy.Layer): refusals at submission, reservations, windows
// of jobs, new estimates, failures of the policy itself, closing and
// summary fields; availability planning it takes itself (the cap's
// windows), when the inner policy has it. Not the jobs of other
// partitions: the cap does not go with partitions.
const Forwards = policy.CapScreen | policy.CapReserve | policy.CapWindows | policy.CapReestimate |
	policy.CapFail | policy.CapClose | policy.CapSummary

// Caps implements policy.Layer.
func (c *Capper) Caps() policy.Caps { return c.caps }

// Close closes the inner policy if it is an io.Closer.
func (c *Capper) Close() error {
	if c.caps.Close != nil {
		return c.caps.Close.Close()
	}
	return nil
}

var (
	_ policy.QueueScheduler      = (*Capper)(nil)
	_ policy.Layer               = (*Capper)(nil)
	_ policy.AvailabilityPlanner = (*Capper)(nil)
	_ io.Closer                  = (*Capper)(nil)
)
