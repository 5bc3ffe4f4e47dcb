package predict

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxK bounds the number of runtimes avg:K averages: a user's history
// holds at most MaxK runtimes.
const MaxK = 1000

// History is how a job's prediction is made from its user's history: the
// mean of the runtimes of the user's last K completed jobs. The zero
// value is last2 (K = 2, EASY++'s predictor); any other value comes from
// ParsePredictor or Avg and is valid.
type History struct{ k int }

// PredictorForms lists the accepted spellings of a History, for messages
// and docs.
const PredictorForms = "last2 (the mean of the user's last two runtimes) or avg:K (the mean of the last K, K = 1..1000)"

// Avg is the predictor averaging the user's last k runtimes, 1 <= k <=
// MaxK.
func Avg(k int) (History, error) {
	if k < 1 || k > MaxK {
		return History{}, fmt.Errorf("predictor avg:%d: K must be in 1..%d", k, MaxK)
	}
	return History{k: k}, nil
}

// ParsePredictor reads a predictor: "last2", or "avg:K" with K an integer
// in 1..MaxK ("avg:2" is last2). The error lists the valid forms.
func ParsePredictor(s string) (History, error) {
	if s == "last2" {
		return History{k: 2}, nil
	}
	if rest, ok := strings.CutPrefix(s, "avg:"); ok {
		k, err := strconv.Atoi(rest)
		if err != nil {
			return History{}, fmt.Errorf("predictor %q: K %q is not an integer; valid: %s", s, rest, PredictorForms)
		}
		if k < 1 || k > MaxK {
			return History{}, fmt.Errorf("predictor %q: K must be in 1..%d; valid: %s", s, MaxK, PredictorForms)
		}
		return History{k: k}, nil
	}
	return History{}, fmt.Errorf("unknown predictor %q; valid: %s", s, PredictorForms)
}

// K is the number of runtimes averaged.
func (h History) K() int {
	if h.k == 0 {
		return 2
	}
	return h.k
}

// String is the canonical spelling: last2 for K = 2, else avg:K.
func (h History) String() string {
	if h.K() == 2 {
		return "last2"
	}
	return "avg:" + strconv.Itoa(h.k)
}

// Correction is what happens to the prediction of a running job that
// outlives it.
type Correction uint8

const (
	// Increments is EASY++'s rule: the k-th correction sets the
	// prediction to the job's first prediction plus the k-th value of
	// Ladder (1 min, 5 min, 15 min, 30 min, 1 h, 2 h, 5 h, 10 h, 20 h,
	// 50 h, 100 h), at most the request; after the last value, the
	// request.
	Increments Correction = iota
	// Request: the first correction sets the prediction to the request.
	Request
	numCorrections
)

var correctionNames = [...]string{"increments", "request"}

// CorrectionForms lists the accepted corrections, for messages and docs.
const CorrectionForms = "increments (EASY++: the first prediction plus 1 min, 5 min, 15 min, ... 100 h, at most the request) or request"

// ParseCorrection reads a correction by name; the error lists the valid
// names.
func ParseCorrection(s string) (Correction, error) {
	for c, n := range correctionNames {
		if s == n {
			return Correction(c), nil
		}
	}
	return 0, fmt.Errorf("unknown correction %q; valid: %s", s, CorrectionForms)
}

func (c Correction) String() string {
	if c < numCorrections {
		return correctionNames[c]
	}
	return fmt.Sprintf("Correction(%d)", c)
}

// ladder is Increments' sequence, in seconds: the k-th correction of a
// job with first prediction p0 predicts p0 + ladder[k-1].
var ladder = [...]float64{60, 5 * 60, 15 * 60, 30 * 60, 3600, 2 * 3600, 5 * 3600, 10 * 3600, 20 * 3600, 50 * 3600, 100 * 3600}

// Ladder returns Increments' sequence in seconds (a fresh slice).
func Ladder() []float64 { return append([]float64(nil), ladder[:]...) }

// Step is the prediction after the k-th correction (k >= 1) of a job
// whose first prediction was p0 and whose request (the estimate it was
// submitted with) is req: never above req.
func (c Correction) Step(p0, req float64, k int) float64 {
	if c == Request || k > len(ladder) {
		return req
	}
	return min(p0+ladder[k-1], req)
}

// Params configures a Predictor.
type Params struct {
	// Predictor makes the first prediction (zero value: last2).
	Predictor History
	// Correction raises it when a job outlives it (zero value:
	// Increments).
	Correction Correction
	// Partial: a user with fewer than K runtimes known gets the mean of
	// those (at least one). When false (the default, as EASY++'s
	// implementation in the pyss simulator does), the job keeps its
	// request until its user has K runtimes.
	Partial bool
}

// Check reports a Params that did not come from the constructors (a
// Correction out of range).
func (p Params) Check() error {
	if p.Correction >= numCorrections {
		return fmt.Errorf("unknown correction %d; valid: %s", p.Correction, CorrectionForms)
	}
	if k := p.Predictor.k; k < 0 || k > MaxK {
		return fmt.Errorf("predictor avg:%d: K must be in 1..%d", k, MaxK)
	}
	return nil
}

// String describes the parameters, e.g. "last2/increments".
func (p Params) String() string {
	s := p.Predictor.String() + "/" + p.Correction.String()
	if p.Partial {
		s += "/partial"
	}
	return s
}
