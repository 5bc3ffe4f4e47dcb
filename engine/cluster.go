package engine

import (
	"errors"
	"fmt"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/policy"
)

// Source yields jobs in non-decreasing submit order; Next returns io.EOF
// after the last one. Other errors stop the simulation.
type Source interface {
	Next() (actual.Job, error)
}

// ClusterConfig describes a simulation of one space-shared cluster with a
// central queue.
type ClusterConfig struct {
	Procs    int          // identical processors
	Policy   policy.Queue // decides which waiting jobs start
	Source   Source       // the workload
	Listener Listener     // may be nil
	// Continue lets a job run past its requested time; by default (false)
	// it is killed at the limit, as resource managers do.
	Continue bool
}

// Stats are the engine's own counts for a finished run.
type Stats struct {
	Jobs      int64   // jobs submitted (= finished, on success)
	Killed    int64   // jobs killed at their limit
	Passes    int64   // scheduling passes (instants)
	Events    int64   // events applied
	End       float64 // time of the last event
	MaxQueued int     // largest number of waiting jobs
}

// Cluster is one simulation run; build it with NewCluster and call Run once.
type Cluster struct {
	kernel
	cfg     ClusterConfig
	waiting map[job.ID]int32
	running map[job.ID]struct{}
	free    int
	plan    policy.Plan
	ran     bool
}

// NewCluster checks cfg and returns a simulation ready to Run.
func NewCluster(cfg ClusterConfig) (*Cluster, error) {
	if cfg.Procs <= 0 {
		return nil, fmt.Errorf("engine: machine size must be positive, got %d", cfg.Procs)
	}
	if cfg.Policy == nil || cfg.Source == nil {
		return nil, errors.New("engine: a policy and a source are required")
	}
	lis := cfg.Listener
	if lis == nil {
		lis = NopListener{}
	}
	c := &Cluster{cfg: cfg, waiting: make(map[job.ID]int32), running: make(map[job.ID]struct{}), free: cfg.Procs}
	c.lis, c.src, c.check = lis, cfg.Source, c.checkJob
	return c, nil
}

// Stats returns the engine's counts (complete after Run).
func (c *Cluster) Stats() Stats { return c.stats }

// Run simulates the whole workload. It returns an error if the source
// fails, a job is impossible, or the policy makes an invalid decision.
func (c *Cluster) Run() error {
	if c.ran {
		return errors.New("engine: Run called twice")
	}
	c.ran = true
	if err := c.loadNext(); err != nil {
		return err
	}
	for c.events.Len() > 0 {
		t := c.events.Peek().Time
		c.now = t
		for c.events.Len() > 0 && c.events.Peek().Time == t {
			ev := c.events.Pop()
			c.stats.Events++
			switch ev.Class {
			case ClassCompletion:
				c.complete(ev.Ref)
			case ClassArrival:
				if err := c.arrive(ev.Ref); err != nil {
					return err
				}
			}
		}
		c.stats.Passes++
		c.plan.Reset()
		c.cfg.Policy.Schedule(t, c.free, &c.plan)
		for _, s := range c.plan.Starts {
			if err := c.start(s); err != nil {
				return err
			}
		}
	}
	c.stats.End = c.now
	if n := len(c.waiting); n > 0 {
		return fmt.Errorf("policy %s: %d job(s) never started although all %d processors are free at t=%g",
			c.cfg.Policy.Name(), n, c.cfg.Procs, c.now)
	}
	return nil
}

func (c *Cluster) checkJob(j *actual.Job) error {
	switch {
	case j.Procs < 1:
		return fmt.Errorf("job %d: needs %d processors (must be >= 1)", j.ID, j.Procs)
	case j.Procs > c.cfg.Procs:
		return fmt.Errorf("job %d: needs %d processors, the machine has %d", j.ID, j.Procs, c.cfg.Procs)
	case !(j.Runtime >= 0):
		return fmt.Errorf("job %d: invalid runtime %g", j.ID, j.Runtime)
	case !(j.Estimate >= 0):
		return fmt.Errorf("job %d: invalid estimate %g", j.ID, j.Estimate)
	case j.Submit < c.lastSub:
		return fmt.Errorf("job %d: submit time %g is before the previous job's %g (workload not sorted)", j.ID, j.Submit, c.lastSub)
	case j.Submit < c.now:
		return fmt.Errorf("job %d: submit time %g is in the past (now %g)", j.ID, j.Submit, c.now)
	}
	_, waiting := c.waiting[j.ID]
	_, running := c.running[j.ID]
	if waiting || running {
		return fmt.Errorf("job %d: duplicate job id (a job with this id is still in the system)", j.ID)
	}
	return nil
}

func (c *Cluster) arrive(i int32) error {
	s := &c.slots[i]
	c.waiting[s.job.ID] = i
	c.stats.Jobs++
	if q := len(c.waiting); q > c.stats.MaxQueued {
		c.stats.MaxQueued = q
	}
	c.lis.JobSubmitted(c.now, &s.job)
	c.cfg.Policy.Submit(c.now, s.job.Info())
	return c.loadNext()
}

func (c *Cluster) start(d policy.Start) error {
	i, ok := c.waiting[d.ID]
	if !ok {
		return fmt.Errorf("policy %s at t=%g: start job %d: the job is not waiting", c.cfg.Policy.Name(), c.now, d.ID)
	}
	s := &c.slots[i]
	if s.job.Procs > c.free {
		return fmt.Errorf("policy %s at t=%g: start job %d: needs %d processors, %d free",
			c.cfg.Policy.Name(), c.now, d.ID, s.job.Procs, c.free)
	}
	delete(c.waiting, d.ID)
	c.running[d.ID] = struct{}{}
	c.free -= s.job.Procs
	s.start, s.reason = c.now, d.Reason
	dur := s.job.Runtime
	if !c.cfg.Continue && s.job.Request > 0 && dur > s.job.Request {
		dur, s.killed = s.job.Request, true
	}
	c.lis.JobStarted(c.now, &s.job, d.Reason)
	c.events.Push(c.now+dur, ClassCompletion, i)
	return nil
}

func (c *Cluster) complete(i int32) {
	s := &c.slots[i]
	c.free += s.job.Procs
	c.ended(i)
	delete(c.running, s.job.ID)
	c.cfg.Policy.Finish(c.now, s.job.ID)
	c.release(i)
}
