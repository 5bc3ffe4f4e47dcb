package predict

import (
	"io"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// NodePredictor is the Predictor over a policy of a platform of nodes
// (policy.NodeScheduler, docs/nodes.md): the same core (predictions
// from the users' histories, the same corrections, the inner policy
// told through policy.Reestimator, a pass asked for at the next
// predicted end), around a node scheduler. A job on nodes runs at the
// reference speed (the kernel sees the nodes' cores as one machine of
// speed 1), so its runtime is its end minus its start.
type NodePredictor struct {
	inner policy.NodeScheduler
	core
}

// NewNodes wraps the node scheduler inner: jobs reach it with their
// predicted runtime as Estimate. p must pass Check, as for New.
func NewNodes(inner policy.NodeScheduler, p Params) *NodePredictor {
	return &NodePredictor{inner: inner, core: newCore(policy.CapsOf(inner), p, NewHistories())}
}

// Inner is the wrapped policy.
func (p *NodePredictor) Inner() policy.NodeScheduler { return p.inner }

// Name is the inner policy's name.
func (p *NodePredictor) Name() string { return p.inner.Name() }

// Submit passes j on with Estimate = its prediction (Predictor.Submit).
func (p *NodePredictor) Submit(now float64, j job.Info) { p.inner.Submit(now, p.submit(j)) }

// Finish learns the job's runtime, then tells the inner policy.
func (p *NodePredictor) Finish(now float64, id job.ID) {
	p.finish(now, id)
	p.inner.Finish(now, id)
}

// Schedule corrects the running jobs whose prediction expired, runs the
// inner policy's pass, records its starts and asks for a pass at the
// next predicted end (Predictor.Schedule).
func (p *NodePredictor) Schedule(now float64, v policy.NodeView, plan *policy.Plan) {
	p.correct(now)
	n0 := len(plan.Starts)
	p.inner.Schedule(now, v, plan)
	for _, s := range plan.Starts[n0:] {
		p.started(now, s.ID, platform.Machine{}) // the reference machine
	}
	p.wake(now, plan)
}

var (
	_ policy.NodeScheduler = (*NodePredictor)(nil)
	_ policy.Layer         = (*NodePredictor)(nil)
	_ io.Closer            = (*NodePredictor)(nil)
)
