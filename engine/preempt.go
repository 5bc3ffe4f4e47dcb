package engine

import (
	"fmt"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// MaxPreemptPasses bounds the passes with preemptions in a row at one
// instant (NodeCluster.decide): a pass that preempts is followed by
// another at the same instant, and a policy whose every pass preempts
// would never let the clock move.
const MaxPreemptPasses = 10_000

// preempt applies preemption d (policy.Plan.Preempts): the job must be
// running, started at an earlier pass. What it holds is released and
// its completion event made void; the PreemptListeners are told of the
// run cut short. Requeued, it waits again: the policy is told Finish,
// then Submit with the job unchanged, and its next start begins a new
// run (Record.Attempts counts them; MaxRequeues bounds them).
// Cancelled, it ends now with final state job.Preempted.
func (c *NodeCluster) preempt(d policy.Preempt) error {
	i, ok := c.present.Get(d.ID)
	if !ok || c.slots.at(i).machine < 0 {
		return fmt.Errorf("policy %s at t=%g: preempt job %d: the job is not running", c.cfg.Policy.Name(), c.now, d.ID)
	}
	s := c.slots.at(i)
	if d.Requeue && s.attempts > MaxRequeues {
		return fmt.Errorf("policy %s at t=%g: preempt job %d: requeued %d times already (engine.MaxRequeues): its preemptions never let it end",
			c.cfg.Policy.Name(), c.now, d.ID, s.attempts-1)
	}
	c.releaseHold(i)
	c.jobEvent = true
	s.stale++ // its completion event is void
	c.background++
	c.stats.Preempted++
	rec := Record{Job: &s.job, Start: s.start, End: c.now, Reason: s.reason, State: job.Preempted, Machine: 0, CPUs: s.cpus, Attempts: int(s.attempts), Alloc: s.allocation()}
	for _, l := range c.pre {
		l.JobPreempted(c.now, &rec, d.Requeue)
	}
	if d.Requeue {
		c.stats.PreemptRequeued++
		c.requeue(s)
		return nil
	}
	s.preempted = true
	c.end(i, nil)
	c.present.Delete(s.job.ID)
	c.cfg.Policy.Finish(c.now, s.job.ID)
	s.dead = true // released when its void completion event comes
	return nil
}

// requeue puts a job whose run was cut short (a preemption with
// requeue, a node lost under a requeue rule) back in the queue: it holds
// nothing, waits again as a new attempt, and the policy sees its run
// end and the job submitted anew.
func (c *NodeCluster) requeue(s *slot) {
	s.machine, s.cpus, s.killed = -1, s.cpus[:0], false
	s.attempts++
	c.waiting++
	c.started--
	c.stats.MaxQueued = max(c.stats.MaxQueued, c.waiting)
	c.countWaiting(&s.job, 1)
	c.cfg.Policy.Finish(c.now, s.job.ID)
	c.cfg.Policy.Submit(c.now, s.job.Info())
}
