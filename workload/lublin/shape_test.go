package lublin

import (
	"errors"
	"io"
	"math"
	"testing"

	"github.com/schedlab/schedlab/job/actual"
	"gonum.org/v1/gonum/mathext"
)

// The expectations below are worked out in the test from the model's
// formulas (the two-stage uniform, the hyper-Gamma with p = PA·n + PB,
// the truncations), with gonum's incomplete gamma function: nothing of
// the generator's own arithmetic (twoStageCDF, sizes, truncGamma) is
// used, so a slip in either shows. Tolerances are 5 standard errors of
// the 50,000-job sample, the standard errors taken from the sample's own
// spread (a two-sided 5-SE miss has probability below 1e-6 per check).

const shapeJobs = 50_000

func generate(t testing.TB, p Params, seed uint64, rep int) []actual.Job {
	t.Helper()
	s, err := New(p, seed, rep)
	if err != nil {
		t.Fatal(err)
	}
	jobs := make([]actual.Job, 0, p.Jobs)
	for {
		j, err := s.Next()
		if errors.Is(err, io.EOF) {
			return jobs
		}
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
}

// sizePMF is the size distribution by enumeration of the model's rule:
// u < SerialProb: 1; else x two-stage uniform on [ULow, UMed, UHi] with
// UProb; u < SerialProb+Pow2Prob: x rounded; n = round(2^x) <= 2^UHi.
func sizePMF(p Params) map[int]float64 {
	stage := func(x, lo, hi float64) float64 { return math.Min(1, math.Max(0, (x-lo)/(hi-lo))) }
	cdf := func(x float64) float64 { return p.UProb*stage(x, p.ULow, p.UMed) + (1-p.UProb)*stage(x, p.UMed, p.UHi) }
	pmf := map[int]float64{1: p.SerialProb}
	top := int(math.Round(math.Exp2(p.UHi)))
	for k := 0; k <= int(math.Ceil(p.UHi)); k++ {
		n := min(1<<k, top)
		pmf[n] += p.Pow2Prob * (cdf(float64(k)+0.5) - cdf(float64(k)-0.5))
	}
	other := 1 - p.SerialProb - p.Pow2Prob
	for n := 1; n <= top; n++ {
		hi := cdf(math.Log2(float64(n) + 0.5))
		if n == top {
			hi = 1
		}
		pmf[n] += other * (hi - cdf(math.Log2(float64(n)-0.5)))
	}
	return pmf
}

// truncMoment is E[X^k | X <= c] for X ~ Gamma(a, b):
// b^k Γ(a+k)/Γ(a) · P(a+k, c/b) / P(a, c/b).
func truncMoment(k int, a, b, c float64) float64 {
	lr, _ := math.Lgamma(a + float64(k))
	l0, _ := math.Lgamma(a)
	return math.Pow(b, float64(k)) * math.Exp(lr-l0) * mathext.GammaIncReg(a+float64(k), c/b) / mathext.GammaIncReg(a, c/b)
}

// truncMeanExp is E[exp(X) | X <= c] for X ~ Gamma(a, b), b < 1.
func truncMeanExp(a, b, c float64) float64 {
	return math.Pow(1-b, -a) * mathext.GammaIncReg(a, c*(1-b)/b) / mathext.GammaIncReg(a, c/b)
}

func clamp01(x float64) float64 { return math.Min(1, math.Max(0, x)) }

func TestShapeBatch128(t *testing.T) {
	p := Default(128)
	p.Jobs = shapeJobs
	jobs := generate(t, p, 2025, 0)
	N := float64(len(jobs))
	pmf := sizePMF(p)

	// Size distribution sums to 1 and has no size 0 or above 128.
	sum := 0.0
	for n, q := range pmf {
		if n < 1 || n > 128 {
			t.Fatalf("pmf has size %d", n)
		}
		sum += q
	}
	if math.Abs(sum-1) > 1e-12 {
		t.Fatalf("pmf sums to %v", sum)
	}

	// Serial fraction: SerialProb = 0.2927 (no parallel draw gives 1
	// since 2^ULow = 2^1.2 ≈ 2.30 rounds to 2).
	wantSerial := pmf[1]
	if math.Abs(wantSerial-0.2927) > 1e-12 {
		t.Fatalf("expected serial share %v, want the published 0.2927", wantSerial)
	}
	serial, pow2 := 0, 0
	for _, j := range jobs {
		switch {
		case j.Procs == 1:
			serial++
		case j.Procs&(j.Procs-1) == 0:
			pow2++
		}
	}
	checkProp(t, "serial share", float64(serial), N, wantSerial)

	// Power-of-two share of parallel jobs: Pow2Prob/(1-SerialProb) =
	// 0.9453 from the power-of-two branch, plus the other branch's
	// sizes that land on a power of two by rounding.
	wantPow2 := 0.0
	for n, q := range pmf {
		if n > 1 && n&(n-1) == 0 {
			wantPow2 += q
		}
	}
	wantPow2 /= 1 - wantSerial
	if wantPow2 < 0.6686/0.7073 || wantPow2 > 1 {
		t.Fatalf("expected power-of-two share %v out of [0.9453, 1]", wantPow2)
	}
	checkProp(t, "power-of-two share of parallel jobs", float64(pow2), N-float64(serial), wantPow2)

	// Log-runtime moments: E[H | n] = p(n) m1 + (1-p(n)) m2 with the
	// truncated Gamma means, p(n) = clamp(PA n + PB).
	m1, m2 := truncMoment(1, p.A1, p.B1, MaxLogRuntime), truncMoment(1, p.A2, p.B2, MaxLogRuntime)
	s1, s2 := truncMoment(2, p.A1, p.B1, MaxLogRuntime), truncMoment(2, p.A2, p.B2, MaxLogRuntime)
	var eH, eH2, eN, eN2, eNH float64
	condH := func(n int) float64 { q := clamp01(p.PA*float64(n) + p.PB); return q*m1 + (1-q)*m2 }
	for n, q := range pmf {
		pn := clamp01(p.PA*float64(n) + p.PB)
		eH += q * condH(n)
		eH2 += q * (pn*s1 + (1-pn)*s2)
		eN += q * float64(n)
		eN2 += q * float64(n) * float64(n)
		eNH += q * float64(n) * condH(n)
	}
	varH := eH2 - eH*eH
	wantCorr := (eNH - eN*eH) / math.Sqrt((eN2-eN*eN)*varH)

	logs := make([]float64, len(jobs))
	sizes := make([]float64, len(jobs))
	for i, j := range jobs {
		logs[i] = math.Log(j.Runtime)
		sizes[i] = float64(j.Procs)
	}
	mean, sd := meanSD(logs)
	checkNear(t, "mean log runtime", mean, eH, 5*sd/math.Sqrt(N))
	// Variance: SE sqrt((m4 - s^4)/N) from the sample's fourth central
	// moment.
	m4 := 0.0
	for _, x := range logs {
		m4 += math.Pow(x-mean, 4)
	}
	m4 /= N
	checkNear(t, "variance of log runtime", sd*sd, varH, 5*math.Sqrt((m4-sd*sd*sd*sd)/N))

	// Conditional means: serial jobs and jobs of 32 or more processors.
	var serialLogs, bigLogs []float64
	wantBig, bigMass := 0.0, 0.0
	for n, q := range pmf {
		if n >= 32 {
			wantBig += q * condH(n)
			bigMass += q
		}
	}
	wantBig /= bigMass
	for i, j := range jobs {
		if j.Procs == 1 {
			serialLogs = append(serialLogs, logs[i])
		} else if j.Procs >= 32 {
			bigLogs = append(bigLogs, logs[i])
		}
	}
	ms, ss := meanSD(serialLogs)
	checkNear(t, "mean log runtime of serial jobs", ms, condH(1), 5*ss/math.Sqrt(float64(len(serialLogs))))
	mb, sb := meanSD(bigLogs)
	checkNear(t, "mean log runtime of jobs of >= 32 processors", mb, wantBig, 5*sb/math.Sqrt(float64(len(bigLogs))))
	// The model's difference is condH(32..128) - condH(1) ≈ 0.72; with
	// 5-SE margins on both means (≈ 0.11 and 0.15) it stays above 0.3.
	if !(mb-ms > 0.3) {
		t.Errorf("jobs of >= 32 processors: mean log runtime %v, not clearly above the serial jobs' %v", mb, ms)
	}

	// Size-runtime correlation: positive as the model implies (PA < 0),
	// and within 5 delta-method standard errors of the model's value.
	r, se := pearson(sizes, logs)
	if !(wantCorr > 0.05) {
		t.Fatalf("expected correlation %v, want clearly positive", wantCorr)
	}
	checkNear(t, "correlation of size and log runtime", r, wantCorr, 5*se)
}

func checkProp(t *testing.T, what string, hits, n, want float64) {
	t.Helper()
	checkNear(t, what, hits/n, want, 5*math.Sqrt(want*(1-want)/n))
}

func checkNear(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol {
		t.Errorf("%s: %.5g, want %.5g ± %.3g", what, got, want, tol)
	} else {
		t.Logf("%s: %.5g, want %.5g ± %.3g", what, got, want, tol)
	}
}

func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		sd += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(sd / float64(len(xs)-1))
}

// pearson is the sample correlation of x and y with its large-sample
// standard error for any distribution with finite fourth moments (the
// delta method; Kendall and Stuart's formula in central moments μ_ij):
// Var r ≈ r²/n · [μ22/μ11² + (μ40/μ20² + 2μ22/(μ20μ02) + μ04/μ02²)/4
// - μ31/(μ11μ20) - μ13/(μ11μ02)].
func pearson(x, y []float64) (r, se float64) {
	n := float64(len(x))
	mx, _ := meanSD(x)
	my, _ := meanSD(y)
	mu := func(i, j int) float64 {
		s := 0.0
		for k := range x {
			s += math.Pow(x[k]-mx, float64(i)) * math.Pow(y[k]-my, float64(j))
		}
		return s / n
	}
	m11, m20, m02 := mu(1, 1), mu(2, 0), mu(0, 2)
	m22, m40, m04, m31, m13 := mu(2, 2), mu(4, 0), mu(0, 4), mu(3, 1), mu(1, 3)
	r = m11 / math.Sqrt(m20*m02)
	v := r * r / n * (m22/(m11*m11) + (m40/(m20*m20)+2*m22/(m20*m02)+m04/(m02*m02))/4 - m31/(m11*m20) - m13/(m11*m02))
	return r, math.Sqrt(v)
}
