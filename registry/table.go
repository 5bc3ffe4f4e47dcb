package registry

import (
	"sync"

	"github.com/schedlab/schedlab/metrics/energy"
	"github.com/schedlab/schedlab/metrics/nodeuse"
	"github.com/schedlab/schedlab/metrics/p95wait"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/external"
	"github.com/schedlab/schedlab/policy/gang"
	"github.com/schedlab/schedlab/policy/grid"
	"github.com/schedlab/schedlab/policy/matrix"
	"github.com/schedlab/schedlab/policy/plan"
	"github.com/schedlab/schedlab/policy/rank"
	"github.com/schedlab/schedlab/policy/recorded"
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
			Summary: "one space-shared cluster with a central queue (an SWF trace or Poisson jobs)",
			Kinds:   []Kind{cluster}},
		{Name: ModelGrid, Implemented: true,
			Summary: "sites of per-processor FCFS queues under a grid scheduler (zikos-karatza-2008)",
			Kinds: []Kind{
				{Model: ModelGrid, Name: KindGrid, Title: "grid scheduler", Noun: "grid scheduler", Key: "policy.grid"},
				{Model: ModelGrid, Name: KindLocal, Title: "local scheduler", Noun: "local scheduler", Key: "policy.local"},
			}},
		{Name: ModelGang, Implemented: true,
			Summary: "gangs co-allocated on sites beside local jobs, threshold backfilling (dimitriadou-karatza-2010)",
			Kinds: []Kind{{Model: ModelGang, Name: KindApproach, Title: "approach", Noun: "gang approach", Key: "policy.approach",
				Default: "1", Numeric: true}}},
		{Name: ModelHetero, Implemented: true,
			Summary: "a central queue over machines of different sizes and speeds, jobs with deadlines (klusacek-2008)",
			Kinds:   []Kind{queue(ModelHetero)}},
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
		recorded.Declarations(), // recorded: the trace's own schedule
	} {
		for _, d := range ds {
			out = append(out, fromDecl(d))
		}
	}
	return out
}

// declaredMetrics lists every metric, in the order a replication
// reports them (per model: its default metrics in this order, then its
// per-site ones for every site, then the ones a scenario asks for, in
// the order it names them). The models' own metrics are measured by
// their runners (package experiment) from the models' results; a metric
// that is its own listener is declared in its own folder (a
// Declarations function returning []metrics.Decl with New set) and
// registered with one line here, before or after these.
func declaredMetrics() []Metric {
	var out []Metric
	for _, ds := range [][]Metric{
		modelMetrics(),         // the four models' metrics, reported by their runners
		p95wait.Declarations(), // p95_wait (cluster; off by default)
		nodeuse.Declarations(), // gpu_utilization, gpu_hours, idle_gpu_hours, gpu_jobs_mean_wait, other_jobs_mean_wait, busy_node_fraction (cluster; on platform.nodes)
		energy.Declarations(),  // energy_kwh, mean_power_kw, peak_power_kw, energy_per_job_kj (cluster; under platform.power); carbon_kg, cost (under platform.carbon, platform.price)
	} {
		out = append(out, ds...)
	}
	return out
}

// modelMetrics are the metrics the models' runners report from their
// results. Times are in seconds for a trace and in units of the mean
// service time for Poisson jobs (grid, gang: of the mean service time).
func modelMetrics() []Metric {
	c := []string{ModelCluster}
	grid, gang, het := []string{ModelGrid}, []string{ModelGang}, []string{ModelHetero}
	return []Metric{
		// cluster
		{Name: "mean_wait", Unit: "time", Better: Lower, Models: c, Default: true, Doc: "mean wait (start - submit) of the jobs after the warm-up"},
		{Name: "max_wait", Unit: "time", Better: Lower, Models: c, Default: true, Doc: "longest wait"},
		{Name: "mean_response", Unit: "time", Better: Lower, Models: c, Default: true, Doc: "mean response (end - submit)"},
		{Name: "mean_slowdown", Unit: "ratio", Better: Lower, Models: c, Default: true, Doc: "mean slowdown, response / runtime"},
		{Name: "mean_bounded_slowdown", Unit: "ratio", Better: Lower, Models: c, Default: true, Doc: "mean bounded slowdown, max(1, response / max(runtime, tau))"},
		{Name: "utilization", Unit: "fraction", Better: Higher, Models: c, Default: true, Doc: "busy CPU time / (CPUs x the span from the first submit to the last end)"},
		{Name: "makespan", Unit: "time", Better: Lower, Models: c, Default: true, Doc: "the last end minus the first submit"},
		{Name: "mean_wait", Unit: "time", Better: Lower, Models: c, Scope: PerUser, Doc: "mean wait of user u's jobs (synthetic workloads; docs/priority.md)"},
		// grid
		{Name: "rt", Unit: "time", Better: Lower, Models: []string{ModelGrid, ModelGang}, Default: true, Doc: "mean response time (gang: of the local jobs)"},
		{Name: "max_rt", Unit: "time", Better: Lower, Models: grid, Default: true, Doc: "longest response time"},
		{Name: "sld", Unit: "ratio", Better: Lower, Models: []string{ModelGrid, ModelGang}, Default: true, Doc: "mean slowdown (gang: of the local jobs)"},
		{Name: "utilization", Unit: "fraction", Better: Higher, Models: grid, Default: true, Doc: "busy processor time / (processors x time)"},
		{Name: "utilization", Unit: "fraction", Better: Higher, Models: grid, Scope: PerSite, Default: true, Doc: "the site's busy processor time / (its processors x time)"},
		{Name: "load", Unit: "jobs", Better: Lower, Models: grid, Scope: PerSite, Default: true, Doc: "time-averaged jobs in the site (queued and in service)"},
		// gang
		{Name: "wrt", Unit: "time", Better: Lower, Models: gang, Default: true, Doc: "mean response time of the gangs, weighted by size"},
		{Name: "wsld", Unit: "ratio", Better: Lower, Models: gang, Default: true, Doc: "mean slowdown of the gangs, weighted by size"},
		{Name: "utilization", Unit: "fraction", Better: Higher, Models: gang, Default: true, Doc: "busy processor time / (processors x time)"},
		{Name: "finished_gangs_pct", Unit: "%", Better: Higher, Models: gang, Default: true, Doc: "gangs finished, % of the gangs that arrived"},
		{Name: "split_gangs_pct", Unit: "%", Better: Lower, Models: gang, Default: true, Doc: "gangs split across the sites, %"},
		// hetero
		{Name: "missed_pct", Unit: "%", Better: Lower, Models: het, Default: true, Doc: "jobs that missed their deadline, % of all jobs"},
		{Name: "missed_of_deadline_pct", Unit: "%", Better: Lower, Models: het, Default: true, Doc: "jobs that missed their deadline, % of the jobs with a deadline"},
		{Name: "usage", Unit: "%", Better: Higher, Models: het, Default: true, Doc: "the paper's system usage"},
		{Name: "slowdown", Unit: "ratio", Better: Lower, Models: het, Default: true, Doc: "mean (wait + run) / run"},
		{Name: "mean_wait", Unit: "time", Better: Lower, Models: het, Default: true, Doc: "mean wait"},
		{Name: "offered_load", Unit: "fraction", Models: het, Default: true, Doc: "the offered load, from the generators' distributions"},
		{Name: "plan_evaluations_per_event", Unit: "count", Models: het, Default: true, Doc: "the schedule-based policies' plan evaluations per scheduling event (0 for queue-based ones)"},
		{Name: "queue_at_events", Unit: "jobs", Better: Lower, Models: het, Default: true, Doc: "mean jobs waiting at a scheduling event"},
	}
}
