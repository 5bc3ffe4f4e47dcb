package registry

import (
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/matrix"
)

// threadPolicies are the cluster's queue policies that schedule threads
// (Traits.Threads): hafshejani-2012's matrix scanning. Its window rule is
// a text option of its own (lazy, eager, fixed:N), given to
// NewThreadQueue; NewQueue builds the default (lazy).
func threadPolicies() []Policy {
	build := func(window string) (policy.QueueScheduler, error) {
		o, err := matrix.ParseWindow(window)
		if err != nil {
			return nil, err
		}
		return matrix.New(o)
	}
	return []Policy{{
		Model: ModelCluster, Kind: KindQueue, Name: "matrix",
		Summary: "thread-level matrix scanning (hafshejani-2012): jobs split into one-CPU threads, windows by the growing n x n rule, threads started row by row (--window lazy|eager|fixed:N)",
		Traits:  Traits{Threads: true},
		options: []Option{{Name: "order", Key: "policy.order", Type: TypeEnum, Values: []string{"fcfs"}, Default: "fcfs",
			Doc: "queue order: fcfs (submit time) or sjf (shortest estimate first)", Note: "matrix scanning forms its windows in submit order"},
			{Name: "window", Key: "policy.window", Type: TypeEnum, Values: []string{"lazy", "eager", "fixed"}, Default: "lazy",
				Doc: "when windows form: when the thread queue is empty and a CPU is free (lazy), as soon as jobs wait (eager), or windows of window_jobs jobs (fixed)"},
			{Name: "window_jobs", Key: "policy.window_jobs", Type: TypeInt, Range: Between(1, matrix.MaxFixed), Default: "1",
				Doc: "window fixed: the jobs per window (run: --window fixed:N)"}},
		queue:   func(backfill.Options) (policy.QueueScheduler, error) { return build("") },
		threads: build,
	}}
}
