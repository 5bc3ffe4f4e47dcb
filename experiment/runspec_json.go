package experiment

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/workload"
)

// workloadJSON is a WorkloadSpec in JSON: the estimate model and the
// deadline rule by name, the deadline factor as the flag writes it.
type workloadJSON struct {
	workloadFields
	Estimate  string         `json:"estimate,omitempty"`
	Deadlines *deadlinesJSON `json:"deadlines,omitempty"`
}

// workloadFields are WorkloadSpec's fields that encode as they are.
type workloadFields WorkloadSpec

type deadlinesJSON struct {
	Rule     string   `json:"rule"`
	Factor   string   `json:"factor,omitempty"`   // S or MIN-MAX; default 2-4
	Fraction *float64 `json:"fraction,omitempty"` // default 1
	Seed     uint64   `json:"seed,omitempty"`
}

// MarshalJSON writes w with its estimate model and deadline rule by name.
func (w WorkloadSpec) MarshalJSON() ([]byte, error) {
	j := workloadJSON{workloadFields: workloadFields(w), Estimate: w.Estimate.String()}
	if d := w.Deadlines; d != (workload.DeadlineRule{}) {
		j.Deadlines = &deadlinesJSON{Rule: d.Base.String(), Seed: d.Seed}
		if d.Base != workload.DeadlineNone {
			f := d.Fraction
			j.Deadlines.Factor = strconv.FormatFloat(d.Min, 'g', -1, 64) + "-" + strconv.FormatFloat(d.Max, 'g', -1, 64)
			j.Deadlines.Fraction = &f
		}
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes: "estimate" a model's name
// ("" = request), "deadlines" {"rule", "factor" (default 2-4),
// "fraction" (default 1), "seed"}.
func (w *WorkloadSpec) UnmarshalJSON(b []byte) error {
	var j workloadJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	out := WorkloadSpec(j.workloadFields)
	if j.Estimate != "" {
		est, err := workload.ParseEstimate(j.Estimate)
		if err != nil {
			return fmt.Errorf("workload.estimate: %w", err)
		}
		out.Estimate = est
	}
	if d := j.Deadlines; d != nil {
		base, err := workload.ParseDeadlineBase(d.Rule)
		if err != nil {
			return fmt.Errorf("workload.deadlines.rule: %w", err)
		}
		out.Deadlines = workload.DeadlineRule{Base: base, Seed: d.Seed}
		if base != workload.DeadlineNone {
			lo, hi, err := workload.ParseFactorRange(orText(d.Factor, "2-4"))
			if err != nil {
				return fmt.Errorf("workload.deadlines.factor: %w", err)
			}
			out.Deadlines.Min, out.Deadlines.Max, out.Deadlines.Fraction = lo, hi, 1
			if d.Fraction != nil {
				out.Deadlines.Fraction = *d.Fraction
			}
		}
	}
	*w = out
	return nil
}
