// Package backfill holds the central-queue policies (docs/scheduling.md; the
// several-machine form for docs/papers/klusacek2008.md): strict FCFS, and ONE backfilling engine parameterised by
// reservation depth (1 = EASY, unlimited = conservative, k = hybrid),
// queue order (FCFS, SJF by estimate, Flexible backfilling's priority, or
// Slurm's multifactor priority with fair-share, multifactor.go and
// docs/priority.md: one machine, recomputed at every pass; reservations
// planned anew when it reorders the queue) and machines (one cluster, or several machines of different sizes and
// speeds, each with its own availability profile).
//
// Declarations (declare.go) declares the package's policies as every
// policy package does (policy.Decl with typed options, option.Decl): the
// one-machine cluster's queue policies (fcfs, firstfit, easy,
// conservative, backfill: the depth and order options, the multifactor
// settings) and the policies over the machines of a platform (fcfs, easy,
// flexible: klusacek-2008, with Flexible's constants as options). Package
// registry publishes them beside the other models' policies; programs
// choose policies there. The constructors (NewFCFS, NewBackfill,
// NewBackfillMulti, ...) build a policy directly, for the tests of the
// packages below the registry.
//
// # The backfilling pass
//
// The engine (Backfill) is three parts, each chosen when the policy is
// built, none per pass:
//
//   - the queue order (queueOrder, order.go): FCFS and SJF keep the queue
//     sorted as jobs arrive; Flexible's priority re-sorts it after a
//     submission or a completion, the multifactor priority at every pass;
//   - the reservation planner (planner, planner.go): it holds the plan -
//     the running jobs' estimated ends and the reservations - and answers
//     the pass's questions (CPUs free now, fits now and where, earliest
//     start, where a held reservation would go). profilePlanner is the
//     availability profile of one machine, the reference; multiPlanner
//     one profile per machine of a platform; easyPlanner EASY on one
//     machine without a profile (easyplan.go, easyfast.go, easyindex.go;
//     PlanAvailability, before the first job, puts the profile planner in
//     its place);
//   - the driver (pass.go): Schedule, the steps below, the same for every
//     planner; it takes every decision, the planner only plans.
//
// TestEveryPlannerIsTheProfilePlanner holds every planner to the profile
// planner on random workloads: the same starts and the same reservations
// at every pass.
//
// Each waiting job may hold a reservation (a machine and a start time)
// from earlier passes. A pass at time now, over one availability profile
// per machine built from the estimated ends of running jobs and the
// current reservations:
//
//  0. A reservation whose start time has passed is dropped: its job did
//     not start when planned, which happens only after a running job
//     overran its estimate (otherwise it could block an idle machine).
//  1. Walking the queue in order, any job at position >= depth loses its
//     reservation (this happens only when the order is not FCFS, e.g. a new
//     short job moves ahead under SJF).
//  2. For each waiting job j in queue order: remove j's own reservation;
//     if j fits now on some machine that can hold it (all other
//     reservations in place), start it, on the machine the Pick rule
//     chooses among those; otherwise, if fewer than depth jobs so far hold
//     a reservation in this pass, j reserves the earliest start over the
//     machines that can hold it, on that machine (ties: lowest index).
//
// Reservations are thus removed and re-placed one at a time, in queue
// order, with the others kept: Mu'alem and Feitelson's compression. While
// no running job overruns its estimate, a reservation can only move
// earlier (on its machine the old slot is still free; another machine is
// taken only if it is earlier): EASY never delays its head job,
// conservative never delays any job. With depth 1 and FCFS order the pass
// is exactly the EASY rule of docs/scheduling.md (head's shadow time, extra
// processors): a later job fits around the single reservation iff it ends
// by the shadow time or needs no more than the extra processors left.
//
// A running job past its estimated end (possible only when jobs are not
// killed at their limit) is treated as ending at any moment: its processors
// are held for the current instant only.
//
// A running job may be given a new estimate (Reestimate, policy.Reestimator:
// package policy/predict corrects a prediction the job outlived): its
// estimated end becomes its start plus the new estimate on its machine,
// and an overrunning job becomes a running job again. When the end moves
// later, the next pass lifts every reservation and places them again in
// queue order (the processors they counted on may be taken); when it
// moves earlier, the reservations are re-placed as after an early
// completion. Without a call, nothing of this runs.
//
// In a partition that shares CPUs with others (foreign.go,
// policy.ForeignLoad, docs/partitions.md), a job of another partition
// on some of its CPUs is planned as one of its own running jobs of that
// many processors until its estimated end; since it was not planned
// here, the next pass lifts every reservation and places them again,
// as after a later estimate. FCFS and first-fit read only the free
// CPUs, which already leave the foreign jobs out.
//
// Start reasons: backfilled if a job ahead of it in the queue is still
// waiting after it starts; otherwise immediate if it starts at its submit
// instant, reserved if it had to wait.
//
// # Several machines (klusacek-2008)
//
// A job runs on ONE machine that can hold it (CanHold: at least as many
// CPUs as it requests; when both are known, at least its memory per CPU;
// when it requires one, at least its speed), for its estimate scaled by
// speed, Estimate x BM_est / BM_m (platform.Machine.Duration, the formula
// the model uses for actual runtimes). "Fits now" on a machine is the
// profile's answer: enough CPUs free from now to the job's estimated end
// there, reservations in place. Every choice of a machine applies
// CanHold; a job that no machine can hold is not queued (the model
// reports it at the end of the run).
//
//   - FCFS (NewFCFSMulti): the head job goes to the first machine in index
//     order that can hold it and has enough free CPUs now; the pass stops
//     at the first job that fits nowhere.
//   - EASY (depth 1, FCFS order, PickFastest): a job that fits now starts
//     on the fastest such machine (ties: lowest index). The first job that
//     fits nowhere reserves the machine where it can start earliest (ties:
//     lowest index), with that machine's shadow time and extra CPUs; later
//     jobs start on the fastest machine where they fit now, on the reserved
//     machine only under the EASY condition (now + its duration there <=
//     shadow, or CPUs <= the extra CPUs left; one ending after the shadow
//     uses up extra CPUs). The reservation is computed once per pass and
//     backfills are counted against it; the authors' Alea starts one job
//     per call and recomputes everything, which gives the same schedule
//     (a backfill never moves the reserved machine's shadow time nor makes
//     another machine earlier; it only uses up extra CPUs, which both
//     count). Two differences from Alea are deliberate: a job ending
//     exactly at the shadow time may backfill (Alea: strictly before), and
//     a tie between reservation machines goes to the lowest index (Alea:
//     the highest). TestMultiEASYMatchesLiteral checks the equivalence
//     against an implementation of the rule written Alea's way.
//   - Flexible backfilling (OrderPriority, FlexParams; depth 1,
//     PickFastest): at every submission and completion each waiting job's
//     priority is computed from zero, P = aging + deadline +
//     wait-minimisation (FlexParams.Priority), and the queue is sorted by
//     P, largest first (ties: submit time, job id); the job that holds the
//     reservation stays first (Pin); then the EASY pass above. Priorities
//     are not recomputed between the starts of one pass. Nxtime is the
//     job's runtime on the fastest machine that can hold it.
//
// With a platform of one machine, NewBackfillMulti gives exactly the
// schedules of NewBackfill (TestOneMachineIsTheSingleMachineEngine).
// NewBackfill and NewFCFS, the cluster model's policies, believe each
// estimate as it is and check nothing but the processor count, as before.
//
// # Cost
//
// When nothing freed capacity since the last pass (no early completion, no
// reservation moved or dropped, no overrun, no re-sort), re-placing a
// reservation would give it the same slot, so the pass keeps it without
// touching the profiles; this makes conservative backfilling cheap on
// arrival-only instants while staying identical to the full algorithm (the
// differential tests against internal/testref, in FCFS and SJF order, check
// exactly that). Over several machines, a job that cannot start and need
// not reserve is only tried on the machines with a free CPU now.
//
// On one machine without announced availability windows, a pass that
// re-places reservations remembers the last answer of the profile's
// re-placement query (keptmemo.go): a later reservation at that same
// start asking for at least as many CPUs for at least as long stays where
// it is without a query, as long as nothing was freed before that start
// since. On RICC-2010 (8192 CPUs), where job arrays queue side by side,
// four in five of conservative's re-placements are answered so. The
// schedules are the same as with a query every time
// (TestKeptMemoSameSchedule compares the two).
//
// EASY on one machine (NewBackfill at depth 1, FCFS or SJF order; not
// over a platform, not conservative or hybrid, no unavailable CPUs) has
// its own planner, which keeps no availability profile: the running jobs' estimated ends and processors, sorted by end,
// the processors free now and the reservations (one in practice) answer
// the pass's questions - free now, fits now, earliest start, re-placement
// (easyfast.go) - and find the overruns; the pass itself is the same
// driver. It
// is exact because with only running jobs and the reservation, the free
// processors after now never decrease except at a reservation's start
// (running jobs only end; an overrunning job holds its processors for the
// instant now alone): the least free count over a window [now, e) is the
// count now, or, if the window reaches past the shadow time s (e > s; a
// job ending exactly at s does not overlap), the smaller of that and the
// count at s, the extra processors; and an earliest start is now or an
// instant where the count steps up (an estimated end, the instant after
// now, a reservation's end). The differential tests hold it against the
// profile on random workloads and operation sequences.
//
// On a long queue (256 entries and more) the fast path also keeps a
// segment tree over the queue (easyindex.go): per node the least CPU
// request and the least estimate. Once the reservation is made, the pass
// jumps from one entry that may start now (asks for no more CPUs than are
// free, and no more than the extra CPUs unless it ends by the shadow time)
// to the next in O(log n), and stops when none is left; entries that hold
// a reservation are always visited. Started entries stay in the queue as
// tombstones until they are an eighth of it. The decisions are the plain
// loop's (TestEASYIndexLongQueues, TestEASYIndexMatchesNaive,
// TestEveryPlannerIsTheProfilePlanner).
//
// The switches that turn these fast paths off and the counters that show
// they were taken exist only in the build with the tag invariants
// (hooks_on.go; the default build's hooks, hooks_off.go, is empty and
// costs nothing), as do the tests that use them: go test -tags
// invariants (docs/testing.md). The counts of re-placement queries,
// moves and queries spared by the kept memo that
// BenchmarkHPC2NConservativeSim reports (the work bound of
// docs/performance.md) are not test counters and stay in every build.
//
// On a platform of nodes (policy.Env.Nodes) the cluster's policies build
// NodePolicy instead (nodes.go; cluster() in declare.go): fcfs,
// firstfit, easy, conservative and backfill depth k, in the orders
// fcfs, sjf and multifactor, over a per-node count profile
// (nodes.Profile). Every pass makes its reservations anew, in queue
// order, at the first end of a hold at which the job's request fits;
// a job starts when it fits beside the running jobs, the jobs started in
// the pass and the reservations, or, by the repair, beside the running
// and started jobs alone if every reservation it overlaps can be placed
// again at its own time. A start names its allocation (the policy keeps
// a nodes.State mirroring the model's). On nodes of one core EASY,
// FCFS and first-fit decide as on the pool of CPUs; conservative does
// not (docs/nodes.md, "Scheduling on nodes"). Strict FCFS, first-fit
// and EASY go on from the last pass when nothing it decided can change,
// trying only the jobs submitted since (TestNodePoliciesRandomInvariants
// holds this, and the profile's count refusals, against the plain
// rule). They plan around unavailable nodes (nodes_avail.go,
// policy.NodeAvailabilityPlanner): a window holds its nodes whole in the
// profile over its span, the nodes in a begun window or down are held
// whole in the mirror, and every pass is then a full pass; the slurm
// policy does not (the model refuses it with unavailable nodes).
//
// The slurm policy (nodes_slurm.go, nodes_slurm_declare.go) is a
// NodePolicy too, on nodes only (policy.Traits.NodesOnly): Slurm's main
// scheduler (priority order, stopping at the first job that cannot
// start, default_queue_depth jobs) at every pass, and, at most every
// bf_interval seconds after a change, a backfill pass over the first
// bf_max_job_test waiting jobs that gives each job that cannot start a
// reservation of whole nodes (an exclusive hold of no cores, its
// interval rounded down to bf_resolution) when its earliest start is
// within bf_window; no repair (docs/slurm.md, "The slurm policy").
// bf_max_job_user, bf_max_job_part, bf_max_job_user_part and
// bf_max_job_assoc skip a pass's jobs past them (counted in none, nor in
// bf_max_job_test); bf_min_age_reserve and bf_min_prio_reserve give a
// young or low-priority job no reservation and let the main scheduler
// pass it. QOS limits (nodes_slurm_qos.go: jobs, submissions, wall
// time, and the CPUs, memory and GPUs per user and per QOS) hold jobs
// with Slurm's reasons.
package backfill
