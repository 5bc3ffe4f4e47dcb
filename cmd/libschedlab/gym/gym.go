package gym

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy/external"
)

// The default observation's layout (DefaultFeatures): Features numbers
// per slot of the window, then MachineFeatures for the machine.
const (
	Features        = 5 // present, CPUs, estimate, waited, fits now
	MachineFeatures = 3 // free CPUs, running jobs, waiting jobs
)

// Config is the environment's shape and scales (SchedulingEnv's window,
// time_scale and queue_scale).
type Config struct {
	Window     int     // slots, >= 1
	TimeScale  float64 // seconds that map to 1 (estimate, waited)
	QueueScale float64 // waiting jobs that map to 1
	// Features names the observation's numbers (Declared); empty is
	// DefaultFeatures (DefaultNodeFeatures on nodes).
	Features []string
	// Nodes, for a run on a platform of nodes, is that platform (the
	// run's node groups, as the run parses them): the observation's size
	// depends on it (its nodes and GRES kinds), and the Env keeps what
	// is free on it to tell which jobs fit (nodes.State: the engine's
	// selection rule). nil on a pool of CPUs.
	Nodes *nodes.Nodes
	// Power, when the run has a power model (its IDLE_W and COMPUTE_W:
	// watts a CPU, on nodes a node, draws idle and running jobs), gives
	// the feature "power"; nil: none (the feature is refused).
	Power *[2]float64
}

// Runner is a run driven one instant at a time (*inproc.Sim): Next
// hands it the decision for the current instant and returns the next
// request, nil at the end (with the run's failure, if any).
type Runner interface {
	Next(external.Decision) (*external.Request, error)
}

// Env is one episode: a run and the window over its queue. Build it
// with New, call Start once, then Step until it returns false.
type Env struct {
	cfg  Config
	run  Runner
	obs  []float32 // the caller's: Window*Features + MachineFeatures
	mask []int8    // the caller's: Window

	req   *external.Request // the current instant's request
	now   float64           // its time (the last request's after the end)
	cpus  float64           // the platform's CPUs, all machines
	free  int               // CPUs of machine 0 still free at this instant
	rows  []int             // the window: per slot, its job's index in req.Waiting
	next  int               // the first index in req.Waiting not yet in the window
	picks []external.Exec   // this instant's picks, in order
	wait  float64           // the wait of the job the last Step started

	lay     Layout
	F       int // slot features
	fitsAt  int // "fits" in a slot's features, -1 if not chosen
	freeAt  int // "free_cpus" in the machine's, -1 if not chosen
	powerAt int // "power" in the machine's, -1 if not chosen
	users   bool
	track   bool              // the running jobs are kept (user_usage, running_remaining_*)
	running []runJob          // in start order
	used    map[int32]float64 // per user: CPU-seconds of the jobs ended
	uwait   map[int32]int     // per user: waiting jobs at this instant
	uuse    map[int32]float64 // per user: CPU-seconds used by now

	// on a platform of nodes (cfg.Nodes): the nodes' use by the
	// episode's starts (the engine's, as the starts are placed by the
	// same rule on the same state), each started job's allocation, the
	// scratch of the fit test, the scales of the request and node
	// features
	nd *nodeSide

	started, ended bool
}

// nodeSide is what an Env on a platform of nodes keeps.
type nodeSide struct {
	ns    *nodes.Nodes
	kinds []nodes.Kind
	state *nodes.State
	held  map[job.ID]nodes.Allocation
	prep  nodes.Prepared
	sel   nodes.Selection
	W     int // numbers per node
	// scales: the platform's nodes and cores, the largest node's CPUs,
	// memory and memory per CPU, per kind the most units on a node and
	// the platform's units
	nodes, cores, cpus, mem, memPerCPU float64
	unitsNode, unitsAll                []float64
}

func newNodeSide(ns *nodes.Nodes, lay Layout) *nodeSide {
	d := &nodeSide{ns: ns, kinds: ns.Kinds(), state: nodes.NewState(ns), held: map[job.ID]nodes.Allocation{},
		nodes: float64(ns.Len()), cores: float64(ns.Cores())}
	d.W = lay.NodeWidth(len(d.kinds))
	d.unitsNode, d.unitsAll = make([]float64, len(d.kinds)), make([]float64, len(d.kinds))
	for id := range ns.Len() {
		nd := ns.Node(id)
		d.cpus = max(d.cpus, float64(nd.CPUs()))
		d.mem = max(d.mem, float64(nd.MemMB))
		d.memPerCPU = max(d.memPerCPU, float64(nd.MemMB)/float64(nd.CPUs()))
		for k, kind := range d.kinds {
			d.unitsNode[k] = max(d.unitsNode[k], float64(nd.GRESCount(kind)))
		}
	}
	for k, kind := range d.kinds {
		d.unitsAll[k] = float64(ns.GRESTotal(kind))
	}
	return d
}

// requestOf is what j asks of the nodes: its Req, or Procs tasks of one
// CPU (as the engine reads it).
func requestOf(j *job.Info) nodes.Request {
	if j.Req != nil {
		return *j.Req
	}
	return nodes.FromProcs(j.Procs)
}

// fits reports whether j's request fits what is free now, by the
// engine's selection rule (nothing is taken).
func (d *nodeSide) fits(j *job.Info) bool {
	if err := d.state.Selector().PrepareInto(requestOf(j), &d.prep); err != nil {
		return false
	}
	return d.state.Select(&d.prep, &d.sel)
}

// ratio is x / scale, 0 when scale is 0.
func ratio(x, scale float64) float64 {
	if scale == 0 {
		return 0
	}
	return x / scale
}

// serves reports whether units of kind k serve g (g of type "": any
// type of its name).
func serves(g nodes.GRES, k nodes.Kind) bool {
	return k.Name == g.Name && (g.Type == "" || k.Type == g.Type)
}

// units is the count of gs that kind k serves.
func units(gs []nodes.GRES, k nodes.Kind) float64 {
	n := 0
	for _, g := range gs {
		if serves(g, k) {
			n += g.Count
		}
	}
	return float64(n)
}

// runJob is a job the episode started and that has not ended.
type runJob struct {
	id       job.ID
	user     int32
	procs    int
	start    float64
	estimate float64
}

// New prepares an episode on run, which must not have been stepped yet.
// obs and mask are the caller's buffers, which the Env fills (zeroed
// here); they must stay valid until the episode ends.
func New(run Runner, cfg Config, obs []float32, mask []int8) (*Env, error) {
	if cfg.Window < 1 {
		return nil, fmt.Errorf("gym: window %d (want >= 1)", cfg.Window)
	}
	for _, sc := range []struct {
		name string
		v    float64
	}{{"time_scale", cfg.TimeScale}, {"queue_scale", cfg.QueueScale}} {
		if !(sc.v > 0) || math.IsInf(sc.v, 0) {
			return nil, fmt.Errorf("gym: %s=%g: want a finite number > 0", sc.name, sc.v)
		}
	}
	lay, err := ParseFeaturesOn(cfg.Features, cfg.Nodes != nil)
	if err != nil {
		return nil, err
	}
	if cfg.Power == nil && slices.Contains(lay.Machine, mPower) {
		return nil, errors.New(`gym: the feature "power" needs a power model (power="IDLE_W:COMPUTE_W")`)
	}
	size := lay.Size(cfg.Window)
	if cfg.Nodes != nil {
		size = lay.SizeOn(cfg.Window, cfg.Nodes.Len(), len(cfg.Nodes.Kinds()))
	}
	if len(obs) != size || len(mask) != cfg.Window {
		return nil, fmt.Errorf("gym: buffers of %d and %d elements for a window of %d (want %d and %d)",
			len(obs), len(mask), cfg.Window, size, cfg.Window)
	}
	clear(obs)
	clear(mask)
	e := &Env{cfg: cfg, run: run, obs: obs, mask: mask, rows: make([]int, 0, cfg.Window),
		lay: lay, F: len(lay.Slot), fitsAt: slotOffset(lay, fFits, 0), freeAt: slices.Index(lay.Machine, mFree), powerAt: slices.Index(lay.Machine, mPower)}
	if cfg.Nodes != nil {
		e.nd = newNodeSide(cfg.Nodes, lay)
		e.F, e.fitsAt = lay.SlotWidth(len(e.nd.kinds)), slotOffset(lay, fFits, len(e.nd.kinds))
	}
	for _, k := range lay.Slot {
		e.users = e.users || k == fUserWaiting || k == fUserUsage
		e.track = e.track || k == fUserUsage
	}
	for _, k := range lay.Machine {
		e.track = e.track || k == mRemainingMean || k == mRemainingMin
	}
	if e.users {
		e.uwait, e.uuse = map[int32]int{}, map[int32]float64{}
	}
	if e.track {
		e.used = map[int32]float64{}
	}
	return e, nil
}

// slotOffset is the offset of feature f in a slot's numbers (kinds GRES
// kinds), -1 when not chosen.
func slotOffset(l Layout, f, kinds int) int {
	at := 0
	for _, k := range l.Slot {
		if k == f {
			return at
		}
		at += width(k, kinds)
	}
	return -1
}

// Wait is the wait (now - submit time) of the job the last Step started.
func (e *Env) Wait() float64 { return e.wait }

// Now is the current instant's time (after the end, the last request's).
func (e *Env) Now() float64 { return e.now }

// Ended reports whether the run has ended (Step then fails).
func (e *Env) Ended() bool { return e.ended }

// Start runs to the first instant at which some job of the window fits
// and fills the observation and the mask; false when the run ended
// before (or failed: err).
func (e *Env) Start() (bool, error) {
	if e.started {
		return false, errors.New("gym: Start called twice")
	}
	e.started = true
	return e.advance()
}

// Step starts the job of slot action at this instant; an action that is
// not legal (out of range, or its slot's mask 0) is replaced by the
// first legal slot, and replaced says so. It then fills the observation
// and the mask of the next decision and returns true, or returns false
// at the end of the run (or on its failure: err).
func (e *Env) Step(action int) (ok, replaced bool, err error) {
	if !e.started || e.ended {
		return false, false, errors.New("gym: Step before Start or after the end")
	}
	n, F, o := len(e.rows), e.F, e.obs
	replaced = action < 0 || action >= n || e.mask[action] == 0
	if replaced {
		action = 0
		for e.mask[action] == 0 { // (an instant always has a legal slot)
			action++
		}
	}
	j := &e.req.Waiting[e.rows[action]]
	e.wait = e.now - j.Submit
	e.picks = append(e.picks, external.Exec{ID: j.ID})
	if e.track {
		e.running = append(e.running, runJob{id: j.ID, user: j.User, procs: j.Procs, start: e.now, estimate: j.Estimate})
	}
	if e.nd != nil {
		// placed by the engine's rule on the engine's state: the same
		// allocation as the engine's (fits said it fits)
		a, ok := e.nd.state.Alloc(requestOf(j))
		if !ok {
			return false, replaced, fmt.Errorf("gym: job %d does not fit the nodes at t=%g, though its slot's mask said so (a bug)", j.ID, e.now)
		}
		e.nd.held[j.ID] = a
		for _, na := range a.Nodes {
			e.free -= len(na.Cores)
		}
	} else {
		e.free -= j.Procs
	}
	// the slot leaves the window: the later ones move up one, and the
	// next waiting job (if any) enters the last slot
	copy(o[action*F:(n-1)*F], o[(action+1)*F:n*F])
	e.rows = append(e.rows[:action], e.rows[action+1:]...)
	if e.next < len(e.req.Waiting) {
		e.row(n-1, e.next)
		e.rows = append(e.rows, e.next)
		e.next++
	} else {
		clear(o[(n-1)*F : n*F])
		e.mask[n-1] = 0
	}
	if e.fits() {
		return true, replaced, nil
	}
	ok, err = e.advance()
	return ok, replaced, err
}

// advance hands the instant's picks to the run and runs on to the next
// instant at which some job of the window fits; false at the end.
func (e *Env) advance() (bool, error) {
	for {
		r, err := e.run.Next(external.Decision{Starts: e.picks})
		e.picks = e.picks[:0]
		if r != nil && r.Ends { // (its decision is ignored)
			e.now = r.Now
			r, err = e.run.Next(external.Decision{})
		}
		if r == nil {
			e.ended, e.req = true, nil
			return false, err
		}
		e.now = r.Now
		if e.track {
			e.ends(r)
		}
		if err := e.nodesAt(r); err != nil {
			return false, err
		}
		if e.instant(r) {
			return true, nil
		}
	}
}

// nodesAt releases, on a platform of nodes, the jobs r reports ended and
// checks the Env's state of the nodes against the engine's view for the
// nodes r reports changed; an error if they differ, or if the run's
// platform is not Config's.
func (e *Env) nodesAt(r *external.Request) error {
	switch {
	case e.nd == nil && r.Nodes == nil:
		return nil
	case e.nd == nil:
		return errors.New("gym: the run is on a platform of nodes: give its nodes (Config.Nodes)")
	case r.Nodes == nil:
		return errors.New("gym: Config.Nodes is set, but the run is on a pool of CPUs")
	}
	d := e.nd
	if ns := r.Nodes.Nodes(); ns.Len() != d.ns.Len() || ns.Cores() != d.ns.Cores() || !slices.Equal(ns.Kinds(), d.kinds) {
		return errors.New("gym: the run's platform of nodes is not Config.Nodes")
	}
	for _, id := range r.Completed {
		if a, ok := d.held[id]; ok {
			d.state.Release(a)
			delete(d.held, id)
		}
	}
	for _, id := range r.Changed {
		ok := d.state.FreeCores(id) == r.Nodes.FreeCores(id) && d.state.FreeMemMB(id) == r.Nodes.FreeMemMB(id)
		for _, k := range d.kinds {
			ok = ok && d.state.FreeGRES(id, k) == r.Nodes.FreeGRES(id, k)
		}
		if !ok {
			return fmt.Errorf("gym: at t=%g node %s: the environment's free amounts are not the engine's (a bug)", r.Now, d.ns.Name(id))
		}
	}
	return nil
}

// instant builds the window of a new instant, nothing picked yet, and
// reports whether some job of it fits.
func (e *Env) instant(r *external.Request) bool {
	if e.cpus == 0 {
		e.cpus = float64(r.Platform.CPUs())
	}
	e.req = r
	if e.users {
		e.perUser(r)
	}
	n, was := min(len(r.Waiting), e.cfg.Window), len(e.rows)
	e.rows = e.rows[:0]
	for k := range n {
		e.row(k, k)
		e.rows = append(e.rows, k)
	}
	if was > n { // (beyond the window, the slots are kept at 0)
		clear(e.obs[n*e.F : was*e.F])
		clear(e.mask[n:was])
	}
	e.next = n
	e.free = r.Free[0]
	e.machine(r)
	return e.fits()
}

// machine writes the machine's features but free_cpus (fits writes it).
func (e *Env) machine(r *external.Request) {
	o := e.obs[e.cfg.Window*e.F:]
	for m, k := range e.lay.Machine {
		switch k {
		case mRunning:
			o[m] = clip(float64(r.Running) / e.cpus)
		case mWaiting:
			o[m] = clip(float64(len(r.Waiting)) / e.cfg.QueueScale)
		case mRemainingMean, mRemainingMin:
			sum, least := 0.0, math.Inf(1)
			for _, j := range e.running {
				left := max(0, j.start+j.estimate-e.now)
				sum += left
				least = min(least, left)
			}
			v := 0.0
			if len(e.running) > 0 {
				v = least
				if k == mRemainingMean {
					v = sum / float64(len(e.running))
				}
			}
			o[m] = clip(v / e.cfg.TimeScale)
		case mQueueWork:
			w := 0.0
			for i := range r.Waiting {
				w += float64(r.Waiting[i].Procs) * r.Waiting[i].Estimate
			}
			o[m] = clip(w / (e.cpus * e.cfg.TimeScale))
		}
	}
}

// ends takes the jobs that r reports ended out of the running ones (they
// ended at r's time: the engine asks at every end) and adds their use
// to their users'.
func (e *Env) ends(r *external.Request) {
	for _, id := range r.Completed {
		k := slices.IndexFunc(e.running, func(j runJob) bool { return j.id == id })
		if k < 0 {
			continue // (not started by this episode: none is)
		}
		j := e.running[k]
		e.used[j.user] += float64(j.procs) * (r.Now - j.start)
		e.running = slices.Delete(e.running, k, k+1)
	}
}

// perUser counts the instant's waiting jobs and used CPU-seconds per
// user (maps read by key only: no iteration order reaches a number).
func (e *Env) perUser(r *external.Request) {
	clear(e.uwait)
	clear(e.uuse)
	for i := range r.Waiting {
		e.uwait[r.Waiting[i].User]++
	}
	if !e.track {
		return
	}
	for i := range r.Waiting {
		u := r.Waiting[i].User
		if _, ok := e.uuse[u]; !ok {
			use := e.used[u]
			for _, j := range e.running {
				if j.user == u {
					use += float64(j.procs) * (e.now - j.start)
				}
			}
			e.uuse[u] = use
		}
	}
}

// row writes the features of queue index k into slot s, "fits now" 0
// (fits sets it).
func (e *Env) row(s, k int) {
	j := &e.req.Waiting[k]
	o := e.obs[s*e.F : (s+1)*e.F]
	if e.nd != nil {
		e.rowOnNodes(o, j)
		return
	}
	for f, k := range e.lay.Slot {
		o[f] = e.slotFeature(k, j)
	}
}

// slotFeature is the value of slot feature k for job j: the features
// of any platform (0 for the others, and "fits now", which fits sets).
func (e *Env) slotFeature(k int, j *job.Info) float32 {
	switch k {
	case fPresent:
		return 1
	case fCPUs:
		return clip(float64(j.Procs) / e.cpus)
	case fEstimate:
		return clip(j.Estimate / e.cfg.TimeScale)
	case fWait:
		return clip((e.now - j.Submit) / e.cfg.TimeScale)
	case fUserWaiting:
		return clip(float64(e.uwait[j.User]) / e.cfg.QueueScale)
	case fUserUsage:
		return clip(e.uuse[j.User] / (e.cpus * e.cfg.TimeScale))
	}
	return 0
}

// rowOnNodes is row on a platform of nodes: the request features take
// a number each, or one per GRES kind.
func (e *Env) rowOnNodes(o []float32, j *job.Info) {
	d := e.nd
	q := requestOf(j)
	f := 0
	for _, k := range e.lay.Slot {
		switch k {
		case fPresent, fCPUs, fEstimate, fWait, fFits, fUserWaiting, fUserUsage:
			o[f] = e.slotFeature(k, j)
		case fReqNodes:
			o[f] = clip(ratio(float64(q.Nodes), d.nodes))
		case fReqTasks:
			o[f] = clip(ratio(float64(q.Tasks), d.cores))
		case fReqCPUsPerTask:
			o[f] = clip(ratio(float64(q.CPUsPerTask), d.cpus))
		case fReqMemPerNode:
			o[f] = clip(ratio(float64(q.MemPerNodeMB), d.mem))
		case fReqMemPerCPU:
			o[f] = clip(ratio(float64(q.MemPerCPUMB), d.memPerCPU))
		case fReqGRESPerNode:
			for i, kind := range d.kinds {
				o[f+i] = clip(ratio(units(q.GRESPerNode, kind), d.unitsNode[i]))
			}
		case fReqGRESPerJob:
			for i, kind := range d.kinds {
				o[f+i] = clip(ratio(units(q.GRESPerJob, kind), d.unitsAll[i]))
			}
		case fReqExclusive:
			o[f] = 0
			if q.Exclusive {
				o[f] = 1
			}
		}
		f += width(k, len(d.kinds))
	}
}

// nodeObs writes the nodes' features: what is free on each node now.
func (e *Env) nodeObs() {
	d := e.nd
	if d.W == 0 {
		return
	}
	o := e.obs[e.cfg.Window*e.F+len(e.lay.Machine):]
	for id := range d.ns.Len() {
		nd := d.ns.Node(id)
		x := o[id*d.W : (id+1)*d.W]
		f := 0
		for _, k := range e.lay.Node {
			switch k {
			case nFreeCores:
				x[f] = clip(ratio(float64(d.state.FreeCores(id)), float64(nd.Cores())))
			case nFreeMem:
				x[f] = 1
				if nd.MemMB > 0 {
					x[f] = clip(float64(d.state.FreeMemMB(id)) / float64(nd.MemMB))
				}
			case nFreeGRES:
				for i, kind := range d.kinds {
					x[f+i] = clip(ratio(float64(d.state.FreeGRES(id, kind)), float64(nd.GRESCount(kind))))
				}
			}
			f += width(k, len(d.kinds))
		}
	}
}

// fits marks the slots whose job fits the CPUs still free (mask and
// "fits now") and the free CPUs; false when none fits (the instant is
// over).
func (e *Env) fits() bool {
	some := false
	for s, k := range e.rows {
		var f int8
		if e.nd != nil {
			if e.nd.fits(&e.req.Waiting[k]) {
				f, some = 1, true
			}
		} else if e.req.Waiting[k].Procs <= e.free {
			f, some = 1, true
		}
		e.mask[s] = f
		if e.fitsAt >= 0 {
			e.obs[s*e.F+e.fitsAt] = float32(f)
		}
	}
	if some && e.freeAt >= 0 {
		e.obs[e.cfg.Window*e.F+e.freeAt] = clip(float64(e.free) / e.cpus)
	}
	if some && e.nd != nil {
		e.nodeObs()
	}
	if some && e.powerAt >= 0 {
		e.obs[e.cfg.Window*e.F+e.powerAt] = clip(e.power())
	}
	return some
}

// power is the machine's watts at this instant over its most
// (Config.Power; the feature "power"): on a pool of CPUs
// (IDLE_W x CPUs + (COMPUTE_W - IDLE_W) x CPUs busy) / (COMPUTE_W x
// CPUs); on nodes the sum over the nodes of IDLE_W + (COMPUTE_W -
// IDLE_W) x cores held / cores, over COMPUTE_W x nodes (0 when
// COMPUTE_W is 0).
func (e *Env) power() float64 {
	idle, compute := e.cfg.Power[0], e.cfg.Power[1]
	if e.nd == nil {
		return ratio(idle*e.cpus+(compute-idle)*(e.cpus-float64(e.free)), compute*e.cpus)
	}
	w := 0.0
	for id := range e.nd.ns.Len() {
		c := float64(e.nd.ns.Node(id).Cores())
		w += idle + (compute-idle)*ratio(c-float64(e.nd.state.FreeCores(id)), c)
	}
	return ratio(w, compute*float64(e.nd.ns.Len()))
}

// clip is x in [0, 1] as a float32 (NaN stays NaN, as numpy's clip).
func clip(x float64) float32 {
	switch {
	case x > 1:
		return 1
	case x < 0:
		return 0
	}
	return float32(x)
}
