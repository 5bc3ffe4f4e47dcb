// Package nodesref is a deliberately naive reference simulator of
// scheduling on a platform of nodes (cores with threads, memory, GRES
// units, features, weights). It shares no code with platform/nodes,
// policy/... or validate: it exists to be compared with them in
// differential tests. Clarity beats speed: every state is recomputed from
// the list of holds at every question, with linear scans; the sizes it is
// meant for are small.
//
// It holds two simulators over one allocation rule (docs/nodes.md,
// "Allocation", rules 1-5, with the readings listed below):
//
//   - Simulate (Policy FCFS, EASY, Conservative): the older semantics,
//     written from docs/nodes.md's "Reservations on nodes": reservations
//     name cores and units, EASY without repair. platform/nodes's test
//     simulator is compared with it.
//   - Schedule (Sched): spec v1 of scheduling on nodes, the semantics of
//     the engine's node policies: reservations count cores and units per
//     node, EASY and backfilling repair reservations, depth K, fcfs and
//     sjf orders. policy/backfill's refnodes_diff_test.go compares the
//     engine with it.
//
// # Semantics of Simulate
//
// Simulate(nodes, jobs, policy) returns one Start per job, in the jobs'
// order. Numbers in a NodeUse are within the node: cores 0..Cores-1, and
// units 0..count-1 of each kind ("name" or "name:type").
//
//   - Time advances from event to event. At one instant every job whose
//     run ends then ends, then every job submitted then joins the queue
//     (ordered by submit, then by position in the input), then ONE
//     scheduling pass. A job started at t runs [t, t+Runtime) and, for
//     planning, holds its resources over [t, t+Estimate).
//   - A job that does not fit the empty platform never starts (Never) and
//     never enters the queue.
//   - FCFS: while the head fits on what is free now, it starts.
//   - EASY: FCFS, then the head gets the earliest (time, allocation) over
//     the running jobs (candidate times: now and their estimated ends);
//     every later job starts now if it fits on what is free over
//     [now, now+its estimate) with the running jobs and the head's
//     reservation held.
//   - Conservative: every waiting job, in queue order, gets the earliest
//     (time, allocation) over the running jobs and the reservations made
//     before it in the pass; it starts if that time is now. The candidate
//     times are now and the end of every hold after now (running jobs and
//     reservations, as Plan.Earliest in docs/nodes.md).
//   - Free over [a, b): a core or unit of a hold overlapping [a, b) is held
//     (touching intervals do not overlap); an overlapping exclusive hold
//     holds its nodes whole; a node's memory held is the peak over the
//     interval of the sum of its holds' memory at one instant.
//
// # Readings chosen where docs/nodes.md allows several
//
//   - Memory per CPU counts the CPUs a task holds, whole cores x threads
//     per core ("per CPU held on the node"), not the CPUs it asked for
//     (constant memPerHeldCPU).
//   - "At least one free unit of each GRES per job" counts the node's free
//     units before the job's own GRES per node are taken
//     (perJobFreeBeforePerNode).
//   - Several GRES per node are taken in the request's order, each from
//     the lowest free units left by the ones before it; no search for
//     another assignment is made.
//   - An untyped GRES per node may mix types: "has the GRES per node
//     asked free (count per kind)" is read as the count over the kinds of
//     its name, as rule 5 ("takes its name's types in (name, type) order")
//     implies, not as the count within one type.
//   - Candidates are visited once, in order: a node skipped because it
//     cannot hold its share is not reconsidered when the share falls.
//   - A node whose memory is 0 (not modelled) limits no request's memory,
//     and a job's MemMB on it is 0, also for an exclusive job.
//   - "0 and 0: as few nodes as fit" is read through rule 3 (first fit in
//     (weight, node) order, block distribution), which does not always
//     find the fewest nodes.
//   - Upper bound on nodes: MaxNodes, or Nodes when MaxNodes is 0 and
//     Nodes > 0; none when both are 0.
//   - An exclusive request needs nodes with no overlapping hold at all
//     ("runs no job"); it holds every core, all the memory and the GRES
//     units it asked for.
//
// # What the tests of Simulate establish
//
// Hand-worked schedules for each policy (every start derived in a
// comment), the allocation rule's corner cases, and invariants on random
// platforms and workloads, checked by a checker in the tests written
// apart from the allocation code: every allocation meets its request, no
// core or unit is held twice at an instant, no node's memory is
// over-committed, no job shares a node with an exclusive one, no job
// starts before its submit, FCFS starts in queue order. With exact
// estimates EASY's head starts no later than its first reservation,
// unless GRES per job are asked: the reservation may name no unit of a
// node whose last free unit a backfilled job then takes, and the node is
// no longer a candidate ("at least one free unit of each GRES per job"),
// so the job waits past its reserved time, under EASY and conservative
// alike (TestHeadDelayedByPerJobGRES). On one node of cores, EASY on
// nodes is not the CPU pool's EASY: the reservation takes the lowest free
// ids at the shadow time, which may be cores free now, where the pool
// would count them as extra processors
// (TestReservationTakesTheCoresFreeNow).
//
// # Semantics of Schedule (spec v1)
//
// Schedule(nodes, jobs, Sched{Depth, Stop, Order}) returns one Start per
// job, in the jobs' order, in the same terms as Simulate (ids within the
// node; Never for a job that does not fit the empty platform). Depth is
// the spec's K: 0 none, -1 unlimited, k > 0; Stop is FCFS strict. The
// policies: SchedFCFS (0, stop), SchedFirstFit (0), SchedEASY (1),
// SchedConservative (-1), SchedBackfill(k) (k, 0 = unlimited).
//
//   - span(t, d) is t + d when d > 0, else math.Nextafter(t, +Inf): a job
//     of estimate 0 holds its resources over its instant.
//   - A hold is [a, b) with per-node counts: cores (an exclusive job: all
//     of the node's), memory (an exclusive job: all of it; 0 where not
//     modelled), units per kind, and whether it is exclusive. The peak use
//     of a node over [x, y) is, per resource, the maximum of the sum of
//     the covering holds' amounts over the instants x and every hold
//     boundary (start or end) inside (x, y); busy: some hold overlaps,
//     held whole: an exclusive one does. Sel is the allocation rule
//     (allocate, unchanged) on these free counts: the first peak cores and
//     units of a kind are marked held, which allocate only counts, and its
//     result is read back as counts (the ids it names mean nothing).
//   - Events: at an instant the jobs that end then end, the jobs submitted
//     then join the queue, then one pass. A running job ends at
//     start + Runtime. The queue is ordered at every pass: fcfs by
//     (submit, id), sjf by (estimate, submit, id), then input order.
//   - A pass at now: H holds each running job over [start, start + est),
//     or [now, span(now, 0)) when that has passed; R are the reservations
//     of the pass, in queue order; S the jobs started in the pass, over
//     [now, span(now, est)). Each waiting job j in queue order, over
//     I = [now, span(now, est)): (1) fit now: Sel over H + R + S; (2)
//     repair, when R is not empty: Sel over H + S is j's tentative hold;
//     every reservation overlapping I, in queue order, is placed again at
//     its own time over H + S + the tentative hold + the other
//     reservations (those before it with their new selections, the others
//     as they are); all placed: j starts and the new selections stay,
//     else nothing changes; (3) reserve, when |R| < K: the first of the
//     ends after now of the holds of H, R and S, in increasing order, at
//     which Sel succeeds over H + R + S; (4) wait; with Stop the pass ends
//     at the first job that does not start (after step 3).
//   - A job that starts names, on each selected node, its lowest free
//     cores (all of them when exclusive) and its lowest free units of each
//     kind, on the state at now: the named ids of the running jobs, those
//     started before it in the pass included.
//
// # Readings of spec v1 where it is silent
//
//   - Equal keys of the queue order fall back to the input order (the
//     harness's ids increase with it).
//   - A job that ends at the instant it starts (runtime 0) ends in an
//     event of its own at that instant: its end, then another pass at the
//     same time. So two jobs of estimate and runtime 0 on the whole
//     platform, submitted together, both start at their submit time.
//   - Stop with Depth > 0 stops after the blocked job's reservation; only
//     Depth 0 with Stop (FCFS strict) is in the spec.
//   - The candidate times of step 3 exclude now (step 1 has tried it) and
//     an end at +Inf; a reservation that the repair re-places keeps its
//     time, only its nodes and counts change.
//   - A job that does not fit the empty platform is Never, not an error:
//     the engine refuses it at admission, so the harness draws only jobs
//     that fit (nodes.Fits) and requires the reference to start them all.
//   - The multifactor order is not implemented.
//
// # What the tests of Schedule establish
//
// Hand-worked schedules on two nodes of 4 cores and 2 GPUs (a GPU job
// waits while a CPU job backfills; EASY's repair moving the head's
// reservation to the other node, and the repair failing; conservative
// with three reservations, the third blocking a job EASY and depth 2
// backfill; an exclusive job whose reservation the repair moves; a
// 2-node job; FCFS strict against first fit; sjf; estimates 0; the peak
// over an interval). On nodes of one core, EASY in fcfs order starts every
// job when the pool of CPUs' counted EASY (shadow time, extra
// processors; written in the test) does, on random workloads of 200 jobs,
// while Simulate's EASY without repair does not. On random platforms,
// every policy in both orders meets the requests and the resources over
// time by the package's checker and by validate.CheckNodes.
//
// # Input domain
//
// Simulate: Estimate must be > 0 (a hold of zero length would overlap
// nothing) and >= Runtime. Schedule: Estimate >= Runtime >= 0 (0 allowed,
// read through span). Requests must pass the checks of Request.Check
// (sizes aside). Anything else panics: this is a test oracle, not an API
// for user data.
package nodesref
