package backfill

import (
	"fmt"
	"math"
	"strconv"

	"github.com/schedlab/schedlab/internal/enum"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// Declarations are this package's policies for the registry, declared
// as every policy is (policy.Decl, typed options option.Decl): the
// cluster's queue policies (fcfs, firstfit, easy, conservative, backfill,
// with their depth and order options and the multifactor order's
// settings) and the hetero model's queue-based policies over several
// machines (fcfs, easy, flexible with Flexible backfilling's priority
// constants). This list is the only one: package registry publishes it.
func Declarations() []policy.Decl {
	all := []string{OrderFCFS.String(), OrderSJF.String(), OrderMultifactor.String()}
	return []policy.Decl{
		cluster("fcfs", "strict first-come first-served: nothing passes a blocked head job",
			orderOptions([]string{OrderFCFS.String(), OrderMultifactor.String()},
				"strict FCFS serves jobs in submit order or by multifactor priority; use a backfilling queue"),
			func(procs int, v option.Values, mf *Multifactor) (policy.QueueScheduler, error) {
				if mf != nil {
					return NewFCFSMultifactor(procs, *mf)
				}
				return NewFCFS(), nil
			}),
		cluster("firstfit", "greedy first-fit, no reservation: every waiting job that fits the free processors starts, in queue order (hafshejani-2012's \"backfilling\")",
			orderOptions(all, ""),
			func(procs int, v option.Values, mf *Multifactor) (policy.QueueScheduler, error) {
				if mf != nil {
					return NewFirstFitMultifactor(procs, *mf)
				}
				return NewFirstFit(orderOf(v)), nil
			}),
		cluster("easy", "EASY backfilling (Lifka): one reservation for the head job, later jobs backfill around it",
			orderOptions(all, ""),
			func(procs int, v option.Values, mf *Multifactor) (policy.QueueScheduler, error) {
				return backfillOn("easy", procs, 1, v, mf)
			}),
		cluster("conservative", "conservative backfilling (Mu'alem & Feitelson): every waiting job holds a reservation; compression on early ends",
			orderOptions(all, ""),
			func(procs int, v option.Values, mf *Multifactor) (policy.QueueScheduler, error) {
				return backfillOn("conservative", procs, Unlimited, v, mf)
			}),
		cluster("backfill", "backfilling with reservation depth K (--depth; 1 = EASY, 0 = unlimited = conservative)",
			append([]option.Decl{{Name: "depth", Key: "policy.depth", Type: option.Int, Range: option.AtLeast(0), Default: "0",
				Doc: "reservation depth K (1 = EASY; 0 = unlimited = conservative)", KeyAlways: true, Flag: "depth"}},
				orderOptions(all, "")...),
			func(procs int, v option.Values, mf *Multifactor) (policy.QueueScheduler, error) {
				d := v.Int("depth")
				if d == 0 {
					d = Unlimited
				}
				return backfillOn(fmt.Sprintf("backfill-%s", depthName(d)), procs, d, v, mf)
			}),
		slurmDecl(),

		hetero("fcfs", "the head job goes to the first machine with enough free CPUs", "fcfs", nil, nil,
			func(p platform.Platform, v option.Values) (policy.QueueScheduler, error) { return NewFCFSMulti(p), nil }),
		hetero("easy", "EASY backfilling over the machines, fastest machine first", "fcfs", nil, nil,
			func(p platform.Platform, v option.Values) (policy.QueueScheduler, error) {
				return NewBackfillMulti(MultiConfig{Name: "easy", Platform: p, Depth: 1, Order: OrderFCFS, Pick: PickFastest})
			}),
		hetero("flexible", "backfilling by a priority of aging, deadline and wait minimisation", "priority",
			flexOptions(), func(v option.Values) error { return flexFrom(v).Check() },
			func(p platform.Platform, v option.Values) (policy.QueueScheduler, error) {
				f := flexFrom(v)
				if err := f.Check(); err != nil {
					return nil, err
				}
				return NewBackfillMulti(MultiConfig{Name: "flexible", Platform: p, Depth: 1, Order: OrderPriority, Pick: PickFastest, Flex: &f})
			}),
	}
}

// cluster declares a queue policy of the one-machine cluster: opts hold
// its order option (and depth); build gets the machine's CPUs, the
// checked values and, with order multifactor, the multifactor settings.
// Its queue order is its order option's value. On a platform of nodes
// (env.Nodes) it builds the node version (nodePolicyFor) instead.
func cluster(name, summary string, opts []option.Decl, build func(procs int, v option.Values, mf *Multifactor) (policy.QueueScheduler, error)) policy.Decl {
	return policy.Decl{Model: policy.ModelCluster, Kind: policy.KindQueue, Name: name, Summary: summary, Options: opts,
		Traits:     policy.Traits{ByCounts: true}, // on nodes, a run of cores alone is planned by the pool version (docs/nodes.md)
		QueueOrder: func(v option.Values) string { return v.Text("order") },
		New: func(env policy.Env, v option.Values) (policy.Built, error) {
			var mf *Multifactor
			if orderOf(v) == OrderMultifactor {
				m, err := multifactorFrom(v)
				if err != nil {
					return policy.Built{}, err
				}
				mf = &m
			}
			if env.Nodes != nil {
				nb, err := nodePolicyFor(name, env.Nodes, v, mf)
				if err != nil {
					return policy.Built{}, err
				}
				if env.Shared != nil {
					nb.shareMF(env.Shared)
				}
				return policy.Built{Nodes: nb}, nil
			}
			procs := env.Platform.CPUs()
			if procs <= 0 {
				return policy.Built{}, fmt.Errorf("policy %s: machine size must be positive, got %d", name, procs)
			}
			q, err := build(procs, v, mf)
			if err != nil {
				return policy.Built{}, err
			}
			if env.Shared != nil {
				shareMultifactor(q, env.Shared)
			}
			return policy.Built{Queue: q}, nil
		}}
}

// hetero declares a queue policy over the machines of the hetero
// model's platform, with the queue order it reports, its options and
// their check (nil: none).
// Over several machines fcfs and easy serve the queue in submit order;
// flexible sorts it by its priority (aging, deadline, wait
// minimisation) and reports "priority".
func hetero(name, summary, order string, opts []option.Decl, check func(option.Values) error, build func(p platform.Platform, v option.Values) (policy.QueueScheduler, error)) policy.Decl {
	return policy.Decl{Model: policy.ModelHetero, Kind: policy.KindQueue, Name: name, Summary: summary, Options: opts, Check: check,
		QueueOrder: policy.FixedOrder(order),
		New: func(env policy.Env, v option.Values) (policy.Built, error) {
			if env.Platform.Machines() == 0 {
				return policy.Built{}, fmt.Errorf("policy %s: a platform is required", name)
			}
			q, err := build(env.Platform, v)
			if err != nil {
				return policy.Built{}, err
			}
			if env.Shared != nil {
				shareMultifactor(q, env.Shared)
			}
			return policy.Built{Queue: q}, nil
		}}
}

// orderOptions are a one-machine policy's order option, taking the
// orders named (the default first; note says why they are fewer than
// every order), and the multifactor order's settings.
func orderOptions(orders []string, note string) []option.Decl {
	return append([]option.Decl{OrderOption(orders, note)}, MultifactorOptions()...)
}

// orderOf is the checked order option's value.
func orderOf(v option.Values) Order {
	o, err := ParseOrderName(v.Text("order"))
	if err != nil {
		panic(err) // the declaration's values are the parser's names
	}
	return o
}

// backfillOn builds the backfilling engine on one machine of procs CPUs
// at reservation depth depth, in the order of v (mf: the multifactor
// settings with order multifactor).
func backfillOn(name string, procs, depth int, v option.Values, mf *Multifactor) (policy.QueueScheduler, error) {
	if mf != nil {
		return NewBackfillMultifactor(name, procs, depth, *mf)
	}
	return NewBackfill(name, procs, depth, orderOf(v)), nil
}

func depthName(d int) string {
	if d == Unlimited {
		return "unlimited"
	}
	return fmt.Sprint(d)
}

// OrderOption is the queue-order option taking the orders named (the
// default first); note says why they are fewer than every order.
func OrderOption(orders []string, note string) option.Decl {
	return option.Decl{Name: "order", Key: "policy.order", Type: option.Enum, Values: orders, Default: orders[0],
		Doc: "queue order: fcfs (submit time), sjf (shortest estimate first) or multifactor (Slurm's multifactor priority, docs/priority.md)", Note: note, KeyAlways: true, Flag: "order"}
}

// flexFrom reads Flexible backfilling's constants from checked values.
func flexFrom(v option.Values) FlexParams {
	return FlexParams{AgeFactor: v.Float("agefactor"), K: v.Float("deadline_k"), Max: v.Float("deadline_max"),
		Min: v.Float("deadline_min"), Boost: v.Float("boostvalue"), Pin: v.Bool("pin_reservation")}
}

// ParseOrderName parses a queue order's name (fcfs, sjf, multifactor).
func ParseOrderName(s string) (Order, error) {
	return enum.ParseNamed("queue order", s, OrderFCFS, OrderSJF, OrderMultifactor)
}

// MultifactorOptions are the multifactor order's settings as options,
// with Slurm's parameter names in snake case; they are read only with
// order multifactor.
func MultifactorOptions() []option.Decl {
	d := DefaultMultifactor()
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	weight := option.Between(0, MaxPriority)
	when := []string{OrderMultifactor.String()}
	table := func(s string) error { _, err := ParseTable(s); return err }
	opts := []option.Decl{
		{Name: "priority_weight_age", Type: option.Int, Range: weight, Default: "0", KeyName: "w_age",
			Doc: "PriorityWeightAge: weight of the age factor min(wait / priority_max_age, 1)"},
		{Name: "priority_weight_fairshare", Type: option.Int, Range: weight, Default: "0", KeyName: "w_fs",
			Doc: "PriorityWeightFairshare: weight of the fair-share factor 2^(-usage/shares)"},
		{Name: "priority_weight_job_size", Type: option.Int, Range: weight, Default: "0", KeyName: "w_size",
			Doc: "PriorityWeightJobSize: weight of the job size factor (CPUs / machine CPUs; reversed with priority_favor_small)"},
		{Name: "priority_weight_partition", Type: option.Int, Range: weight, Default: "0", KeyName: "w_part",
			Doc: "PriorityWeightPartition: weight of the partition factor (partition_priority / its largest value)"},
		{Name: "priority_weight_qos", Type: option.Int, Range: weight, Default: "0", KeyName: "w_qos",
			Doc: "PriorityWeightQOS: weight of the QOS factor (qos_priority / its largest value)"},
		{Name: "priority_max_age", Type: option.Float, Range: option.Above(0), Default: f(d.MaxAge), KeyName: "max_age",
			Doc: "PriorityMaxAge in seconds: the wait at which the age factor reaches 1 (default 7 days)"},
		{Name: "priority_decay_half_life", Type: option.Float, Range: option.AtLeast(0), Default: f(d.DecayHalfLife), KeyName: "half_life", ZeroDistinct: true,
			Doc: "PriorityDecayHalfLife in seconds: past usage counts half after this long (0: no decay; default 7 days)"},
		{Name: "priority_favor_small", Type: option.Bool, Default: "false", KeyName: "favor_small",
			Doc: "PriorityFavorSmall: the job size factor favours small jobs"},
		{Name: "fairshare_levels", Type: option.Enum, Values: []string{"user", "account"}, Default: "user", KeyName: "fs_levels",
			Doc: "fair-share tree: user (users under the root) or account (accounts = the jobs' groups, then their users)"},
		{Name: "shares", Type: option.Text, KeyName: "shares", Valid: table,
			Doc: "raw fair-share shares by user id, \"USER:SHARES,...\" (unlisted users: 1)"},
		{Name: "account_shares", Type: option.Text, KeyName: "acct_shares", Valid: table,
			Doc: "with fairshare_levels account: raw shares by group id, \"GROUP:SHARES,...\" (unlisted: 1)"},
		{Name: "partition_priority", Type: option.Text, KeyName: "part_prio", Valid: table,
			Doc: "PriorityJobFactor by partition id (SWF field 16), \"PART:N,...\" (unlisted: 0)"},
		{Name: "qos_priority", Type: option.Text, KeyName: "qos_prio", Valid: table,
			Doc: "QOS priority by QOS id (SWF field 15, the queue), \"QOS:N,...\" (unlisted: 0)"},
	}
	for i := range opts {
		opts[i].Key = "policy." + opts[i].Name
		opts[i].On, opts[i].When = "order", when
	}
	return opts
}

// multifactorFrom reads the multifactor settings from checked values.
func multifactorFrom(v option.Values) (Multifactor, error) {
	m := Multifactor{
		WeightAge: v.Float("priority_weight_age"), WeightFairshare: v.Float("priority_weight_fairshare"),
		WeightJobSize: v.Float("priority_weight_job_size"), WeightPartition: v.Float("priority_weight_partition"),
		WeightQOS: v.Float("priority_weight_qos"), MaxAge: v.Float("priority_max_age"),
		DecayHalfLife: v.Float("priority_decay_half_life"), FavorSmall: v.Bool("priority_favor_small"),
		Accounts: v.Text("fairshare_levels") == "account",
	}
	var err error
	for _, t := range []struct {
		name string
		dst  *map[int32]float64
	}{{"shares", &m.Shares}, {"account_shares", &m.AccountShares}, {"partition_priority", &m.PartitionPriority}, {"qos_priority", &m.QOSPriority}} {
		if *t.dst, err = ParseTable(v.Text(t.name)); err != nil {
			return Multifactor{}, fmt.Errorf("option %s: %w", t.name, err)
		}
	}
	return m, m.Check()
}

// flexOptions are Flexible backfilling's constants (FlexParams, with
// DefaultFlex()'s values as defaults) as options, in documentation
// order. They appear in result keys only when set away from their
// defaults; 0 (or false) is then a real setting.
func flexOptions() []option.Decl {
	d := DefaultFlex()
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	opts := []option.Decl{
		{Name: "agefactor", Type: option.Float, Range: option.AtLeast(0), Default: f(d.AgeFactor), KeyName: "age",
			Doc: "aging: priority += agefactor x time waited"},
		{Name: "deadline_k", Type: option.Float, Range: option.AtLeast(0), Default: f(d.K), KeyName: "dk",
			Doc: "the deadline term rises from deadline - deadline_k x Nxtime (Nxtime: runtime on the fastest machine that can hold the job)"},
		{Name: "deadline_max", Type: option.Float, Range: option.AtLeast(math.Inf(-1)), Default: f(d.Max), KeyName: "dmax",
			Doc: "the deadline term reached when the estimated end meets the deadline (>= deadline_min)"},
		{Name: "deadline_min", Type: option.Float, Range: option.AtLeast(math.Inf(-1)), Default: f(d.Min), KeyName: "dmin",
			Doc: "the deadline term far from the deadline, past it, or without one"},
		{Name: "boostvalue", Type: option.Float, Range: option.AtLeast(0), Default: f(d.Boost), KeyName: "boost",
			Doc: "wait minimisation: priority += boostvalue x shortest Estimated in the queue / Estimated"},
		{Name: "pin_reservation", Type: option.Bool, Default: strconv.FormatBool(d.Pin), KeyName: "pin",
			Doc: "the job holding the reservation stays first through events (false: re-sorted like the others)"},
	}
	for i := range opts {
		opts[i].Key = "policy." + opts[i].Name
		opts[i].ZeroDistinct = true
	}
	return opts
}
