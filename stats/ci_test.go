package stats

import (
	"math"
	"strings"
	"testing"
)

// closeRel reports whether got agrees with want to within rel relative error.
func closeRel(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Abs(want)
}

func TestStudentTQuantileTable(t *testing.T) {
	// Values from a printed t table (two-sided 95%, i.e. p = 0.975).
	for _, tc := range []struct {
		p    float64
		df   int
		want float64
	}{
		{0.975, 9, 2.262157},
		{0.975, 19, 2.093024},
		{0.975, 1, 12.7062},
		{0.975, 4, 2.776445},
		{0.95, 29, 1.699127},
		{0.995, 2, 9.924843},
	} {
		got := StudentTQuantile(tc.p, tc.df)
		// Five significant digits.
		if !closeRel(got, tc.want, 5e-6) {
			t.Errorf("StudentTQuantile(%v, %d) = %.7g, want %.7g", tc.p, tc.df, got, tc.want)
		}
	}
	if got := StudentTQuantile(0.5, 7); got != 0 {
		t.Errorf("median = %v, want 0", got)
	}
	// Symmetry.
	if a, b := StudentTQuantile(0.025, 9), StudentTQuantile(0.975, 9); !closeRel(-a, b, 1e-14) {
		t.Errorf("t(0.025,9) = %v, t(0.975,9) = %v; want opposite", a, b)
	}
}

func TestStudentTQuantileEdges(t *testing.T) {
	if got := StudentTQuantile(0, 5); !math.IsInf(got, -1) {
		t.Errorf("p=0: %v, want -Inf", got)
	}
	if got := StudentTQuantile(1, 5); !math.IsInf(got, 1) {
		t.Errorf("p=1: %v, want +Inf", got)
	}
	for _, tc := range []struct {
		p  float64
		df int
	}{{-0.1, 5}, {1.1, 5}, {math.NaN(), 5}, {0.9, 0}, {0.9, -3}} {
		if got := StudentTQuantile(tc.p, tc.df); !math.IsNaN(got) {
			t.Errorf("StudentTQuantile(%v, %d) = %v, want NaN", tc.p, tc.df, got)
		}
	}
}

func TestCI95HandComputed(t *testing.T) {
	// xs = 1..10: mean 5.5, s^2 = sum (x-5.5)^2 / 9 = 82.5/9.
	xs := []float64{3, 1, 4, 10, 5, 9, 2, 6, 8, 7}
	s := CI95(xs)
	sd := math.Sqrt(82.5 / 9)
	hw := 2.262157 * sd / math.Sqrt(10)
	if s.N != 10 || s.Mean != 5.5 || !closeRel(s.StdDev, sd, 1e-14) {
		t.Fatalf("summary %+v; want N=10 mean 5.5 sd %v", s, sd)
	}
	if !closeRel(s.HalfWidth, hw, 1e-6) {
		t.Errorf("half-width %v, want %v", s.HalfWidth, hw)
	}
	if s.Low != s.Mean-s.HalfWidth || s.High != s.Mean+s.HalfWidth {
		t.Errorf("bounds %v..%v do not match mean ± half-width", s.Low, s.High)
	}
	if !strings.Contains(s.String(), "n=10") {
		t.Errorf("String() = %q", s.String())
	}
}

func TestCILevels(t *testing.T) {
	xs := []float64{1, 2, 4, 8, 16}
	s90, s95, s99 := CI(xs, 0.90), CI95(xs), CI(xs, 0.99)
	if !(s90.HalfWidth < s95.HalfWidth && s95.HalfWidth < s99.HalfWidth) {
		t.Errorf("half-widths not increasing with level: %v %v %v", s90.HalfWidth, s95.HalfWidth, s99.HalfWidth)
	}
	// t_{0.95,4} = 2.131847.
	if want := 2.131847 * s90.StdDev / math.Sqrt(5); !closeRel(s90.HalfWidth, want, 1e-6) {
		t.Errorf("90%% half-width %v, want %v", s90.HalfWidth, want)
	}
	for _, lv := range []float64{0, 1, -0.5, 95, math.NaN()} {
		s := CI(xs, lv)
		if !math.IsNaN(s.HalfWidth) || !math.IsNaN(s.Low) || !math.IsNaN(s.High) {
			t.Errorf("level %v: %+v, want NaN interval", lv, s)
		}
		if s.Mean != s95.Mean || s.StdDev != s95.StdDev {
			t.Errorf("level %v changed mean/sd: %+v", lv, s)
		}
	}
}

func TestCISmallSamples(t *testing.T) {
	s := CI95(nil)
	if s.N != 0 || !math.IsNaN(s.Mean) || !math.IsNaN(s.StdDev) || !math.IsNaN(s.HalfWidth) || !math.IsNaN(s.Low) || !math.IsNaN(s.High) {
		t.Errorf("empty: %+v, want all NaN", s)
	}
	s = CI95([]float64{42})
	if s.N != 1 || s.Mean != 42 || !math.IsNaN(s.StdDev) || !math.IsNaN(s.HalfWidth) || !math.IsNaN(s.Low) || !math.IsNaN(s.High) {
		t.Errorf("single: %+v, want mean 42 and NaN spread", s)
	}
	s = CI95([]float64{7, 7, 7})
	if s.StdDev != 0 || s.HalfWidth != 0 || s.Low != 7 || s.High != 7 {
		t.Errorf("constant: %+v, want zero-width interval at 7", s)
	}
}

func TestCINumericallyStable(t *testing.T) {
	// A large offset must not destroy the variance (the naive
	// sum-of-squares formula returns garbage here).
	base := []float64{4, 7, 13, 16}
	xs := make([]float64, len(base))
	for i, x := range base {
		xs[i] = 1e9 + x
	}
	if got, want := CI95(xs).StdDev, CI95(base).StdDev; !closeRel(got, want, 1e-9) {
		t.Errorf("offset sd %v, want %v", got, want)
	}
}

func TestPaired(t *testing.T) {
	// b is a plus a constant 2 plus small noise: paired differences have a
	// tiny spread although a and b themselves vary widely.
	a := []float64{10, 50, 30, 80, 20}
	b := []float64{12.1, 51.9, 32, 82.1, 21.9}
	s, err := Paired(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := CI95([]float64{-2.1, -1.9, -2, -2.1, -1.9})
	if s.N != 5 || !closeRel(s.Mean, want.Mean, 1e-12) || !closeRel(s.HalfWidth, want.HalfWidth, 1e-9) {
		t.Errorf("Paired = %+v, want %+v", s, want)
	}
	if !(s.High < 0) {
		t.Errorf("difference should be significantly negative: %+v", s)
	}
	if indep := CI95(a).HalfWidth; !(s.HalfWidth < indep/100) {
		t.Errorf("paired half-width %v not much narrower than %v", s.HalfWidth, indep)
	}
}

func TestPairedLengthMismatch(t *testing.T) {
	_, err := Paired([]float64{1, 2, 3}, []float64{1, 2})
	if err == nil || !strings.Contains(err.Error(), "3 and 2") {
		t.Errorf("err = %v, want length mismatch naming 3 and 2", err)
	}
	s, err := Paired(nil, nil)
	if err != nil || s.N != 0 || !math.IsNaN(s.HalfWidth) {
		t.Errorf("empty pair: %+v, %v", s, err)
	}
}

func TestMean(t *testing.T) {
	if !math.IsNaN(Mean(nil)) {
		t.Error("Mean(nil) not NaN")
	}
	if got := Mean([]float64{1, 2, 3, 4}); got != 2.5 {
		t.Errorf("Mean = %v, want 2.5", got)
	}
	// 0.1 is inexact; the corrected mean of ten copies is still 0.1.
	xs := make([]float64, 10)
	for i := range xs {
		xs[i] = 0.1
	}
	if got := Mean(xs); got != 0.1 {
		t.Errorf("Mean of ten 0.1 = %v", got)
	}
}
