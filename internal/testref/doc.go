// Package testref holds deliberately simple reference simulators of one
// space-shared cluster with a central queue: strict FCFS, EASY backfilling
// and backfilling with reservation depth d (d = 1 is EASY, unlimited is
// conservative). They exist only to be compared with the fast engine in
// differential tests, so they favour being obviously correct over being
// fast: plain slices, everything recomputed by brute force at every
// scheduling pass, every rule commented with the sentence of the
// specification (docs/scheduling.md and the brief of this package) it
// implements. They share no code with engine/, policy/ or freeprofile/.
//
// # Semantics
//
// Jobs are queued in (Submit, ID) order; jobs with equal Submit and ID keep
// their order in the input slice. Time advances in instants. At an instant
// t the simulator first removes all jobs that complete at t (a job started
// at s ends at s + Duration), then lets every job with Submit == t join the
// queue, then makes ONE scheduling pass. A job of Duration 0 started by that
// pass completes at t as well, which is another instant at the same time t.
//
// Schedulers never look at Duration. A running job is known by its
// estimated end start + Estimate; if that is <= now the job is said to
// "end at any moment" and its estimated end is math.Nextafter(now, +Inf).
// A job with estimate d placed at s occupies [s, s+d); when s+d == s (d == 0,
// or d so small that the addition rounds away) it occupies
// [s, math.Nextafter(s, +Inf)).
//
// EASY is written literally from the shadow-time / extra-processors rule of
// docs/scheduling.md; Backfill is written from the reservation rule (each of the
// first d blocked jobs in queue order holds a reservation, re-placed one job
// at a time, in queue order, at the earliest slot). The tests check that
// EASY and Backfill(depth 1) agree on start times, start reasons and shadow
// times over many random workloads.
//
// # Decisions where the specification is silent
//
//   - A reservation whose start lies before now (its job did not start when
//     planned, which happens only after a running job overran its estimate)
//     is stale and is dropped at the start of the pass (step 0). Without
//     that rule a stale reservation could block the queue on an idle
//     machine with no event left to wake it (TestStaleReservationDropped);
//     the simulators still panic with "stalled" if that ever happens.
//   - Start reasons: "backfilled" if some job ahead in the queue is still
//     waiting when the job starts, else "immediate" if it starts at its
//     submit time, else "reserved" (also when it never actually held a
//     reservation).
//   - Invalid input (procs < 1, a job's Procs outside 1..procs, a negative
//     or non-finite Duration or Estimate, a non-finite Submit, depth < 1)
//     makes the functions panic: this package is a test oracle, not an API
//     for user data.
package testref
