// Package experiment runs simulations end to end: it wires a workload, a
// policy, the engine and the metric listeners, and writes the results of a
// run to an output folder atomically (all files appear together on
// success; on any error none is left behind and earlier results in the
// folder are untouched).
//
// Runs are typed values: TraceRun (a trace on one cluster), GridRun and
// GangRun (one replication of a multi-site model, on a platform.Platform
// built by platform.Sites). Policies are named as in package registry,
// which builds them; nothing here branches on a policy's name (the grid
// scheduler's preference for idle sites is the local scheduler's registry
// trait).
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
