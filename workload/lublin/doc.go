// Package lublin generates the rigid parallel jobs of the Lublin–Feitelson
// workload model: U. Lublin and D. G. Feitelson, "The workload on parallel
// supercomputers: modeling the characteristics of rigid jobs", Journal of
// Parallel and Distributed Computing 63(11):1105–1122, 2003.
//
// The model draws, for a machine of P processors:
//   - a job's size: serial with a fixed probability, else log2 of the
//     size from a two-stage uniform distribution, rounded to a power of
//     two with a fixed probability;
//   - its runtime: the log of the runtime from a hyper-Gamma distribution
//     (a mixture of two Gammas) whose mixing probability falls linearly
//     with the job's size, so that larger jobs run longer;
//   - its arrival: the log of the inter-arrival time from a Gamma
//     distribution, stretched and squeezed over the day by a daily cycle
//     (Gamma-shaped weights of the 48 half-hours).
//
// Params holds the options and the published parameters (Default: the
// batch-job set; For(Interactive, P): the interactive one), with every
// formula in its field comments; docs/workloads.md has the table and its
// sources. The values are those of the authors' own generator,
// lublin99.c, which codifies the paper's fits.
//
// What the package promises:
//   - A Source yields Params.Jobs jobs in submit order (submit times
//     nondecreasing, whole seconds), ids 1..Jobs, 1 <= Procs <= P,
//     Runtime >= 1 whole seconds, Request >= Runtime, Estimate = Request.
//   - Sizes, runtimes, arrivals, users and requests each come from their
//     own stream of package rng, derived from (seed, replication,
//     purpose): the same seed and replication give the same jobs bit for
//     bit, and common random numbers hold across policies.
//   - Check names every invalid field; New calls it. Every size that
//     allocates (Users) and every loop bound (Procs, Jobs) has a limit.
//   - Generation streams: memory does not grow with Jobs; a million
//     jobs take a fraction of a second (BenchmarkGenerate).
//
// The model has no users. Params.Users adds user ids by a named
// simplification (Zipf's law over Users users), which is schedlab's,
// not the paper's. Requested times come from the Params.Request hook;
// without it a request equals the runtime.
package lublin
