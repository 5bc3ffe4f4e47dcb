// Package p95wait declares p95_wait, the 95th percentile of the jobs'
// waits, a metric of the cluster model that is off by default: a
// scenario's metrics list or 'schedlab run --metric p95_wait' asks for
// it (docs/extending.md, "Adding a metric").
package p95wait

import (
	"math"
	"slices"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/policy"
)

// Declarations declares p95_wait.
func Declarations() []metrics.Decl {
	return []metrics.Decl{{
		Name: "p95_wait", Unit: "time", Better: metrics.Lower,
		Doc:    "95th percentile of the waits (start - submit) of the jobs after the warm-up, nearest rank",
		Models: []string{policy.ModelCluster},
		New:    func(env metrics.Env) metrics.Measure { return New(env.Skip) },
	}}
}

// Waits is the listener: it keeps the wait of every job that ends after
// the first skip ended ones (completed or killed, as the summary counts
// them).
type Waits struct {
	skip  int64
	waits []float64
}

// New returns the listener leaving out the first skip ended jobs.
func New(skip int64) *Waits { return &Waits{skip: skip} }

func (w *Waits) JobSubmitted(float64, *actual.Job)         {}
func (w *Waits) JobDispatched(float64, *actual.Job, []int) {}
func (w *Waits) JobStarted(float64, engine.Start)          {}
func (w *Waits) JobFinished(_ float64, r *engine.Record)   { w.end(r) }
func (w *Waits) JobKilled(_ float64, r *engine.Record)     { w.end(r) }

func (w *Waits) end(r *engine.Record) {
	if w.skip > 0 {
		w.skip--
		return
	}
	w.waits = append(w.waits, r.Wait())
}

// Value is the 95th percentile of the waits by nearest rank: the
// smallest wait that at least 95% of the jobs do not exceed (the wait
// of rank ceil(0.95 n) in ascending order); 0 without jobs.
func (w *Waits) Value() float64 {
	if len(w.waits) == 0 {
		return 0
	}
	s := slices.Clone(w.waits)
	slices.Sort(s)
	k := int(math.Ceil(0.95*float64(len(s)))) - 1
	return s[max(k, 0)]
}
