package engine

import (
	"errors"
	"fmt"

	"github.com/schedlab/schedlab/internal/idmap"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// ClusterConfig describes a simulation of a central queue over the
// machines of a platform (a single cluster is one machine).
type ClusterConfig struct {
	Platform platform.Platform
	Policy   policy.QueueScheduler // decides which waiting jobs start, where
	Source   Source                // the workload
	Listener Listener              // may be nil
	// Continue lets a job run past its requested time; by default (false)
	// it is killed at the limit, as resource managers do.
	Continue bool
	// MaxWaiting ends the run with a *WaitingError once more than this
	// many jobs have arrived and not started (0: no bound).
	MaxWaiting int64
	// Availability, when set, makes CPUs unavailable over announced
	// windows and at failures (avail.go, docs/availability.md); the
	// policy must implement policy.AvailabilityPlanner.
	Availability *Availability
	// Partitions, when set, split machine 0's CPUs into partitions with
	// a policy each (partition.go, docs/partitions.md); Policy must then
	// be nil. With Availability the partitions must share no CPU.
	Partitions []Partition
	// Switching, when set, gives the CPUs power states (power.go,
	// docs/energy.md): the policy may switch idle CPUs off and on
	// (policy.Plan.Power); it must implement policy.AvailabilityPlanner,
	// and the run may have neither windows, failures nor partitions.
	Switching *Switching
	// Cap, when set, is a power budget over time (cap.go,
	// docs/energy.md, "Power caps"): a start or a switch that would make
	// the machine draw more is refused, and so is a change of the cap
	// below what the machine draws. The policy must implement
	// policy.AvailabilityPlanner (the capping layer, policy/capping,
	// plans the cap as windows of CPUs); not with windows, failures or
	// partitions yet.
	Cap *PowerCap
}

// Cluster is one run of the central-queue model; build it with NewCluster
// and call Run once.
type Cluster struct {
	kernel
	noCompletionsDone
	cfg ClusterConfig
	// present maps the id of every job waiting or running to its slot (a
	// slot's machine is -1 while it waits); waiting counts the former.
	present idmap.Map[job.ID, int32]
	waiting int
	free    []int              // idle CPUs per machine
	machs   []platform.Machine // the platform's machines
	maxCPUs int                // the largest machine
	plan    policy.Plan
	view    machinesView
	wakes               // the policy's wake-ups (wake.go)
	av      *avail      // unavailable CPUs (nil: all always available)
	parts   *parts      // partitions (nil: none)
	pw      *powerState // power states (nil: every CPU always on)
	cp      *capState   // the power cap (nil: none)
	// caps is what the policy can do, computed once in NewCluster (last:
	// the hot fields above stay together).
	caps policy.Caps
}

// NewCluster checks cfg and returns a simulation ready to Run.
func NewCluster(cfg ClusterConfig) (*Cluster, error) {
	p := cfg.Platform
	if p.Machines() == 0 {
		return nil, errors.New("engine: a platform is required")
	}
	if (cfg.Policy == nil && cfg.Partitions == nil) || cfg.Source == nil {
		return nil, errors.New("engine: a policy and a source are required")
	}
	c := &Cluster{cfg: cfg, free: make([]int, p.Machines())}
	for m := range c.free {
		c.machs = append(c.machs, p.Machine(m))
		c.free[m] = p.Machine(m).CPUs
		c.maxCPUs = max(c.maxCPUs, c.free[m])
	}
	c.view = machinesView{c}
	c.init(p, cfg.Listener, cfg.Source)
	if cfg.Partitions != nil {
		if err := c.initParts(cfg.Partitions); err != nil {
			return nil, err
		}
	}
	c.caps = policy.CapsOf(c.cfg.Policy) // the partitions' router with partitions (parts.Caps)
	c.maxWaiting = cfg.MaxWaiting
	if cfg.Availability != nil {
		if err := c.initAvail(cfg.Availability); err != nil {
			return nil, err
		}
	}
	if cfg.Switching != nil {
		if err := c.initPower(cfg.Switching); err != nil {
			return nil, err
		}
	}
	if cfg.Cap != nil {
		if err := c.initCap(cfg.Cap); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Stats returns the kernel's counts (complete after Run).
func (c *Cluster) Stats() Stats { return c.stats }

// Caps is what the model's policy can do (policy.CapsOf, computed once
// in NewCluster): with partitions, the partitions' router's, which
// plans around unavailable CPUs when every partition's policy does.
func (c *Cluster) Caps() policy.Caps { return c.caps }

// Run simulates the whole workload. It returns an error if the source
// fails, a job is impossible, or the policy makes an invalid decision.
func (c *Cluster) Run() error {
	err := c.loop(c)
	if err == nil && c.av != nil {
		err = c.availDone()
	}
	return err
}

// machinesView is the policy's read-only view: it cannot be turned back
// into the model.
type machinesView struct{ c *Cluster }

func (v machinesView) Platform() platform.Platform { return v.c.plat }
func (v machinesView) Free(m int) int              { return v.c.free[m] }

func (c *Cluster) admit(j *actual.Job, _ int) error {
	switch {
	case j.Procs < 1:
		return fmt.Errorf("job %d: needs %d processors (must be >= 1)", j.ID, j.Procs)
	case j.Procs > c.maxCPUs && c.plat.Machines() == 1:
		return fmt.Errorf("job %d: needs %d processors, the machine has %d", j.ID, j.Procs, c.maxCPUs)
	case j.Procs > c.maxCPUs:
		return fmt.Errorf("job %d: needs %d processors, the largest machine has %d", j.ID, j.Procs, c.maxCPUs)
	}
	if c.parts != nil {
		if err := c.parts.admit(j); err != nil {
			return err
		}
	}
	if j.Mem > 0 || j.Speed > 0 {
		if !c.someMachineHolds(j) {
			return fmt.Errorf("job %d: no machine can hold it (%d processors, %g KB of memory per CPU, CPU speed %g)", j.ID, j.Procs, j.Mem, j.Speed)
		}
	}
	return nil
}

// holds reports whether machine m can ever run j: enough CPUs, enough
// memory per CPU (when the machine's memory is modelled), fast enough.
func holds(m *platform.Machine, j *actual.Job) bool { return m.Holds(j.Procs, j.Mem, j.Speed) }

func (c *Cluster) someMachineHolds(j *actual.Job) bool {
	for m := range c.machs {
		if holds(&c.machs[m], j) {
			return true
		}
	}
	return false
}

// arrive queues slot i. A job whose id is still in the system (waiting
// or running) is refused at its arrival, not when it is read (one arrival
// ahead): an id used again once its earlier job has ended (completions
// come before arrivals at one instant) is fine, as in real traces.
func (c *Cluster) arrive(i int32) error {
	s := c.slots.at(i)
	if h, added := c.present.Add(s.job.ID, i); !added {
		return &AdmitError{Job: s.job.ID, Submit: s.job.Submit, Err: &DuplicateError{ID: s.job.ID, Holder: c.slots.at(h).job.Submit}}
	}
	c.jobEvent = true
	c.waiting++
	if q := c.waiting; q > c.stats.MaxQueued {
		c.stats.MaxQueued = q
	}
	c.cfg.Policy.Submit(c.now, s.job.Info())
	return nil
}

func (c *Cluster) decide() error {
	c.stats.Passes++
	c.plan.Reset()
	c.cfg.Policy.Schedule(c.now, c.view, &c.plan)
	if c.caps.Fail != nil {
		if err := c.caps.Fail.Err(); err != nil {
			return err
		}
	}
	if len(c.plan.Preempts) > 0 {
		return fmt.Errorf("policy %s at t=%g: preempt job %d: preemption runs on a platform of nodes only (--nodes, or --slurm-conf with --slurm-nodes)",
			c.cfg.Policy.Name(), c.now, c.plan.Preempts[0].ID)
	}
	if err := c.applyPower(); err != nil {
		return err
	}
	for k := range c.plan.Starts {
		if err := c.start(&c.plan.Starts[k]); err != nil {
			return err
		}
	}
	for _, id := range c.plan.Rejects {
		if err := c.reject(id); err != nil {
			return err
		}
	}
	c.powerWake()
	return c.afterPass(&c.kernel, &c.plan, c.cfg.Policy.Name(), c.waiting)
}

// timer is a wake-up the policy asked for (Plan.Wake; the pass
// follows) or a change of availability (avail.go).
func (c *Cluster) timer(ref int32) error {
	if ref == refCapChange && c.cp != nil {
		return c.capTimer()
	}
	if ref >= 0 && c.pw != nil {
		return c.powerTimer(ref)
	}
	if ref <= refFailure {
		return c.availTimer(ref)
	}
	c.woke = true
	return nil
}

func (c *Cluster) finish() error {
	if n := c.waiting; n > 0 && c.av != nil {
		down := 0
		for cpu := range int32(c.plat.CPUs()) {
			if !c.av.usable(cpu) || (c.pw != nil && c.pw.state[cpu] != policy.PowerOn) {
				down++
			}
		}
		if down > 0 && c.pw != nil {
			return fmt.Errorf("%d job(s) never started: %d of the %d processors are unavailable (down, reserved or off) at the end, t=%g, and no change of availability follows",
				n, down, c.plat.CPUs(), c.now)
		}
		if down > 0 {
			return fmt.Errorf("%d job(s) never started: %d of the %d processors are unavailable (down or reserved) at the end, t=%g, and no change of availability follows",
				n, down, c.plat.CPUs(), c.now)
		}
	}
	if n := c.waiting; n > 0 {
		return fmt.Errorf("policy %s: %d job(s) never started although all %d processors are free at t=%g",
			c.cfg.Policy.Name(), n, c.plat.CPUs(), c.now)
	}
	return nil
}

// reject applies a rejection: the job must be waiting (not started in
// this pass either); it leaves the system without starting.
func (c *Cluster) reject(id job.ID) error {
	i, ok := c.present.Get(id)
	if !ok || c.slots.at(i).machine >= 0 {
		return fmt.Errorf("policy %s at t=%g: reject job %d: the job is not waiting", c.cfg.Policy.Name(), c.now, id)
	}
	if c.parts != nil {
		return fmt.Errorf("policy %s at t=%g: reject job %d: rejections do not go with partitions yet", c.cfg.Policy.Name(), c.now, id)
	}
	c.present.Delete(id)
	c.waiting--
	c.jobEvent = true
	c.rejectSlot(i)
	c.release(i)
	return nil
}

func (c *Cluster) bad(d *policy.Start, format string, a ...any) error {
	return fmt.Errorf("policy %s at t=%g: start job %d: %s", c.cfg.Policy.Name(), c.now, d.ID, fmt.Sprintf(format, a...))
}

// start validates decision d and applies it: the job must be waiting, the
// machine must exist, be able to hold the job (memory, speed) and have
// enough free CPUs; named CPUs must be on that machine, free and as many
// as the job needs.
func (c *Cluster) start(d *policy.Start) error {
	i, ok := c.present.Get(d.ID)
	if !ok || c.slots.at(i).machine >= 0 {
		return c.bad(d, "the job is not waiting")
	}
	s := c.slots.at(i)
	switch {
	case int(d.Reason) >= job.NumReasons:
		return c.bad(d, "unknown start reason %d", d.Reason)
	case d.Reason == job.Immediate && c.now != s.job.Submit:
		return c.bad(d, "start reason immediate, but the job was submitted at t=%g", s.job.Submit)
	}
	m := d.Machine
	if m < 0 || m >= c.plat.Machines() {
		return c.bad(d, "no machine %d (the platform has %d)", m, c.plat.Machines())
	}
	mach := &c.machs[m]
	switch {
	case s.job.Procs > mach.CPUs:
		return c.bad(d, "needs %d processors, machine %d has %d", s.job.Procs, m, mach.CPUs)
	case s.job.Procs > c.free[m]:
		if c.plat.Machines() == 1 {
			return c.bad(d, "needs %d processors, %d free", s.job.Procs, c.free[m])
		}
		return c.bad(d, "needs %d processors, %d free on machine %d", s.job.Procs, c.free[m], m)
	case mach.Mem > 0 && s.job.Mem > mach.Mem:
		return c.bad(d, "needs %g KB of memory per CPU, machine %d has %g", s.job.Mem, m, mach.Mem)
	case s.job.Speed > 0 && s.job.Speed > mach.BM():
		return c.bad(d, "needs CPU speed %g, machine %d has %g", s.job.Speed, m, mach.BM())
	}
	if err := c.capStart(d, s.job.Procs); err != nil {
		return err
	}
	first := c.plat.First(m)
	if c.parts != nil {
		var why string
		c.runScratch, why = c.parts.cpusFor(c.runScratch[:0], d, &s.job)
		if why != "" {
			return c.bad(d, "%s", why)
		}
		if cap(s.cpus) < len(c.runScratch) {
			s.cpus = c.cpuRoom(len(c.runScratch))
		}
		s.cpus = append(s.cpus[:0], c.runScratch...)
	} else if d.CPUs != nil {
		if len(d.CPUs)%2 != 0 {
			return c.bad(d, "CPU list of odd length %d (want lo, hi pairs)", len(d.CPUs))
		}
		for k, prev := 0, int32(-2); k+1 < len(d.CPUs); k += 2 {
			if d.CPUs[k] > d.CPUs[k+1] || d.CPUs[k] <= prev+1 {
				return c.bad(d, "CPUs %v are not ascending, disjoint, merged runs", []int32(d.CPUs))
			}
			prev = d.CPUs[k+1]
		}
		if n := d.CPUs.Count(); n != s.job.Procs {
			return c.bad(d, "names %d CPUs for %d processors", n, s.job.Procs)
		}
		for k := 0; k+1 < len(d.CPUs); k += 2 {
			for cpu := d.CPUs[k]; cpu <= d.CPUs[k+1]; cpu++ {
				if int(cpu) < first || int(cpu) >= first+mach.CPUs {
					return c.bad(d, "CPU %d is not on machine %d", cpu, m)
				}
				if !c.cpus.free(cpu) {
					if c.pw != nil && c.pw.state[cpu] != policy.PowerOn {
						return c.bad(d, "CPU %d is %s (a CPU runs a job only when on)", cpu, c.pw.state[cpu])
					}
					if c.av != nil && !c.av.usable(cpu) {
						return c.bad(d, "CPU %d is unavailable (down or reserved)", cpu)
					}
					return c.bad(d, "CPU %d is busy", cpu)
				}
				if c.av != nil && c.av.next[cpu] < c.now+mach.Duration(s.job.Estimate, s.job.BMEst) {
					return c.bad(d, "CPU %d is reserved from t=%g, before the job's estimated end t=%g", cpu, c.av.next[cpu], c.now+mach.Duration(s.job.Estimate, s.job.BMEst))
				}
			}
		}
		if cap(s.cpus) < len(d.CPUs) {
			s.cpus = c.cpuRoom(len(d.CPUs))
		}
		s.cpus = append(s.cpus[:0], d.CPUs...)
		c.cpus.set(s.cpus, false)
	} else if c.av != nil && c.av.hasWin {
		var why string
		c.runScratch, why = c.pickCPUs(c.runScratch[:0], m, s.job.Procs, c.now+mach.Duration(s.job.Estimate, s.job.BMEst))
		if why != "" {
			return c.bad(d, "%s", why)
		}
		if cap(s.cpus) < len(c.runScratch) {
			s.cpus = c.cpuRoom(len(c.runScratch))
		}
		s.cpus = append(s.cpus[:0], c.runScratch...)
	} else {
		// Taken into a reused scratch list, then copied: a slot whose
		// list is too short for a fragmented set gets a longer one from
		// the shared chunk, not from append (one allocation per job).
		c.runScratch = c.cpus.take(c.runScratch[:0], first, first+mach.CPUs, s.job.Procs)
		if cap(s.cpus) < len(c.runScratch) {
			s.cpus = c.cpuRoom(len(c.runScratch))
		}
		s.cpus = append(s.cpus[:0], c.runScratch...)
	}
	s.machine = int32(m)
	c.waiting--
	c.free[m] -= s.job.Procs
	c.usage.Busy[m] += s.job.Procs
	dur := mach.Duration(s.job.Runtime, s.job.BMEst)
	if !c.cfg.Continue && s.job.Request > 0 {
		if limit := mach.Duration(s.job.Request, s.job.BMEst); dur > limit {
			dur, s.killed = limit, true
		}
	}
	if c.av != nil {
		forRuns(s.cpus, func(cpu int32) { c.av.owner[cpu] = i })
	}
	c.startSlot(i, d.Reason, 0)
	s.endAt = c.now + dur
	c.events.Push(s.endAt, ClassCompletion, i)
	return nil
}

func (c *Cluster) complete(i int32) error {
	if c.av != nil {
		if c.parts != nil && c.slots.at(i).stale > 0 {
			// a void completion too is an instant of the job's
			// partition, as on a cluster of its own
			c.parts.due[c.parts.index(c.slots.at(i).job.Partition)] = true
		}
		if c.voidCompletion(i) {
			return nil
		}
		forRuns(c.slots.at(i).cpus, func(cpu int32) { c.av.owner[cpu] = -1 })
		if c.pw != nil {
			forRuns(c.slots.at(i).cpus, func(cpu int32) { c.pw.since[cpu] = c.now })
		}
	}
	s := c.slots.at(i)
	m := int(s.machine)
	c.jobEvent = true
	c.free[m] += s.job.Procs
	c.usage.Busy[m] -= s.job.Procs
	c.cpus.set(s.cpus, true)
	if c.parts != nil {
		c.parts.ended(c.now, &s.job, s.cpus)
	}
	c.end(i, nil)
	c.present.Delete(s.job.ID)
	c.cfg.Policy.Finish(c.now, s.job.ID)
	if s.stale > 0 {
		s.dead = true // a void completion event of a cut run is pending
		return nil
	}
	c.release(i)
	return nil
}
