// Package registry is the one list of simulation models and scheduling
// policies by name, with typed options: the CLI, the scenario schema and
// `schedlab policies` all read it; nothing else lists names.
//
// A Model (cluster, grid, gang, hetero) selects policies of one or more
// kinds by name: the cluster's queue policy (fcfs, firstfit, easy,
// conservative, backfill, matrix, jrb), the grid's grid scheduler (random,
// realtime, deferred, hybrid) and local scheduler (random, sq, 2rsq), the
// gang model's approach (1, 2), the hetero model's queue policy (fcfs,
// easy, flexible, eg-edf, tabu).
//
// The policies are not written here: each policy package declares its
// own (policy.Decl: name, model, kind, summary, traits, typed options,
// factory) in a Declarations function, and table.go lists the packages,
// one line each. An Entry wraps a declaration: Check checks option texts
// against it (every problem named, defaults filled), Build and
// BuildValues build the policy for a policy.Env through its one factory,
// Own picks a policy's options out of a point's, InProcess and
// CheckInProcess serve a run whose decisions come from the calling
// program (policy.Env.Decider).
//
// Traits carry what other parts of a model need to know about a policy:
// the grid scheduler prefers sites with an idle processor because the
// local scheduler's entry says PreferIdle (sq), not because of its name;
// NewGridPair applies it. Likewise Threads (the thread-level transform,
// package threads) and PeriodOption (the option that sets a grid
// scheduler's period). The scenario schema builds its enumerations,
// its policy options and which settings each policy reads from
// KindOptions; `schedlab run` (its policy flags and --set) and
// `schedlab policies` read Lookup and Policies.
//
// Errors are typed: an unknown model or policy name is an
// *UnknownNameError (with what was looked up, the name and the known
// names), to classify with errors.As; building a policy of a model that
// is not implemented gives a *NotImplementedError.
//
// The registry holds no mutable state: the models are built afresh by
// each call, the policies' declarations gathered once and never changed,
// and every accessor returns copies.
package registry
