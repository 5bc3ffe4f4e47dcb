package engine

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// Partition is a named set of CPUs of a one-machine cluster with a
// policy of its own (docs/partitions.md). A job routed to a partition
// runs on its CPUs only; the partition's policy sees its jobs only and
// a view of its CPUs only: one machine of CPUs.Count() CPUs, with the
// partition's idle CPUs as free. Partitions may share CPUs
// (overlapping partitions): a partition's policy then sees the jobs of
// the others on its shared CPUs through policy.ForeignLoad.
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
	// (policy.Start.CPUs): the model gives each job idle CPUs of its
	// partition, those no other partition holds first, each kind
	// lowest ids first; with announced windows (disjoint partitions
	// only), idle available CPUs of its partition chosen as without
	// partitions (clear of windows until its estimated end, soonest
	// next window first, ties lowest id). A partition that shares CPUs
	// with another needs a policy that implements policy.ForeignLoad;
	// with unavailable CPUs, one that implements
	// policy.AvailabilityPlanner, told of the windows cut to its CPUs,
	// in its view's ids.
	Policy policy.QueueScheduler
}

// ErrNoForeignLoad: a partition shares CPUs with another, and its
// policy cannot plan around the other partitions' jobs on them (it does
// not implement policy.ForeignLoad).
var ErrNoForeignLoad = errors.New("its policy does not plan around the jobs of other partitions on shared CPUs (policy.ForeignLoad)")

// parts is the state of a partitioned cluster. It is also the policy
// the model calls (cfg.Policy): it routes Submit and Finish to the
// partition's policy and runs one pass per partition, in the order of
// the configuration, collecting their starts into the model's plan.
//
// With overlapping partitions (overlap) it also chooses each start's
// CPUs as soon as the partition's pass returns, so that the passes after
// it see them taken, and tells the other partitions holding any of them
// (Occupy, then Release at the end); see Schedule.
type parts struct {
	c     *Cluster
	list  []Partition
	plats []platform.Platform // per partition: one machine of its CPUs
	free  []int               // per partition: idle CPUs
	routes
	sub   policy.Plan
	where map[job.ID]int // waiting or running job -> partition
	// due[k]: since k's last pass, a job of k arrived or ended, or
	// (overlapping partitions) a job of another partition started or
	// ended on CPUs k holds;
	// wake[k]: the wake-up it asked for (Plan.Wake; 0: none).
	due  []bool
	wake []float64

	// Unavailable CPUs (disjoint partitions only; nil without): at[cpu]
	// is the partition of a CPU (-1: none), local[cpu] its id in its
	// partition's view; down[k] counts k's failed CPUs outside begun
	// windows.
	at    []int32
	local []int32
	down  []int

	// Overlapping partitions (nil, false without): own[k] are the CPUs
	// of k alone, shared[k] those k shares; memb[cpu] the partitions
	// holding a shared CPU (nil: one partition); fl[k] partition k's
	// policy as a policy.ForeignLoad (nil when k shares nothing).
	overlap bool
	caps    []policy.Caps // what each partition's policy can do (policy.CapsOf, once)
	own     []platform.Runs
	shared  []platform.Runs
	memb    [][]int32
	fl      []policy.ForeignLoad
	cnt     []int   // scratch: per partition, CPUs of one job it holds
	touched []int32 // scratch: the partitions with cnt > 0
	// picks are this instant's starts with the CPUs chosen for them, in
	// plan order; next is the first one the model has not applied; why,
	// when set, is what is wrong with the start after the last pick.
	picks []pick
	next  int
	why   string
	a, b  platform.Runs // scratch for the CPU choice
}

// pick is a start whose CPUs parts chose (overlapping partitions).
type pick struct {
	id   job.ID
	cpus platform.Runs
}

// initParts checks ps for c's platform and makes c's policy the router.
func (c *Cluster) initParts(ps []Partition) error {
	switch {
	case c.cfg.Policy != nil:
		return errors.New("engine: with partitions, each partition has its policy (ClusterConfig.Policy must be nil)")
	case c.plat.Machines() != 1:
		return fmt.Errorf("partitions need a platform of one machine, this one has %d", c.plat.Machines())
	}
	n := c.plat.CPUs()
	p := &parts{c: c, list: ps, routes: newRoutes(), where: map[job.ID]int{}}
	holders := make([]int32, n) // partitions holding each CPU
	for k, pt := range ps {
		if pt.Policy == nil {
			return fmt.Errorf("partition %s: no policy", pt.Name)
		}
		p.caps = append(p.caps, policy.CapsOf(pt.Policy))
		if len(pt.CPUs) == 0 {
			return fmt.Errorf("partition %s: no CPUs", pt.Name)
		}
		if err := checkRuns(pt.CPUs, n); err != nil {
			return fmt.Errorf("partition %s: %w", pt.Name, err)
		}
		forRuns(pt.CPUs, func(cpu int32) {
			if holders[cpu]++; holders[cpu] > 1 {
				p.overlap = true
			}
		})
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
		if err := p.add(k, pt.Numbers, pt.Default, func(o int) string { return ps[o].Name }); err != nil {
			return err
		}
	}
	if len(ps) == 0 {
		return errors.New("engine: an empty list of partitions")
	}
	if p.overlap && c.cfg.Availability != nil {
		return overlapAvailError(ps, holders)
	}
	if p.overlap {
		if err := p.initOverlap(holders); err != nil {
			return err
		}
	}
	if c.cfg.Availability != nil {
		p.initAvail(n)
	}
	c.parts = p
	c.cfg.Policy = p
	return nil
}

// routes sends a job to its partition by the trace's partition number
// (job.Info.Partition, SWF field 16): of the pool's partitions and of
// the node platform's alike.
type routes struct {
	of  map[int32]int // trace number -> partition
	def int           // the default partition (-1: none)
}

func newRoutes() routes { return routes{of: map[int32]int{}, def: -1} }

// add routes partition k's numbers (and, when def, the jobs of unknown
// partition) to k; a number routed twice or a second default is an
// error naming both partitions (name gives a partition's name).
func (r *routes) add(k int, numbers []int32, def bool, name func(int) string) error {
	for _, num := range numbers {
		if o, dup := r.of[num]; dup {
			return fmt.Errorf("partitions %s and %s both take the trace's partition %d", name(o), name(k), num)
		}
		r.of[num] = k
	}
	if def {
		if r.def >= 0 {
			return fmt.Errorf("partitions %s and %s are both the default", name(r.def), name(k))
		}
		r.def = k
	}
	return nil
}

// index is the partition of a job of trace partition num (-1: none).
func (r *routes) index(num int32) int {
	if k, ok := r.of[num]; ok {
		return k
	}
	if num < 0 {
		return r.def
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

// cpusFor checks start d of job j and appends to dst the CPUs it gets,
// taken: the lowest idle ids of its partition, or with overlapping
// partitions those place chose in the pass. A non-empty why is what is
// wrong with d.
func (p *parts) cpusFor(dst platform.Runs, d *policy.Start, j *actual.Job) (_ platform.Runs, why string) {
	if p.overlap {
		cpus, why := p.picked(d.ID) // chosen and taken in the pass
		return append(dst, cpus...), why
	}
	k := p.index(j.Partition)
	switch {
	case d.CPUs != nil:
		return dst, "names CPUs: a policy inside a partition may not (the model gives the partition's lowest idle ids)"
	case j.Procs > p.free[k]:
		return dst, fmt.Sprintf("needs %d processors, %d free in partition %s", j.Procs, p.free[k], p.list[k].Name)
	}
	p.free[k] -= j.Procs
	if c := p.c; c.av != nil && c.av.hasWin {
		// clear of windows until its estimated end, as pickCPUs
		return c.pickFrom(dst, 0, 0, p.list[k].CPUs, j.Procs, c.now+c.machs[0].Duration(j.Estimate, j.BMEst))
	}
	return p.takeFrom(dst, p.list[k].CPUs, j.Procs), ""
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

// initOverlap prepares the CPU choice and the foreign loads of
// overlapping partitions; holders counts the partitions of each CPU.
func (p *parts) initOverlap(holders []int32) error {
	p.memb = make([][]int32, len(holders))
	p.own = make([]platform.Runs, len(p.list))
	p.shared = make([]platform.Runs, len(p.list))
	p.fl = make([]policy.ForeignLoad, len(p.list))
	p.cnt = make([]int, len(p.list))
	for k, pt := range p.list {
		forRuns(pt.CPUs, func(cpu int32) {
			if holders[cpu] == 1 {
				p.own[k] = p.own[k].Add(cpu)
				return
			}
			p.shared[k] = p.shared[k].Add(cpu)
			p.memb[cpu] = append(p.memb[cpu], int32(k))
		})
	}
	for k, pt := range p.list {
		if p.shared[k] == nil {
			continue
		}
		fl := p.caps[k].Foreign
		if fl == nil {
			o := p.memb[p.shared[k][0]]
			other := o[0]
			if int(other) == k {
				other = o[1]
			}
			return fmt.Errorf("partition %s shares CPUs with partition %s, and policy %s cannot run there: %w",
				pt.Name, p.list[other].Name, pt.Policy.Name(), ErrNoForeignLoad)
		}
		p.fl[k] = fl
	}
	return nil
}

// Schedule runs a pass of every partition in which a job arrived or
// ended at this instant, or whose wake-up time has come, in the order of
// the partitions: exactly the passes the partition would get as a
// cluster of its own (a conservative pass re-places each reservation
// once, so a pass at another partition's instant could compress
// further). Disjoint partitions share no CPU, so no pass changes what
// another sees.
//
// With overlapping partitions a job also counts for every partition
// holding one of its CPUs: its start or end there makes that partition
// due as well (Occupy, Release). The CPUs of a pass's starts are chosen
// as soon as the pass returns (place), so the partitions after it see
// them taken; a partition passed earlier at this instant that shares
// them is due again, and the rounds repeat, in the same order, until no
// partition is due. Each round after the first follows a start, so the
// rounds end.
func (p *parts) Schedule(now float64, _ policy.Machines, plan *policy.Plan) {
	if p.overlap {
		p.picks, p.next, p.why = p.picks[:0], 0, ""
	}
	for {
		passed := false
		for k := range p.list {
			if w := p.wake[k]; !p.due[k] && !(w > 0 && w <= now) {
				continue
			}
			passed = true
			p.due[k], p.wake[k] = false, 0
			p.sub.Reset()
			p.list[k].Policy.Schedule(now, partView{p, k}, &p.sub)
			plan.Starts = append(plan.Starts, p.sub.Starts...)
			plan.Rejects = append(plan.Rejects, p.sub.Rejects...)
			plan.Preempts = append(plan.Preempts, p.sub.Preempts...) // refused by the model
			if w := p.sub.Wake; w > now {
				p.wake[k] = w
			}
			if p.overlap && !p.place(now, p.sub.Starts) {
				return // the model stops at the start that is wrong
			}
		}
		if !passed || !p.overlap {
			break
		}
	}
	wake := math.Inf(1)
	for _, w := range p.wake {
		if w > now {
			wake = min(wake, w)
		}
	}
	if !math.IsInf(wake, 1) {
		plan.Wake = wake
	}
}

// place chooses the CPUs of a pass's starts (overlapping partitions),
// takes them and tells the other partitions holding any of them. At the
// first start that cannot be placed it records why and returns false:
// the model, applying the plan in order, stops there with that reason.
func (p *parts) place(now float64, starts []policy.Start) bool {
	c := p.c
	for i := range starts {
		d := &starts[i]
		si, ok := c.present.Get(d.ID)
		if !ok || c.slots.at(si).machine >= 0 {
			p.why = "the job is not waiting"
			return false
		}
		j := &c.slots.at(si).job
		k := p.index(j.Partition)
		switch {
		case d.CPUs != nil:
			p.why = "names CPUs: a policy inside a partition may not (the model chooses the partition's idle CPUs)"
			return false
		case j.Procs > p.free[k]:
			p.why = fmt.Sprintf("needs %d processors, %d free in partition %s", j.Procs, p.free[k], p.list[k].Name)
			return false
		}
		// Its own CPUs first, then shared ones, each lowest ids first.
		p.a = p.takeFrom(p.a[:0], p.own[k], j.Procs)
		p.b = p.takeFrom(p.b[:0], p.shared[k], j.Procs-p.a.Count())
		p.picks = append(p.picks, pick{d.ID, mergeRuns(nil, p.a, p.b)})
		p.free[k] -= j.Procs
		end := now + c.machs[0].Duration(j.Estimate, j.BMEst)
		p.foreign(k, p.b, -1, func(o int32, n int) { p.fl[o].Occupy(now, d.ID, n, end) })
	}
	return true
}

// foreign counts, for every partition o other than k holding some of
// the shared CPUs cpus, how many it holds (n), adds sign x n to its free
// CPUs, makes it due and calls f(o, n).
func (p *parts) foreign(k int, cpus platform.Runs, sign int, f func(o int32, n int)) {
	forRuns(cpus, func(cpu int32) {
		for _, o := range p.memb[cpu] {
			if int(o) == k {
				continue
			}
			if p.cnt[o] == 0 {
				p.touched = append(p.touched, o)
			}
			p.cnt[o]++
		}
	})
	for _, o := range p.touched {
		n := p.cnt[o]
		p.cnt[o] = 0
		p.free[o] += sign * n
		p.due[o] = true
		f(o, n)
	}
	p.touched = p.touched[:0]
}

// takeFrom marks the procs lowest idle CPUs of r busy and appends them
// to dst (fewer if r has fewer idle).
func (p *parts) takeFrom(dst platform.Runs, r platform.Runs, procs int) platform.Runs {
	for i := 0; i+1 < len(r) && procs > 0; i += 2 {
		before := dst.Count()
		dst = p.c.cpus.take(dst, int(r[i]), int(r[i+1])+1, procs)
		procs -= dst.Count() - before
	}
	return dst
}

// picked returns the CPUs place chose for the start of job id, the
// model's next (overlapping partitions), or why it has none.
func (p *parts) picked(id job.ID) (platform.Runs, string) {
	if p.next < len(p.picks) && p.picks[p.next].id == id {
		p.next++
		return p.picks[p.next-1].cpus, ""
	}
	if p.why == "" {
		return nil, "a start the partitions did not plan" // not reached: the plan is parts'
	}
	return nil, p.why
}

// ended gives back the CPUs of job j, which ended: to its partition,
// and with overlapping partitions to every other partition holding some
// of them, which is told (Release).
func (p *parts) ended(now float64, j *actual.Job, cpus platform.Runs) {
	k := p.index(j.Partition)
	p.free[k] += j.Procs
	if p.overlap {
		p.foreign(k, cpus, 1, func(o int32, _ int) { p.fl[o].Release(now, j.ID) })
	}
}

// mergeRuns appends to dst the union of the disjoint sets a and b, as
// ascending merged runs.
func mergeRuns(dst, a, b platform.Runs) platform.Runs {
	i, j := 0, 0
	for i+1 < len(a) || j+1 < len(b) {
		var lo, hi int32
		if j+1 >= len(b) || (i+1 < len(a) && a[i] < b[j]) {
			lo, hi = a[i], a[i+1]
			i += 2
		} else {
			lo, hi = b[j], b[j+1]
			j += 2
		}
		dst = dst.AddRun(lo, hi)
	}
	return dst
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

// Unavailable CPUs with (disjoint) partitions (docs/partitions.md,
// docs/availability.md): each partition's policy is told of the windows
// cut to its CPUs, in its view's ids; its view counts its CPUs alone
// (Free, Down, Horizons); a change of availability on its CPUs makes it
// due.

// overlapAvailError names two partitions sharing a CPU: overlapping
// partitions do not go with unavailable CPUs.
func overlapAvailError(ps []Partition, holders []int32) error {
	for cpu, h := range holders {
		if h < 2 {
			continue
		}
		var two []string
		for _, pt := range ps {
			if inRuns(pt.CPUs, int32(cpu)) {
				two = append(two, pt.Name)
			}
		}
		return fmt.Errorf("overlapping partitions do not go with unavailable CPUs (reservations, failures) yet: partitions %s and %s share CPU %d", two[0], two[1], cpu)
	}
	return nil // not reached: the partitions overlap
}

// initAvail maps the CPUs of machine 0 (n) to their partitions.
func (p *parts) initAvail(n int) {
	p.at, p.local = make([]int32, n), make([]int32, n)
	for i := range p.at {
		p.at[i] = -1
	}
	for k, pt := range p.list {
		var id int32
		forRuns(pt.CPUs, func(cpu int32) {
			p.at[cpu], p.local[cpu] = int32(k), id
			id++
		})
	}
	p.down = make([]int, len(p.list))
}

// Caps implements policy.Layer: the router plans around unavailable
// CPUs when every partition's policy does (PlanAvailability), and has
// no other capability (a partition's policy that can fail or refuses
// jobs at submission is not asked: runners refuse such partitions;
// each partition's ForeignLoad is the router's to call).
func (p *parts) Caps() policy.Caps {
	for _, c := range p.caps {
		if c.Avail == nil {
			return policy.Caps{}
		}
	}
	return policy.Caps{Avail: p}
}

// PlanAvailability (policy.AvailabilityPlanner) gives each partition's
// policy the windows cut to its CPUs (those on none of them left out),
// in its view's ids, sorted as the model sorts windows.
func (p *parts) PlanAvailability(ws []policy.Window) {
	per := make([][]policy.Window, len(p.list))
	cut := make([]platform.Runs, len(p.list))
	for _, w := range ws {
		forRuns(w.CPUs, func(cpu int32) {
			if k := p.at[cpu]; k >= 0 {
				cut[k] = cut[k].Add(p.local[cpu])
			}
		})
		for k := range cut {
			if cut[k] != nil {
				per[k] = append(per[k], policy.Window{Start: w.Start, End: w.End, CPUs: cut[k]})
				cut[k] = nil
			}
		}
	}
	for k := range p.list {
		slices.SortStableFunc(per[k], func(a, b policy.Window) int {
			return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.CPUs[0], b.CPUs[0]))
		})
		p.caps[k].Avail.PlanAvailability(per[k])
	}
}

// touch makes due every partition holding one of cpus (a change of
// availability on them).
func (p *parts) touch(cpus platform.Runs) {
	forRuns(cpus, func(cpu int32) {
		if k := p.at[cpu]; k >= 0 {
			p.due[k] = true
		}
	})
}

// addFree and addDown count d more idle available, or down, CPUs in the
// partition of cpu (if any).
func (p *parts) addFree(cpu int32, d int) {
	if k := p.at[cpu]; k >= 0 {
		p.free[k] += d
	}
}

func (p *parts) addDown(cpu int32, d int) {
	if k := p.at[cpu]; k >= 0 {
		p.down[k] += d
	}
}

// Down is the number of the partition's CPUs down now, outside begun
// windows (policy.AvailabilityView).
func (v partView) Down(m int) int {
	if m != 0 || v.p.down == nil {
		return 0
	}
	return v.p.down[v.k]
}

// Horizons appends the next-window start of every idle available CPU
// of the partition, ascending (policy.AvailabilityView).
func (v partView) Horizons(m int, dst []float64) []float64 {
	if m != 0 {
		return dst
	}
	c := v.p.c
	if c.av == nil || !c.av.hasWin {
		for range v.p.free[v.k] {
			dst = append(dst, math.Inf(1))
		}
		return dst
	}
	n0 := len(dst)
	forRuns(v.p.list[v.k].CPUs, func(cpu int32) {
		if c.cpus.free(cpu) {
			dst = append(dst, c.av.next[cpu])
		}
	})
	slices.Sort(dst[n0:])
	return dst
}
