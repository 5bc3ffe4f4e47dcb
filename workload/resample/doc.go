// Package resample makes statistically different workloads out of one
// trace, so that a trace scenario can have several replications with
// honest confidence intervals (docs/workloads.md).
//
// The method is user-based resampling after Zakay and Feitelson
// ("Workload resampling for performance evaluation of parallel job
// schedulers", ICPE 2013; Concurrency and Computation 26(12), 2014): a
// log is a set of users' job streams, so a new log of the same kind is
// made by drawing users' streams at random. UserWeeks cuts the trace into
// weeks, takes each user's jobs of one week as a unit (a user-week), and
// fills every week of the new trace with as many user-weeks, drawn with
// replacement from the whole trace, as the original week had active
// users; each drawn job keeps its size, runtime, request, user and its
// offset within the week. The new trace thus keeps the trace's weekly
// user population, its jobs and its users' sessions, while the mix of
// users at any time changes from one replication to the next.
//
// Simplifications against the published method, named here and in the
// docs: all users are resampled alike (the paper keeps its long-term
// users' own streams), and there is no feedback (the paper's resampled
// users wait for their previous jobs before submitting the next; here
// submit times are those of the trace).
package resample
