// Package registry is the one list of simulation models and scheduling
// policies by name, with typed options: the CLI, the scenario schema and
// `schedlab policies` all read it; nothing else lists names.
//
// A Model (cluster, grid, gang, and hetero, listed but not implemented
// yet) selects policies of one or more kinds by name: the cluster's queue
// policy (fcfs, firstfit, easy, conservative, backfill), the grid's grid scheduler
// (random, realtime, deferred, hybrid) and local scheduler (random, sq,
// 2rsq), the gang model's approach (1, 2). Each Policy has a one-line
// summary, typed options (name, scenario key, type, allowed values or
// range, default, doc), traits, and a typed builder that takes the policy
// package's own option struct (backfill.Options, grid.Options,
// gang.Options), never strings.
//
// Traits carry what other parts of a model need to know about a policy:
// the grid scheduler prefers sites with an idle processor because the
// local scheduler's entry says PreferIdle (sq), not because of its name;
// NewGridPair applies it. The scenario schema builds its enumerations,
// its policy options and which settings each policy reads from
// KindOptions; `schedlab run` and `schedlab policies` read Lookup and
// Policies.
//
// Errors are typed: an unknown model or policy name is an
// *UnknownNameError (with what was looked up, the name and the known
// names), to classify with errors.As; building a policy of a model that
// is not implemented gives a *NotImplementedError.
//
// The registry holds no mutable state: its tables are built afresh by
// each call and every accessor returns copies. The queue policies' names,
// summaries and builders come from policy/backfill (Policies), which the
// packages below the registry use directly; every other name is listed
// here only.
package registry
