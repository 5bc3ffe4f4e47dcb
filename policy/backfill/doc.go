// Package backfill holds the central-queue policies for one space-shared
// cluster (DESIGN.md section 4.3): strict FCFS, and ONE backfilling engine
// parameterised by reservation depth (1 = EASY, unlimited = conservative,
// k = hybrid) and queue order (FCFS or SJF by estimate).
//
// Policies (registry.go) is the one list of the queue policies: name,
// summary, whether the depth is an option, the orders allowed, builder.
// Package registry publishes it with typed options beside the other
// models' policies; programs choose policies there. New builds by name
// from the same list, for the tests of the packages below the registry.
//
// # The backfilling pass
//
// Each waiting job may hold a reservation from earlier passes. A pass at
// time now, over an availability profile built from the estimated ends of
// running jobs and the current reservations:
//
//  0. A reservation whose start time has passed is dropped: its job did
//     not start when planned, which happens only after a running job
//     overran its estimate (otherwise it could block an idle machine).
//  1. Walking the queue in order, any job at position >= depth loses its
//     reservation (this happens only when the order is not FCFS, e.g. a new
//     short job moves ahead under SJF).
//  2. For each waiting job j in queue order: remove j's own reservation;
//     s = earliest time at which j fits (all other reservations stay in
//     place); if s == now, start j; otherwise, if fewer than depth jobs so
//     far hold a reservation in this pass, j reserves s.
//
// Reservations are thus removed and re-placed one at a time, in queue
// order, with the others kept: Mu'alem and Feitelson's compression. While
// no running job overruns its estimate, a reservation can only move
// earlier: EASY never delays its head job, conservative never delays any
// job. With depth 1 and FCFS order the pass is exactly the EASY rule of
// DESIGN.md 4.3 (head's shadow time, extra processors): a later job fits
// around the single reservation iff it ends by the shadow time or needs no
// more than the extra processors left.
//
// A running job past its estimated end (possible only when jobs are not
// killed at their limit) is treated as ending at any moment: its processors
// are held for the current instant only.
//
// Start reasons: backfilled if a job ahead of it in the queue is still
// waiting after it starts; otherwise immediate if it starts at its submit
// instant, reserved if it had to wait.
//
// # Cost
//
// When nothing freed capacity since the last pass (no early completion, no
// reservation moved or dropped, no overrun), re-placing a reservation
// would give it the same slot, so the pass keeps it without touching the
// profile; this makes conservative backfilling cheap on arrival-only
// instants while staying identical to the full algorithm (the differential
// tests against internal/naive, in FCFS and SJF order, check exactly that).
package backfill
