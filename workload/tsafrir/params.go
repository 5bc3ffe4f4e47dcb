package tsafrir

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Bounds checked by Params.Check before anything is allocated.
const (
	// MinMaxEstimate is the smallest maximum estimate: one hour, the
	// authors' own lower limit.
	MinMaxEstimate = 3600
	// MaxMaxEstimate is the largest maximum estimate: 365 days.
	MaxMaxEstimate = 365 * 24 * 3600
	// MaxJobs bounds Params.Jobs.
	MaxJobs = 1_000_000_000
	// MaxValues bounds the number of distinct values (Params.Values, or
	// the number derived from Params.Jobs).
	MaxValues = 100_000
	// Top is the size of the histogram's head: the published model's 20
	// most popular values.
	Top = 20
	// MinValues is the smallest number of distinct values: the head and
	// one tail value.
	MinValues = Top + 1
)

// Params are the model's parameters. Default gives the published values;
// the comments name where each comes from (paper sections as cited in
// docs/workloads.md, and the authors' model code est_model.hh).
// Percentages are percent of jobs, as the paper states them.
type Params struct {
	// MaxEstimate is the site's maximum allowed request, in whole seconds,
	// in [MinMaxEstimate, MaxMaxEstimate]. Default 18 h (64,800 s), the
	// largest of the values popular in all four logs the paper studies.
	MaxEstimate float64

	// MaxPercent is the percent of jobs that request MaxEstimate; 0 lets
	// the model derive it (HeadPercent minus the shares of popularity
	// ranks 2..20, 21.7% with the defaults). The paper's point: given the
	// maximum and this one share, the model comes close to a site's real
	// histogram. When set, it must lie in (0, HeadPercent); the other head
	// shares are scaled so the head still sums to HeadPercent.
	MaxPercent float64

	// Jobs is the size of the log the histogram stands for; the number of
	// distinct values grows with it (the paper's piecewise-linear fit:
	// 20 values at 200 jobs, 90 at 10,000, 565 at 250,000 and above).
	// Default 10,000; in [1, MaxJobs]. Ignored when Values is set.
	Jobs int

	// Values is the number of distinct values; 0 derives it from Jobs.
	// When set, in [MinValues, MaxValues]. A derived number below
	// MinValues is raised to MinValues (one tail value).
	Values int

	// ValuesPower derives Values from Jobs by the paper's power fit
	// PowerA x Jobs^PowerB instead of the piecewise-linear one (the
	// default, as in the authors' code).
	ValuesPower bool
	// PowerA and PowerB: 0.653566 and 0.547761.
	PowerA, PowerB float64

	// HeadPercent is the percent of jobs that use one of the Top most
	// popular values: 89 (the paper: the 20 most popular values serve
	// about 90% of the jobs). In (0, 100).
	HeadPercent float64

	// HeadA, HeadB, HeadC: the share of popularity rank x = 2..20 is
	// HeadA x exp(HeadB x x) + HeadC percent (14.0491, -0.177531,
	// 0.462513). Each share must be positive.
	HeadA, HeadB, HeadC float64

	// TailB: the share of popularity rank x = 21, 22, ... is proportional
	// to x^TailB (-2.267), normalised so the tail sums to 100 -
	// HeadPercent. (The fit's multiplier, 795.6, cancels in the
	// normalisation, so it is no parameter here.) In [-20, 20].
	TailB float64

	// TimeA places the tail values: the value of relative time rank x in
	// (0, 1] is MaxEstimate x (TimeA-1)x/(TimeA-x), rounded to the
	// minute. 0 derives it from the number of values K as
	// 1 + 12.1039 x K^-0.6026; when set, in (1, 1e6].
	TimeA float64
}

// Default returns the published parameters.
func Default() Params {
	return Params{
		MaxEstimate: 18 * 3600,
		Jobs:        10_000,
		PowerA:      0.653566,
		PowerB:      0.547761,
		HeadPercent: 89,
		HeadA:       14.0491,
		HeadB:       -0.177531,
		HeadC:       0.462513,
		TailB:       -2.267,
	}
}

// Check reports every parameter the model cannot be built from, each
// named with its bounds; nil if Params are usable.
func (p Params) Check() error {
	var probs []string
	bad := func(f string, a ...any) { probs = append(probs, fmt.Sprintf(f, a...)) }
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

	if !(p.MaxEstimate >= MinMaxEstimate && p.MaxEstimate <= MaxMaxEstimate) || p.MaxEstimate != math.Trunc(p.MaxEstimate) {
		bad("MaxEstimate %g: want whole seconds in [%d, %d]", p.MaxEstimate, MinMaxEstimate, MaxMaxEstimate)
	}
	if !(p.HeadPercent > 0 && p.HeadPercent < 100) {
		bad("HeadPercent %g: want a percentage in (0, 100)", p.HeadPercent)
	}
	if p.MaxPercent != 0 && !(p.MaxPercent > 0 && p.MaxPercent < p.HeadPercent) {
		bad("MaxPercent %g: want 0 (derived) or a percentage in (0, HeadPercent=%g)", p.MaxPercent, p.HeadPercent)
	}
	if !finite(p.HeadA) || !finite(p.HeadB) || !finite(p.HeadC) {
		bad("HeadA, HeadB, HeadC (%g, %g, %g): want finite numbers", p.HeadA, p.HeadB, p.HeadC)
	} else {
		for x := 2; x <= Top; x++ {
			if s := headShare(p, x); !(s > 0) || !finite(s) {
				bad("HeadA, HeadB, HeadC (%g, %g, %g): the share of popularity rank %d is %g, want > 0", p.HeadA, p.HeadB, p.HeadC, x, s)
				break
			}
		}
	}
	if !(p.TailB >= -20 && p.TailB <= 20) {
		bad("TailB %g: want a number in [-20, 20]", p.TailB)
	}
	if p.TimeA != 0 && !(p.TimeA > 1 && p.TimeA <= 1e6) {
		bad("TimeA %g: want 0 (derived) or a number in (1, 1e6]", p.TimeA)
	}
	if p.Values != 0 {
		if p.Values < MinValues || p.Values > MaxValues {
			bad("Values %d: want 0 (derived from Jobs) or a number in [%d, %d]", p.Values, MinValues, MaxValues)
		}
	} else {
		if p.Jobs < 1 || p.Jobs > MaxJobs {
			bad("Jobs %d: want a number in [1, %d]", p.Jobs, MaxJobs)
		} else if p.ValuesPower {
			if !(p.PowerA > 0 && p.PowerA <= 1e3) || !(p.PowerB >= 0 && p.PowerB <= 1) {
				bad("PowerA, PowerB (%g, %g): want PowerA in (0, 1000] and PowerB in [0, 1]", p.PowerA, p.PowerB)
			} else if k := p.values(); k > MaxValues {
				bad("Jobs %d with PowerA %g, PowerB %g give %d values, above the bound %d", p.Jobs, p.PowerA, p.PowerB, k, MaxValues)
			}
		}
	}
	if len(probs) == 0 && p.MaxPercent == 0 {
		// The derived share of the maximum must be positive.
		h := len(headTimes(int64(p.MaxEstimate)))
		if s := derivedMaxShare(p, h); !(s > 0) {
			bad("HeadPercent %g is not above the shares of popularity ranks 2..%d (%g): the maximum would get %g%%", p.HeadPercent, h, p.HeadPercent-s, s)
		}
	}
	if len(probs) > 0 {
		return errors.New("tsafrir estimates: " + strings.Join(probs, "; "))
	}
	return nil
}

// headShare is the fitted share (percent) of head popularity rank x >= 2.
func headShare(p Params, x int) float64 {
	return p.HeadA*math.Exp(p.HeadB*float64(x)) + p.HeadC
}

// derivedMaxShare is HeadPercent minus the shares of ranks 2..h.
func derivedMaxShare(p Params, h int) float64 {
	s := p.HeadPercent
	for x := 2; x <= h; x++ {
		s -= headShare(p, x)
	}
	return s
}

// linearFit is the paper's piecewise-linear number of distinct values as
// a function of the log's number of jobs (points joined by lines; flat
// after the last).
var linearFit = [...]struct{ jobs, values int }{
	{0, 0}, {20, 10}, {200, 20}, {1000, 35}, {10000, 90}, {70000, 340}, {250000, 565},
}

// values is the number of distinct values the parameters ask for, before
// raising it to MinValues. Params must have passed their own range checks.
func (p Params) values() int {
	if p.Values > 0 {
		return p.Values
	}
	if p.ValuesPower {
		v := math.Round(p.PowerA * math.Pow(float64(p.Jobs), p.PowerB))
		if v > MaxValues+1 {
			v = MaxValues + 1
		}
		return int(v)
	}
	last := linearFit[len(linearFit)-1]
	if p.Jobs > last.jobs {
		return last.values
	}
	for k := 1; k < len(linearFit); k++ {
		a, b := linearFit[k-1], linearFit[k]
		if p.Jobs <= b.jobs {
			slope := float64(b.values-a.values) / float64(b.jobs-a.jobs)
			return a.values + int(math.Round(float64(p.Jobs-a.jobs)*slope))
		}
	}
	return last.values
}
