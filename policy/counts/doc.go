// Package counts plans a run on a platform of nodes with a policy of the
// pool of CPUs, when every job of the run asks for cores alone
// (docs/nodes.md, "Two planners").
//
// A request of cores alone (nodes.CoresAlone: tasks of one CPU and nothing
// else, no node count, memory, GRES, constraint or exclusive node; a job
// whose Req is nil) can take any free core of any node: the allocation
// rule (nodes.State.Alloc) places it whenever the platform's free cores
// add up to its tasks. A run whose every job asks for cores alone is
// therefore, for scheduling, a pool of the platform's cores, and
// Scheduler plans it with the pool's own policy object (built for one
// machine of those cores) and hands its starts to the model with no
// allocation, for the model to place by the rule. The schedule is the
// pool's, job for job, on any node shape.
//
// The package knows no policy: the assembly of a run (package
// experiment) decides whether a run is planned by counts and builds the
// pool policy through the registry.
package counts
