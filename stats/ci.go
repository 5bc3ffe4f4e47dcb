package stats

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// MeanCI describes a sample and a two-sided Student-t confidence interval
// for its mean.
//
// N is the number of observations, Mean the sample mean, StdDev the sample
// standard deviation (divisor N-1), HalfWidth the half-width of the
// interval and [Low, High] = [Mean-HalfWidth, Mean+HalfWidth] the interval.
//
// With N == 0 every float field is NaN. With N == 1, Mean is the single
// observation and StdDev, HalfWidth, Low and High are NaN: one observation
// says nothing about the spread.
type MeanCI struct {
	N         int
	Mean      float64
	StdDev    float64
	HalfWidth float64
	Low, High float64
}

// String formats the summary as "mean ± half-width (n=N)".
func (s MeanCI) String() string {
	return fmt.Sprintf("%g ± %g (n=%d)", s.Mean, s.HalfWidth, s.N)
}

// CI95 returns the sample summary of xs with a two-sided 95% Student-t
// confidence interval for the mean: HalfWidth = t_{0.975, n-1} * s / sqrt(n).
// See MeanCI for the cases N < 2. It is CI(xs, 0.95).
func CI95(xs []float64) MeanCI {
	return CI(xs, 0.95)
}

// CI returns the sample summary of xs with a two-sided Student-t confidence
// interval for the mean at the given confidence level (0.95 for 95%):
// HalfWidth = t_{(1+level)/2, n-1} * s / sqrt(n).
//
// The observations are assumed independent and identically distributed,
// as the means of independent simulation replicas are. If level is not
// strictly between 0 and 1, HalfWidth, Low and High are NaN. See MeanCI
// for the cases N < 2. NaN observations make every float field NaN.
func CI(xs []float64, level float64) MeanCI {
	n := len(xs)
	s := MeanCI{N: n, Mean: Mean(xs), StdDev: math.NaN(), HalfWidth: math.NaN(), Low: math.NaN(), High: math.NaN()}
	if n < 2 {
		return s
	}
	s.StdDev = math.Sqrt(sampleVariance(xs, s.Mean))
	if !(level > 0 && level < 1) {
		return s
	}
	t := StudentTQuantile((1+level)/2, n-1)
	s.HalfWidth = t * s.StdDev / math.Sqrt(float64(n))
	s.Low = s.Mean - s.HalfWidth
	s.High = s.Mean + s.HalfWidth
	return s
}

// Paired returns the 95% confidence interval of the paired differences
// a[i]-b[i], the comparison to use when a and b are measured on the same
// replicas (common random numbers): the replica-to-replica noise shared by
// both cancels out, so the interval is much narrower than the difference
// of two independent intervals. The interval excludes 0 exactly when the
// difference is significant at the 5% level.
//
// It returns an error, and a zero MeanCI, if a and b differ in length.
// With fewer than two pairs the MeanCI has NaN fields as described there.
func Paired(a, b []float64) (MeanCI, error) {
	if len(a) != len(b) {
		return MeanCI{}, fmt.Errorf("stats: paired samples differ in length: %d and %d", len(a), len(b))
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return CI95(d), nil
}

// StudentTQuantile returns the p-quantile of Student's t distribution with
// df degrees of freedom (location 0, scale 1): the t such that
// P(T <= t) = p. It is gonum's distuv.StudentsT quantile.
//
// p == 0 and p == 1 give -Inf and +Inf. It returns NaN if p is NaN or
// outside [0, 1], or if df < 1.
func StudentTQuantile(p float64, df int) float64 {
	switch {
	case df < 1 || math.IsNaN(p) || p < 0 || p > 1:
		return math.NaN()
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	}
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(p)
}

// Mean returns the arithmetic mean of xs, or NaN if xs is empty.
func Mean(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	var sum float64
	for _, x := range xs {
		sum += x
	}
	m := sum / float64(len(xs))
	// One correction pass removes most of the rounding error of the naive
	// sum (the mean of the residuals is zero in exact arithmetic).
	var r float64
	for _, x := range xs {
		r += x - m
	}
	return m + r/float64(len(xs))
}

// sampleVariance is the corrected two-pass sample variance (divisor n-1)
// of xs around its mean m; len(xs) must be at least 2.
func sampleVariance(xs []float64, m float64) float64 {
	var ss, comp float64
	for _, x := range xs {
		d := x - m
		ss += float64(d * d)
		comp += d
	}
	n := float64(len(xs))
	return (ss - comp*comp/n) / (n - 1)
}
