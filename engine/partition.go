package engine

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// Partition is a named set of CPUs of a one-machine cluster with a
// policy of its own (docs/partitions.md). A job routed to a partition
// runs on its CPUs only; the partition's policy sees its jobs only and
// a view of its CPUs only: one machine of CPUs.Count() CPUs, with the
// partition's idle CPUs as free. Partitions must not overlap.
type Partition struct {
	Name string
	// CPUs are global CPU ids of machine 0 (ascending, merged runs).
	CPUs platform.Runs
	// Numbers are the trace's partition numbers (job.Info.Partition,
	// SWF field 16) whose jobs go to this partition; Default takes the
	// jobs whose partition is unknown (-1). At most one partition is the
	// default and no number is routed twice.
	Numbers []int32
	Default bool
	// Policy decides over this partition alone (one instance per
	// partition: it must not be shared). It may not name CPUs
	// (policy.Start.CPUs): the model gives each job the lowest idle ids
	// of its partition.
	Policy policy.QueueScheduler
}

// ErrPartitionOverlap: two partitions share a CPU (not supported).
var ErrPartitionOverlap = errors.New("overlapping partitions are not supported")

// parts is the state of a partitioned cluster. It is also the policy
// the model calls (cfg.Policy): it routes Submit and Finish to the
// partition's policy and runs one pass per partition, in the order of
// the configuration, collecting their starts into the model's plan.
type parts struct {
	c     *Cluster
	list  []Partition
	plats []platform.Platform // per partition: one machine of its CPUs
	free  []int               // per partition: idle CPUs
	of    map[int32]int       // trace number -> partition
	def   int                 // the default partition (-1: none)
	sub   policy.Plan
	where map[job.ID]int // waiting or running job -> partition
	// due[k]: a job of partition k arrived or ended since its last pass;
	// wake[k]: the wake-up it asked for (Plan.Wake; 0: none).
	due  []bool
	wake []float64
}

// initParts checks ps for c's platform and makes c's policy the router.
func (c *Cluster) initParts(ps []Partition) error {
	switch {
	case c.cfg.Policy != nil:
		return errors.New("engine: with partitions, each partition has its policy (ClusterConfig.Policy must be nil)")
	case c.cfg.Availability != nil:
		return errors.New("partitions do not go with unavailable CPUs (reservations, failures) yet")
	case c.plat.Machines() != 1:
		return fmt.Errorf("partitions need a platform of one machine, this one has %d", c.plat.Machines())
	}
	n := c.plat.CPUs()
	p := &parts{c: c, list: ps, of: map[int32]int{}, def: -1, where: map[job.ID]int{}}
	owner := make([]int, n)
	for k, pt := range ps {
		if pt.Policy == nil {
			return fmt.Errorf("partition %s: no policy", pt.Name)
		}
		if len(pt.CPUs) == 0 {
			return fmt.Errorf("partition %s: no CPUs", pt.Name)
		}
		if err := checkRuns(pt.CPUs, n); err != nil {
			return fmt.Errorf("partition %s: %w", pt.Name, err)
		}
		var err error
		for i := 0; i+1 < len(pt.CPUs); i += 2 {
			for cpu := pt.CPUs[i]; cpu <= pt.CPUs[i+1]; cpu++ {
				if o := owner[cpu]; o > 0 && err == nil {
					err = fmt.Errorf("partitions %s and %s both hold CPU %d: %w", ps[o-1].Name, pt.Name, cpu, ErrPartitionOverlap)
				}
				owner[cpu] = k + 1
			}
		}
		if err != nil {
			return err
		}
		m := c.plat.Machine(0)
		m.CPUs = pt.CPUs.Count()
		sp, err := platform.New([]platform.Machine{m})
		if err != nil {
			return fmt.Errorf("partition %s: %w", pt.Name, err)
		}
		p.plats = append(p.plats, sp)
		p.free = append(p.free, m.CPUs)
		p.due = append(p.due, false)
		p.wake = append(p.wake, 0)
		for _, num := range pt.Numbers {
			if o, dup := p.of[num]; dup {
				return fmt.Errorf("partitions %s and %s both take the trace's partition %d", ps[o].Name, pt.Name, num)
			}
			p.of[num] = k
		}
		if pt.Default {
			if p.def >= 0 {
				return fmt.Errorf("partitions %s and %s are both the default", ps[p.def].Name, pt.Name)
			}
			p.def = k
		}
	}
	if len(ps) == 0 {
		return errors.New("engine: an empty list of partitions")
	}
	c.parts = p
	c.cfg.Policy = p
	return nil
}

// index is the partition of a job (-1: none).
func (p *parts) index(num int32) int {
	if k, ok := p.of[num]; ok {
		return k
	}
	if num < 0 {
		return p.def
	}
	return -1
}

// admit refuses a job that has no partition or is larger than its
// partition: the runner drops such jobs before (docs/partitions.md),
// so this is a broken source.
func (p *parts) admit(j *actual.Job) error {
	k := p.index(j.Partition)
	if k < 0 {
		return fmt.Errorf("job %d: partition %d is none of the run's partitions", j.ID, j.Partition)
	}
	if n := p.plats[k].CPUs(); j.Procs > n {
		return fmt.Errorf("job %d: needs %d processors, partition %s has %d", j.ID, j.Procs, p.list[k].Name, n)
	}
	return nil
}

// take gives the job of slot s the lowest idle CPUs of its partition k.
func (p *parts) take(dst platform.Runs, k, procs int) platform.Runs {
	r := p.list[k].CPUs
	for i := 0; i+1 < len(r) && procs > 0; i += 2 {
		before := dst.Count()
		dst = p.c.cpus.take(dst, int(r[i]), int(r[i+1])+1, procs)
		procs -= dst.Count() - before
	}
	return dst
}

func (p *parts) Name() string { return p.list[0].Policy.Name() }

func (p *parts) Submit(now float64, j job.Info) {
	k := p.index(j.Partition)
	p.where[j.ID] = k
	p.due[k] = true
	p.list[k].Policy.Submit(now, j)
}

func (p *parts) Finish(now float64, id job.ID) {
	k := p.where[id]
	delete(p.where, id)
	p.due[k] = true
	p.list[k].Policy.Finish(now, id)
}

// Schedule runs a pass of every partition in which a job arrived or
// ended at this instant, or whose wake-up time has come, in the order of
// the partitions: exactly the passes the partition would get as a
// cluster of its own (a conservative pass re-places each reservation
// once, so a pass at another partition's instant could compress
// further). The partitions share no CPU, so no pass changes what
// another sees.
func (p *parts) Schedule(now float64, _ policy.Machines, plan *policy.Plan) {
	wake := math.Inf(1)
	for k := range p.list {
		if w := p.wake[k]; !p.due[k] && !(w > 0 && w <= now) {
			if w > now {
				wake = min(wake, w)
			}
			continue
		}
		p.due[k], p.wake[k] = false, 0
		p.sub.Reset()
		p.list[k].Policy.Schedule(now, partView{p, k}, &p.sub)
		plan.Starts = append(plan.Starts, p.sub.Starts...)
		plan.Rejects = append(plan.Rejects, p.sub.Rejects...)
		if w := p.sub.Wake; w > now {
			p.wake[k] = w
			wake = min(wake, w)
		}
	}
	if !math.IsInf(wake, 1) {
		plan.Wake = wake
	}
}

// partView is partition k's policy's view: one machine of its CPUs.
type partView struct {
	p *parts
	k int
}

func (v partView) Platform() platform.Platform { return v.p.plats[v.k] }
func (v partView) Free(m int) int {
	if m != 0 {
		return 0
	}
	return v.p.free[v.k]
}
