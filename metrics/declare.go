package metrics

import (
	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/signal"
)

// The directions a metric is better in (Decl.Better).
const (
	Lower  = "lower"  // lower is better: times, slowdowns, queues, missed deadlines
	Higher = "higher" // higher is better: utilization, usage, finished gangs
	// "" : no better direction (the offered load, a decision cost)
)

// Scope says how many values a metric gives a replication.
type Scope int

const (
	// PerRun: one value, reported under the metric's name.
	PerRun Scope = iota
	// PerSite: one value per site i of a multi-site model, reported as
	// "site<i>_<name>" after the per-run metrics.
	PerSite
	// PerUser: one value per user id u that a scenario's metrics list
	// names, reported as "user<u>_<name>" (never on by default).
	PerUser
)

// Decl declares one metric: its name, unit, doc, which way it is
// better, the models it serves, whether it is on by default and, for a
// metric that is its own listener, how to build it. The registry lists
// the declarations (registry/table.go); the sweep's values, the text
// summary of 'schedlab run', summary.json, the HTML report's "better"
// direction, the metric list in docs and the validation of a scenario's
// metrics list are derived from them.
//
// A metric that is not on by default is measured only when a scenario's
// metrics list or 'schedlab run --metric' names it, so adding one
// changes no existing output.
type Decl struct {
	Name   string   // lower-case letters, digits and _; unique within each of its models
	Unit   string   // "time", "ratio", "fraction", "%", "jobs", "count", ...
	Doc    string   // one line
	Better string   // Lower, Higher or "" (no better direction)
	Models []string // the models that report it (registry model names)
	// Default: every replication of its models reports it; otherwise
	// only when it is asked for by name.
	Default bool
	Scope   Scope
	// New builds the listener that measures the metric in one run (its
	// Value read when the run ends). Nil for a metric the model's runner
	// reports from its own result (package experiment), as every metric
	// of the four models does.
	New func(Env) Measure
	// Requires, when set, is the scenario setting the metric cannot be
	// measured without ("platform.power": the energy metrics;
	// "platform.carbon", "platform.price": carbon_kg, cost); asking for
	// the metric without it is refused when the scenario is read.
	Requires string
}

// Env is what a metric's listener is built from: the run it measures.
type Env struct {
	Model string // the model's name
	Procs int    // the CPUs of the platform (all sites together)
	// Skip is the warm-up: the first Skip ended jobs are left out of
	// the metrics (0 for a trace run).
	Skip int64
	// Power is the run's power model, "IDLE_W:COMPUTE_W" ("" none:
	// docs/energy.md), for the metrics that require it.
	Power string
	// Carbon and Price are the run's carbon intensity (gCO2/kWh) and
	// price (currency per kWh) signals (nil none: docs/energy.md), for
	// the metrics that require them.
	Carbon, Price *signal.Signal
	// Nodes is the run's platform of nodes (nil: a pool of CPUs), for the
	// metrics that require it (platform.nodes: docs/nodes.md).
	Nodes *nodes.Nodes
}

// Measure is a metric's listener: it sees the run's events (a
// TimeListener also sees time advance) and gives the metric's value at
// the end.
type Measure interface {
	engine.Listener
	Value() float64
}

// Serves reports whether d is a metric of model.
func (d Decl) Serves(model string) bool {
	for _, m := range d.Models {
		if m == model {
			return true
		}
	}
	return false
}
