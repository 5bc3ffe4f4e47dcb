package lublin

import "math"

// The model's expectations, computed from its formulas (not by drawing):
// the offered load and the arrival factor a target load needs.

// twoStageCDF is P(X <= x) for the two-stage uniform log2-size X.
func (p Params) twoStageCDF(x float64) float64 {
	return p.UProb*uniformCDF(x, p.ULow, p.UMed) + (1-p.UProb)*uniformCDF(x, p.UMed, p.UHi)
}

// uniformCDF is P(U <= x) for U uniform on [lo, hi] (a point at lo when
// lo == hi).
func uniformCDF(x, lo, hi float64) float64 {
	switch {
	case x < lo:
		return 0
	case x >= hi:
		return 1
	}
	return (x - lo) / (hi - lo)
}

// maxSize is the largest size the model gives: round(2^UHi), at most
// Procs.
func (p Params) maxSize() int {
	return min(int(math.Floor(math.Exp2(p.UHi)+0.5)), p.Procs)
}

// sizes calls f for every size n with its probability (a size may come
// more than once: from the serial, power-of-two and other branches).
// It takes O(maxSize) steps.
func (p Params) sizes(f func(n int, prob float64)) {
	f(1, p.SerialProb)
	maxN := p.maxSize()
	// Power-of-two jobs: x rounded to k (half up), n = 2^k capped.
	if p.Pow2Prob > 0 {
		for k := 0; float64(k)-0.5 <= p.UHi; k++ {
			q := p.twoStageCDF(float64(k)+0.5) - p.twoStageCDF(float64(k)-0.5)
			f(min(1<<k, maxN), p.Pow2Prob*q)
		}
	}
	// Other parallel jobs: n = round(2^x), capped at maxN.
	if other := 1 - p.SerialProb - p.Pow2Prob; other > 0 {
		lo := 0.0 // P(X < log2(n - 0.5)) so far
		for n := 1; n <= maxN; n++ {
			hi := 1.0
			if n < maxN {
				hi = p.twoStageCDF(math.Log2(float64(n) + 0.5))
			}
			f(n, other*(hi-lo))
			lo = hi
		}
	}
}

// runtimeMeans are E[exp(G1)] and E[exp(G2)] of the two truncated
// log-runtime Gammas, in seconds before RuntimeFactor.
func (p Params) runtimeMeans() (t1, t2 float64) {
	return truncGamma{p.A1, p.B1, MaxLogRuntime}.meanExp(), truncGamma{p.A2, p.B2, MaxLogRuntime}.meanExp()
}

// mixP is the probability of the first Gamma for a job of n processors.
func (p Params) mixP(n int) float64 {
	return min(max(p.PA*float64(n)+p.PB, 0), 1)
}

// ExpectedWork is the expected work of a job, E[n · runtime] in
// processor-seconds (RuntimeFactor included, before the rounding of
// runtimes to whole seconds).
func (p Params) ExpectedWork() float64 {
	t1, t2 := p.runtimeMeans()
	w := 0.0
	p.sizes(func(n int, prob float64) {
		q := p.mixP(n)
		w += prob * float64(n) * (q*t1 + (1-q)*t2)
	})
	return w * p.RuntimeFactor
}

// baseInterarrival is the mean inter-arrival time before ArrivalFactor:
// E[exp(G) | G <= MaxLogInterarrival], G ~ Gamma(AArr·ARAR, BArr). With
// the daily cycle it is also the long-run mean on the clock, since a day
// holds exactly a day of model time.
func (p Params) baseInterarrival() float64 {
	return truncGamma{p.AArr * p.ARAR, p.BArr, MaxLogInterarrival}.meanExp()
}

// MeanInterarrival is the expected time between two arrivals, in
// seconds: ArrivalFactor (or the factor Load sets) times
// E[exp(G) | G <= MaxLogInterarrival].
func (p Params) MeanInterarrival() float64 {
	return p.arrivalFactor() * p.baseInterarrival()
}

// OfferedLoad is the model's expected offered load: the expected work of
// a job over the processor-seconds the machine offers between two
// arrivals, ExpectedWork / (Procs · MeanInterarrival). With Load set it
// is Load.
func (p Params) OfferedLoad() float64 {
	return p.ExpectedWork() / (float64(p.Procs) * p.MeanInterarrival())
}

// arrivalFactor is ArrivalFactor, or the factor a target Load needs.
func (p Params) arrivalFactor() float64 {
	if p.Load > 0 {
		return p.loadFactor()
	}
	return p.ArrivalFactor
}

// loadFactor is the arrival factor that makes the offered load Load.
func (p Params) loadFactor() float64 {
	return p.ExpectedWork() / (float64(p.Procs) * p.baseInterarrival() * p.Load)
}
