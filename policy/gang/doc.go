// Package gang holds the policies of the two-site grid with gangs and
// local jobs of dimitriadou-karatza-2010, as docs/papers/dimitriadou2010.md resolves
// Section III of the paper.
//
// Terms: an idle processor executes nothing and has nothing waiting; an
// empty queue has nothing waiting (its processor may be busy).
//
// Gang dispatch at arrival. Approach 1: (a) a site with at least size idle
// processors: the gang starts there now (a random site if both qualify);
// (b) else a site with at least size empty queues: the tasks join those
// queues (idle processors first, then those whose running job is expected
// to end soonest) and start together once all those processors are free;
// (c) else the grid scheduler's queue. Approach 2 inserts after (b): (c')
// enough idle processors in the two sites together: the gang is split
// (the site with more idle processors first) and starts now, every task
// stretched by the split overhead.
//
// The grid scheduler's queue, examined when a departure leaves a queue
// empty (or after every departure, an option): repeatedly, step 1: among
// queued gangs whose size fits the empty queues of a site, the largest
// (oldest on ties) goes to that site as in (b); step 2, approach 2 only:
// else among gangs that fit the idle processors of both sites together,
// the largest (oldest) is split and starts; until no gang moves.
//
// Local jobs: an arriving local goes to an idle processor of its site if
// there is one, else to a free processor where it can backfill at once
// (the backfill condition below), else to the shortest queue (fewest jobs
// waiting or running); ties at random.
//
// Backfilling with threshold T: when a processor is free and the head of
// its queue is a gang that cannot start, the first local further down
// whose estimated service time is at most (the gang's estimated start -
// now) + T starts instead. The gang's estimated start is the latest
// estimated end of the jobs running on its processors (an overrun job
// counts as ending now). With exact estimates and T = 0, a backfilled local
// never delays a gang. The condition is tested when a processor becomes
// free or a local arrives, as the paper describes ("the processor remains
// idle until the gang can finally start"); with T > 0 a backfill elsewhere
// can push the gang's estimated start later so that a waiting local would
// now qualify, and it is not re-tested until the next such event.
package gang
