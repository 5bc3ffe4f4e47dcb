package backfill

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedlab/schedlab/policy"
)

// Options configures a queue policy built by name.
type Options struct {
	Procs int   // machine size
	Depth int   // reservation depth for "backfill"; 0 means the policy's default
	Order Order // queue order
}

// Desc describes a registered policy.
type Desc struct {
	Name    string
	Summary string
	build   func(Options) (policy.QueueScheduler, error)
}

var registry = []Desc{
	{"fcfs", "strict first-come first-served: nothing passes a blocked head job",
		func(o Options) (policy.QueueScheduler, error) {
			if o.Order != OrderFCFS {
				return nil, fmt.Errorf("policy fcfs: --order %s is not allowed (strict FCFS is FCFS-ordered)", o.Order)
			}
			if o.Depth != 0 {
				return nil, fmt.Errorf("policy fcfs: --depth is only for backfilling policies")
			}
			return NewFCFS(), nil
		}},
	{"easy", "EASY backfilling (Lifka): one reservation for the head job, later jobs backfill around it",
		func(o Options) (policy.QueueScheduler, error) {
			if o.Depth != 0 && o.Depth != 1 {
				return nil, fmt.Errorf("policy easy: depth is 1 by definition; use --policy backfill --depth %d", o.Depth)
			}
			return NewBackfill("easy", o.Procs, 1, o.Order), nil
		}},
	{"conservative", "conservative backfilling (Mu'alem & Feitelson): every waiting job holds a reservation; compression on early ends",
		func(o Options) (policy.QueueScheduler, error) {
			if o.Depth != 0 {
				return nil, fmt.Errorf("policy conservative: depth is unlimited by definition; use --policy backfill --depth K")
			}
			return NewBackfill("conservative", o.Procs, Unlimited, o.Order), nil
		}},
	{"backfill", "backfilling with reservation depth K (--depth; 1 = EASY, 0 = unlimited = conservative)",
		func(o Options) (policy.QueueScheduler, error) {
			d := o.Depth
			if d < 0 {
				return nil, fmt.Errorf("policy backfill: --depth must be >= 0 (0 = unlimited), got %d", d)
			}
			if d == 0 {
				d = Unlimited
			}
			return NewBackfill(fmt.Sprintf("backfill-%s", depthName(d)), o.Procs, d, o.Order), nil
		}},
}

func depthName(d int) string {
	if d == Unlimited {
		return "unlimited"
	}
	return fmt.Sprint(d)
}

// Policies lists the registered queue policies, sorted by name.
func Policies() []Desc {
	out := append([]Desc(nil), registry...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// New builds the policy registered under name.
func New(name string, opt Options) (policy.QueueScheduler, error) {
	if opt.Procs <= 0 {
		return nil, fmt.Errorf("policy %s: machine size must be positive, got %d", name, opt.Procs)
	}
	for _, d := range registry {
		if d.Name == name {
			return d.build(opt)
		}
	}
	names := make([]string, len(registry))
	for i, d := range registry {
		names[i] = d.Name
	}
	return nil, fmt.Errorf("unknown policy %q (known: %s)", name, strings.Join(names, ", "))
}
