package grid

import (
	"math/rand/v2"

	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// Declarations are this package's policies for the registry: the grid
// model's grid schedulers (random, realtime, deferred, hybrid) and local
// schedulers (random, sq, 2rsq). A grid scheduler takes Env.Rand as its
// stream and Env.PreferIdle from the local scheduler's trait.
func Declarations() []policy.Decl {
	const period = "allocation_interval" // the option that sets Period
	ai := option.Decl{Name: period, Key: "policy." + period, Type: option.Float, Range: option.Above(0),
		Doc: "the allocation interval A_I: held jobs leave at its multiples", KeyName: "ai", KeyAlways: true}
	rf := option.Decl{Name: "random_fraction", Key: "policy.random_fraction", Type: option.Fraction, Range: option.Between(0, 1),
		Doc: "A_I%: jobs arriving in this first part of an interval go to a random site at once", KeyName: "rf", KeyAlways: true}
	norm := option.Decl{Name: "normalize_load", Key: "policy.normalize_load", Type: option.Bool, Default: "false",
		Doc: "compare load per processor (sites of different sizes)", KeyName: "norm", KeyAlways: true}
	gs := func(name, summary string, opts []option.Decl, b func(Options, *rand.Rand) (policy.GridScheduler, error)) policy.Decl {
		var t policy.Traits
		for _, o := range opts {
			if o.Name == period {
				t.PeriodOption = period
			}
		}
		return policy.Decl{Model: policy.ModelGrid, Kind: policy.KindGrid, Name: name, Summary: summary, Options: opts, Traits: t,
			New: func(env policy.Env, v option.Values) (policy.Built, error) {
				o := Options{PreferIdle: env.PreferIdle}
				if v.Has(period) {
					o.AllocationInterval = v.Float(period)
				}
				if v.Has("random_fraction") {
					o.RandomFraction = v.Float("random_fraction")
				}
				if v.Has("normalize_load") {
					o.NormalizeLoad = v.Bool("normalize_load")
				}
				g, err := b(o, env.Rand)
				return policy.Built{Grid: g}, err
			}}
	}
	ls := func(name, summary string, t policy.Traits, b func(*rand.Rand) policy.LocalScheduler) policy.Decl {
		return policy.Decl{Model: policy.ModelGrid, Kind: policy.KindLocal, Name: name, Summary: summary, Traits: t,
			New: func(env policy.Env, _ option.Values) (policy.Built, error) {
				return policy.Built{Local: b(env.Rand)}, nil
			}}
	}
	return []policy.Decl{
		gs("random", "each job at once to a uniformly random site", nil,
			func(o Options, r *rand.Rand) (policy.GridScheduler, error) { return NewRandom(o, r), nil }),
		gs("realtime", "each job at once to the least loaded site", []option.Decl{norm},
			func(o Options, r *rand.Rand) (policy.GridScheduler, error) { return NewRealTime(o, r), nil }),
		gs("deferred", "jobs wait for the end of the allocation interval, then go to the least loaded sites", []option.Decl{ai, norm},
			func(o Options, r *rand.Rand) (policy.GridScheduler, error) { return NewDeferred(o, r) }),
		gs("hybrid", "random during the first random_fraction of each interval, deferred after", []option.Decl{ai, rf, norm},
			func(o Options, r *rand.Rand) (policy.GridScheduler, error) { return NewHybrid(o, r) }),

		ls("random", "a uniformly random processor", policy.Traits{},
			func(r *rand.Rand) policy.LocalScheduler { return NewRandomLocal(r) }),
		ls("sq", "the processor with the fewest jobs (idle first)", policy.Traits{PreferIdle: true},
			func(r *rand.Rand) policy.LocalScheduler { return NewShortestQueue(r) }),
		ls("2rsq", "the shorter of two random processors", policy.Traits{},
			func(r *rand.Rand) policy.LocalScheduler { return NewTwoRandom(r) }),
	}
}
