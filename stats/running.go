package stats

import "math"

// Running accumulates the count, mean, sample variance, minimum and maximum
// of a stream of observations in O(1) memory, with Welford's update applied
// to the observations shifted by the first one. It stays accurate when the
// mean is large compared with the spread (for example finish times of a
// million jobs around 1e9 s), where the naive sum of squares fails.
//
// The zero value is an empty accumulator ready to use. A Running is not
// safe for concurrent use.
type Running struct {
	n        int
	shift    float64 // the first observation; the others are added as x-shift
	mean     float64 // mean of the shifted observations
	m2       float64 // sum of squared deviations from the current mean
	min, max float64
}

// Add records one observation. A NaN observation makes the mean, variance,
// minimum and maximum NaN from then on.
func (r *Running) Add(x float64) {
	r.n++
	if r.n == 1 {
		r.shift, r.mean, r.m2, r.min, r.max = x, 0, 0, x, x
		if math.IsNaN(x) {
			r.mean = x
		}
		return
	}
	y := x - r.shift
	d := y - r.mean
	r.mean += d / float64(r.n)
	r.m2 += float64(d * (y - r.mean))
	if x < r.min || math.IsNaN(x) {
		r.min = x
	}
	if x > r.max || math.IsNaN(x) {
		r.max = x
	}
}

// N returns the number of observations added.
func (r *Running) N() int { return r.n }

// Mean returns the mean of the observations, or NaN if there are none.
func (r *Running) Mean() float64 {
	if r.n == 0 {
		return math.NaN()
	}
	return r.shift + r.mean
}

// Var returns the sample variance (divisor N-1) of the observations, or
// NaN if there are fewer than two.
func (r *Running) Var() float64 {
	if r.n < 2 {
		return math.NaN()
	}
	return r.m2 / float64(r.n-1)
}

// StdDev returns the sample standard deviation, the square root of Var.
func (r *Running) StdDev() float64 { return math.Sqrt(r.Var()) }

// Min returns the smallest observation, or NaN if there are none.
func (r *Running) Min() float64 {
	if r.n == 0 {
		return math.NaN()
	}
	return r.min
}

// Max returns the largest observation, or NaN if there are none.
func (r *Running) Max() float64 {
	if r.n == 0 {
		return math.NaN()
	}
	return r.max
}
