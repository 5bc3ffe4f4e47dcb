package backfill

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// Options configures a queue policy built by name.
type Options struct {
	Procs int   // machine size (Policies: one machine)
	Depth int   // reservation depth for a policy that takes one ("backfill"); 0 means unlimited
	Order Order // queue order
	// Platform is the machines of a MultiPolicies policy (the one-machine
	// Policies ignore it and use Procs).
	Platform platform.Platform
	// Flex sets Flexible backfilling's constants (nil: DefaultFlex()); only
	// a policy with Params takes it.
	Flex *FlexParams
	// Multifactor sets the multifactor priority (nil: DefaultMultifactor());
	// only with Order OrderMultifactor.
	Multifactor *Multifactor
}

// Desc describes one queue policy. The list Policies returns is the one
// list of queue-policy names: package registry publishes it, with typed
// options, beside the policies of the other models.
type Desc struct {
	Name    string
	Summary string // one line
	// TakesDepth: Options.Depth chooses the reservation depth. The other
	// policies fix it (FCFS none, EASY 1, conservative unlimited) and
	// refuse a depth.
	TakesDepth bool
	// Orders are the queue orders the policy accepts, the default first.
	Orders []Order
	// OrderNote says why Orders is narrower than Orders() ("" when it is
	// not), for the message that refuses an order. Orders is nil for a
	// policy that fixes its own order (flexible: its priority) and takes
	// no order option.
	OrderNote string
	// Params are the policy's further options (Options.Flex), with their
	// defaults; nil for most.
	Params []Param
	// Multi: the policy runs over the machines of Options.Platform
	// (MultiPolicies) rather than one machine of Options.Procs CPUs.
	Multi bool

	build func(Options) (policy.QueueScheduler, error)
}

// Orders lists every queue order, in documentation order.
func Orders() []Order { return []Order{OrderFCFS, OrderSJF} }

// clusterOrders are the orders of the one-machine backfilling and
// first-fit policies.
func clusterOrders() []Order { return []Order{OrderFCFS, OrderSJF, OrderMultifactor} }

// mfOf is o's multifactor priority (the defaults when not set).
func mfOf(o Options) Multifactor {
	if o.Multifactor != nil {
		return *o.Multifactor
	}
	return DefaultMultifactor()
}

// backfillOn builds the backfilling engine on one machine in o's order.
func backfillOn(name string, o Options, depth int) (policy.QueueScheduler, error) {
	if o.Order == OrderMultifactor {
		return NewBackfillMultifactor(name, o.Procs, depth, mfOf(o))
	}
	return NewBackfill(name, o.Procs, depth, o.Order), nil
}

// descs is the one list of queue policies; Policies hands out copies.
func descs() []Desc {
	return []Desc{
		{Name: "fcfs", Summary: "strict first-come first-served: nothing passes a blocked head job",
			Orders: []Order{OrderFCFS, OrderMultifactor}, OrderNote: "strict FCFS serves jobs in submit order or by multifactor priority; use a backfilling queue",
			build: func(o Options) (policy.QueueScheduler, error) {
				if o.Order == OrderMultifactor {
					return NewFCFSMultifactor(o.Procs, mfOf(o))
				}
				return NewFCFS(), nil
			}},
		{Name: "firstfit", Summary: "greedy first-fit, no reservation: every waiting job that fits the free processors starts, in queue order (hafshejani-2012's \"backfilling\")",
			Orders: clusterOrders(),
			build: func(o Options) (policy.QueueScheduler, error) {
				if o.Order == OrderMultifactor {
					return NewFirstFitMultifactor(o.Procs, mfOf(o))
				}
				return NewFirstFit(o.Order), nil
			}},
		{Name: "easy", Summary: "EASY backfilling (Lifka): one reservation for the head job, later jobs backfill around it",
			Orders: clusterOrders(),
			build: func(o Options) (policy.QueueScheduler, error) {
				return backfillOn("easy", o, 1)
			}},
		{Name: "conservative", Summary: "conservative backfilling (Mu'alem & Feitelson): every waiting job holds a reservation; compression on early ends",
			Orders: clusterOrders(),
			build: func(o Options) (policy.QueueScheduler, error) {
				return backfillOn("conservative", o, Unlimited)
			}},
		{Name: "backfill", Summary: "backfilling with reservation depth K (--depth; 1 = EASY, 0 = unlimited = conservative)",
			TakesDepth: true, Orders: clusterOrders(),
			build: func(o Options) (policy.QueueScheduler, error) {
				d := o.Depth
				if d == 0 {
					d = Unlimited
				}
				return backfillOn(fmt.Sprintf("backfill-%s", depthName(d)), o, d)
			}},
	}
}

func depthName(d int) string {
	if d == Unlimited {
		return "unlimited"
	}
	return fmt.Sprint(d)
}

// Policies lists the queue policies in documentation order (fcfs,
// firstfit, easy, conservative, backfill). The slices are fresh copies.
func Policies() []Desc { return descs() }

// New builds the policy registered under name. Programs choose policies
// through package registry, which wraps this list; New serves the tests of
// the packages below the registry.
func New(name string, opt Options) (policy.QueueScheduler, error) { return build(descs(), name, opt) }

// build builds the policy called name from the list ds.
func build(ds []Desc, name string, opt Options) (policy.QueueScheduler, error) {
	for _, d := range ds {
		if d.Name == name {
			return d.New(opt)
		}
	}
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = d.Name
	}
	return nil, fmt.Errorf("unknown policy %q (known: %s)", name, strings.Join(names, ", "))
}

// New builds the policy d describes, checking opt against it.
func (d Desc) New(opt Options) (policy.QueueScheduler, error) {
	switch {
	case d.Multi && opt.Platform.Machines() == 0:
		return nil, fmt.Errorf("policy %s: a platform is required", d.Name)
	case !d.Multi && opt.Procs <= 0:
		return nil, fmt.Errorf("policy %s: machine size must be positive, got %d", d.Name, opt.Procs)
	case d.Orders == nil && opt.Order != OrderFCFS:
		return nil, fmt.Errorf("policy %s takes no order (%s)", d.Name, d.OrderNote)
	case d.Orders != nil && !slices.Contains(d.Orders, opt.Order):
		return nil, fmt.Errorf("policy %s: order %s is not allowed (%s)", d.Name, opt.Order, d.OrderNote)
	case opt.Flex != nil && d.Params == nil:
		return nil, fmt.Errorf("policy %s takes no priority constants", d.Name)
	case opt.Multifactor != nil && opt.Order != OrderMultifactor:
		return nil, fmt.Errorf("policy %s: multifactor settings need order multifactor, not %s", d.Name, opt.Order)
	}
	switch {
	case opt.Depth < 0:
		return nil, fmt.Errorf("policy %s: depth must be >= 0 (0 = unlimited), got %d", d.Name, opt.Depth)
	case opt.Depth != 0 && !d.TakesDepth:
		var takes []string
		list := descs()
		if d.Multi {
			list = multiDescs()
		}
		for _, e := range list {
			if e.TakesDepth {
				takes = append(takes, e.Name)
			}
		}
		if len(takes) == 0 {
			return nil, fmt.Errorf("policy %s fixes its own reservation depth; depth %d is not an option", d.Name, opt.Depth)
		}
		return nil, fmt.Errorf("policy %s fixes its own reservation depth; depth %d needs policy %s", d.Name, opt.Depth, strings.Join(takes, " or "))
	}
	if d.build == nil {
		return nil, fmt.Errorf("policy %s: no builder (a Desc made outside this package)", d.Name)
	}
	return d.build(opt)
}

// multiDescs is the list of the policies over several machines
// (klusacek-2008's queue-based policies); MultiPolicies hands out copies.
func multiDescs() []Desc {
	return []Desc{
		{Name: "fcfs", Summary: "strict FCFS: the head job goes to the first machine (index order) with enough free CPUs; nothing passes it",
			Orders: []Order{OrderFCFS}, OrderNote: "strict FCFS serves jobs in submit order; use a backfilling queue", Multi: true,
			build: func(o Options) (policy.QueueScheduler, error) { return NewFCFSMulti(o.Platform), nil }},
		{Name: "easy", Summary: "EASY backfilling over the machines: a job starts on the fastest machine where it fits; the blocked head reserves the machine where it starts earliest",
			Orders: Orders(), Multi: true,
			build: func(o Options) (policy.QueueScheduler, error) {
				return NewBackfillMulti(MultiConfig{Name: "easy", Platform: o.Platform, Depth: 1, Order: o.Order, Pick: PickFastest})
			}},
		{Name: "flexible", Summary: "Flexible backfilling (klusacek-2008): EASY over the machines, the queue sorted by aging + deadline + wait-minimisation priority; the reserved job stays first",
			OrderNote: "its queue is ordered by its priority", Params: FlexParamList(), Multi: true,
			build: func(o Options) (policy.QueueScheduler, error) {
				return NewBackfillMulti(MultiConfig{Name: "flexible", Platform: o.Platform, Depth: 1, Order: OrderPriority, Pick: PickFastest, Flex: o.Flex})
			}},
	}
}

// MultiPolicies lists the queue policies over the machines of a platform
// (Options.Platform), in documentation order: fcfs, easy, flexible. They
// are not in Policies (the one-machine cluster's list); the registry
// publishes them under their own model. The slices are fresh copies.
func MultiPolicies() []Desc { return multiDescs() }

// NewMulti builds the MultiPolicies policy called name.
func NewMulti(name string, opt Options) (policy.QueueScheduler, error) {
	return build(multiDescs(), name, opt)
}
