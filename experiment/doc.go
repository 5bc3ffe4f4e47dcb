// Package experiment runs simulations end to end: it wires a workload, a
// policy, the engine and the metric listeners, and writes the results of a
// run to an output folder atomically (all files appear together on
// success; on any error none is left behind and earlier results in the
// folder are untouched).
//
// Runs are typed values: TraceRun (a trace on one cluster), JobsRun (jobs
// held in memory), GridRun and GangRun (one replication of a multi-site
// model, on a platform.Platform built by platform.Sites). Policies are
// named as in package registry and their options travel as texts by
// name; the registry checks them against the policy's declarations and
// builds the policy through its one factory (policy.Env: the platform and
// the random streams). The runners read what a policy is through its
// traits (Threads: the thread-level transform of package threads around
// the engine; the grid scheduler's preference for idle sites is the
// local scheduler's PreferIdle) and the optional interfaces of package
// policy (a policy.WindowReporter's windows, a policy.Screener's
// refusals, a policy.QueueExaminer's rule for the gang model's GS queue),
// not its name, type or options. RunJRB is a runner of its own for
// al-najjar-2019's metrics (it builds policy/rank directly).
//
// Sweep runs the points of a scenario file. Each implemented model has one
// runner (model.go) that turns a scenario.Scenario into its typed run and
// names its metrics; a model the registry lists as not implemented gives
// a *registry.NotImplementedError.
//
// A sweep too large for one machine is split into shards (shard.go): its
// work units, one replication of one point each, go round-robin to N
// shards that run as the tasks of a Slurm job array or a Kubernetes
// Indexed Job, each writing its units' results into a shared folder
// (RunShard); Merge turns the folder into exactly the files Sweep writes.
// The folder's Manifest keeps shards of other scenarios out.
package experiment
