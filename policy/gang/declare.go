package gang

import (
	"strconv"

	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// Declarations are this package's policies for the registry: the gang
// model's approaches 1 and 2, with the backfilling threshold, the
// reading of the paper's "empty queue" and when the GS queue is
// examined. Approach 2 also declares the
// extra service of split gangs, a workload setting (workload.split_overhead)
// that only it reads; the model applies it.
func Declarations() []policy.Decl {
	threshold := option.Decl{Name: "threshold", Key: "policy.threshold", Type: option.Float, Range: option.AtLeast(0), Default: "0",
		Doc: "backfilling threshold T: a local job may pass a blocked gang if its estimate is at most the gang's estimated wait + T", KeyName: "t", KeyAlways: true}
	empty := option.Decl{Name: "empty_queue", Key: "policy.empty_queue", Type: option.Enum, Values: []string{"waiting", "idle", "idle-in-gs-queue"}, Default: "waiting",
		Doc: `the paper's "empty queue": nothing waiting (waiting) or nothing waiting or running (idle), or idle in the GS queue's step 1 only while arrivals count queues with nothing waiting (idle-in-gs-queue: the reading that gives Fig. 3)`, KeyName: "empty"}
	split := option.Decl{Name: "split_overhead", Key: "workload.split_overhead", Type: option.Fraction, Range: option.AtLeast(0), Default: "0.1",
		Doc: "extra service of the tasks of a split gang (0.1 = +10%)", KeyName: "split", KeyAlways: true}
	// examine is when the gang model asks the policy to examine the GS
	// queue. It was a setting of the gang model before it was the
	// approaches' option: its scenario key (policy.examine), its place
	// after the other options in listings and result keys, and its
	// default are unchanged.
	examine := option.Decl{Name: "examine", Key: "policy.examine", Type: option.Enum, Values: []string{"emptied", "every"}, Default: "emptied",
		Doc: "the GS queue is examined after a departure that empties a queue (emptied) or after every departure (every)"}
	approach := func(n int, summary string, t policy.Traits, opts []option.Decl) policy.Decl {
		return policy.Decl{Model: policy.ModelGang, Kind: policy.KindApproach, Name: strconv.Itoa(n), Summary: summary, Traits: t, Options: opts,
			New: func(env policy.Env, v option.Values) (policy.Built, error) {
				g, err := New(Options{Approach: n, Threshold: v.Float("threshold"), EmptyIdle: v.Text("empty_queue") == "idle",
					StepOneIdle: v.Text("empty_queue") == "idle-in-gs-queue", ExamineEvery: v.Text("examine") == "every"}, env.Rand)
				return policy.Built{Gang: g}, err
			}}
	}
	return []policy.Decl{
		approach(1, "a gang goes to one site: idle processors, else empty queues, else the GS queue (largest first)",
			policy.Traits{}, []option.Decl{threshold, empty, examine}),
		approach(2, "as 1, and a gang may be split over both sites when enough processors are idle (+overhead)",
			policy.Traits{SplitsGangs: true}, []option.Decl{threshold, empty, split, examine}),
	}
}
