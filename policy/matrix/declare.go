package matrix

import (
	"strconv"

	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// Declarations are this package's policies for the registry: matrix
// scanning on the cluster model. It schedules threads (Traits.Threads);
// its options are the window rule and, for windows of a fixed size, the
// jobs per window. 'schedlab run --window lazy|eager|fixed:N' sets both.
func Declarations() []policy.Decl {
	opts := []option.Decl{
		{Name: "order", Key: "policy.order", Type: option.Enum, Values: []string{"fcfs"}, Default: "fcfs",
			Doc: "queue order: fcfs (submit time) or sjf (shortest estimate first)", Note: "matrix scanning forms its windows in submit order",
			KeyAlways: true, Flag: "order"},
		{Name: "window", Key: "policy.window", Type: option.Enum, Values: []string{"lazy", "eager", "fixed"}, Default: "lazy",
			Doc:      "when windows form: when the thread queue is empty and a CPU is free (lazy), as soon as jobs wait (eager), or windows of window_jobs jobs (fixed); run --window fixed:N sets fixed and window_jobs N",
			Flag:     "window",
			FromFlag: windowFlag},
		{Name: "window_jobs", Key: "policy.window_jobs", Type: option.Int, Range: option.Between(1, MaxFixed), Default: "1",
			Doc: "window fixed: the jobs per window (run: --window fixed:N)", KeyName: "wjobs", On: "window", When: []string{"fixed"}},
	}
	return []policy.Decl{{Model: policy.ModelCluster, Kind: policy.KindQueue, Name: "matrix",
		Summary: "thread-level matrix scanning (hafshejani-2012): jobs split into one-CPU threads, windows by the growing n x n rule, threads started row by row (--window lazy|eager|fixed:N)",
		Traits:  policy.Traits{Threads: true}, Options: opts, New: newFromValues,
		QueueOrder: func(v option.Values) string { return v.Text("order") }}}
}

// windowFlag reads --window's text (lazy, eager, fixed:N) into the
// window and window_jobs options.
func windowFlag(text string) (map[string]string, error) {
	o, err := ParseWindow(text)
	if err != nil {
		return nil, err
	}
	if o.Rule == Fixed {
		return map[string]string{"window": "fixed", "window_jobs": strconv.Itoa(o.N)}, nil
	}
	if o.Rule == Eager {
		return map[string]string{"window": "eager"}, nil
	}
	return map[string]string{"window": "lazy"}, nil
}

func newFromValues(env policy.Env, v option.Values) (policy.Built, error) {
	text := v.Text("window")
	if text == "fixed" {
		text += ":" + strconv.Itoa(v.Int("window_jobs"))
	}
	o, err := ParseWindow(text)
	if err != nil {
		return policy.Built{}, err
	}
	m, err := New(o)
	return policy.Built{Queue: m}, err
}
