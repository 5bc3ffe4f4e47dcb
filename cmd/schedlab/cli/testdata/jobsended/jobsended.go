// Package jobsended is a throwaway metric for TestAddMetric: the jobs
// that ended (completed or killed) after the warm-up. The test copies
// this folder to metrics/jobsended in a copy of the module and registers
// it with one line in registry/table.go, as docs/extending.md says.
package jobsended

import (
	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/policy"
)

// Declarations declares the metric: off by default, so that it is
// measured only when a scenario's metrics list or run --metric names it.
func Declarations() []metrics.Decl {
	return []metrics.Decl{{
		Name: "jobs_ended", Unit: "jobs", Better: metrics.Higher,
		Doc:    "jobs that ended (completed or killed) after the warm-up",
		Models: []string{policy.ModelCluster},
		New:    func(env metrics.Env) metrics.Measure { return &counter{skip: env.Skip} },
	}}
}

type counter struct {
	skip, seen int64
}

func (c *counter) JobSubmitted(float64, *actual.Job)         {}
func (c *counter) JobDispatched(float64, *actual.Job, []int) {}
func (c *counter) JobStarted(float64, engine.Start)          {}
func (c *counter) JobFinished(float64, *engine.Record)       { c.seen++ }
func (c *counter) JobKilled(float64, *engine.Record)         { c.seen++ }

// Value is the number of jobs that ended after the first skip.
func (c *counter) Value() float64 { return float64(max(0, c.seen-c.skip)) }
