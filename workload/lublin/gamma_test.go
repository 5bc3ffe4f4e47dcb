package lublin

import (
	"math"
	"testing"

	"github.com/schedlab/schedlab/rng"
	"gonum.org/v1/gonum/mathext"
)

// incGammaP agrees with gonum's regularized incomplete gamma function
// over the shapes and arguments the model uses (shapes 0.5..640, both
// sides of x = a+1).
func TestIncGammaPAgreesWithGonum(t *testing.T) {
	for _, a := range []float64{0.5, 1, 2.5, 3.8351, 6.1271, 6.57, 8.9186, 100, 639.1, 640.1} {
		for _, x := range []float64{1e-3, 0.5, 1, 3, 7, 10.5, 14.58, 30, 58.5, 100, 600, 640, 700, 769.2} {
			got, want := incGammaP(a, x), mathext.GammaIncReg(a, x)
			if math.Abs(got-want) > 1e-12*math.Max(1, want) && math.Abs(got-want) > 1e-300 {
				t.Errorf("P(%v, %v) = %.17g, gonum %.17g", a, x, got, want)
			}
		}
	}
}

// meanExp: the closed form (scale < 1) against the series (scale >= 1
// path, forced here) and against Simpson's rule on the density.
func TestTruncatedMeanExp(t *testing.T) {
	simpson := func(a, b, c float64) float64 {
		lg, _ := math.Lgamma(a)
		f := func(x float64) float64 {
			if x == 0 {
				return 0
			}
			return math.Exp(x + (a-1)*math.Log(x) - x/b - lg - a*math.Log(b))
		}
		const n = 200000
		h := c / n
		s := f(0) + f(c)
		for i := 1; i < n; i++ {
			s += float64(2+2*(i%2)) * f(float64(i)*h)
		}
		return s * h / 3 / mathext.GammaIncReg(a, c/b)
	}
	for _, g := range []truncGamma{{6.57, 0.823, 12}, {639.1, 0.0156, 12}, {6.355, 0.8531, 13}, {2, 1.5, 12}, {3, 4, 13}} {
		got, want := g.meanExp(), simpson(g.a, g.b, g.c)
		if math.Abs(got-want) > 1e-7*want {
			t.Errorf("%+v: meanExp %.12g, Simpson %.12g", g, got, want)
		}
	}
}

// gammaRand has the Gamma's mean a·b and variance a·b², within 5
// standard errors of 200,000 draws: the mean's SE is sqrt(a·b²/n), the
// variance's sqrt((μ4 - σ⁴)/n) with the Gamma's fourth central moment
// μ4 = (3a² + 6a)·b⁴.
func TestGammaRandMoments(t *testing.T) {
	r := rng.New(7, 0, "gamma-test")
	const n = 200_000
	for _, c := range []struct{ a, b float64 }{{0.4, 2}, {1, 1}, {6.57, 0.823}, {639.1, 0.0156}} {
		var s, s2 float64
		for i := 0; i < n; i++ {
			x := gammaRand(r, c.a, c.b)
			if !(x > 0) {
				t.Fatalf("Gamma(%v, %v) drew %v", c.a, c.b, x)
			}
			s += x
			s2 += x * x
		}
		mean := s / n
		v := s2/n - mean*mean
		wantM, wantV := c.a*c.b, c.a*c.b*c.b
		mu4 := (3*c.a*c.a + 6*c.a) * math.Pow(c.b, 4)
		if d := math.Abs(mean - wantM); d > 5*math.Sqrt(wantV/n) {
			t.Errorf("Gamma(%v, %v): mean %v, want %v", c.a, c.b, mean, wantM)
		}
		if d := math.Abs(v - wantV); d > 5*math.Sqrt((mu4-wantV*wantV)/n) {
			t.Errorf("Gamma(%v, %v): variance %v, want %v", c.a, c.b, v, wantV)
		}
	}
}
