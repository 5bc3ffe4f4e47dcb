package registry

import (
	"fmt"
	"math/rand/v2"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/gang"
	"github.com/schedlab/schedlab/policy/grid"
	"github.com/schedlab/schedlab/policy/rank"
	"github.com/schedlab/schedlab/policy/schedule"
	"github.com/schedlab/schedlab/rng"
)

// This file is the registry's content. Both tables are built afresh by
// every call, so nothing outside can change them; the accessors in
// registry.go copy what they hand out.

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
			Kinds:   []Kind{cluster},
			Metrics: []string{"mean_wait", "max_wait", "mean_response", "mean_slowdown", "mean_bounded_slowdown", "utilization", "makespan"}},
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
			Options: []Option{{Name: "examine", Key: "policy.examine", Type: TypeEnum, Values: []string{"emptied", "every"}, Default: "emptied",
				Doc: "the GS queue is examined after a departure that empties a queue (emptied) or after every departure (every)"}},
			Metrics: []string{"rt", "sld", "wrt", "wsld", "utilization", "finished_gangs_pct", "split_gangs_pct"}},
		{Name: ModelHetero, Implemented: true,
			Summary: "a central queue over machines of different sizes and speeds, jobs with deadlines (klusacek-2008)",
			Kinds:   []Kind{queue(ModelHetero)},
			Metrics: []string{"missed_pct", "missed_of_deadline_pct", "usage", "slowdown", "mean_wait", "offered_load",
				"plan_evaluations_per_event", "queue_at_events"}},
	}
}

// policies lists every policy, by model and kind, in documentation order.
func policies() []Policy {
	var out []Policy
	out = append(out, queuePolicies()...)
	out = append(out, threadPolicies()...)
	out = append(out, rankPolicies()...)
	out = append(out, gridPolicies()...)
	out = append(out, gangPolicies()...)
	out = append(out, heteroPolicies()...)
	return out
}

// queuePolicies are policy/backfill's list, with typed options.
func queuePolicies() []Policy {
	var out []Policy
	for _, d := range backfill.Policies() {
		var opts []Option
		if d.TakesDepth {
			opts = append(opts, Option{Name: "depth", Key: "policy.depth", Type: TypeInt, Range: AtLeast(0), Default: "0",
				Doc: "reservation depth K (1 = EASY; 0 = unlimited = conservative)"})
		}
		var orders []string
		for _, o := range d.Orders {
			orders = append(orders, o.String())
		}
		opts = append(opts, Option{Name: "order", Key: "policy.order", Type: TypeEnum, Values: orders, Default: orders[0],
			Doc: "queue order: fcfs (submit time) or sjf (shortest estimate first)", Note: d.OrderNote})
		out = append(out, Policy{Model: ModelCluster, Kind: KindQueue, Name: d.Name, Summary: d.Summary, options: opts, queue: d.New})
	}
	return out
}

// rankPolicies are policy/rank's: Job Ranking Backfilling (al-najjar-2019).
// Its options (rank, coefficients, head, positive_only) are set through
// NewRank ('schedlab run --rank ...'); built by NewQueue (scenario files)
// it is the paper's JRB: the original rank, no head rule, on one machine
// of Options.Procs CPUs.
func rankPolicies() []Policy {
	build := func(o rank.Options) (policy.QueueScheduler, error) {
		if o.Name == "" {
			o.Name = "jrb"
		}
		return rank.New(o)
	}
	queue := func(o backfill.Options) (policy.QueueScheduler, error) {
		switch {
		case o.Depth != 0:
			return nil, fmt.Errorf("policy jrb takes no reservation depth (got %d)", o.Depth)
		case o.Order != backfill.OrderFCFS:
			return nil, fmt.Errorf("policy jrb orders its queue by rank; order %s is not an option", o.Order)
		}
		plat := o.Platform
		if plat.Machines() == 0 {
			var err error
			if plat, err = platform.Cluster(o.Procs); err != nil {
				return nil, fmt.Errorf("policy jrb: %w", err)
			}
		}
		return build(rank.Options{Platform: plat, Rank: rank.Named(rank.FormOriginal)})
	}
	opts := []Option{
		{Name: "rank", Key: "policy.rank", Type: TypeEnum, Values: rank.FormNames(), Default: rank.FormNames()[0],
			Doc: "the rank function: the paper's original, or its fitted linear or log10 model (run: --rank; --rank-coefficients replaces the coefficients)"},
		{Name: "head", Key: "policy.head", Type: TypeEnum, Values: rank.HeadNames(), Default: rank.HeadNames()[0],
			Doc: "what the oldest waiting job gets: nothing (none), first start when it fits (fcfs), an EASY reservation (easy)"},
		{Name: "positive_only", Key: "policy.positive_only", Type: TypeBool, Default: "false",
			Doc: "refuse jobs whose rank is <= 0 (the literal 'smallest positive rank')"},
	}
	return []Policy{{Model: ModelCluster, Kind: KindQueue, Name: "jrb",
		Summary: "Job Ranking Backfilling (al-najjar-2019): start the smallest rank among the jobs that fit now (run: --rank original|linear|log, --rank-coefficients, --head, --positive-only)",
		options: opts, queue: queue, rank: build}}
}

func gridPolicies() []Policy {
	ai := Option{Name: "allocation_interval", Key: "policy.allocation_interval", Type: TypeFloat, Range: Above(0),
		Doc: "the allocation interval A_I: held jobs leave at its multiples"}
	rf := Option{Name: "random_fraction", Key: "policy.random_fraction", Type: TypeFraction, Range: Between(0, 1),
		Doc: "A_I%: jobs arriving in this first part of an interval go to a random site at once"}
	norm := Option{Name: "normalize_load", Key: "policy.normalize_load", Type: TypeBool, Default: "false",
		Doc: "compare load per processor (sites of different sizes)"}
	gs := func(name, summary string, opts []Option, b func(grid.Options, *rand.Rand) (policy.GridScheduler, error)) Policy {
		return Policy{Model: ModelGrid, Kind: KindGrid, Name: name, Summary: summary, options: opts, grid: b}
	}
	ls := func(name, summary string, t Traits, b func(*rand.Rand) policy.LocalScheduler) Policy {
		return Policy{Model: ModelGrid, Kind: KindLocal, Name: name, Summary: summary, Traits: t, local: b}
	}
	return []Policy{
		gs("random", "each job at once to a uniformly random site", nil,
			func(o grid.Options, r *rand.Rand) (policy.GridScheduler, error) { return grid.NewRandom(o, r), nil }),
		gs("realtime", "each job at once to the least loaded site", []Option{norm},
			func(o grid.Options, r *rand.Rand) (policy.GridScheduler, error) { return grid.NewRealTime(o, r), nil }),
		gs("deferred", "jobs wait for the end of the allocation interval, then go to the least loaded sites", []Option{ai, norm},
			func(o grid.Options, r *rand.Rand) (policy.GridScheduler, error) { return grid.NewDeferred(o, r) }),
		gs("hybrid", "random during the first random_fraction of each interval, deferred after", []Option{ai, rf, norm},
			func(o grid.Options, r *rand.Rand) (policy.GridScheduler, error) { return grid.NewHybrid(o, r) }),

		ls("random", "a uniformly random processor", Traits{},
			func(r *rand.Rand) policy.LocalScheduler { return grid.NewRandomLocal(r) }),
		ls("sq", "the processor with the fewest jobs (idle first)", Traits{PreferIdle: true},
			func(r *rand.Rand) policy.LocalScheduler { return grid.NewShortestQueue(r) }),
		ls("2rsq", "the shorter of two random processors", Traits{},
			func(r *rand.Rand) policy.LocalScheduler { return grid.NewTwoRandom(r) }),
	}
}

func gangPolicies() []Policy {
	threshold := Option{Name: "threshold", Key: "policy.threshold", Type: TypeFloat, Range: AtLeast(0), Default: "0",
		Doc: "backfilling threshold T: a local job may pass a blocked gang if its estimate is at most the gang's estimated wait + T"}
	empty := Option{Name: "empty_queue", Key: "policy.empty_queue", Type: TypeEnum, Values: []string{"waiting", "idle"}, Default: "waiting",
		Doc: `the paper's "empty queue": nothing waiting (waiting) or nothing waiting or running (idle)`}
	split := Option{Name: "split_overhead", Key: "workload.split_overhead", Type: TypeFraction, Range: AtLeast(0), Default: "0.1",
		Doc: "extra service of the tasks of a split gang (0.1 = +10%)"}
	approach := func(n int, name, summary string, t Traits, opts []Option) Policy {
		return Policy{Model: ModelGang, Kind: KindApproach, Name: name, Summary: summary, Traits: t, options: opts,
			gang: func(o gang.Options, r *rand.Rand) (policy.GangPolicy, error) {
				o.Approach = n
				return gang.New(o, r)
			}}
	}
	return []Policy{
		approach(1, "1", "a gang goes to one site: idle processors, else empty queues, else the GS queue (largest first)",
			Traits{}, []Option{threshold, empty}),
		approach(2, "2", "as 1, and a gang may be split over both sites when enough processors are idle (+overhead)",
			Traits{SplitsGangs: true}, []Option{threshold, empty, split}),
	}
}

// heteroPolicies are the heterogeneous model's: FCFS, EASY and Flexible
// backfilling over the machines (policy/backfill) and EG-EDF and Tabu
// search (policy/schedule), each built for a platform by NewHetero.
func heteroPolicies() []Policy {
	p := func(name, summary string, opts []Option) Policy {
		return Policy{Model: ModelHetero, Kind: KindQueue, Name: name, Summary: summary, options: opts}
	}
	sched := func(name, summary string, tabu bool, opts []Option) Policy {
		pol := p(name, summary, opts)
		pol.hetero = func(plat platform.Platform, seed uint64, rep int, ho HeteroOptions) (policy.QueueScheduler, error) {
			r := rng.New(seed, rep, "hetero-policy")
			if tabu {
				return schedule.NewTabu(plat, ho.Schedule, r)
			}
			return schedule.NewEGEDF(plat, schedule.Options{Ties: ho.Schedule.Ties, Gaps: ho.Schedule.Gaps}, r)
		}
		return pol
	}
	queue := func(name, summary string, opts []Option) Policy {
		pol := p(name, summary, opts)
		pol.hetero = func(plat platform.Platform, seed uint64, rep int, ho HeteroOptions) (policy.QueueScheduler, error) {
			o := backfill.Options{Platform: plat}
			if name == "flexible" {
				o.Flex = ho.Flex
			}
			return backfill.NewMulti(name, o)
		}
		return pol
	}
	ties := Option{Name: "ties", Key: "policy.ties", Type: TypeEnum, Values: schedule.TieRules(), Default: schedule.TieRules()[0],
		Doc: "EG-EDF's weight ties go to the lowest machine index (index, the rule as written) or to the machine where the job ends first (end)"}
	gaps := Option{Name: "gaps", Key: "policy.gaps", Type: TypeEnum, Values: schedule.GapRules(), Default: schedule.GapRules()[0],
		Doc: "what counts as a gap: finite idle time inside a plan (finite, the rule as written) or also the idle time after it (tail: an idle machine has one)"}
	return []Policy{
		queue("fcfs", "the head job goes to the first machine with enough free CPUs", nil),
		queue("easy", "EASY backfilling over the machines, fastest machine first", nil),
		queue("flexible", "backfilling by a priority of aging, deadline and wait minimisation", flexOptions()),
		sched("eg-edf", "schedule-based: earliest gap, else earliest deadline first", false, []Option{gaps, ties}),
		sched("tabu", "schedule-based: EG-EDF improved by tabu search", true, append([]Option{gaps, ties}, tabuOptions()...)),
	}
}

// flexOptions are Flexible backfilling's constants (backfill.FlexParamList)
// as options.
func flexOptions() []Option {
	var out []Option
	for _, pr := range backfill.FlexParamList() {
		o := Option{Name: pr.Name, Key: "policy." + pr.Name, Default: pr.Default, Doc: pr.Doc}
		switch pr.Type {
		case "bool":
			o.Type = TypeBool
		default:
			o.Type, o.Range = TypeFloat, AtLeast(pr.Min)
		}
		out = append(out, o)
	}
	return out
}

// tabuOptions are Tabu search's budget, tabu list, machine order and
// trigger (schedule.Options).
func tabuOptions() []Option {
	return []Option{
		{Name: "iterations", Key: "policy.iterations", Type: TypeInt, Range: AtLeast(0), Default: "0",
			Doc: "iteration budget of one search (0 = 2 x the jobs planned when it starts)"},
		{Name: "tabu_length", Key: "policy.tabu_length", Type: TypeInt, Range: AtLeast(0), Default: "0",
			Doc: "capacity of the tabu list (0 = min(10, planned jobs / 2))"},
		{Name: "machine_order", Key: "policy.machine_order", Type: TypeEnum, Values: schedule.Orders(), Default: schedule.Orders()[0],
			Doc: "order in which the other machines are tried for a moved job: index or a fresh random permutation"},
		{Name: "trigger", Key: "policy.trigger", Type: TypeEnum, Values: schedule.Triggers(), Default: schedule.Triggers()[0],
			Doc: "when the search runs: after each arrival, after every n-th arrival (every), or each interval seconds (interval)"},
		{Name: "every", Key: "policy.every", Type: TypeInt, Range: AtLeast(1), Default: "1",
			Doc: "trigger every-n: the search runs after every n-th arrival"},
		{Name: "interval", Key: "policy.interval", Type: TypeFloat, Range: Above(0), Default: "300",
			Doc: "trigger interval: the search runs at the first pass at or after each multiple of this many seconds"},
	}
}
