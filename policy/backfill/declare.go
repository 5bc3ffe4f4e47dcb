package backfill

import (
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
			Options: d.options(), New: d.newFromValues})
	}
	summaries := map[string]string{
		"fcfs":     "the head job goes to the first machine with enough free CPUs",
		"easy":     "EASY backfilling over the machines, fastest machine first",
		"flexible": "backfilling by a priority of aging, deadline and wait minimisation",
	}
	for _, d := range multiDescs() {
		decl := policy.Decl{Model: policy.ModelHetero, Kind: policy.KindQueue, Name: d.Name, Summary: summaries[d.Name], New: d.newFromValues}
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
	return append(opts, OrderOption(orders, d.OrderNote))
}

// OrderOption is the queue-order option taking the orders named (the
// default first); note says why they are fewer than every order.
func OrderOption(orders []string, note string) option.Decl {
	return option.Decl{Name: "order", Key: "policy.order", Type: option.Enum, Values: orders, Default: orders[0],
		Doc: "queue order: fcfs (submit time) or sjf (shortest estimate first)", Note: note, KeyAlways: true, Flag: "order"}
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
	}
	if d.Params != nil {
		f := flexFrom(v)
		if err := f.Check(); err != nil {
			return policy.Built{}, err
		}
		o.Flex = &f
	}
	q, err := d.New(o)
	return policy.Built{Queue: q}, err
}

// flexFrom reads Flexible backfilling's constants from checked values.
func flexFrom(v option.Values) FlexParams {
	return FlexParams{AgeFactor: v.Float("agefactor"), K: v.Float("deadline_k"), Max: v.Float("deadline_max"),
		Min: v.Float("deadline_min"), Boost: v.Float("boostvalue"), Pin: v.Bool("pin_reservation")}
}

// ParseOrderName parses a queue order's name (fcfs, sjf).
func ParseOrderName(s string) (Order, error) { return enum.ParseNamed("queue order", s, Orders()...) }

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
