// Package validate checks a produced schedule against the trace it was made
// from, independently of the engine that produced it: every job appears
// exactly once with its submit time and size unchanged, starts no earlier
// than its submission, runs for the right time with the right final state,
// and the machine is never over-committed. ReadJobsCSV reads the schedule
// back from a jobs.csv file (Batsim column names). CheckNodes checks
// allocations on a platform of nodes (cores, memory, GRES, features,
// exclusive jobs) from its own description of nodes and requests,
// independent of package platform/nodes (docs/nodes.md), and, for a
// record with Allowed nodes, that the job held no other node (its
// partition's); CheckNodesUnavailable checks that no job held a node
// during a span of its unavailability (a reservation or a failure; no
// run on nodes makes such spans yet).
//
// # Processor identities
//
// When the records name the CPUs each job used (Rec.CPUs, read from the
// allocated_resources column of jobs.csv), Check also verifies, for every
// record that lists them:
//
//   - the list is well formed (0 <= Lo <= Hi <= MaxCPU) and names no CPU
//     twice;
//   - it names exactly Procs CPUs (the record's requested_number_of_resources);
//   - every CPU is in [0, Options.Procs); the part inside is still checked;
//   - with Options.OneMachine, all of them lie in one machine: machine m
//     owns the Options.Machines[m] ids after machine m-1's (nil Machines:
//     one machine of Procs CPUs; Machines must sum to Procs);
//   - no CPU is held by two jobs at once. A job holds its CPUs over
//     [Start, Finish), so a job leaving a CPU at t and one taking it at t
//     do not conflict, and jobs of length zero hold nothing. A sweep over
//     time, finishes before starts at equal times and then in record
//     order, reports each job that starts on CPUs another job still
//     holds: one problem per pair, at the later start, naming the CPUs,
//     both job ids and both [start, finish) spans. Where two jobs share a
//     CPU, the one that finishes later keeps it in the sweep (the earlier
//     holder on a tie), so a third job starting on it while either is
//     still running is reported against that one; every job that starts
//     on a held CPU is reported at least once.
//
// Records without CPUs among records with them are reported in one
// problem, with their ids. Files without the allocated_resources column (CPUs nil
// everywhere) are checked as before.
//
// CPU lists are kept as intervals and never expanded per CPU; the sweep
// keeps per-CPU state of at most Options.Procs entries (up to the highest
// CPU listed) and costs O(intervals x log64 Procs) on a valid schedule,
// plus time proportional to the conflicts it reports. ParseResources
// bounds ids by MaxCPU (int32), so a file cannot make counts overflow.
//
// # The interval syntax
//
// allocated_resources uses Batsim's interval syntax: space-separated
// tokens, each a CPU id "a" or an inclusive range "a-b" with a < b, ids
// non-negative decimal integers (global ids: on several machines, machine
// m owns the ids after machine m-1's). ParseResources accepts only the
// normal form our writer emits (tokens ascending, maximal runs: "0-3 8",
// never "0-1 2-3" or "8 0-3"; single spaces; no leading zeros) and names
// the first offending token otherwise; FormatResources and FormatCPUs
// write that form.
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
//     full precision (strconv 'f' or 'g' with precision -1). The CPU
//     conflict sweep uses the same events.
//   - Check reports at most MaxListed problems, then "and N more".
package validate
