package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// A data set small enough to solve by hand:
//
//	x1 = 1 2 3 4 5, x2 = 1 0 1 0 1, y = 3 4 8 8 12
//
//	X'X = [5 15 3; 15 55 9; 3 9 3], X'y = [35; 127; 23]
//	(X'X)^-1 = [7/5 -3/10 -1/2; -3/10 1/10 0; -1/2 0 5/6]
//	b = (X'X)^-1 X'y = (-3/5, 11/5, 5/3)
//	  (check: 5(-3/5) + 15(11/5) + 3(5/3) = -3 + 33 + 5 = 35)
//	yhat = 49/15, 19/5, 23/3, 41/5, 181/15
//	residuals = -4/15, 1/5, 1/3, -1/5, -1/15; RSS = (16 + 9 + 25 + 9 + 1)/225 = 60/225 = 4/15
//	s^2 = RSS / (5 - 3) = 2/15
//	SE = sqrt(s^2 diag): sqrt(2/15 * 7/5) = sqrt(14/75) = 0.432049,
//	     sqrt(2/15 * 1/10) = sqrt(1/75) = 0.115470, sqrt(2/15 * 5/6) = 1/3
//	corr(b0,b1) = (-3/10) / sqrt(7/5 * 1/10) = -0.801784,
//	corr(b0,b2) = (-1/2) / sqrt(7/5 * 5/6) = -0.462910, corr(b1,b2) = 0
//	mean y = 7; corrected SS = 16 + 9 + 1 + 1 + 25 = 52; R^2 = 1 - (4/15)/52 = 194/195
//	uncorrected SS = 9 + 16 + 64 + 64 + 144 = 297; regression SS = sum yhat^2 = 4451/15
//	  (= 297 - 4/15: the residuals are orthogonal to the fitted values)
//	95% bounds: b -/+ t(0.975, 2) SE, t(0.975, 2) = 4.302653
func TestOLSByHand(t *testing.T) {
	f, err := FitOLS([]float64{3, 4, 8, 8, 12}, []float64{1, 2, 3, 4, 5}, []float64{1, 0, 1, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9*max(1, math.Abs(want)) {
			t.Errorf("%s = %.12g, want %.12g", what, got, want)
		}
	}
	if f.N != 5 || f.P != 3 {
		t.Fatalf("N, P = %d, %d", f.N, f.P)
	}
	for j, w := range []float64{-3.0 / 5, 11.0 / 5, 5.0 / 3} {
		near("coef", f.Coef[j], w)
	}
	for j, w := range []float64{math.Sqrt(14.0 / 75), math.Sqrt(1.0 / 75), 1.0 / 3} {
		near("se", f.SE[j], w)
		near("lower", f.Lower[j], f.Coef[j]-4.302652729749464*w)
		near("upper", f.Upper[j], f.Coef[j]+4.302652729749464*w)
	}
	near("corr01", f.Corr[0][1], -0.3/math.Sqrt(0.14))
	near("corr02", f.Corr[0][2], -0.5/math.Sqrt(7.0/6))
	near("corr12", f.Corr[1][2], 0)
	near("corr11", f.Corr[1][1], 1)
	near("RSS", f.SSResidual, 4.0/15)
	near("MSres", f.MSResidual, 2.0/15)
	near("SScorr", f.SSCorrected, 52)
	near("SSunc", f.SSUncorrected, 297)
	near("SSreg", f.SSRegression, 4451.0/15)
	near("MSreg", f.MSRegression, 4451.0/45)
	near("R2", f.RSquared, 194.0/195)
}

// naiveOLS solves the normal equations X'X b = X'y by Gaussian elimination
// with partial pivoting and inverts X'X by Gauss-Jordan: an independent
// route to the same numbers.
func naiveOLS(y []float64, xs ...[]float64) (b, se []float64, r2 float64) {
	p := len(xs) + 1
	row := func(i int) []float64 {
		r := []float64{1}
		for _, x := range xs {
			r = append(r, x[i])
		}
		return r
	}
	a := make([][]float64, p) // [X'X | I | X'y]
	for i := range a {
		a[i] = make([]float64, 2*p+1)
		a[i][p+i] = 1
	}
	for i := range y {
		r := row(i)
		for j := range p {
			for k := range p {
				a[j][k] += r[j] * r[k]
			}
			a[j][2*p] += r[j] * y[i]
		}
	}
	for c := range p {
		piv := c
		for r := c + 1; r < p; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		a[c], a[piv] = a[piv], a[c]
		d := a[c][c]
		for k := range a[c] {
			a[c][k] /= d
		}
		for r := range p {
			if r != c {
				f := a[r][c]
				for k := range a[r] {
					a[r][k] -= f * a[c][k]
				}
			}
		}
	}
	b = make([]float64, p)
	for j := range p {
		b[j] = a[j][2*p]
	}
	var rss, sum, sst float64
	for i := range y {
		r := row(i)
		yh := 0.0
		for j := range p {
			yh += b[j] * r[j]
		}
		rss += (y[i] - yh) * (y[i] - yh)
		sum += y[i]
	}
	m := sum / float64(len(y))
	for _, v := range y {
		sst += (v - m) * (v - m)
	}
	s2 := rss / float64(len(y)-p)
	for j := range p {
		se = append(se, math.Sqrt(s2*a[j][p+j]))
	}
	return b, se, 1 - rss/sst
}

// On random data shaped like the paper's (heavy-tailed runtimes, CPUs a
// power of two, memory anticorrelated with CPUs; raw and log10 columns)
// the QR fit and the normal equations agree to 1e-6 relative: the data
// are well conditioned enough for the normal equations to be accurate.
func TestOLSAgreesWithNormalEquations(t *testing.T) {
	for seed := range uint64(5) {
		r := rand.New(rand.NewPCG(seed, 3))
		n := 500 + r.IntN(2000)
		y, cpu, mem, lc, lm := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range n {
			cpu[i] = math.Exp2(float64(r.IntN(8)))
			mem[i] = math.Exp(1.6 - 0.8*math.Log(cpu[i]) + 0.8*r.NormFloat64())
			lc[i], lm[i] = math.Log10(cpu[i]), math.Log10(mem[i])
			y[i] = math.Exp(3+2.3*r.NormFloat64()) + 6.6*cpu[i]
		}
		for _, cols := range [][][]float64{{cpu, mem}, {lc, lm}} {
			f, err := FitOLS(y, cols...)
			if err != nil {
				t.Fatal(err)
			}
			b, se, r2 := naiveOLS(y, cols...)
			for j := range b {
				if math.Abs(f.Coef[j]-b[j]) > 1e-6*max(1, math.Abs(b[j])) || math.Abs(f.SE[j]-se[j]) > 1e-6*se[j] {
					t.Errorf("seed %d: b%d %g (SE %g), normal equations %g (SE %g)", seed, j, f.Coef[j], f.SE[j], b[j], se[j])
				}
			}
			if math.Abs(f.RSquared-r2) > 1e-9 {
				t.Errorf("seed %d: R2 %g, normal equations %g", seed, f.RSquared, r2)
			}
		}
	}
}

func TestOLSBadInput(t *testing.T) {
	ones := []float64{1, 1, 1, 1, 1}
	for name, c := range map[string]struct {
		y  []float64
		xs [][]float64
	}{
		"too few":    {[]float64{1, 2}, [][]float64{{1, 2}}},
		"length":     {[]float64{1, 2, 3, 4}, [][]float64{{1, 2, 3}}},
		"constant x": {[]float64{1, 2, 3, 4, 5}, [][]float64{ones}},
		"collinear":  {[]float64{1, 2, 3, 4, 5}, [][]float64{{1, 2, 3, 4, 5}, {2, 4, 6, 8, 10}}},
		"NaN":        {[]float64{1, 2, math.NaN(), 4, 5}, [][]float64{{1, 2, 3, 4, 6}}},
		"Inf x":      {[]float64{1, 2, 3, 4, 5}, [][]float64{{1, 2, math.Inf(1), 4, 6}}},
	} {
		if _, err := FitOLS(c.y, c.xs...); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
