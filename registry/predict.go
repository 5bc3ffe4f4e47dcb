package registry

import (
	"github.com/schedlab/schedlab/metrics/energy"
	"github.com/schedlab/schedlab/policy/predict"
)

// CheckPredictor checks the text of a runtime predictor of estimate
// predict ("last2", "avg:K"; package policy/predict), for the scenario
// and the command line, which do not import policies themselves.
func CheckPredictor(s string) error {
	_, err := predict.ParsePredictor(s)
	return err
}

// CheckPower checks a power model "IDLE_W:COMPUTE_W" (platform.power,
// run --power; docs/energy.md).
func CheckPower(s string) error {
	_, err := energy.ParsePower(s)
	return err
}
