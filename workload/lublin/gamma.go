package lublin

import (
	"math"
	"math/rand/v2"
)

// gammaRand draws from the Gamma distribution of shape a > 0 and scale b
// > 0 (mean a·b), by Marsaglia and Tsang's squeeze method ("A simple
// method for generating gamma variables", ACM TOMS 26(3), 2000); a shape
// below 1 is drawn as Gamma(a+1)·U^(1/a), the boost the same paper gives.
func gammaRand(r *rand.Rand, a, b float64) float64 {
	boost := 1.0
	if a < 1 {
		boost = math.Pow(1-r.Float64(), 1/a) // 1-U is in (0, 1]
		a++
	}
	d := a - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		x2 := x * x
		if u < 1-0.0331*x2*x2 {
			return d * v * b * boost
		}
		if u > 0 && math.Log(u) < 0.5*x2+d*(1-v+math.Log(v)) {
			return d * v * b * boost
		}
	}
}

// gammaCDF is P(X <= x) for X ~ Gamma(shape a, scale b): the regularized
// lower incomplete gamma function P(a, x/b).
func gammaCDF(x, a, b float64) float64 {
	if x <= 0 {
		return 0
	}
	return incGammaP(a, x/b)
}

// incGammaP is the regularized lower incomplete gamma function P(a, x),
// a > 0, x >= 0: by its power series for x < a+1 and by the continued
// fraction of the upper function Q = 1 - P otherwise (the classic split,
// e.g. Numerical Recipes §6.2), to about 1e-14 relative accuracy.
func incGammaP(a, x float64) float64 {
	switch {
	case x <= 0:
		return 0
	case math.IsInf(x, 1):
		return 1
	}
	lg, _ := math.Lgamma(a)
	front := math.Exp(a*math.Log(x) - x - lg)
	if x < a+1 {
		// P = x^a e^-x / Γ(a+1) · Σ x^n / ((a+1)...(a+n)).
		sum, term := 1/a, 1/a
		for n := 1; n < 100000; n++ {
			term *= x / (a + float64(n))
			sum += term
			if term < sum*1e-16 {
				break
			}
		}
		return math.Min(1, sum*front)
	}
	// Q by the modified Lentz evaluation of the continued fraction
	// 1/(x+1-a- 1·(1-a)/(x+3-a- 2·(2-a)/(x+5-a- ...))).
	const tiny = 1e-300
	bb := x + 1 - a
	c := 1 / tiny
	d := 1 / bb
	h := d
	for i := 1; i < 100000; i++ {
		an := -float64(i) * (float64(i) - a)
		bb += 2
		d = an*d + bb
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = bb + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := d * c
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return math.Max(0, 1-front*h)
}

// truncGamma describes X ~ Gamma(a, b) conditioned on X <= c: what the
// model draws when it redraws every value above c.
type truncGamma struct{ a, b, c float64 }

// mass is P(X <= c) before conditioning.
func (g truncGamma) mass() float64 { return gammaCDF(g.c, g.a, g.b) }

// meanExp is E[exp(X) | X <= c]. For scale b < 1 it is
// (1-b)^-a · P(X' <= c) / P(X <= c) with X' ~ Gamma(a, b/(1-b)), since
// e^x · x^(a-1) e^(-x/b) = x^(a-1) e^(-x(1-b)/b). For b >= 1 it is the
// series Σ_k E[X^k; X <= c] / k!, with E[X^k; X <= c] =
// b^k Γ(a+k)/Γ(a) · P(a+k, c/b); its terms fall below c^k/k!.
func (g truncGamma) meanExp() float64 {
	if g.b < 1 {
		return math.Exp(-g.a*math.Log1p(-g.b)) * gammaCDF(g.c, g.a, g.b/(1-g.b)) / g.mass()
	}
	sum, coef := 0.0, 1.0 // coef = b^k Γ(a+k) / (Γ(a) k!)
	for k := 0; k < 10000; k++ {
		if k > 0 {
			coef *= g.b * (g.a + float64(k) - 1) / float64(k)
		}
		term := coef * incGammaP(g.a+float64(k), g.c/g.b)
		sum += term
		if float64(k) > g.c && term < 1e-16*sum {
			break
		}
	}
	return sum / g.mass()
}

// mean is E[X | X <= c] = a·b · P(a+1, c/b) / P(a, c/b).
func (g truncGamma) mean() float64 {
	return g.a * g.b * incGammaP(g.a+1, g.c/g.b) / g.mass()
}
