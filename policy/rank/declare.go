package rank

import (
	"fmt"

	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// Declarations are this package's policies for the registry: Job Ranking
// Backfilling (jrb) on the cluster model, with its rank function, rank
// coefficients, head rule, selection rule, log rule, memory unit and
// positive_only.
func Declarations() []policy.Decl {
	opts := []option.Decl{
		{Name: "rank", Key: "policy.rank", Type: option.Enum, Values: FormNames(), Default: FormNames()[0],
			Doc:  "the rank function: the paper's original (3000*CPU + 75*MemMB + 10*Speed), or its fitted linear (257.099 + 6.565*CPU - 0.011*MemMB) or log10 model (10.130 + 568.756*log10 CPU + 91.513*log10 MemMB)",
			Flag: "rank"},
		{Name: "coefficients", Key: "policy.coefficients", Type: option.Text,
			Doc:  "replace the constant, CPU and memory coefficients of the rank: C,CPU,MEM (e.g. from 'schedlab fit'; empty: the rank's own)",
			Flag: "rank-coefficients", Valid: func(s string) error {
				k, cpu, mem, err := ParseCoefficients(s)
				if err == nil {
					_, err = Named(FormOriginal).WithCoefficients(k, cpu, mem)
				}
				return err
			}},
		{Name: "head", Key: "policy.head", Type: option.Enum, Values: HeadNames(), Default: HeadNames()[0],
			Doc:  "what the oldest waiting job gets: nothing (none), first start when it fits (fcfs), an EASY reservation (easy)",
			Flag: "head"},
		{Name: "select", Key: "policy.select", Type: option.Enum, Values: SelectNames(), Default: SelectNames()[0],
			Doc:  "which waiting job starts next: the smallest rank among the jobs that fit now (fit-now: greedy fill-in, our first reading) or the smallest rank, which holds the queue until it fits (strict: \"select the job with the smallest positive rank value and assign it to start execution\")",
			Flag: "select"},
		{Name: "log_below_one", Key: "policy.log_below_one", Type: option.Enum, Values: []string{"zero", "log"}, Default: "zero",
			Doc:  "the log rank's log10 of a value below 1 (memory below 1 MB per CPU): counted as 0 (zero, our first reading) or its log10, negative, as Eq. 6 writes it (log)",
			Flag: "log-below-one"},
		{Name: "memory_unit", Key: "policy.memory_unit", Type: option.Enum, Values: []string{"mb", "kb"}, Default: "mb",
			Doc: "the unit the rank reads memory per CPU in: MB (mb, as the paper's fitted data imply) or KB (kb, a reading of its unitless Memory_size)"},
		{Name: "positive_only", Key: "policy.positive_only", Type: option.Bool, Default: "false",
			Doc: "refuse jobs whose rank is <= 0 (the literal 'smallest positive rank')", KeyName: "positive",
			Flag: "positive-only"},
	}
	return []policy.Decl{{Model: policy.ModelCluster, Kind: policy.KindQueue, Name: "jrb",
		Summary: "Job Ranking Backfilling (al-najjar-2019): start the smallest rank among the jobs that fit now, or strictly in rank order (run: --rank original|linear|log, --rank-coefficients, --head, --select, --log-below-one, --positive-only)",
		Options: opts, New: newFromValues,
		// The queue is ordered by rank; the rank function and head rule
		// are reported beside it (JRB.RankHead: summary.json's rank, head).
		QueueOrder: policy.FixedOrder("rank")}}
}

// OptionsFrom reads checked option values into Options (the platform is
// left to the caller).
func OptionsFrom(v option.Values) (Options, error) {
	form, err := ParseForm(v.Text("rank"))
	if err != nil {
		return Options{}, err
	}
	o := Options{Rank: Named(form)}
	if c := v.Text("coefficients"); c != "" {
		k, cpu, mem, err := ParseCoefficients(c)
		if err != nil {
			return Options{}, fmt.Errorf("coefficients: %w", err)
		}
		if o.Rank, err = o.Rank.WithCoefficients(k, cpu, mem); err != nil {
			return Options{}, fmt.Errorf("coefficients: %w", err)
		}
	}
	if o.Head, err = ParseHead(v.Text("head")); err != nil {
		return Options{}, err
	}
	o.PositiveOnly = v.Bool("positive_only")
	if o.Select, err = ParseSelect(v.Text("select")); err != nil {
		return Options{}, err
	}
	o.Rank.LogBelowOne = v.Text("log_below_one") == "log"
	if v.Text("memory_unit") == "kb" {
		o.Rank.MemUnitKB = 1
	}
	return o, nil
}

func newFromValues(env policy.Env, v option.Values) (policy.Built, error) {
	o, err := OptionsFrom(v)
	if err != nil {
		return policy.Built{}, err
	}
	o.Platform = env.Platform
	q, err := New(o)
	if err != nil {
		return policy.Built{}, err
	}
	return policy.Built{Queue: q}, nil
}
