// Package experiment runs simulations end to end: it wires a workload, a
// policy, the engine and the metric listeners, and writes the results of a
// run to an output folder atomically (all files appear together on
// success; on any error none is left behind and earlier results in the
// folder are untouched).
//
// Runs are typed values: RunSpec (a trace on one cluster, or a
// synthetic model's replication, in four parts: workload, platform,
// policy, outputs; RunSpec.Check reports every problem at once, each
// naming its setting, and RunSpec.Run runs a trace; the command line,
// scenarios and the in-process library build one), GridRun and GangRun
// (one replication of a multi-site model, on a platform.Platform built
// by platform.Sites), HeteroRun (one replication of klusacek-2008's
// heterogeneous machines): these three are thin wrappers over the
// synthetic models' assembly. Policies are
// named as in package registry and their options travel as texts by
// name; the registry checks them against the policy's declarations and
// builds the policy through its one factory (policy.Env: the platform and
// the random streams). The runners read what a policy is through its
// traits (Threads: the thread-level transform of package threads around
// the engine; the grid scheduler's preference for idle sites is the
// local scheduler's PreferIdle) and its capabilities (policy.Caps,
// computed once by policy.CapsOf: a window reporter's windows, a
// screener's refusals, a queue examiner's rule for the gang model's GS
// queue), not its name, type or options. Which layers (the predictor,
// partitions, the thread split, unavailable CPUs) go with which
// capabilities is one table (assemble.go: checkCombination), which
// refuses an unsupported combination when the run is assembled.
//
// RunReplication is the replication core of the sweeps (package sweep):
// one replication of one scenario point, bound to a RunSpec (TraceSpec
// for a trace; SynthSpec for the synthetic models: the one place where
// a model meets its scenario settings) and run by one assembler
// (synthspec.go: every synthetic model's declared checks, generator
// stages and outputs, synthModels and synthOutputs),
// returning the model's metrics in the registry's order and the
// model's typed result (RepMetrics.Detail: GridResult, GangResult,
// HeteroResult, ClusterResult: the summary with each job's response and
// the window heads of a policy that forms windows) for callers in memory, such as the
// reproductions of package repro. A model the
// registry lists as not implemented gives a *registry.NotImplementedError.
// The package knows nothing of sweeps: running many points and
// replications in parallel, their confidence intervals, comparisons,
// shards and manifests are package sweep's.
//
// Explain runs a trace under a queue policy and tells why one job started
// when it did (the passes that saw it waiting).
package experiment
