package registry

import (
	"github.com/schedlab/schedlab/metrics/energy"
	"github.com/schedlab/schedlab/policy/predict"
	"github.com/schedlab/schedlab/policy/sleep"
)

// CheckPredictor checks the text of a runtime predictor of estimate
// predict ("last2", "avg:K"; package policy/predict), for the scenario
// and the command line, which do not import policies themselves.
func CheckPredictor(s string) error {
	_, err := predict.ParsePredictor(s)
	return err
}

// CheckSleep checks the idle sleeper's settings "T[:keep=K]"
// (platform.sleep_after, run --sleep-after; package policy/sleep).
func CheckSleep(s string) error {
	_, err := sleep.ParseParams(s)
	return err
}

// CheckPower checks a power model "IDLE_W:COMPUTE_W" or, with power
// states, "IDLE_W:COMPUTE_W:OFF_W:ON_S:ON_J:OFF_S:OFF_J"
// (platform.power, run --power; docs/energy.md).
func CheckPower(s string) error {
	_, err := energy.ParsePower(s)
	return err
}

// PowerStates reports whether a power model that CheckPower accepts has
// power states (off watts and switching times).
func PowerStates(s string) bool {
	p, err := energy.ParsePower(s)
	return err == nil && p.States()
}
