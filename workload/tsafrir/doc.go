// Package tsafrir models the runtime estimates (requested wall times) real
// users give, after D. Tsafrir, Y. Etsion and D. G. Feitelson, "Modeling
// User Runtime Estimates", JSSPP 2005, LNCS 3834, pp. 1-35.
//
// Real requests are modal: about 20 "round" values (5 min, 15 min, 1 h,
// 2 h, ... and the site's maximum) serve about 90% of the jobs, the
// maximum allowed value is the most popular of them, and the rest of the
// jobs spread thinly over many other values. A Model is that histogram,
// built once from Params by the published procedure (the head of 20
// popular values and their shares, the tail of rarer values and theirs;
// see New). It then gives each job a request never below its runtime:
//
//   - Model.Request draws one job's request from the histogram
//     conditioned on being >= the runtime (the per-job, streaming form);
//   - Model.Assign gives a whole batch of jobs the published assignment:
//     the batch's requests are exactly the histogram's counts, shared out
//     longest runtime first, each job drawing uniformly among the
//     remaining requests that are >= its runtime.
//
// The two differ in their marginal histogram: Assign reproduces the
// model's histogram exactly (long jobs take the long values, short jobs
// the rest), Request reproduces it only for runtimes far below every
// value, and otherwise moves the share of the values below a job's
// runtime onto the values above it (the maximum gains most).
//
// A runtime above the maximum estimate cannot be served by the histogram;
// such a job's request is its runtime rounded up to the next whole minute
// (the authors' code truncates the runtime to the maximum instead, which a
// simulator must not do).
//
// WithRequests applies a Model to a stream of jobs (a Source, the same
// interface as workload.Source, which this package may not import): every
// job (or only the jobs without a request) gets a modelled request, and
// every job's estimate becomes its request.
//
// Everything is deterministic given the random streams passed in; a Model
// is immutable after New and safe for concurrent use, each goroutine with
// its own stream.
package tsafrir
