package engine

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// Switching gives the CPUs of a pool power states (docs/energy.md,
// "Power states"): the policy switches idle CPUs off and off CPUs on
// (policy.Plan.Power); a switch takes OffS or OnS seconds, and a CPU not
// on is unavailable (never free, counted as down in the policy's view),
// so that the model refuses a start on it.
type Switching struct {
	OnS, OffS float64
}

// PowerListener is a Listener also told of the CPUs' power states: at
// now, the CPUs (ascending merged runs, valid during the call) went
// from one state to the next. Every CPU is on at time 0.
type PowerListener interface {
	Listener
	PowerSwitched(now float64, cpus platform.Runs, from, to policy.PowerState)
}

// Timer refs of power states: the end of the oldest switch off, of the
// oldest switch on, and a policy's PowerWake.
const (
	refOffDone int32 = iota
	refOnDone
	refPowerWake
)

// powerState is the state of a pool with power states.
type powerState struct {
	sw     Switching
	state  []policy.PowerState // per CPU
	since  []float64           // per CPU: idle since (valid while idle)
	offQ   []pendingSwitch     // switches off under way, in start order
	onQ    []pendingSwitch
	lis    []PowerListener
	wakeAt float64
}

type pendingSwitch struct {
	at   float64
	cpus platform.Runs
}

// initPower sets up power states; it needs the availability state (the
// off CPUs are unavailable) without windows, failures or partitions.
func (c *Cluster) initPower(sw *Switching) error {
	switch {
	case !(sw.OnS > 0) || !(sw.OffS > 0) || math.IsInf(sw.OnS, 0) || math.IsInf(sw.OffS, 0):
		return fmt.Errorf("engine: switching times %g s (on) and %g s (off) must be finite and above 0", sw.OnS, sw.OffS)
	case c.parts != nil:
		return errors.New("power states (switching CPUs off) do not go with partitions yet")
	case c.cfg.Availability != nil && (len(c.cfg.Availability.Windows) > 0 || c.cfg.Availability.Failures != nil):
		return errors.New("power states (switching CPUs off) do not go with reservations or failures yet")
	}
	if c.av == nil {
		if err := c.initAvail(&Availability{}); err != nil {
			return fmt.Errorf("power states: %w", err)
		}
	}
	n := c.plat.CPUs()
	p := &powerState{sw: *sw, state: make([]policy.PowerState, n), since: make([]float64, n), wakeAt: math.Inf(-1)}
	for _, l := range flatten(c.lis, nil) {
		if t, ok := l.(PowerListener); ok {
			p.lis = append(p.lis, t)
		}
	}
	c.pw = p
	// A pass at time 0, so that the policy sees the CPUs idle from the
	// start (an idle sleeper's first timeout is then T, not the first
	// job's arrival).
	c.pushBackground(0, refPowerWake)
	return nil
}

func (c *Cluster) badSwitch(on bool, cpu int32, format string, a ...any) error {
	verb := "off"
	if on {
		verb = "on"
	}
	return fmt.Errorf("policy %s at t=%g: switch CPU %d %s: %s", c.cfg.Policy.Name(), c.now, cpu, verb, fmt.Sprintf(format, a...))
}

// applyPower validates and applies the plan's switches.
func (c *Cluster) applyPower() error {
	if len(c.plan.Power) == 0 {
		return nil
	}
	p := c.pw
	if p == nil {
		return fmt.Errorf("policy %s at t=%g: switches CPUs on or off, but the run has no power states (a power model with off watts and switching times, docs/energy.md)", c.cfg.Policy.Name(), c.now)
	}
	n := int32(c.plat.CPUs())
	for k := range c.plan.Power {
		sw := &c.plan.Power[k]
		if err := checkRuns(sw.CPUs, int(n)); err != nil || len(sw.CPUs) == 0 {
			if err == nil {
				err = errors.New("no CPUs")
			}
			return fmt.Errorf("policy %s at t=%g: switch CPUs: %w", c.cfg.Policy.Name(), c.now, err)
		}
		var bad error
		forRuns(sw.CPUs, func(cpu int32) {
			if bad != nil {
				return
			}
			st := p.state[cpu]
			switch {
			case sw.On && st != policy.PowerOff:
				bad = c.badSwitch(true, cpu, "it is %s (only an off CPU can be switched on)", st)
			case !sw.On && st != policy.PowerOn:
				bad = c.badSwitch(false, cpu, "it is %s (only an idle CPU that is on can be switched off)", st)
			case !sw.On && !c.cpus.free(cpu):
				bad = c.badSwitch(false, cpu, "it runs a job")
			}
		})
		if bad != nil {
			return bad
		}
		if err := c.capSwitch(sw.On, sw.CPUs.Count()); err != nil {
			return err
		}
		cpus := append(platform.Runs(nil), sw.CPUs...)
		if sw.On {
			forRuns(cpus, func(cpu int32) { p.state[cpu] = policy.PowerSwitchingOn })
			p.onQ = append(p.onQ, pendingSwitch{c.now + p.sw.OnS, cpus})
			c.pushBackground(c.now+p.sw.OnS, refOnDone)
			c.tellPower(cpus, policy.PowerOff, policy.PowerSwitchingOn)
		} else {
			forRuns(cpus, func(cpu int32) {
				p.state[cpu] = policy.PowerSwitchingOff
				c.addDown(cpu, 1)
				c.lose(cpu)
			})
			p.offQ = append(p.offQ, pendingSwitch{c.now + p.sw.OffS, cpus})
			c.pushBackground(c.now+p.sw.OffS, refOffDone)
			c.tellPower(cpus, policy.PowerOn, policy.PowerSwitchingOff)
		}
		c.jobEvent = true
	}
	return nil
}

func (c *Cluster) tellPower(cpus platform.Runs, from, to policy.PowerState) {
	for _, l := range c.pw.lis {
		l.PowerSwitched(c.now, cpus, from, to)
	}
}

// powerTimer applies the end of a switch, or a policy's PowerWake.
func (c *Cluster) powerTimer(ref int32) error {
	c.background--
	p := c.pw
	switch ref {
	case refPowerWake:
		c.woke = true
	case refOffDone:
		s := p.offQ[0]
		p.offQ = p.offQ[1:]
		forRuns(s.cpus, func(cpu int32) { p.state[cpu] = policy.PowerOff })
		c.tellPower(s.cpus, policy.PowerSwitchingOff, policy.PowerOff)
		c.jobEvent = true
		return c.capSwitchDone(false, s.cpus.Count())
	case refOnDone:
		s := p.onQ[0]
		p.onQ = p.onQ[1:]
		forRuns(s.cpus, func(cpu int32) {
			p.state[cpu] = policy.PowerOn
			p.since[cpu] = c.now
			c.addDown(cpu, -1)
			c.regain(cpu)
		})
		c.tellPower(s.cpus, policy.PowerSwitchingOn, policy.PowerOn)
		c.jobEvent = true
		return c.capSwitchDone(true, s.cpus.Count())
	}
	return nil
}

// powerWake pushes the plan's PowerWake (once per distinct time).
func (c *Cluster) powerWake() {
	if c.pw == nil {
		return
	}
	if x := c.plan.PowerWake; x > c.now && x != c.pw.wakeAt {
		c.pushBackground(x, refPowerWake)
		c.pw.wakeAt = x
	}
}

// PowerState, Idle, IdleSince and Switching implement policy.PowerView
// (every CPU on and no switching without power states).
func (v machinesView) PowerState(cpu int) policy.PowerState {
	if v.c.pw == nil {
		return policy.PowerOn
	}
	return v.c.pw.state[cpu]
}

func (v machinesView) Idle(cpu int) bool {
	return v.PowerState(cpu) == policy.PowerOn && v.c.cpus.free(int32(cpu))
}

func (v machinesView) IdleSince(cpu int) float64 {
	if v.c.pw == nil {
		return 0
	}
	return v.c.pw.since[cpu]
}

func (v machinesView) Switching() (onS, offS float64) {
	if v.c.pw == nil {
		return 0, 0
	}
	return v.c.pw.sw.OnS, v.c.pw.sw.OffS
}

var _ policy.PowerView = machinesView{}
