package carbon

import (
	"io"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/signal"
	"github.com/schedlab/schedlab/policy"
)

// NodeDelay is the Delay over a policy of a platform of nodes
// (policy.NodeScheduler, docs/nodes.md): the same core (which jobs are
// held, until when, the counts) around a node scheduler.
type NodeDelay struct {
	inner policy.NodeScheduler
	gate
}

// NewNodes wraps the node scheduler inner, as New wraps a queue policy.
// p must pass Check and sig be set; NewNodes panics otherwise.
func NewNodes(inner policy.NodeScheduler, sig *signal.Signal, p Params) *NodeDelay {
	return &NodeDelay{inner: inner, gate: newGate(policy.CapsOf(inner), sig, p)}
}

// Inner is the wrapped policy.
func (d *NodeDelay) Inner() policy.NodeScheduler { return d.inner }

// Name is the inner policy's name.
func (d *NodeDelay) Name() string { return d.inner.Name() }

// Submit passes j on, or holds it until its release time (Delay.Submit).
func (d *NodeDelay) Submit(now float64, j job.Info) {
	if !d.hold(now, j) {
		d.inner.Submit(now, j)
	}
}

// Finish tells the inner policy.
func (d *NodeDelay) Finish(now float64, id job.ID) { d.inner.Finish(now, id) }

// Schedule releases the held jobs whose time has come, runs the inner
// policy's pass and asks for a pass at the next release (Delay.Schedule).
func (d *NodeDelay) Schedule(now float64, v policy.NodeView, plan *policy.Plan) {
	d.releaseDue(now, d.inner.Submit)
	d.inner.Schedule(now, v, plan)
	d.wake(now, plan)
}

var (
	_ policy.NodeScheduler = (*NodeDelay)(nil)
	_ policy.Layer         = (*NodeDelay)(nil)
	_ io.Closer            = (*NodeDelay)(nil)
)
