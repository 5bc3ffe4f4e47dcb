package stats

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// twoPass returns mean and sample variance by the textbook two-pass
// formula, the reference for Running. It is evaluated in exact rational
// arithmetic so that the reference itself has no rounding error (in
// float64 the naive sum of 1e4 values near 1e12 is off in the last digits,
// which is more than the variance of a spread of 1e-2).
func twoPass(xs []float64) (mean, variance float64) {
	sum := new(big.Rat)
	for _, x := range xs {
		sum.Add(sum, new(big.Rat).SetFloat64(x))
	}
	m := sum.Quo(sum, new(big.Rat).SetInt64(int64(len(xs))))
	ss := new(big.Rat)
	for _, x := range xs {
		d := new(big.Rat).SetFloat64(x)
		d.Sub(d, m)
		ss.Add(ss, d.Mul(d, d))
	}
	ss.Quo(ss, new(big.Rat).SetInt64(int64(len(xs)-1)))
	mean, _ = m.Float64()
	variance, _ = ss.Float64()
	return mean, variance
}

func TestRunningMatchesTwoPass(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name   string
		n      int
		offset float64
		scale  float64
	}{
		{"small", 2, 0, 1},
		{"exp", 1000, 0, 100},
		{"large offset", 10000, 1e9, 1},
		{"huge offset", 10000, 1e12, 1e-2},
		{"tiny", 500, 0, 1e-12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			xs := make([]float64, tc.n)
			var r Running
			lo, hi := math.Inf(1), math.Inf(-1)
			for i := range xs {
				xs[i] = tc.offset + tc.scale*rng.ExpFloat64()
				r.Add(xs[i])
				lo, hi = math.Min(lo, xs[i]), math.Max(hi, xs[i])
			}
			m, v := twoPass(xs)
			if r.N() != tc.n {
				t.Errorf("N = %d, want %d", r.N(), tc.n)
			}
			if !closeRel(r.Mean(), m, 1e-12) {
				t.Errorf("Mean = %v, want %v", r.Mean(), m)
			}
			if !closeRel(r.Var(), v, 1e-10) {
				t.Errorf("Var = %v, want %v", r.Var(), v)
			}
			if !closeRel(r.StdDev(), math.Sqrt(v), 1e-10) {
				t.Errorf("StdDev = %v, want %v", r.StdDev(), math.Sqrt(v))
			}
			if r.Min() != lo || r.Max() != hi {
				t.Errorf("Min/Max = %v/%v, want %v/%v", r.Min(), r.Max(), lo, hi)
			}
			if s := CI95(xs); !closeRel(s.StdDev, r.StdDev(), 1e-8) {
				t.Errorf("CI95 sd %v, Running sd %v", s.StdDev, r.StdDev())
			}
		})
	}
}

func TestRunningEmptyAndSingle(t *testing.T) {
	var r Running
	if r.N() != 0 || !math.IsNaN(r.Mean()) || !math.IsNaN(r.Var()) || !math.IsNaN(r.Min()) || !math.IsNaN(r.Max()) {
		t.Errorf("empty: N=%d mean=%v var=%v min=%v max=%v", r.N(), r.Mean(), r.Var(), r.Min(), r.Max())
	}
	r.Add(-3)
	if r.N() != 1 || r.Mean() != -3 || !math.IsNaN(r.Var()) || r.Min() != -3 || r.Max() != -3 {
		t.Errorf("single: N=%d mean=%v var=%v min=%v max=%v", r.N(), r.Mean(), r.Var(), r.Min(), r.Max())
	}
	r.Add(-5)
	if r.Mean() != -4 || r.Var() != 2 || r.Min() != -5 || r.Max() != -3 {
		t.Errorf("two: mean=%v var=%v min=%v max=%v", r.Mean(), r.Var(), r.Min(), r.Max())
	}
}

func TestRunningNaN(t *testing.T) {
	var r Running
	r.Add(1)
	r.Add(math.NaN())
	r.Add(2)
	if !math.IsNaN(r.Mean()) || !math.IsNaN(r.Var()) || !math.IsNaN(r.Min()) || !math.IsNaN(r.Max()) {
		t.Errorf("NaN not propagated: mean=%v var=%v min=%v max=%v", r.Mean(), r.Var(), r.Min(), r.Max())
	}
}

func BenchmarkRunningAdd(b *testing.B) {
	var r Running
	x := 1.0
	b.ReportAllocs()
	for b.Loop() {
		r.Add(x)
		x += 0.5
	}
	if r.N() == 0 {
		b.Fatal("no observations")
	}
}

func BenchmarkRunningAddMillion(b *testing.B) {
	xs := make([]float64, 1_000_000)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range xs {
		xs[i] = 1e6 * rng.ExpFloat64()
	}
	b.ReportAllocs()
	for b.Loop() {
		var r Running
		for _, x := range xs {
			r.Add(x)
		}
		if r.N() != len(xs) {
			b.Fatal("lost observations")
		}
	}
}
