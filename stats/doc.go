// Package stats provides the statistics used to analyse replicated
// simulation experiments and the closed-form queueing results used to test
// the simulator analytically.
//
// It offers:
//   - Student-t confidence intervals for the mean of independent replicas
//     (CI, CI95) and for paired differences under common random numbers
//     (Paired), together with the quantile they rest on (StudentTQuantile);
//   - a streaming accumulator, Running, that keeps the count, mean,
//     variance, minimum and maximum of millions of observations in O(1)
//     memory with Welford's numerically stable update;
//   - the M/M/1 and M/M/c mean waiting and response times and the Erlang C
//     probability of waiting (MM1Response, MM1Wait, ErlangC, MMcWait,
//     MMcResponse).
//
// Promises:
//   - every function is pure and deterministic: the same input gives the
//     same bits of output; nothing is random and the package has no mutable
//     package-level state, so all functions are safe for concurrent use
//     (a Running value is not: it belongs to one goroutine at a time);
//   - functions never panic on bad numeric input: undefined results are
//     NaN (for example a confidence interval from fewer than two
//     observations), and an unstable queue (utilisation >= 1) has an
//     infinite mean wait and response time (+Inf). Each function documents
//     its cases. The only error value is Paired's, for inputs of different
//     lengths, which is a caller bug that must not pass silently;
//   - variances are sample variances (divisor n-1) everywhere.
package stats
