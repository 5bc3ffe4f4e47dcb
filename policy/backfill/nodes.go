package backfill

import (
	"container/heap"
	"fmt"
	"math"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
)

// NodePolicy is the cluster's queue policies on a platform of nodes
// (policy.NodeScheduler): strict FCFS, first-fit, and backfilling at a
// reservation depth K (EASY: 1, conservative: unlimited), in the order
// fcfs, sjf or multifactor. It decides by the semantics of
// docs/nodes.md ("Scheduling on nodes"): at each pass the waiting jobs,
// in queue order, start now when they fit over their estimate beside
// the running jobs, the jobs started in the pass and the reservations
// made so far; else when they fit beside the running and started jobs
// alone and every reservation they overlap can be placed again at its
// own time (the repair); else, while fewer than K jobs hold one, they
// get a reservation at the first end of a hold at which they fit.
// Every start names its allocation (the policy mirrors the model's
// nodes.State: it knows what it started and is told what ended).
type NodePolicy struct {
	name   string
	depth  int  // K: 0 none, Unlimited for conservative
	strict bool // fcfs: the pass ends at the first job that waits

	ns        *nodes.Nodes
	sel       *nodes.Selector
	st        *nodes.State   // the mirror of the model's state
	prof      *nodes.Profile // running jobs, started jobs, the pass's reservations
	freeCores int            // free cores now, all nodes
	empty     emptyNodes

	w         waitQueue
	mf        *multifactor
	slab      attrsSlab
	jobs      []nodeJob // waiting jobs' requests by slot (entry.m)
	minCores  []int     // by slot: its request's MinCores (read at every pass)
	freeJobs  []int32
	runs      []nodeRun
	freeRuns  []int32
	runOf     map[job.ID]int32
	due       dueHeap // running jobs by estimated end
	overdue   []int32 // running jobs past their estimated end
	resv      []nodeResv
	pend      []nodes.Selection
	moved     []movedResv
	cur, tent nodes.Selection
	ids       []nodes.HoldID // scratch

	// The last pass's end, for the next to go on from it (kept): the
	// count of changes of the plan then, the queue's length (every
	// entry waiting), and the least index a submission took since.
	// changes counts the starts, ends, reservations and holds moved
	// (a repair that fails changes nothing); perJob the waiting jobs
	// with GRES per job.
	changes   uint64
	keptAt    uint64
	perJob    int
	keptLen   int
	minInsert int
	kept      bool
	noKeep    bool // tests: every pass tries every entry, the repair is not pre-checked

	onReserve func(now float64, id job.ID, at float64)
	err       error
	slurm     *slurmState // the slurm policy (nil: the others)

	// Unavailable nodes (nodes_avail.go): av once the model announced
	// them; winOf per node its windows not ended, by start; blocked the
	// nodes the mirror state holds whole; whole their whole-node
	// allocations; down the nodes down this pass, downHolds their
	// holds for the instant; unav scratch.
	av        bool
	winOf     [][]nodeWin
	blocked   []bool
	whole     []nodes.Allocation
	unav      []bool
	down      []int
	downHolds []nodes.HoldID
}

type nodeJob struct {
	prep nodes.Prepared
}

type nodeRun struct {
	id    job.ID
	start float64
	end   float64 // start + estimate (Reestimate moves it)
	alloc nodes.Allocation
	hold  nodes.HoldID
	cores int
	live  bool
	late  bool // in overdue
	// foreign: a job of another partition on shared nodes
	// (OccupyNodes), which Finish does not end.
	foreign bool
}

type nodeResv struct {
	slot   int32 // the job's nodeJob
	id     job.ID
	t, end float64
	cores  int // its selection's
	hold   nodes.HoldID
	sel    nodes.Selection
}

type movedResv struct {
	ri   int
	hold nodes.HoldID
}

type dueItem struct {
	end  float64
	slot int32
	id   job.ID
}

type dueHeap []dueItem

func (h dueHeap) Len() int { return len(h) }
func (h dueHeap) Less(i, j int) bool {
	if h[i].end != h[j].end {
		return h[i].end < h[j].end
	}
	return h[i].id < h[j].id
}
func (h dueHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *dueHeap) Push(x any)   { *h = append(*h, x.(dueItem)) }
func (h *dueHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// emptyNodes is the FreeSource of the empty platform (admission).
type emptyNodes struct{ sel *nodes.Selector }

func (e emptyNodes) FreeOn(n int, f *nodes.NodeFree) { e.sel.Capacity(n, f) }

// NodeConfig is what NewNodePolicy builds: the policy's name, the
// platform, the reservation depth (0: none; Unlimited: conservative),
// whether it is strict FCFS, the queue order and, with
// OrderMultifactor, the multifactor settings.
type NodeConfig struct {
	Name   string
	Nodes  *nodes.Nodes
	Depth  int
	Strict bool
	Order  Order
	MF     *Multifactor
	// Slurm, when set, makes the policy Slurm's schedulers
	// (nodes_slurm.go; Depth and Strict unused).
	Slurm *SlurmParams
}

// NewNodePolicy builds a queue policy on nodes.
func NewNodePolicy(c NodeConfig) (*NodePolicy, error) {
	if c.Nodes == nil || c.Nodes.Len() == 0 {
		return nil, fmt.Errorf("policy %s: a platform of nodes is required", c.Name)
	}
	switch c.Order {
	case OrderFCFS, OrderSJF, OrderMultifactor:
	default:
		return nil, fmt.Errorf("policy %s: order %s does not run on nodes", c.Name, c.Order)
	}
	if c.Depth < 0 || (c.Strict && c.Depth != 0) {
		return nil, fmt.Errorf("policy %s: reservation depth %d", c.Name, c.Depth)
	}
	sel := nodes.NewSelector(c.Nodes)
	b := &NodePolicy{name: c.Name, depth: c.Depth, strict: c.Strict, ns: c.Nodes, sel: sel,
		st: nodes.NewState(c.Nodes), prof: nodes.NewProfile(sel), freeCores: c.Nodes.Cores(),
		empty: emptyNodes{sel}, w: waitQueue{order: c.Order}, runOf: map[job.ID]int32{}, minInsert: math.MaxInt}
	if c.Order == OrderMultifactor {
		if c.MF == nil {
			return nil, fmt.Errorf("policy %s: order multifactor without its settings", c.Name)
		}
		if err := c.MF.Check(); err != nil {
			return nil, fmt.Errorf("policy %s: %w", c.Name, err)
		}
		b.mf = newMultifactor(*c.MF, c.Nodes.CPUs())
	}
	if c.Slurm != nil {
		if err := c.Slurm.Check(); err != nil {
			return nil, fmt.Errorf("policy %s: %w", c.Name, err)
		}
		b.slurm = &slurmState{p: *c.Slurm, lastBF: math.Inf(-1), dueAt: -1}
		sel.SetRule(c.Slurm.Select)
		b.st.Selector().SetRule(c.Slurm.Select)
		if len(c.Slurm.QOS) > 0 {
			b.slurm.qos = newQOSState(c.Slurm.QOS)
			for k, kind := range c.Nodes.Kinds() {
				if kind.Name == "gpu" {
					b.slurm.gpu = append(b.slurm.gpu, k)
				}
			}
		}
		if c.Slurm.Preempt != nil {
			b.slurm.pre = newPreemptState(*c.Slurm.Preempt)
		}
		if q := c.Slurm; q.MaxJobUser > 0 || q.MaxJobUserPart > 0 || q.MaxJobPart > 0 || q.MaxJobAssoc > 0 || q.MinPrioReserve > 0 {
			b.slurm.who, b.slurm.tested, b.slurm.assoc = map[job.ID]slurmWho{}, map[int32]int{}, map[[2]int32]int{}
			b.slurm.basic = new(int64)
		}
	}
	return b, nil
}

func (b *NodePolicy) Name() string { return b.name }

// Err implements policy.Failer: a job whose request is malformed or
// does not fit the empty platform, or (impossible for an admitted job)
// one for which no reservation time works.
func (b *NodePolicy) Err() error { return b.err }

// SetOnReserve implements policy.ReservationReporter: f is told of
// every reservation made in a pass (a pass makes them anew).
func (b *NodePolicy) SetOnReserve(f func(now float64, id job.ID, at float64)) { b.onReserve = f }

// shareMF makes the multifactor state the one of the machine s.
func (b *NodePolicy) shareMF(s *policy.Shared) {
	if b.mf == nil {
		return
	}
	p := b.mf.p
	b.mf = s.Get("policy/backfill.multifactor", func() any { return newMultifactor(p, s.CPUs) }).(*multifactor)
}

func (b *NodePolicy) Submit(now float64, j job.Info) {
	if b.slurm != nil && b.slurm.pre != nil {
		b.slurm.pre.submitted(&j)
	}
	r := nodes.FromProcs(j.Procs)
	if j.Req != nil {
		r = *j.Req
	}
	var slot int32
	if n := len(b.freeJobs); n > 0 {
		slot = b.freeJobs[n-1]
		b.freeJobs = b.freeJobs[:n-1]
	} else {
		b.jobs = append(b.jobs, nodeJob{})
		b.minCores = append(b.minCores, 0)
		slot = int32(len(b.jobs) - 1)
	}
	nj := &b.jobs[slot]
	if err := r.Check(); err != nil {
		b.fail(fmt.Errorf("policy %s: job %d: request %s: %v", b.name, j.ID, r, err))
		return
	}
	if err := b.sel.PrepareInto(r, &nj.prep); err != nil {
		b.fail(fmt.Errorf("policy %s: job %d: request %s: %v", b.name, j.ID, r, err))
		return
	}
	b.minCores[slot] = nj.prep.MinCores
	if !b.sel.Select(b.empty, &nj.prep, &b.cur) {
		b.fail(fmt.Errorf("policy %s: job %d: request %s does not fit the platform (%s)", b.name, j.ID, r, b.ns.String()))
		return
	}
	var e entry
	if b.mf != nil {
		e = newEntry(&j, &b.slab)
		b.mf.attach(&e, &j)
	} else {
		e = newEntry(&j, nil)
	}
	e.Procs = r.CPUs()
	if s := b.slurm; s != nil && s.qos != nil && (refuseQOS(s.qos.limits, &j) != "" || !s.qos.submit(&j, requestTRES(r))) {
		// MaxSubmitPU, or a limit no end can lift (screened before the
		// policy where the run asks it: SlurmQOS.Refuse): told at the
		// next pass
		s.rejects = append(s.rejects, j.ID)
		b.freeJobs = append(b.freeJobs, slot)
		return
	}
	if s := b.slurm; s != nil && s.who != nil {
		if v, ok := s.requeuedBasic(j.ID); ok {
			s.who[j.ID] = slurmWho{user: j.User, group: j.Group, basic: v} // a requeue keeps its priority
		} else {
			*s.basic++
			s.who[j.ID] = slurmWho{user: j.User, group: j.Group, basic: max(SlurmTopPriority-float64(*s.basic), 1)}
		}
	}
	e.m = slot // on nodes an entry's m is its request's slot
	if len(r.GRESPerJob) > 0 {
		b.perJob++
	}
	b.minInsert = min(b.minInsert, b.w.insert(e))
}

func (b *NodePolicy) fail(err error) {
	if b.err == nil {
		b.err = err
	}
}

func (b *NodePolicy) Finish(now float64, id job.ID) {
	s, ok := b.runOf[id]
	if !ok || b.runs[s].foreign {
		return
	}
	b.ended(id, s)
	if b.slurm != nil && b.slurm.qos != nil {
		b.slurm.qos.finish(id)
	}
	if b.slurm != nil && b.slurm.pre != nil {
		b.slurm.pre.finished(id)
	}
	if b.mf != nil {
		b.mf.finished(id, now)
	}
}

// ended takes running job id (slot s), own or foreign, out of the plan.
func (b *NodePolicy) ended(id job.ID, s int32) {
	delete(b.runOf, id)
	r := &b.runs[s]
	b.st.Release(r.alloc)
	b.prof.Remove(r.hold)
	b.changes++
	b.freeCores += r.cores
	if r.late {
		for i, x := range b.overdue {
			if x == s {
				b.overdue = append(b.overdue[:i], b.overdue[i+1:]...)
				break
			}
		}
	}
	r.live = false // r.alloc's storage serves the slot's next start
	b.freeRuns = append(b.freeRuns, s)
}

func (b *NodePolicy) Schedule(now float64, v policy.NodeView, plan *policy.Plan) {
	if b.err != nil {
		return
	}
	if b.av {
		b.availPass(now, v)
		defer b.releaseDown()
	}
	// A running job past its estimated end holds its resources for this
	// instant only.
	for len(b.due) > 0 && b.due[0].end <= now {
		it := heap.Pop(&b.due).(dueItem)
		if r := &b.runs[it.slot]; r.live && r.id == it.id && r.end == it.end && !r.late { // else moved by Reestimate
			r.late = true
			b.overdue = append(b.overdue, it.slot)
		}
	}
	for _, s := range b.overdue {
		h := b.runs[s].hold
		if a, e := b.prof.Interval(h); a != now || e != nodes.Span(now, 0) {
			b.prof.SetInterval(h, now, nodes.Span(now, 0))
			b.changes++
		}
	}
	if b.mf != nil {
		b.mf.sort(now, b.w.q)
	}
	if b.slurm != nil {
		b.scheduleSlurm(now, plan)
		return
	}
	// Go on from the last pass when nothing it decided can change:
	// strict FCFS, first-fit and EASY in a kept order (fcfs, sjf); the
	// plan unchanged since the last pass's first waiting job (no start
	// or reservation after it in that pass; no end, no job newly past
	// its estimate since); every submission after the entries it
	// tried; no waiting job with GRES per job. The first waiting job
	// would get the same reservation again (the same plan, and the
	// candidate times after now are those after then); the others were
	// tried on the plan as it is now, and over their longer interval
	// [now, now + estimate) no less is held, so they wait again - the
	// selection rule asks for no less when less is free, which holds
	// for every request but those with GRES per job (docs/nodes.md).
	// Only the new entries are tried.
	from := 0
	if b.kept && !b.noKeep && !b.av && b.mf == nil && b.depth <= 1 && b.changes == b.keptAt && b.minInsert >= b.keptLen && b.perJob == 0 {
		from = b.keptLen
		if b.strict && from > 0 {
			from = len(b.w.q) // the head still waits: nothing passes it
		}
		if b.onReserve != nil {
			for i := range b.resv {
				b.onReserve(now, b.resv[i].id, b.resv[i].t)
			}
		}
	} else {
		b.ids = b.ids[:0]
		for i := range b.resv {
			b.ids = append(b.ids, b.resv[i].hold)
		}
		b.prof.RemoveAll(b.ids)
		if len(b.resv) > 0 {
			b.changes++
		}
		b.resv = b.resv[:0]
	}
	blocked := from > 0
	first, n := -1, 0
	waited, firstWait := from > 0, b.changes
	for qi := from; qi < len(b.w.q); qi++ {
		e := &b.w.q[qi]
		pr := &b.jobs[e.m].prep
		d := e.Estimate
		y := nodes.Span(now, d)
		enough := b.freeCores >= b.minCores[e.m]
		switch {
		case enough && len(b.resv) == 0 && !b.av && b.st.Select(pr, &b.cur):
			b.start(now, e, &b.cur, b.prof.AddSelection(now, y, &b.cur), blocked, plan)
		case enough && (len(b.resv) > 0 || b.av) && b.prof.Select(now, y, pr, &b.cur):
			b.start(now, e, &b.cur, b.prof.AddSelection(now, y, &b.cur), blocked, plan)
		case enough && len(b.resv) > 0 && b.mayRepair(y, pr.MinCores) && b.st.Select(pr, &b.tent) &&
			(!b.av || b.clearOfWindows(&b.tent, now, y)) && b.mayRepair(y, coresOf(&b.tent)) && b.repair(now, y):
			b.start(now, e, &b.tent, b.prof.AddSelection(now, y, &b.tent), blocked, plan)
		default:
			if len(b.resv) < b.depth {
				t, ok := b.prof.Earliest(now, d, pr, &b.cur)
				if !ok {
					b.fail(fmt.Errorf("policy %s: job %d: no reservation time at %g for request %s", b.name, e.ID, now, pr.R))
					break
				}
				b.reserve(now, e, t, d)
			}
			blocked = true
		}
		if e.started {
			if first < 0 {
				first = qi
			}
			n++
			if len(pr.R.GRESPerJob) > 0 {
				b.perJob--
			}
			continue
		}
		if !waited {
			waited, firstWait = true, b.changes
		}
		if b.strict || b.err != nil {
			break
		}
	}
	if n > 0 {
		for i := first; i < len(b.w.q); i++ {
			if b.w.q[i].started {
				b.freeJobs = append(b.freeJobs, b.w.q[i].m)
			}
		}
		b.w.compact(first, n)
	}
	// The reservations stay in the profile for the next pass to keep
	// (or remove first).
	b.kept = b.err == nil && b.changes == firstWait
	b.keptAt, b.keptLen, b.minInsert = b.changes, len(b.w.q), math.MaxInt
}

// mayRepair reports whether a job holding cores over [now, y) might be
// started by the repair, with one reservation (EASY): c at T must find
// its cores among those free at T once c is taken out and the job put
// in (the cores free at T, plus c's, less the job's: the pool's extra
// processors). With more reservations it says yes: the job's tentative
// hold may overlap those not placed again yet, and a node held beyond
// its cores makes the count no bound.
func (b *NodePolicy) mayRepair(y float64, cores int) bool {
	if b.noKeep || len(b.resv) != 1 || !(b.resv[0].t < y) {
		return true
	}
	c := &b.resv[0]
	return b.prof.FreeAt(c.t)+c.cores-cores >= b.jobs[c.slot].prep.MinCores
}

func coresOf(sel *nodes.Selection) int {
	n := 0
	for _, pk := range sel.Picks {
		n += pk.Cores
	}
	return n
}

// repair reports whether the job whose tentative selection is b.tent
// (over [now, y), beside the running and started jobs) can start: every
// reservation overlapping [now, y) is placed again at its own time,
// in queue order, beside the tentative hold and the others; if one
// cannot be, nothing changes.
func (b *NodePolicy) repair(now, y float64) bool {
	ok := false
	// A repair that fails leaves the plan as it was.
	b.prof.Restoring(func() bool { ok = b.repairOnce(now, y); return !ok })
	return ok
}

func (b *NodePolicy) repairOnce(now, y float64) bool {
	th := b.prof.AddSelection(now, y, &b.tent)
	b.moved = b.moved[:0]
	ok := true
	for ri := range b.resv {
		c := &b.resv[ri]
		if !(c.t < y) {
			continue
		}
		b.prof.Remove(c.hold)
		k := len(b.moved)
		if k == len(b.pend) {
			b.pend = append(b.pend, nodes.Selection{})
		}
		// The rule alone: the tentative hold may overlap reservations not
		// placed again yet, so a node may be held beyond its cores and the
		// profile's quick refusal does not hold.
		if !b.sel.Select(b.prof.Over(c.t, c.end), &b.jobs[c.slot].prep, &b.pend[k]) {
			c.hold = b.prof.AddSelection(c.t, c.end, &c.sel)
			ok = false
			break
		}
		b.moved = append(b.moved, movedResv{ri, b.prof.AddSelection(c.t, c.end, &b.pend[k])})
	}
	for k, m := range b.moved {
		c := &b.resv[m.ri]
		if ok {
			c.sel.CopyFrom(&b.pend[k])
			c.cores = coresOf(&c.sel)
			c.hold = m.hold
		} else {
			b.prof.Remove(m.hold)
			c.hold = b.prof.AddSelection(c.t, c.end, &c.sel)
		}
	}
	b.prof.Remove(th) // the caller holds the started job's own
	return ok
}

func (b *NodePolicy) reserve(now float64, e *entry, t, d float64) {
	if len(b.resv) < cap(b.resv) {
		b.resv = b.resv[:len(b.resv)+1] // the storage of an earlier pass's reservation
	} else {
		b.resv = append(b.resv, nodeResv{})
	}
	c := &b.resv[len(b.resv)-1]
	c.slot, c.id, c.t, c.end = e.m, e.ID, t, nodes.Span(t, d)
	c.sel.CopyFrom(&b.cur)
	c.cores = coresOf(&c.sel)
	c.hold = b.prof.AddSelection(c.t, c.end, &c.sel)
	b.changes++
	if b.onReserve != nil {
		b.onReserve(now, e.ID, t)
	}
}

func (b *NodePolicy) start(now float64, e *entry, sel *nodes.Selection, hold nodes.HoldID, blocked bool, plan *policy.Plan) {
	var s int32
	if k := len(b.freeRuns); k > 0 {
		s = b.freeRuns[k-1]
		b.freeRuns = b.freeRuns[:k-1]
	} else {
		b.runs = append(b.runs, nodeRun{})
		s = int32(len(b.runs) - 1)
	}
	// The slot's last allocation is released: its storage serves again
	// (the engine copies a start's allocation).
	a := b.runs[s].alloc
	b.st.AssignInto(sel, &a)
	cores := coresOf(sel)
	end := now + e.Estimate
	b.runs[s] = nodeRun{id: e.ID, start: now, end: end, alloc: a, hold: hold, cores: cores, live: true}
	b.runOf[e.ID] = s
	b.freeCores -= cores
	b.changes++
	heap.Push(&b.due, dueItem{end: end, slot: s, id: e.ID})
	e.started = true
	alloc := a
	plan.Starts = append(plan.Starts, policy.Start{ID: e.ID, Reason: reasonFor(blocked, now, &e.jobKey), Alloc: &alloc})
	if b.mf != nil {
		b.mf.started(e.ID, e.x.who, e.Procs, now)
	}
}
