package registry

import (
	"sync"

	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/external"
	"github.com/schedlab/schedlab/policy/gang"
	"github.com/schedlab/schedlab/policy/grid"
	"github.com/schedlab/schedlab/policy/matrix"
	"github.com/schedlab/schedlab/policy/plan"
	"github.com/schedlab/schedlab/policy/rank"
)

// This file is the registry's content. The models are built afresh by
// every call; the policies' declarations are gathered once, on first
// use, and never changed after: the accessors in registry.go copy what
// they hand out, so nothing outside can change them.

// models lists the models in documentation order.
func models() []Model {
	queue := func(model string) Kind {
		return Kind{Model: model, Name: KindQueue, Title: "queue policy", Noun: "policy", Key: "policy.queue"}
	}
	cluster := queue(ModelCluster)
	cluster.Flag = "--policy"
	return []Model{
		{Name: ModelCluster, Implemented: true,
			Summary:     "one space-shared cluster with a central queue (an SWF trace or Poisson jobs)",
			Kinds:       []Kind{cluster},
			Metrics:     []string{"mean_wait", "max_wait", "mean_response", "mean_slowdown", "mean_bounded_slowdown", "utilization", "makespan"},
			UserMetrics: []string{"mean_wait"}},
		{Name: ModelGrid, Implemented: true,
			Summary: "sites of per-processor FCFS queues under a grid scheduler (zikos-karatza-2008)",
			Kinds: []Kind{
				{Model: ModelGrid, Name: KindGrid, Title: "grid scheduler", Noun: "grid scheduler", Key: "policy.grid"},
				{Model: ModelGrid, Name: KindLocal, Title: "local scheduler", Noun: "local scheduler", Key: "policy.local"},
			},
			Metrics: []string{"rt", "max_rt", "sld", "utilization"}, SiteMetrics: []string{"utilization", "load"}},
		{Name: ModelGang, Implemented: true,
			Summary: "gangs co-allocated on sites beside local jobs, threshold backfilling (dimitriadou-karatza-2010)",
			Kinds: []Kind{{Model: ModelGang, Name: KindApproach, Title: "approach", Noun: "gang approach", Key: "policy.approach",
				Default: "1", Numeric: true}},
			Metrics: []string{"rt", "sld", "wrt", "wsld", "utilization", "finished_gangs_pct", "split_gangs_pct"}},
		{Name: ModelHetero, Implemented: true,
			Summary: "a central queue over machines of different sizes and speeds, jobs with deadlines (klusacek-2008)",
			Kinds:   []Kind{queue(ModelHetero)},
			Metrics: []string{"missed_pct", "missed_of_deadline_pct", "usage", "slowdown", "mean_wait", "offered_load",
				"plan_evaluations_per_event", "queue_at_events"}},
	}
}

// policies lists every policy, by model and kind, in documentation
// order. Each policy package declares its own policies (a Declarations
// function in its folder: names, summaries, traits, typed options and
// factory); registering a package is one line here. Gathered once (the
// command line asks for the list many times at start-up, and every
// replication looks its policy up).
var policies = sync.OnceValue(declaredPolicies)

func declaredPolicies() []Entry {
	var out []Entry
	for _, ds := range [][]policy.Decl{
		backfill.Declarations(), // fcfs, firstfit, easy, conservative, backfill; hetero fcfs, easy, flexible
		matrix.Declarations(),   // matrix
		rank.Declarations(),     // jrb
		grid.Declarations(),     // random, realtime, deferred, hybrid; random, sq, 2rsq
		gang.Declarations(),     // approaches 1, 2
		plan.Declarations(),     // eg-edf, tabu
		external.Declarations(), // external (cluster and hetero): a decision process over docs/protocol.md
	} {
		for _, d := range ds {
			out = append(out, fromDecl(d))
		}
	}
	return out
}
