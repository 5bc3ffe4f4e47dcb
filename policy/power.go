package policy

import (
	"fmt"

	"github.com/schedlab/schedlab/platform"
)

// PowerState is the power state of a CPU of a pool under a power model
// with states (docs/energy.md, "Power states"). A CPU is on, switching
// off, off or switching on, in that cycle: a switch cannot be
// interrupted, and a CPU that is not on runs nothing (it is unavailable
// to the policy: counted by AvailabilityView.Down, never free).
type PowerState uint8

const (
	PowerOn PowerState = iota
	PowerSwitchingOff
	PowerOff
	PowerSwitchingOn
)

var powerStateNames = [...]string{"on", "switching off", "off", "switching on"}

func (s PowerState) String() string {
	if int(s) < len(powerStateNames) {
		return powerStateNames[s]
	}
	return fmt.Sprintf("PowerState(%d)", s)
}

// PowerSwitch is one decision of a pass: switch the CPUs (global ids,
// ascending merged runs) off (On false: each must be on and idle) or on
// (each must be off). The model applies a plan's switches before its
// starts, in order, and refuses (an error naming the policy, the time
// and the CPU) any other.
type PowerSwitch struct {
	CPUs platform.Runs
	On   bool
}

// PowerView is what a Machines view adds on a pool whose CPUs have
// power states (the cluster model with engine.ClusterConfig.Switching):
// a CPU's state, whether it is idle, and since when.
type PowerView interface {
	AvailabilityView
	// PowerState is CPU cpu's state now (global id).
	PowerState(cpu int) PowerState
	// Idle reports whether CPU cpu is on and runs no job.
	Idle(cpu int) bool
	// IdleSince is, for an idle CPU, the time it last became idle: the
	// end of its last job or of its last switch on (0 for a CPU idle
	// since the start).
	IdleSince(cpu int) float64
	// Switching is the model's switching times: seconds to switch a
	// CPU on and off.
	Switching() (onS, offS float64)
}
