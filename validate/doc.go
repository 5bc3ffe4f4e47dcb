// Package validate checks a produced schedule against the trace it was made
// from, independently of the engine that produced it: every job appears
// exactly once with its submit time and size unchanged, starts no earlier
// than its submission, runs for the right time with the right final state,
// and the machine is never over-committed. ReadJobsCSV reads the schedule
// back from a jobs.csv file (Batsim column names).
//
// # Conventions
//
//   - Times are compared with a relative tolerance of 1e-9, relative to the
//     magnitude of the timestamps involved: a duration is the difference of
//     two timestamps, so its rounding error scales with them, not with the
//     duration (start 1e9 + 0.3, finish start + 5 is off 5 by ~1e-7).
//   - "start < submit" is reported only beyond that tolerance.
//   - The capacity sweep treats each job as the half-open interval
//     [Start, Finish); at equal times finishes are processed before
//     starts. Jobs of length zero occupy no processor time and are left
//     out of the sweep (in the engine they start and finish in successive
//     passes of the same instant, which no sweep over time can order).
//     Times are compared exactly there, so writers must print them with
//     full precision (strconv 'f' or 'g' with precision -1).
//   - Check reports at most MaxListed problems, then "and N more".
package validate
