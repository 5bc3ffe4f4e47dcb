// Package experiment runs simulations end to end: it wires a workload, a
// policy, the engine and the metric listeners, and writes the results of a
// run to an output folder atomically (all files appear together on
// success; on any error none is left behind and earlier results in the
// folder are untouched).
//
// Runs are typed values: TraceRun (a trace on one cluster), JobsRun (jobs
// held in memory), GridRun and GangRun (one replication of a multi-site
// model, on a platform.Platform built by platform.Sites), HeteroRun (one
// replication of klusacek-2008's heterogeneous machines). Policies are
// named as in package registry and their options travel as texts by
// name; the registry checks them against the policy's declarations and
// builds the policy through its one factory (policy.Env: the platform and
// the random streams). The runners read what a policy is through its
// traits (Threads: split jobs into threads and fold the records; the grid
// scheduler's preference for idle sites is the local scheduler's
// PreferIdle), not its name. Two remain that know a policy by type or
// option: RunJobs asks matrix scanning for its windows (*matrix.Matrix),
// and the gang runner reads the gang model's examine setting; RunJRB is a
// runner of its own for al-najjar-2019's metrics.
//
// RunReplication is the replication core of the sweeps (package sweep):
// one replication of one scenario point, run by its model's runner
// (model.go: the one place where a model meets its scenario settings),
// returning the model's metrics in the registry's order. A model the
// registry lists as not implemented gives a *registry.NotImplementedError.
// The package knows nothing of sweeps: running many points and
// replications in parallel, their confidence intervals, comparisons,
// shards and manifests are package sweep's.
//
// Explain runs a trace under a queue policy and tells why one job started
// when it did (the passes that saw it waiting).
package experiment
