// Package nodesref is a deliberately naive reference simulator of FCFS,
// EASY and conservative backfilling on a platform of nodes (cores with
// threads, memory, GRES units, features, weights). It is written from the
// text of docs/nodes.md alone ("Requests", "Allocation", "Reservations on
// nodes") and shares no code with platform/nodes or validate: it exists to
// be compared with them in differential tests. Clarity beats speed: every
// state is recomputed from the list of holds at every question, with
// linear scans; the sizes it is meant for are small.
//
// # Semantics
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
// # What the tests establish
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
// # Input domain
//
// Estimate must be > 0 (a hold of zero length would overlap nothing) and
// >= Runtime; requests must pass the checks of Request.Check (sizes
// aside). Anything else panics: this is a test oracle, not an API for user
// data.
package nodesref
