package plan

import (
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/rng"
)

// MaxIterations bounds the iteration budget of one Tabu search (each
// iteration may re-plan machines: a larger budget is a run that never
// ends).
const MaxIterations = 1_000_000

// StreamPurpose names the random stream the policies derive from the
// replication (rng.New(Env.Seed, Env.Rep, StreamPurpose)).
const StreamPurpose = "hetero-policy"

// Declarations are this package's policies for the registry: EG-EDF and
// EG-EDF + Tabu search on the hetero model, with the gap and tie rules
// and Tabu search's budget, tabu list, machine order and trigger.
func Declarations() []policy.Decl {
	gaps := option.Decl{Name: "gaps", Key: "policy.gaps", Type: option.Enum, Values: GapRules(), Default: GapRules()[0],
		Doc:  "what counts as a gap: finite idle time inside a plan (finite, the rule as written) or also the idle time after it (tail: an idle machine has one)",
		Flag: "gaps"}
	ties := option.Decl{Name: "ties", Key: "policy.ties", Type: option.Enum, Values: TieRules(), Default: TieRules()[0],
		Doc:  "EG-EDF's weight ties go to the lowest machine index (index, the rule as written) or to the machine where the job ends first (end)",
		Flag: "ties"}
	suitable := option.Decl{Name: "suitable", Key: "policy.suitable", Type: option.Enum, Values: SuitRules(), Default: SuitRules()[0],
		Doc:  "which gaps suit a job: any earliest gap (any, as first implemented) or, for a job with a deadline, only one where it meets it (deadline); the klusacek2008 reproduction reads the paper's \"suitable\" as any (docs/papers/klusacek2008.md); EDF insertion when no machine offers a suitable gap",
		Flag: "suitable"}
	tabu := []option.Decl{
		{Name: "pick", Key: "policy.pick", Type: option.Enum, Values: PickRules(), Default: PickRules()[0],
			Doc:  "which job an iteration moves: the source machine's last non-tabu job (last, as first implemented) or its last non-tabu late job (last-late: the paper's stop rule speaks of delayed jobs)",
			Flag: "tabu-pick"},
		{Name: "iterations", Key: "policy.iterations", Type: option.Int, Range: option.Between(0, MaxIterations), Default: "0",
			Doc: "iteration budget of one search (0 = 2 x the jobs planned when it starts)", KeyName: "iter",
			Flag: "tabu-iterations"},
		{Name: "tabu_length", Key: "policy.tabu_length", Type: option.Int, Range: option.AtLeast(0), Default: "0",
			Doc: "capacity of the tabu list (0 = min(10, planned jobs / 2))", KeyName: "tl"},
		{Name: "machine_order", Key: "policy.machine_order", Type: option.Enum, Values: Orders(), Default: Orders()[0],
			Doc: "order in which the other machines are tried for a moved job: index or a fresh random permutation", KeyName: "morder"},
		{Name: "trigger", Key: "policy.trigger", Type: option.Enum, Values: Triggers(), Default: Triggers()[0],
			Doc: "when the search runs: after each arrival, after every n-th arrival (every), or each interval seconds (interval)"},
		{Name: "every", Key: "policy.every", Type: option.Int, Range: option.AtLeast(1), Default: "1",
			Doc: "trigger every-n: the search runs after every n-th arrival", On: "trigger", When: []string{"every-n"}},
		{Name: "interval", Key: "policy.interval", Type: option.Float, Range: option.Above(0), Default: "300",
			Doc: "trigger interval: the search runs at the first pass at or after each multiple of this many seconds", On: "trigger", When: []string{"interval"}},
	}
	// Jobs are planned in arrival order (each placed when it arrives);
	// the plans, not a queue order, decide the starts.
	order := policy.FixedOrder("fcfs")
	return []policy.Decl{
		{Model: policy.ModelHetero, Kind: policy.KindQueue, Name: "eg-edf", Summary: "schedule-based: earliest gap, else earliest deadline first",
			Options: []option.Decl{gaps, ties, suitable}, New: newFromValues, QueueOrder: order},
		{Model: policy.ModelHetero, Kind: policy.KindQueue, Name: "tabu", Summary: "schedule-based: EG-EDF improved by tabu search",
			Options: append([]option.Decl{gaps, ties, suitable}, tabu...), New: newFromValues, QueueOrder: order},
	}
}

// OptionsFrom reads checked option values into Options; Tabu is set when
// the values hold Tabu search's options. Every and Interval are read only
// under the trigger that uses them.
func OptionsFrom(v option.Values) (Options, error) {
	var o Options
	var err error
	if o.Gaps, err = ParseGaps(v.Text("gaps")); err != nil {
		return o, err
	}
	if o.Ties, err = ParseTies(v.Text("ties")); err != nil {
		return o, err
	}
	if o.Suitable, err = ParseSuitable(v.Text("suitable")); err != nil {
		return o, err
	}
	if !v.Has("iterations") {
		return o, nil
	}
	o.Tabu = true
	if o.Pick, err = ParsePick(v.Text("pick")); err != nil {
		return o, err
	}
	o.Iterations, o.TabuLength = v.Int("iterations"), v.Int("tabu_length")
	if o.Order, err = ParseMachineOrder(v.Text("machine_order")); err != nil {
		return o, err
	}
	if o.Trigger, err = ParseTrigger(v.Text("trigger")); err != nil {
		return o, err
	}
	switch o.Trigger {
	case EveryN:
		o.Every = v.Int("every")
	case Interval:
		o.Interval = v.Float("interval")
	}
	return o, nil
}

func newFromValues(env policy.Env, v option.Values) (policy.Built, error) {
	o, err := OptionsFrom(v)
	if err != nil {
		return policy.Built{}, err
	}
	p, err := NewEGEDF(env.Platform, o, rng.New(env.Seed, env.Rep, StreamPurpose))
	return policy.Built{Queue: p}, err
}
