package registry

import "github.com/schedlab/schedlab/policy/predict"

// CheckPredictor checks the text of a runtime predictor of estimate
// predict ("last2", "avg:K"; package policy/predict), for the scenario
// and the command line, which do not import policies themselves.
func CheckPredictor(s string) error {
	_, err := predict.ParsePredictor(s)
	return err
}
