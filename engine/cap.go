package engine

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedlab/schedlab/platform/powercap"
	"github.com/schedlab/schedlab/policy"
)

// PowerCap is a cluster power budget over time (docs/energy.md, "Power
// caps"): the kernel refuses a start, or a switch of power states, that
// would make the machine draw more than the cap, and checks at every
// change of the cap that the machine draws no more than the new one.
// Watts[k] is the cap from Times[k] until Times[k+1] (the last for
// ever; +Inf: no cap); Times[0] = 0, ascending (powercap.Cap.Steps).
// The machine's power is Model.Power of its CPUs busy, off and switching
// (powercap.Model), the accounting's formula.
type PowerCap struct {
	Times, Watts []float64
	Model        powercap.Model
}

// MaxCapSteps bounds the steps of a PowerCap (the windows of
// powercap.MaxWindows, each a step and the step after it, and the
// default), checked in NewCluster before any work.
const MaxCapSteps = 2*powercap.MaxWindows + 1

// refCapChange is the timer ref of a change of the cap (a background
// event, like a change of availability).
const refCapChange int32 = math.MaxInt32

// capState is the cap of a run and the counts its power is computed
// from.
type capState struct {
	cfg              PowerCap
	k                int // the step in force
	off, swOn, swOff int // CPUs off, switching on, switching off
	cpus             int
}

// initCap checks the cap and pushes its first change.
func (c *Cluster) initCap(pc *PowerCap) error {
	n := len(pc.Times)
	switch {
	case n == 0 || n != len(pc.Watts):
		return errors.New("engine: power cap: want one cap a time, at least one step")
	case n > MaxCapSteps:
		return fmt.Errorf("engine: power cap of %d steps: at most %d (engine.MaxCapSteps)", n, MaxCapSteps)
	case pc.Times[0] != 0:
		return fmt.Errorf("engine: power cap: the first step is at t=%g, want 0", pc.Times[0])
	case c.parts != nil:
		return errors.New("a power cap does not go with partitions yet")
	case c.cfg.Availability != nil && (len(c.cfg.Availability.Windows) > 0 || c.cfg.Availability.Failures != nil):
		return errors.New("a power cap does not go with reservations or failures yet")
	}
	m := pc.Model
	for _, w := range []float64{m.IdleW, m.ComputeW, m.OffW, m.SwOnW, m.SwOffW} {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("engine: power cap: model watts %g: want finite, >= 0", w)
		}
	}
	if !(m.ComputeW >= m.IdleW) {
		return fmt.Errorf("engine: power cap: computing watts %g below idle %g", m.ComputeW, m.IdleW)
	}
	cpus := c.plat.CPUs()
	idle := m.Power(cpus, 0, 0, 0, 0)
	st := &capState{cfg: PowerCap{Times: append([]float64(nil), pc.Times...), Watts: append([]float64(nil), pc.Watts...), Model: m}, cpus: cpus}
	for k, t := range pc.Times {
		w := pc.Watts[k]
		switch {
		case k > 0 && !(t > pc.Times[k-1]) || math.IsInf(t, 0) || math.IsNaN(t):
			return fmt.Errorf("engine: power cap: step time %g after %g: want finite, strictly increasing times", t, pc.Times[k-1])
		case math.IsNaN(w) || w < 0:
			return fmt.Errorf("engine: power cap: %g W from t=%g: want watts >= 0", w, t)
		case w < idle:
			return fmt.Errorf("the power cap of %g W from t=%g is below the machine's idle draw, %g W (%d CPUs at %g W idle)", w, t, idle, cpus, m.IdleW)
		}
	}
	if c.av == nil {
		// The capping layer plans the cap as windows of CPUs
		// (policy/capping): the policy's view is one with availability.
		if err := c.initAvail(&Availability{}); err != nil {
			return fmt.Errorf("power cap: %w", err)
		}
	}
	c.cp = st
	if n > 1 {
		c.pushBackground(pc.Times[1], refCapChange)
	}
	return nil
}

// capNow is the cap in force.
func (c *Cluster) capNow() float64 { return c.cp.cfg.Watts[c.cp.k] }

// capBusy is the CPUs running jobs.
func (c *Cluster) capBusy() int {
	b := 0
	for _, n := range c.usage.Busy {
		b += n
	}
	return b
}

// capPower is the machine's power with the given changes to the counts
// of CPUs busy, off, switching on and switching off.
func (c *Cluster) capPower(dBusy, dOff, dOn, dSwOff int) float64 {
	p := c.cp
	return p.cfg.Model.Power(p.cpus, c.capBusy()+dBusy, p.off+dOff, p.swOn+dOn, p.swOff+dSwOff)
}

// capTimer applies a change of the cap: a pass follows (the machine
// changed), and the machine must draw no more than the new cap.
func (c *Cluster) capTimer() error {
	c.background--
	p := c.cp
	p.k++
	if p.k+1 < len(p.cfg.Times) {
		c.pushBackground(p.cfg.Times[p.k+1], refCapChange)
	}
	c.jobEvent = true
	if w, cp := c.capPower(0, 0, 0, 0), c.capNow(); w > cp {
		return fmt.Errorf("at t=%g the power cap falls to %g W, but the machine draws %g W (%d CPUs busy): policy %s started jobs that run on past the cap's change (a job outran its estimate?)",
			c.now, cp, w, c.capBusy(), c.cfg.Policy.Name())
	}
	return nil
}

// capStart refuses the start of a job of procs CPUs that would make
// the machine draw more than the cap.
func (c *Cluster) capStart(d *policy.Start, procs int) error {
	if c.cp == nil {
		return nil
	}
	if w, cp := c.capPower(procs, 0, 0, 0), c.capNow(); w > cp {
		return c.bad(d, "the machine would draw %g W (%d CPUs busy), above the power cap of %g W", w, c.capBusy()+procs, cp)
	}
	return nil
}

// capSwitch refuses a switch of cpus CPUs (on: from off to switching
// on; else from on and idle to switching off) that would make the
// machine draw more than the cap, and counts it.
func (c *Cluster) capSwitch(on bool, cpus int) error {
	p := c.cp
	if p == nil {
		return nil
	}
	var w float64
	if on {
		w = c.capPower(0, -cpus, cpus, 0)
	} else {
		w = c.capPower(0, 0, 0, cpus)
	}
	if cp := c.capNow(); w > cp {
		verb := "off"
		if on {
			verb = "on"
		}
		return fmt.Errorf("policy %s at t=%g: switch %d CPUs %s: the machine would draw %g W, above the power cap of %g W", c.cfg.Policy.Name(), c.now, cpus, verb, w, cp)
	}
	if on {
		p.off, p.swOn = p.off-cpus, p.swOn+cpus
	} else {
		p.swOff += cpus
	}
	return nil
}

// capSwitchDone counts the end of a switch of cpus CPUs and checks the
// cap (a switch's end may raise the power: switching watts below the
// state's after it).
func (c *Cluster) capSwitchDone(on bool, cpus int) error {
	p := c.cp
	if p == nil {
		return nil
	}
	if on {
		p.swOn -= cpus
	} else {
		p.swOff, p.off = p.swOff-cpus, p.off+cpus
	}
	if w, cp := c.capPower(0, 0, 0, 0), c.capNow(); w > cp {
		verb := "off"
		if on {
			verb = "on"
		}
		return fmt.Errorf("at t=%g %d CPUs end their switch %s and the machine draws %g W, above the power cap of %g W (policy %s switched them)", c.now, cpus, verb, w, cp, c.cfg.Policy.Name())
	}
	return nil
}
