package backfill

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/schedlab/schedlab/internal/enum"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// Declarations are this package's policies for the registry: the
// cluster's queue policies (Policies: fcfs, firstfit, easy, conservative,
// backfill, with their depth and order options) and the hetero model's
// queue-based policies over several machines (MultiPolicies: fcfs, easy,
// flexible with Flexible backfilling's priority constants).
func Declarations() []policy.Decl {
	var out []policy.Decl
	for _, d := range descs() {
		out = append(out, policy.Decl{Model: policy.ModelCluster, Kind: policy.KindQueue, Name: d.Name, Summary: d.Summary,
			Options: d.options(), New: d.newFromValues, QueueOrder: orderOption})
	}
	summaries := map[string]string{
		"fcfs":     "the head job goes to the first machine with enough free CPUs",
		"easy":     "EASY backfilling over the machines, fastest machine first",
		"flexible": "backfilling by a priority of aging, deadline and wait minimisation",
	}
	for _, d := range multiDescs() {
		// Over several machines fcfs and easy serve the queue in submit
		// order. Flexible sorts it by its priority, but a run has always
		// reported fcfs for it: a result change of its own, not this one.
		decl := policy.Decl{Model: policy.ModelHetero, Kind: policy.KindQueue, Name: d.Name, Summary: summaries[d.Name], New: d.newFromValues,
			QueueOrder: policy.FixedOrder("fcfs")}
		if d.Params != nil {
			decl.Options = flexOptions()
			decl.Check = func(v option.Values) error { return flexFrom(v).Check() }
		}
		out = append(out, decl)
	}
	return out
}

// options are the declared options of a one-machine queue policy: the
// reservation depth (backfill) and the queue order.
func (d Desc) options() []option.Decl {
	var opts []option.Decl
	if d.TakesDepth {
		opts = append(opts, option.Decl{Name: "depth", Key: "policy.depth", Type: option.Int, Range: option.AtLeast(0), Default: "0",
			Doc: "reservation depth K (1 = EASY; 0 = unlimited = conservative)", KeyAlways: true, Flag: "depth"})
	}
	var orders []string
	for _, o := range d.Orders {
		orders = append(orders, o.String())
	}
	opts = append(opts, OrderOption(orders, d.OrderNote))
	if slices.Contains(d.Orders, OrderMultifactor) {
		opts = append(opts, MultifactorOptions()...)
	}
	return opts
}

// orderOption is the queue order of a policy with an order option.
func orderOption(v option.Values) string { return v.Text("order") }

// OrderOption is the queue-order option taking the orders named (the
// default first); note says why they are fewer than every order.
func OrderOption(orders []string, note string) option.Decl {
	return option.Decl{Name: "order", Key: "policy.order", Type: option.Enum, Values: orders, Default: orders[0],
		Doc: "queue order: fcfs (submit time), sjf (shortest estimate first) or multifactor (Slurm's multifactor priority, docs/priority.md)", Note: note, KeyAlways: true, Flag: "order"}
}

// newFromValues builds the policy d describes from checked values, on
// env's platform (its CPUs for a one-machine policy).
func (d Desc) newFromValues(env policy.Env, v option.Values) (policy.Built, error) {
	o := Options{Procs: env.Platform.CPUs()}
	if d.Multi {
		o = Options{Platform: env.Platform}
	}
	if v.Has("depth") {
		o.Depth = v.Int("depth")
	}
	if v.Has("order") {
		ord, err := ParseOrderName(v.Text("order"))
		if err != nil {
			return policy.Built{}, err
		}
		o.Order = ord
		if ord == OrderMultifactor {
			mf, err := multifactorFrom(v)
			if err != nil {
				return policy.Built{}, err
			}
			o.Multifactor = &mf
		}
	}
	if d.Params != nil {
		f := flexFrom(v)
		if err := f.Check(); err != nil {
			return policy.Built{}, err
		}
		o.Flex = &f
	}
	q, err := d.New(o)
	if err == nil && env.Shared != nil {
		shareMultifactor(q, env.Shared)
	}
	return policy.Built{Queue: q}, err
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

// flexOptions are Flexible backfilling's constants (FlexParamList) as
// options. They appear in result keys only when set away from their
// defaults; 0 (or false) is then a real setting.
func flexOptions() []option.Decl {
	keys := map[string]string{"agefactor": "age", "deadline_k": "dk", "deadline_max": "dmax", "deadline_min": "dmin",
		"boostvalue": "boost", "pin_reservation": "pin"}
	var out []option.Decl
	for _, pr := range FlexParamList() {
		o := option.Decl{Name: pr.Name, Key: "policy." + pr.Name, Default: pr.Default, Doc: pr.Doc,
			KeyName: keys[pr.Name], ZeroDistinct: true}
		switch pr.Type {
		case "bool":
			o.Type = option.Bool
		default:
			o.Type, o.Range = option.Float, option.AtLeast(pr.Min)
		}
		out = append(out, o)
	}
	return out
}
