// Package plan holds the schedule-based policies of Klusáček, Rudová,
// Baraglia, Pasquali and Capannini (2008, Sect. 3.2-3.3): EG-EDF (Earliest
// Gap - Earliest Deadline First) and EG-EDF followed by Tabu search
// (docs/papers/klusacek2008.md, where the evidence and the open
// points are). Both are
// policy.QueueScheduler implementations for the central-queue model over
// the machines of a heterogeneous platform, built by NewEGEDF and NewTabu
// (Name "eg-edf" or "tabu").
//
// Unlike a queue policy, the policy keeps a schedule: every waiting job is
// planned on one machine, at a known time. It decides when a job arrives
// (Submit), not when it could start; Schedule only starts what the plan
// says starts now.
//
// # The schedule
//
// Job J needs Req_J CPUs of one machine; machine m (R_m CPUs, speed BM_m)
// can hold it if R_m >= Req_J (and, when both state them, its memory per
// CPU and speed suffice, as the model checks). J runs on m for
// p_m(J) = Estimated_J x BM_est(J) / BM_m (platform.Machine.Duration).
// In the paper's model estimates are exact, so this is also the time it
// runs.
//
// Each machine m has an ordered list L_m of planned (waiting) jobs. Its
// plan is per-CPU list scheduling, as in the authors' simulator Alea:
// each CPU has a free time, now or the estimated end of the job running
// on it (now if that job is past its estimated end); for each job of L_m
// in list order, the job takes the Req CPUs that become free first, its
// planned start is the latest of their free times, and they become free
// at start + p_m. Only the multiset of free times matters (CPUs free at
// the same time are interchangeable), so it is kept as (time, count)
// groups, whatever the machine's size. Planned starts never decrease
// along a list: a plan is FCFS over its list, with no backfilling except
// the gaps EG-EDF chose.
//
// Definitions (all over the current plans, at the decision's time now):
//   - makespan_m: the latest CPU free time once L_m is placed (>= now);
//     makespan = max over machines (absolute model time, as in Alea).
//   - a job meets its deadline when its (planned, estimated or actual)
//     end is <= the deadline; a job without a deadline (Deadline 0)
//     always meets it.
//   - nondelayed = jobs that finished by their deadline (counted at
//     Finish, from its time), plus running jobs whose estimated end meets
//     it, plus planned jobs whose planned end meets it.
//   - delayed_m = planned jobs of m whose planned end is after their
//     deadline.
//
// # Earliest gap
//
// A gap is a finite stretch of idle CPU time inside a machine's plan.
// EG(J, m) is the smallest position i in 0..|L_m| such that the plan of
// L_m with J inserted before the i-th job (i = |L_m|: appended)
//  1. gives every other job of L_m exactly its current planned start, and
//  2. ends J by the machine's current makespan: end_J <= makespan_m.
//
// If no position qualifies, m has no gap for J. Condition 2 is the
// finiteness of a gap: without it, appending J to an idle machine (or
// placing it on a CPU that no later job uses) would count as using a gap
// although the idle time it fills never ends. Our specification stated
// condition 2 for appending only; we apply it at every position (see "Choices").
// An idle machine has no gap (its makespan is now). Under 1 and 2 no
// other job's start or end moves, J lies in idle CPU time (at every
// instant the CPUs busy before, plus Req_J, are at most R_m), and the
// machine's makespan does not change.
//
// The search (earliestGap) is exact and does not re-plan from scratch per
// position: one pass along the list keeps the free times before position
// i; J's start there (the Req_J-th smallest free time) never decreases
// with i, so the search stops as soon as J would end after the makespan;
// a position is checked only if J starts no later than the job it goes
// before (starts are monotone along a list), by replaying the rest of the
// list with and without J and stopping at the first moved start (no) or
// as soon as both multisets of free times agree (yes: every later start
// is then the same). The naive reference in the tests tries every
// position, re-plans the whole machine CPU by CPU and compares all
// starts; the two agree decision by decision on random workloads.
//
// # EG-EDF (at each arrival)
//
// With makespan_old and nondelayed_old taken before J is placed:
//   - S = the machines that can hold J and have EG(J, m). If S is not
//     empty, J goes into the earliest gap of the machine of S with the
//     highest weight (S = 1: that machine).
//   - S empty: J is inserted into every machine that can hold it by EDF,
//     before the first job of its list with a later deadline (no deadline
//     = +Inf; equal deadlines keep arrival order), each assignment is
//     evaluated by re-planning that machine, and the highest weight wins.
//   - weight = (makespan_old - makespan_new) / max(makespan_old, 1e-13) +
//     (nondelayed_new - nondelayed_old) / max(nondelayed_old, 1).
//     makespan_old is 0 only at time 0 with nothing planned; the floor,
//     Alea's, keeps the term finite and makes the earliest makespan win
//     there. nondelayed_old is 0 while nothing meets its deadline; the
//     floor 1 (Alea uses it for slowdown) makes the term the plain change.
//   - Ties: the lowest machine index (a later machine must be strictly
//     better, as in Alea's BestGap).
//   - A job no machine can hold is left unplaced and never started
//     (Stats.Unplaced). The central-queue model rejects jobs larger than
//     every machine before they reach a policy; a job refused by memory or
//     speed only would be reported by the model as never started.
//
// Consequence of the exact gap: a gap insertion changes neither the
// makespan nor any other job's status, so every gap's weight is
// 1/max(nondelayed_old, 1) if J meets its deadline there and 0 otherwise:
// J goes to the lowest-index machine whose earliest gap lets it meet its
// deadline, else to the lowest-index machine with a gap. The
// implementation uses this to skip machines that cannot beat the
// incumbent (a machine where J cannot meet its deadline even starting
// now); the outcome is the rule's, as the differential test checks.
//
// # Dispatch
//
// Schedule, once per instant: on every machine in index order, while the
// head of L_m fits in the machine's free CPUs (policy.Machines.Free), it
// starts there (plan.StartOn, reason job.Immediate if now is its submit
// time, else job.Reserved; never job.Backfilled: a job never passes the
// head of its own list). With exact estimates the plan is honest: a job
// starts in a pass if and only if its planned start is now, on its planned
// machine. Between decisions nothing moves: a job ending at its estimated
// end frees its CPUs exactly when the plan said, and a plan made at an
// earlier time is still the plan at now as long as no planned start is
// before now (raising free times below now to now changes no start that
// is at or after now). So Finish replans a machine only when a job ends
// at another time than its estimated end (not in the paper's model); a
// plan with a start before now (a job overran its estimate and its CPUs
// are still busy) is replanned before the next decision. Ends at the same
// instant may come in any order: each only removes its job.
//
// # Tabu search (Options.Tabu)
//
// After the EG-EDF decision (see Trigger), with W = the planned jobs at
// that time, budget = Options.Iterations or 2W, tabu length =
// Options.TabuLength or min(10, W/2), a fresh tabu list (FIFO), and
// makespan_old, nondelayed_old of the current schedule, repeat at most
// budget times:
//  1. Stop if no planned job is delayed and outside the tabu list.
//  2. Source: the machine with the most delayed jobs among those with a
//     job outside the tabu list (ties: lowest index). J = its last job
//     outside the tabu list (J need not be delayed itself: the paper's
//     "last job").
//  3. J enters the tabu list; if the list exceeds its length, the oldest
//     entry leaves it (the default length is 0 when W = 1: nothing
//     stays tabu, and the budget alone ends the search).
//  4. With J taken out of the source (which is re-planned: jobs behind J
//     may start earlier), try the other machines that can hold J, in
//     machine order (index, or a fresh random permutation drawn at every
//     iteration): if EG(J, m) exists, compute the weight of the schedule
//     with J there; accept the first move with weight > 0: J moves,
//     makespan_old and nondelayed_old become the new schedule's.
//  5. Otherwise J stays where it was. Every pass counts as an iteration.
//
// Only planned jobs move; running jobs never do. The tabu list lives for
// one search (as in Alea). Since a gap insertion does not change the
// target machine's makespan or other jobs, a move's weight depends only on
// the source without J and on whether J meets its deadline in the target's
// gap; when even a deadline met cannot make it positive, no target is
// searched. A job that found no move stays unmovable until a move is
// accepted (nothing it depends on changed), so a repeated try is answered
// from memory; the tabu list cycles through the same few jobs when no move
// is accepted, which this makes cheap. Neither shortcut changes an outcome
// (the naive reference has neither).
//
// Options.Trigger:
//   - EachArrival (default): after every EG-EDF decision, the paper's
//     incremental use.
//   - EveryN: after the EG-EDF decision of every Every-th arrival.
//   - Interval: at the first scheduling pass at or after each multiple of
//     Interval in model time (Alea optimises every 300 s), before that
//     pass starts jobs. The policy is called only at event instants, so
//     "periodic in time" means the first instant with an event once the
//     period is due; an interval without events is skipped, not made up.
//
// All three are functions of the call sequence only, hence deterministic.
// There is no wall-clock limit: the iteration budget bounds a search.
//
// # Choices where the sources are silent (and why)
//
//   - Gap finiteness at every position, not only when appending (above):
//     a gap is finite idle time (docs/papers/klusacek2008.md); a job placed on a CPU
//     idle forever would extend the makespan while "filling a gap".
//   - Gap test exact (no other start moves), not Alea 3's hole list, which
//     may delay later jobs a little: the definition above.
//   - Weight floors 1e-13 and 1 (Alea's), ties to the lowest index (Alea).
//   - Tabu parameters min(10, W/2) and 2W from Alea (its periodic mode
//     multiplies the budget by 2 more: set Iterations to mimic it); the
//     target machines exclude the source (our specification; Alea includes it);
//     J is the last non-tabu job, delayed or not (paper).
//   - The stop rule is job-level ("no delayed non-tabu job", paper) while
//     the source is chosen machine-level (most delayed jobs, with a
//     non-tabu job): the chosen machine may differ from the one holding
//     the remaining delayed non-tabu job, as the paper's text implies.
//   - Plans use exact durations; Alea plans with (int)(p + 1).
//
// # Plan evaluations (the deterministic decision cost)
//
// Stats.PlanEvals (PlanEvaluations) counts list-scheduling passes over
// one machine: a (re)plan that keeps its result, a tentative plan (an EDF
// insertion candidate, the source machine without the job Tabu search
// tries to move), the forward pass of an earliest-gap search, and each
// insertion position that search replays. A gap search rejected before
// any pass (J could not end by the makespan even starting now) costs
// nothing. The count depends on this implementation's shortcuts, not only
// on the rule; it is what the policy did, deterministically.
//
// # Complexity
//
// With n jobs in a machine's list and G distinct free times (G <= min(R_m,
// n + running + 1)), a plan is O(n G). An EG-EDF decision is one gap
// search per suitable machine, O(n G) each plus the replays of the
// positions checked (each stops at the first moved start or when the free
// times agree), then, if no machine has a gap, one tentative plan per
// suitable machine. A Tabu iteration is O(tabu length) when it repeats a
// known failure and one tentative plan plus a gap search per machine
// otherwise; the machines sorted by delayed jobs are recomputed only when
// a move is accepted. On the paper's setting (150 machines, 3000 jobs,
// mean inter-arrival 3) see BenchmarkEGEDF and BenchmarkTabu.
//
// # Not modelled
//
// Preemption and migration of running jobs; co-allocation across
// machines; network; memory beyond the model's per-CPU check; Alea 3's
// gap variant ("holes") and its runtime rounding; a wall-clock limit on
// Tabu search. With estimates that are not exact the policy stays valid
// (the model accepts every start) but plans are no longer honest: a job
// that ends early triggers a replan; a job that overruns its estimate is
// planned as ending at any moment, so the head behind it waits on the
// machine's real free CPUs.
//
// Hooks for tests and reports: Plan(m) lists a machine's planned jobs
// with their planned times, Stats and PlanEvaluations count the work,
// Nondelayed and FinishedOnTime expose the counts of the weight, and
// OnMove is called for every Tabu move accepted.
package plan
