// Package workload turns traces and models into streams of jobs for the
// engine: runtime-estimate models applied on the fly, and the lookup of
// trace files by path or by name (including the traces embedded in the
// binary, see package traces). OpenTrace reads a job table (package
// jobtable, found by its first line) as the SWF trace of its records,
// saying once, at its end, how many of its jobs ask for more than a pool
// of CPUs gives.
//
// First (a trace's first n jobs, scenario key workload.jobs) and
// SubmitZero (every job submitted at 0, workload.submit: zero) transform
// any source.
//
// Estimate models are typed values (Estimates lists them, ParseEstimate
// reads a name once at input).
//
// Every source here is streaming: it holds one job at a time, so a
// 10-million-job trace needs no more memory than a small one.
package workload
