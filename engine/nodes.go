package engine

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/internal/idmap"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
)

// NodeClusterConfig describes a simulation of a central queue over a
// platform of nodes (docs/nodes.md): jobs ask for nodes, cores, memory
// and GRES (job.Info.Req; nil: Procs tasks of one CPU), a NodeScheduler
// decides which waiting jobs start, and the model holds what each takes.
type NodeClusterConfig struct {
	Nodes    *nodes.Nodes
	Policy   policy.NodeScheduler
	Source   Source
	Listener Listener // may be nil
	// Continue lets a job run past its requested time; by default (false)
	// it is killed at the limit, as resource managers do.
	Continue bool
	// MaxWaiting ends the run with a *WaitingError once more than this
	// many jobs have arrived and not started (0: no bound).
	MaxWaiting int64
	// Partitions, when set, split the nodes into partitions, each with
	// its own policy (Policy must then be nil; nodeparts.go).
	Partitions []NodePartition
	// AllPartitions, with Partitions, makes every partition due for a
	// pass at every job end, not only the job's own partition (and the
	// partitions sharing its nodes): for policies whose passes depend on
	// the jobs of other partitions (policy.Traits.AllPartitions).
	AllPartitions bool
	// Availability, when set, makes nodes unavailable over announced
	// windows and by failures (nodeavail.go); the policy must implement
	// policy.NodeAvailabilityPlanner. Not with Partitions.
	Availability *NodeAvailability
}

// NodeCluster is one run of the central-queue model over a platform of
// nodes; build it with NewNodeCluster and call Run once. It is Cluster's
// model with a nodes.State in place of a count of free CPUs: the kernel's
// platform is one machine (speed 1) whose CPUs are the nodes' cores, so a
// job's CPUs (Start.CPUs, Record.CPUs) are its global core ids, and
// Start.Alloc and Record.Alloc say what it holds node by node.
type NodeCluster struct {
	kernel
	noCompletionsDone
	cfg   NodeClusterConfig
	ns    *nodes.Nodes
	state *nodes.State // what the running jobs hold
	// prep and pick are the allocation rule's scratch for a start the
	// policy leaves to the model (State.Alloc's, kept from start to start).
	prep  nodes.Prepared
	pick  nodes.Selection
	empty *nodes.State // always empty: the admission's "fits the platform"
	// present maps the id of every job waiting or running to its slot (a
	// slot's machine is -1 while it waits); waiting counts the former.
	present idmap.Map[job.ID, int32]
	waiting int
	mach    platform.Machine // the one machine of the kernel's platform
	plan    policy.Plan
	view    nodeView
	nu      NodeUsage    // Usage.Nodes
	kinds   []nodes.Kind // ns.Kinds(), sorted
	// procsFit caches whether an SWF job of p processors (no Req) fits
	// the empty platform.
	procsFit fitMemo
	cores    []int // scratch: a start's core ids
	wakes          // the policy's wake-ups (wake.go)
	caps     policy.Caps
	np       *nodeParts // the partitions (nil: none)
	av       *nodeAvail // unavailable nodes (nil: all always available)
}

// NewNodeCluster checks cfg and returns a simulation ready to Run.
func NewNodeCluster(cfg NodeClusterConfig) (*NodeCluster, error) {
	if cfg.Nodes == nil || cfg.Nodes.Len() == 0 {
		return nil, errors.New("engine: a platform of nodes is required")
	}
	if (cfg.Policy == nil && len(cfg.Partitions) == 0) || cfg.Source == nil {
		return nil, errors.New("engine: a policy and a source are required")
	}
	p, err := platform.Cluster(cfg.Nodes.Cores())
	if err != nil {
		return nil, fmt.Errorf("engine: the nodes' %d cores as one machine: %v", cfg.Nodes.Cores(), err)
	}
	c := &NodeCluster{cfg: cfg, ns: cfg.Nodes, state: nodes.NewState(cfg.Nodes), empty: nodes.NewState(cfg.Nodes),
		mach: p.Machine(0), kinds: cfg.Nodes.Kinds()}
	c.view = nodeView{c}
	if len(cfg.Partitions) > 0 {
		if err := c.initNodeParts(cfg.Partitions); err != nil {
			return nil, err
		}
	}
	c.init(p, cfg.Listener, cfg.Source)
	c.nu = NodeUsage{Platform: c.ns, Kinds: c.kinds, GRES: make([]int, len(c.kinds)), WaitingGRES: make([]int, len(c.kinds))}
	c.usage.Nodes = &c.nu
	c.caps = policy.CapsOf(c.cfg.Policy)
	c.maxWaiting = cfg.MaxWaiting
	if cfg.Availability != nil {
		if err := c.initNodeAvail(cfg.Availability); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Stats returns the kernel's counts (complete after Run).
func (c *NodeCluster) Stats() Stats { return c.stats }

// Caps is what the model's policy can do (policy.CapsOf, computed once
// in NewNodeCluster).
func (c *NodeCluster) Caps() policy.Caps { return c.caps }

// Nodes is the platform of nodes the model runs on.
func (c *NodeCluster) Nodes() *nodes.Nodes { return c.ns }

// Run simulates the whole workload. It returns an error if the source
// fails, a job is impossible, or the policy makes an invalid decision.
func (c *NodeCluster) Run() error {
	err := c.loop(c)
	if err == nil && c.av != nil {
		err = c.nodeAvailDone()
	}
	return err
}

// nodeView is the policy's read-only view of the model's nodes.State: it
// cannot be turned back into the model.
type nodeView struct{ c *NodeCluster }

func (v nodeView) Nodes() *nodes.Nodes               { return v.c.ns }
func (v nodeView) FreeCores(id int) int              { return v.c.state.FreeCores(id) }
func (v nodeView) FreeMemMB(id int) int64            { return v.c.state.FreeMemMB(id) }
func (v nodeView) FreeGRES(id int, k nodes.Kind) int { return v.c.state.FreeGRES(id, k) }
func (v nodeView) Jobs(id int) int                   { return v.c.state.Jobs(id) }
func (v nodeView) Whole(id int) bool                 { return v.c.state.Whole(id) }

// requestOf is what j asks of the nodes: its Req, or Procs tasks of one
// CPU.
func requestOf(j *actual.Job) nodes.Request {
	if j.Req != nil {
		return *j.Req
	}
	return nodes.FromProcs(j.Procs)
}

// admit refuses a job whose request is malformed or could never start,
// not even on the empty platform.
func (c *NodeCluster) admit(j *actual.Job, _ int) error {
	r := requestOf(j)
	if err := r.Check(); err != nil {
		return fmt.Errorf("job %d: request %s: %v", j.ID, r, err)
	}
	if c.np != nil {
		return c.np.admit(j, r)
	}
	if !c.fits(j, r) {
		return fmt.Errorf("job %d: request %s fits no set of nodes of the platform (%s), not even with every node free", j.ID, r, c.ns)
	}
	return nil
}

// fits reports whether r (j's request) fits the empty platform.
func (c *NodeCluster) fits(j *actual.Job, r nodes.Request) bool {
	if j.Req == nil {
		if ok, known := c.procsFit.get(j.Procs); known {
			return ok
		}
	}
	a, ok := c.empty.Alloc(r)
	if ok {
		c.empty.Release(a)
	}
	if j.Req == nil {
		c.procsFit.set(j.Procs, ok)
	}
	return ok
}

// arrive queues slot i, as Cluster's arrive.
func (c *NodeCluster) arrive(i int32) error {
	s := c.slots.at(i)
	if h, added := c.present.Add(s.job.ID, i); !added {
		return &AdmitError{Job: s.job.ID, Submit: s.job.Submit, Err: &DuplicateError{ID: s.job.ID, Holder: c.slots.at(h).job.Submit}}
	}
	c.jobEvent = true
	c.waiting++
	if q := c.waiting; q > c.stats.MaxQueued {
		c.stats.MaxQueued = q
	}
	c.countWaiting(&s.job, 1)
	c.cfg.Policy.Submit(c.now, s.job.Info())
	return nil
}

// countWaiting adds d to the waiting counts of Usage.Nodes for j.
func (c *NodeCluster) countWaiting(j *actual.Job, d int) {
	c.nu.Waiting += d
	if j.Req == nil || len(j.Req.GRESPerNode)+len(j.Req.GRESPerJob) == 0 {
		return
	}
	for k, kind := range c.kinds {
		if wantsKind(j.Req.GRESPerNode, kind) || wantsKind(j.Req.GRESPerJob, kind) {
			c.nu.WaitingGRES[k] += d
		}
	}
}

// wantsKind reports whether one of gs could use units of kind k.
func wantsKind(gs []nodes.GRES, k nodes.Kind) bool {
	for _, g := range gs {
		if g.Name == k.Name && (g.Type == "" || g.Type == k.Type) {
			return true
		}
	}
	return false
}

// decide is one scheduling pass, as Cluster's decide; a pass with
// preemptions is followed by another at the same instant (preempt.go).
func (c *NodeCluster) decide() error {
	for round := 0; ; round++ {
		if err := c.decideOnce(); err != nil {
			return err
		}
		if len(c.plan.Preempts) == 0 {
			return nil
		}
		if round >= MaxPreemptPasses {
			return fmt.Errorf("policy %s at t=%g: preempted jobs in %d passes in a row at this instant (engine.MaxPreemptPasses): its preemptions never settle",
				c.cfg.Policy.Name(), c.now, round+1)
		}
		c.jobEvent = true
	}
}

func (c *NodeCluster) decideOnce() error {
	c.stats.Passes++
	c.plan.Reset()
	c.cfg.Policy.Schedule(c.now, c.view, &c.plan)
	if c.caps.Fail != nil {
		if err := c.caps.Fail.Err(); err != nil {
			return err
		}
	}
	for _, d := range c.plan.Preempts {
		if err := c.preempt(d); err != nil {
			return err
		}
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
	return c.afterPass(&c.kernel, &c.plan, c.cfg.Policy.Name(), c.waiting)
}

// timer is a wake-up the policy asked for (Plan.Wake; the pass
// follows) or a change of availability (nodeavail.go).
func (c *NodeCluster) timer(ref int32) error {
	if ref <= refFailure {
		return c.nodeAvailTimer(ref)
	}
	c.woke = true
	return nil
}

func (c *NodeCluster) finish() error {
	if n := c.waiting; n > 0 && c.av != nil {
		down := 0
		for nd := range c.ns.Len() {
			if !c.av.usable(nd) {
				down++
			}
		}
		if down > 0 {
			return fmt.Errorf("%d job(s) never started: %d of the %d nodes are unavailable (down or reserved) at the end, t=%g, and no change of availability follows",
				n, down, c.ns.Len(), c.now)
		}
	}
	if n := c.waiting; n > 0 {
		return fmt.Errorf("policy %s: %d job(s) never started although all %d nodes are free at t=%g",
			c.cfg.Policy.Name(), n, c.ns.Len(), c.now)
	}
	return nil
}

// reject applies a rejection: the job must be waiting (not started in
// this pass either); it leaves the system without starting.
func (c *NodeCluster) reject(id job.ID) error {
	i, ok := c.present.Get(id)
	if !ok || c.slots.at(i).machine >= 0 {
		return fmt.Errorf("policy %s at t=%g: reject job %d: the job is not waiting", c.cfg.Policy.Name(), c.now, id)
	}
	c.present.Delete(id)
	c.waiting--
	c.countWaiting(&c.slots.at(i).job, -1)
	c.jobEvent = true
	c.rejectSlot(i)
	c.release(i)
	return nil
}

func (c *NodeCluster) bad(d *policy.Start, format string, a ...any) error {
	return fmt.Errorf("policy %s at t=%g: start job %d: %s", c.cfg.Policy.Name(), c.now, d.ID, fmt.Sprintf(format, a...))
}

// start validates decision d and applies it: the job must be waiting and
// the reason valid; an allocation the policy names (d.Alloc) must
// satisfy the job's request (Nodes.CheckAlloc) and be free
// (State.Occupy); without one the model allocates by the rule
// (State.Alloc), and a request that does not fit now is an error.
func (c *NodeCluster) start(d *policy.Start) error {
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
	r := requestOf(&s.job)
	var a nodes.Allocation
	estEnd := c.now + c.mach.Duration(s.job.Estimate, s.job.BMEst)
	if d.Alloc != nil {
		if err := c.ns.CheckAlloc(r, *d.Alloc); err != nil {
			return c.bad(d, "the allocation does not satisfy the request %s: %v", r, err)
		}
		if c.av != nil {
			if err := c.checkNodeStart(d, d.Alloc, estEnd); err != nil {
				return err
			}
		}
		if !c.state.Occupy(*d.Alloc) {
			err := c.state.CheckFree(*d.Alloc)
			if err == nil {
				err = errors.New("its resources are not free")
			}
			return c.bad(d, "%v", err)
		}
	} else if c.av != nil && len(c.av.windows) > 0 {
		if a, ok = c.allocClear(r, estEnd); !ok {
			return c.bad(d, "the request %s does not fit now on nodes clear of reservations until its estimated end t=%g", r, estEnd)
		}
	} else {
		if s.alloc == nil {
			s.alloc = new(nodeHold)
		}
		if !c.alloc(r, &s.alloc.own) {
			return c.bad(d, "the request %s does not fit now", r)
		}
		a = s.alloc.own
	}
	if s.alloc == nil {
		s.alloc = new(nodeHold)
	}
	if d.Alloc != nil {
		s.alloc.copyFrom(*d.Alloc) // the policy may keep and reuse its own
		a = s.alloc.a
	} else {
		s.alloc.a = a // the rule's, in the slot's storage
	}
	c.cores = c.cores[:0]
	for _, na := range a.Nodes {
		c.cores = append(c.cores, na.Cores...)
		c.nu.Cores += len(na.Cores)
		c.nu.MemMB += na.MemMB
		if c.state.Jobs(na.Node) == 1 {
			c.nu.NodesBusy++
		}
		for _, g := range na.GRES {
			c.nu.GRES[c.kindIndex(g.Kind)] += len(g.Units)
		}
	}
	if !slices.IsSorted(c.cores) { // nodes taken out of id order (weights)
		slices.Sort(c.cores)
	}
	c.runScratch = c.runScratch[:0]
	for _, core := range c.cores {
		c.runScratch = c.runScratch.Add(int32(core))
	}
	if cap(s.cpus) < len(c.runScratch) {
		s.cpus = c.cpuRoom(len(c.runScratch))
	}
	s.cpus = append(s.cpus[:0], c.runScratch...)
	s.machine = 0
	c.waiting--
	c.countWaiting(&s.job, -1)
	c.usage.Busy[0] += len(c.cores)
	dur := c.mach.Duration(s.job.Runtime, s.job.BMEst)
	if !c.cfg.Continue && s.job.Request > 0 {
		if limit := c.mach.Duration(s.job.Request, s.job.BMEst); dur > limit {
			dur, s.killed = limit, true
		}
	}
	if c.av != nil {
		c.holdNodes(i)
	}
	c.startSlot(i, d.Reason, 0)
	s.endAt = c.now + dur
	c.events.Push(s.endAt, ClassCompletion, i)
	return nil
}

// kindIndex is the index of kind k in c.kinds (k is of the platform: the
// allocation passed CheckAlloc or came from State.Alloc).
func (c *NodeCluster) kindIndex(k nodes.Kind) int {
	i, _ := slices.BinarySearchFunc(c.kinds, k, func(a, b nodes.Kind) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Type, b.Type))
	})
	return i
}

func (c *NodeCluster) complete(i int32) error {
	if (c.av != nil || c.stats.Preempted > 0) && c.voidCompletion(i) {
		return nil
	}
	s := c.slots.at(i)
	c.jobEvent = true
	c.releaseHold(i)
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

// releaseHold gives back what slot i's job holds on the nodes, and
// takes it out of the usage counts.
func (c *NodeCluster) releaseHold(i int32) {
	s := c.slots.at(i)
	if c.av != nil {
		c.unholdNodes(i)
	}
	c.state.Release(s.alloc.a)
	held := 0
	for _, na := range s.alloc.a.Nodes {
		held += len(na.Cores)
		c.nu.MemMB -= na.MemMB
		if c.state.Jobs(na.Node) == 0 {
			c.nu.NodesBusy--
		}
		for _, g := range na.GRES {
			c.nu.GRES[c.kindIndex(g.Kind)] -= len(g.Units)
		}
	}
	c.nu.Cores -= held
	c.usage.Busy[0] -= held
}

// nodeHold is what a slot's job holds on the nodes: its allocation, and
// storage that copies of later allocations reuse (a slot serves many
// jobs one after the other).
type nodeHold struct {
	a     nodes.Allocation
	own   nodes.Allocation // the allocation rule's, in storage of its own (State.AssignInto)
	nodes []nodes.NodeAlloc
	gres  []nodes.GRESUnits
	ints  []int // cores and units
}

// copyFrom makes h.a a deep copy of a, in h's storage.
func (h *nodeHold) copyFrom(a nodes.Allocation) {
	n, g := 0, 0
	for _, na := range a.Nodes {
		n += len(na.Cores)
		for _, u := range na.GRES {
			n += len(u.Units)
		}
		g += len(na.GRES)
	}
	if cap(h.ints) < n {
		h.ints = make([]int, 0, n)
	}
	if cap(h.gres) < g {
		h.gres = make([]nodes.GRESUnits, 0, g)
	}
	ints, gres := h.ints[:0], h.gres[:0]
	h.nodes = h.nodes[:0]
	for _, na := range a.Nodes {
		k := len(ints)
		ints = append(ints, na.Cores...)
		na.Cores = ints[k:len(ints):len(ints)]
		if na.GRES != nil {
			j := len(gres)
			for _, u := range na.GRES {
				k := len(ints)
				ints = append(ints, u.Units...)
				gres = append(gres, nodes.GRESUnits{Kind: u.Kind, Units: ints[k:len(ints):len(ints)]})
			}
			na.GRES = gres[j:len(gres):len(gres)]
		}
		h.nodes = append(h.nodes, na)
	}
	h.ints, h.gres = ints, gres
	h.a = nodes.Allocation{Nodes: h.nodes, Exclusive: a.Exclusive}
}

// allocation is what the slot's job holds on the nodes (nil in the
// models without nodes).
func (s *slot) allocation() *nodes.Allocation {
	if s.alloc == nil {
		return nil
	}
	return &s.alloc.a
}

// alloc is nodes.State.Alloc of r on what runs now, into a (its
// storage reused: a must not be held), with the rule's scratch kept from
// start to start.
func (c *NodeCluster) alloc(r nodes.Request, a *nodes.Allocation) bool {
	sel := c.state.Selector()
	if err := sel.PrepareInto(r, &c.prep); err != nil {
		return false
	}
	return c.state.AllocInto(&c.prep, &c.pick, a)
}

// fitMemo remembers whether a job of p processors and no request of
// its own (tasks of one CPU) fits a platform when it is empty: the same
// few sizes come again and again. Sizes up to maxFitMemo are kept, in
// a slice (a map lookup per job showed in profiles); larger ones are
// worked out each time.
type fitMemo struct {
	known []int8 // per size: 0 unknown, 1 fits, 2 does not
}

const maxFitMemo = 1 << 16

// get is what is known of size p.
func (m *fitMemo) get(p int) (ok, known bool) {
	if p < 0 || p >= len(m.known) || m.known[p] == 0 {
		return false, false
	}
	return m.known[p] == 1, true
}

// set keeps that size p fits (ok) or not.
func (m *fitMemo) set(p int, ok bool) {
	if p < 0 || p >= maxFitMemo {
		return
	}
	if p >= len(m.known) {
		m.known = append(m.known, make([]int8, p+1-len(m.known))...)
	}
	m.known[p] = 2
	if ok {
		m.known[p] = 1
	}
}
