package stats

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// OLS is an ordinary least-squares fit y = b0 + b1 x1 + ... + bk xk, with
// the quantities of a regression table: estimates, standard errors, 95%
// bounds, the correlation matrix of the estimates and the analysis of
// variance (the layout of SPSS's nonlinear-regression tables, which
// al-najjar-2019 prints as Tables 2-9).
type OLS struct {
	N int // observations
	P int // parameters, the intercept included (k + 1)
	// Coef, SE, Lower and Upper are per parameter, the intercept first:
	// estimate, standard error sqrt(s^2 (X'X)^-1 diagonal), and the 95%
	// bounds estimate -/+ t(0.975, N-P) x SE.
	Coef, SE, Lower, Upper []float64
	// Corr is the correlation matrix of the estimates, from s^2 (X'X)^-1.
	Corr [][]float64
	// The analysis of variance. Regression is the uncorrected regression
	// sum of squares sum(yhat^2) on P degrees of freedom; Residual
	// sum((y - yhat)^2) on N-P; Uncorrected sum(y^2) on N; Corrected
	// sum((y - mean)^2) on N-1. MSRegression and MSResidual are the mean
	// squares (MSResidual is s^2).
	SSRegression, SSResidual, SSUncorrected, SSCorrected float64
	MSRegression, MSResidual                             float64
	// RSquared is 1 - Residual / Corrected.
	RSquared float64
}

// MaxOLSRows bounds the observations of a fit: the design matrix takes
// 8 x P bytes per row (100 million rows of 3 columns = 2.4 GB).
const MaxOLSRows = 100_000_000

// FitOLS fits y on the predictor columns xs with an intercept, by a QR
// decomposition of the design matrix (numerically safer than the normal
// equations). Every column must have len(y) values, all finite; there
// must be more observations than parameters and the predictors must not
// be collinear (with each other or with the intercept).
func FitOLS(y []float64, xs ...[]float64) (*OLS, error) {
	n, p := len(y), len(xs)+1
	switch {
	case n > MaxOLSRows:
		return nil, fmt.Errorf("ols: %d observations, more than the limit of %d", n, MaxOLSRows)
	case n <= p:
		return nil, fmt.Errorf("ols: %d observations for %d parameters: need more observations than parameters", n, p)
	}
	for k, x := range xs {
		if len(x) != n {
			return nil, fmt.Errorf("ols: predictor %d has %d values, the response %d", k+1, len(x), n)
		}
	}
	X := mat.NewDense(n, p, nil)
	var sumY float64
	for i := range n {
		X.Set(i, 0, 1)
		for k, x := range xs {
			if math.IsNaN(x[i]) || math.IsInf(x[i], 0) {
				return nil, fmt.Errorf("ols: predictor %d, observation %d is %g", k+1, i+1, x[i])
			}
			X.Set(i, k+1, x[i])
		}
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return nil, fmt.Errorf("ols: response, observation %d is %g", i+1, y[i])
		}
		sumY += y[i]
	}
	var qr mat.QR
	qr.Factorize(X)
	if c := qr.Cond(); math.IsInf(c, 1) || c > 1e12 {
		return nil, errors.New("ols: the predictors are collinear (with each other or with the constant): the fit is not determined")
	}
	Y := mat.NewVecDense(n, y)
	var b mat.VecDense
	if err := qr.SolveVecTo(&b, false, Y); err != nil {
		return nil, fmt.Errorf("ols: %w", err)
	}
	// (X'X)^-1 = R^-1 R^-T, R the upper P x P block of the decomposition.
	var rFull mat.Dense
	qr.RTo(&rFull)
	R := mat.NewTriDense(p, mat.Upper, nil)
	for i := range p {
		for j := i; j < p; j++ {
			R.SetTri(i, j, rFull.At(i, j))
		}
	}
	var rInv mat.TriDense
	if err := rInv.InverseTri(R); err != nil {
		return nil, fmt.Errorf("ols: %w", err)
	}
	var xtxInv mat.Dense
	xtxInv.Mul(&rInv, rInv.T())

	mean := sumY / float64(n)
	f := &OLS{N: n, P: p}
	for i := range n {
		yhat := b.AtVec(0)
		for k, x := range xs {
			yhat += b.AtVec(k+1) * x[i]
		}
		r, d := y[i]-yhat, y[i]-mean
		f.SSRegression += yhat * yhat
		f.SSResidual += r * r
		f.SSUncorrected += y[i] * y[i]
		f.SSCorrected += d * d
	}
	f.MSRegression = f.SSRegression / float64(p)
	f.MSResidual = f.SSResidual / float64(n-p)
	if f.SSCorrected > 0 {
		f.RSquared = 1 - f.SSResidual/f.SSCorrected
	}
	t := StudentTQuantile(0.975, n-p)
	for j := range p {
		se := math.Sqrt(f.MSResidual * xtxInv.At(j, j))
		f.Coef = append(f.Coef, b.AtVec(j))
		f.SE = append(f.SE, se)
		f.Lower = append(f.Lower, b.AtVec(j)-t*se)
		f.Upper = append(f.Upper, b.AtVec(j)+t*se)
	}
	f.Corr = make([][]float64, p)
	for i := range p {
		f.Corr[i] = make([]float64, p)
		for j := range p {
			f.Corr[i][j] = xtxInv.At(i, j) / math.Sqrt(xtxInv.At(i, i)*xtxInv.At(j, j))
		}
	}
	return f, nil
}
