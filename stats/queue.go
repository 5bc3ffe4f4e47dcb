package stats

import "math"

// Closed-form results of the M/M/1 and M/M/c queues (Poisson arrivals at
// rate lambda, exponential service at rate mu per server, c identical
// servers, first-come first-served, infinite waiting room). Waiting time is
// the time from arrival to start of service; response time is waiting time
// plus service time. Both are means in steady state, in the time unit of
// 1/lambda and 1/mu.
//
// Domain: lambda >= 0, mu > 0, c >= 1, all finite. Outside it the functions
// return NaN. When the utilisation rho = lambda/(c*mu) is 1 or more the
// queue is unstable and grows without bound: the mean waiting and response
// times are +Inf and ErlangC is 1.

// MM1Response returns the mean response time of the M/M/1 queue,
// 1/(mu-lambda). See the domain rules above.
func MM1Response(lambda, mu float64) float64 {
	if !validRates(lambda, mu) {
		return math.NaN()
	}
	if lambda >= mu {
		return math.Inf(1)
	}
	return 1 / (mu - lambda)
}

// MM1Wait returns the mean waiting time of the M/M/1 queue,
// rho/(mu-lambda) with rho = lambda/mu. See the domain rules above.
func MM1Wait(lambda, mu float64) float64 {
	if !validRates(lambda, mu) {
		return math.NaN()
	}
	if lambda >= mu {
		return math.Inf(1)
	}
	return lambda / (mu * (mu - lambda))
}

// ErlangC returns the Erlang C probability that an arriving customer has to
// wait in an M/M/c queue with c servers and offered load a = lambda/mu
// Erlangs.
//
// It is computed stably, without factorials or powers, from the Erlang B
// recursion B(0) = 1, B(k) = a*B(k-1) / (k + a*B(k-1)), and then
// C = c*B(c) / (c - a*(1-B(c))).
//
// It returns 0 for a == 0, 1 for a >= c (unstable: every customer waits),
// and NaN for c < 1 or a negative, NaN or infinite load.
func ErlangC(c int, a float64) float64 {
	if c < 1 || !(a >= 0) || math.IsInf(a, 1) {
		return math.NaN()
	}
	if a >= float64(c) {
		return 1
	}
	b := 1.0
	for k := 1; k <= c; k++ {
		b = a * b / (float64(k) + a*b)
	}
	fc := float64(c)
	return fc * b / (fc - a*(1-b))
}

// MMcWait returns the mean waiting time of the M/M/c queue,
// ErlangC(c, lambda/mu) / (c*mu - lambda). See the domain rules above.
func MMcWait(lambda, mu float64, c int) float64 {
	if !validRates(lambda, mu) || c < 1 {
		return math.NaN()
	}
	if lambda >= float64(c)*mu {
		return math.Inf(1)
	}
	return ErlangC(c, lambda/mu) / (float64(c)*mu - lambda)
}

// MMcResponse returns the mean response time of the M/M/c queue,
// MMcWait(lambda, mu, c) + 1/mu. See the domain rules above.
func MMcResponse(lambda, mu float64, c int) float64 {
	return MMcWait(lambda, mu, c) + 1/mu
}

// validRates reports whether lambda >= 0 and mu > 0, both finite.
func validRates(lambda, mu float64) bool {
	return lambda >= 0 && mu > 0 && !math.IsInf(lambda, 0) && !math.IsInf(mu, 0)
}
