package engine

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// GangConfig describes the two-site grid of dimitriadou-karatza-2010:
// sites of processors (one machine of the platform per site) with
// per-processor FCFS queues; local jobs arrive at each site, gangs at the
// grid scheduler.
type GangConfig struct {
	Platform platform.Platform // one machine per site
	Policy   policy.GangPolicy // grid- and local-level decisions
	Locals   []Source          // one per site: sequential jobs
	Gangs    Source            // gangs (Tasks set)
	Listener Listener
	// SplitOverhead stretches every task of a gang placed on several
	// sites: runtime and estimate x (1 + SplitOverhead).
	SplitOverhead float64
	// StopAfter ends the run after this many completed jobs, locals and
	// gangs together (0: when the sources are exhausted).
	StopAfter int64
	// MaxWaiting ends the run with a *WaitingError once more than this
	// many jobs have arrived and not started (0: no bound).
	MaxWaiting int64
}

// gEntry is a queue entry or a running thing: a local job (task -1) or a
// gang task.
type gEntry struct {
	slot int32
	task int32
}

type gProc struct {
	queue     fifo[gEntry]
	executing bool
	running   gEntry
	estEnd    float64
}

type gangState struct {
	procs     []policy.ProcRef
	remaining int
	split     bool
}

// GangGrid is one run of the gang model; build it with NewGangGrid.
type GangGrid struct {
	kernel
	noTimers
	cfg      GangConfig
	sites    [][]gProc
	gangs    map[int32]*gangState
	gsQueue  []int32    // slots of gangs waiting at the grid scheduler, oldest first
	gsInfo   []job.Info // their policy views, kept alongside
	gsView   []job.Info // the copy of gsInfo a policy is handed
	freed    []policy.ProcRef
	emptied  bool // a queue became empty during this instant's departures
	every    bool // the policy examines its queue after every departure (policy.QueueExaminer)
	sitesBuf []int
}

// NewGangGrid checks cfg and returns a simulation ready to Run.
func NewGangGrid(cfg GangConfig) (*GangGrid, error) {
	p := cfg.Platform
	if p.Machines() == 0 || len(cfg.Locals) != p.Machines() {
		return nil, errors.New("engine: the gang model needs sites and one local source per site")
	}
	if cfg.Policy == nil || cfg.Gangs == nil {
		return nil, errors.New("engine: a gang policy and a gang source are required")
	}
	if !(cfg.SplitOverhead >= 0) || math.IsInf(cfg.SplitOverhead, 1) {
		return nil, fmt.Errorf("engine: split overhead must be finite and >= 0, got %g", cfg.SplitOverhead)
	}
	g := &GangGrid{cfg: cfg, gangs: map[int32]*gangState{}}
	if e := policy.CapsOf(cfg.Policy).Examine; e != nil {
		g.every = e.ExamineEveryDeparture()
	}
	for m := 0; m < p.Machines(); m++ {
		g.sites = append(g.sites, make([]gProc, p.Machine(m).CPUs))
	}
	g.init(p, cfg.Listener, append(append([]Source(nil), cfg.Locals...), cfg.Gangs)...)
	g.stopAfter = cfg.StopAfter
	g.maxWaiting = cfg.MaxWaiting
	return g, nil
}

// Run simulates until the stopping rule.
func (g *GangGrid) Run() error { return g.loop(g) }

// Stats returns the kernel's counts (complete after Run).
func (g *GangGrid) Stats() Stats { return g.stats }

func (g *GangGrid) isGangStream(k int) bool { return k == len(g.sites) }

func (g *GangGrid) admit(j *actual.Job, k int) error {
	gang := g.isGangStream(k)
	switch {
	case gang && (len(j.Tasks) != j.Procs || j.Procs < 1):
		return fmt.Errorf("gang %d: %d tasks for %d processors", j.ID, len(j.Tasks), j.Procs)
	case !gang && (j.Procs != 1 || j.Tasks != nil):
		return fmt.Errorf("local job %d: local jobs are sequential (1 processor, no tasks)", j.ID)
	case j.Procs > g.plat.CPUs():
		return fmt.Errorf("gang %d: %d tasks, the grid has %d processors", j.ID, j.Procs, g.plat.CPUs())
	}
	for _, t := range j.Tasks {
		if !(t.Runtime >= 0) || !(t.Estimate >= 0) {
			return fmt.Errorf("gang %d: invalid task runtime %g or estimate %g", j.ID, t.Runtime, t.Estimate)
		}
	}
	return nil
}

// gangView is the policy's read-only view: it cannot be turned back into
// the model.
type gangView struct{ g *GangGrid }

func (v gangView) Sites() int      { return len(v.g.sites) }
func (v gangView) Procs(s int) int { return len(v.g.sites[s]) }
func (v gangView) Proc(s, p int) policy.ProcState {
	pr := &v.g.sites[s][p]
	st := policy.ProcState{Executing: pr.executing, Waiting: pr.queue.len(), EstEnd: max(pr.estEnd, v.g.now)}
	if st.Waiting > 0 {
		st.HeadGang = pr.queue.peek().task >= 0
	}
	return st
}

func (v gangView) GangStart(s, p int) float64 {
	g := v.g
	pr := &g.sites[s][p]
	if pr.queue.len() == 0 || pr.queue.peek().task < 0 {
		return g.now
	}
	gs := g.gangs[pr.queue.peek().slot]
	t := g.now
	for _, r := range gs.procs {
		q := &g.sites[r.Site][r.Proc]
		if q.executing {
			t = max(t, q.estEnd)
		}
	}
	return t
}

func (v gangView) WaitingLocals(s, p int) (pos []int, est []float64) {
	g := v.g
	pr := &g.sites[s][p]
	for k := 0; k < pr.queue.len(); k++ {
		if e := pr.queue.at(k); e.task < 0 {
			pos = append(pos, k)
			est = append(est, g.slots.at(e.slot).job.Estimate)
		}
	}
	return pos, est
}

func (g *GangGrid) view() gangView { return gangView{g} }

// completionsDone: freed processors take their next job; then the grid
// scheduler examines its queue if a departure left a queue empty (a queue
// emptied by a freed processor taking its next job, or by a gang that
// this departure let start, counts), or after every departure if the
// policy asks for it (policy.QueueExaminer).
func (g *GangGrid) completionsDone() error {
	if len(g.freed) == 0 {
		return nil
	}
	g.emptied = false
	for _, r := range g.freed {
		if err := g.next(r.Site, r.Proc); err != nil {
			return err
		}
		if g.sites[r.Site][r.Proc].queue.len() == 0 {
			g.emptied = true
		}
	}
	g.freed = g.freed[:0]
	if g.emptied || g.every {
		return g.examineQueue()
	}
	return nil
}

// decide counts the instant: the gang model's decisions are taken as
// events come (arrivals, freed processors), not in one pass.
func (g *GangGrid) decide() error {
	g.stats.Passes++
	return nil
}

// finish reports gangs left in the grid scheduler's queue when no event
// is left: every processor is then idle, so a policy that still holds
// them back would hold them forever (a run that stops after N completions
// never gets here).
func (g *GangGrid) finish() error {
	if n := len(g.gsQueue); n > 0 {
		return fmt.Errorf("gang policy %s: %d gang(s) never started although every processor is idle at t=%g", g.cfg.Policy.Name(), n, g.now)
	}
	return nil
}

func (g *GangGrid) arrive(i int32) error {
	sl := g.slots.at(i)
	k := int(sl.stream)
	if g.isGangStream(k) {
		pl, ok := g.cfg.Policy.PlaceArrival(g.now, sl.job.Info(), g.view())
		if !ok {
			g.gsQueue = append(g.gsQueue, i)
			g.gsInfo = append(g.gsInfo, sl.job.Info())
			if q := len(g.gsQueue); q > g.stats.MaxQueued {
				g.stats.MaxQueued = q
			}
			return nil
		}
		return g.place(i, pl)
	}
	p := g.cfg.Policy.RouteLocal(g.now, k, sl.job.Info(), g.view())
	if p < 0 || p >= len(g.sites[k]) {
		return fmt.Errorf("policy %s at t=%g: local job %d: no processor %d at site %d", g.cfg.Policy.Name(), g.now, sl.job.ID, p, k)
	}
	cpu := int32(g.plat.First(k) + p)
	sl.cpus, sl.machine = append(sl.cpus[:0], cpu, cpu), int32(k)
	pr := &g.sites[k][p]
	pr.queue.push(gEntry{slot: i, task: -1})
	g.usage.Jobs[k]++
	return g.next(k, p)
}

// place puts a gang's tasks on the processors of pl (validated), and starts
// it if they are all free.
func (g *GangGrid) place(i int32, pl policy.GangPlacement) error {
	j := &g.slots.at(i).job
	bad := func(format string, a ...any) error {
		return fmt.Errorf("policy %s at t=%g: gang %d: %s", g.cfg.Policy.Name(), g.now, j.ID, fmt.Sprintf(format, a...))
	}
	if len(pl.Procs) != j.Procs {
		return bad("%d processors for %d tasks", len(pl.Procs), j.Procs)
	}
	ids := make([]int32, 0, len(pl.Procs))
	g.sitesBuf = g.sitesBuf[:0]
	for _, r := range pl.Procs {
		if r.Site < 0 || r.Site >= len(g.sites) || r.Proc < 0 || r.Proc >= len(g.sites[r.Site]) {
			return bad("no processor %d at site %d", r.Proc, r.Site)
		}
		if g.sites[r.Site][r.Proc].queue.len() != 0 {
			return bad("processor %d of site %d has a non-empty queue", r.Proc, r.Site)
		}
		ids = append(ids, int32(g.plat.First(r.Site)+r.Proc))
		if !slices.Contains(g.sitesBuf, r.Site) {
			g.sitesBuf = append(g.sitesBuf, r.Site)
		}
	}
	slices.Sort(ids)
	for k := 1; k < len(ids); k++ {
		if ids[k] == ids[k-1] {
			m := g.plat.MachineOf(int(ids[k]))
			return bad("two tasks on processor %d of site %d", int(ids[k])-g.plat.First(m), m)
		}
	}
	multi := len(g.sitesBuf) > 1
	if multi != pl.Split {
		return bad("split flag %v for a placement on %d site(s)", pl.Split, len(g.sitesBuf))
	}
	sl := g.slots.at(i)
	sl.cpus = sl.cpus[:0]
	for _, c := range ids {
		sl.cpus = sl.cpus.Add(c)
	}
	sl.machine = int32(g.plat.MachineOf(int(ids[0]))) // the machine of the lowest CPU id
	g.gangs[i] = &gangState{procs: append([]policy.ProcRef(nil), pl.Procs...), split: pl.Split, remaining: j.Procs}
	for t, r := range pl.Procs {
		g.sites[r.Site][r.Proc].queue.push(gEntry{slot: i, task: int32(t)})
		g.usage.Jobs[r.Site]++
	}
	slices.Sort(g.sitesBuf)
	g.lis.JobDispatched(g.now, j, g.sitesBuf)
	return g.tryStartGang(i)
}

// ready: every processor of the gang executes nothing and has the gang's
// task first in its queue.
func (g *GangGrid) ready(i int32) bool {
	for t, r := range g.gangs[i].procs {
		pr := &g.sites[r.Site][r.Proc]
		if pr.executing || pr.queue.len() == 0 || pr.queue.peek() != (gEntry{slot: i, task: int32(t)}) {
			return false
		}
	}
	return true
}

func (g *GangGrid) tryStartGang(i int32) error {
	if !g.ready(i) {
		return nil
	}
	gs := g.gangs[i]
	sl := g.slots.at(i)
	stretch := 1.0
	if gs.split {
		stretch += g.cfg.SplitOverhead
	}
	g.startSlot(i, reasonFor(g.now, sl.job.Submit), 0)
	for t, r := range gs.procs {
		pr := &g.sites[r.Site][r.Proc]
		pr.queue.pop()
		if pr.queue.len() == 0 {
			g.emptied = true
		}
		task := sl.job.Tasks[t]
		mach := g.plat.Machine(r.Site)
		g.run(pr, r, gEntry{slot: i, task: int32(t)}, mach.Duration(task.Runtime, sl.job.BMEst)*stretch,
			mach.Duration(task.Estimate, sl.job.BMEst)*stretch, 0)
	}
	return nil
}

func (g *GangGrid) run(pr *gProc, r policy.ProcRef, e gEntry, runtime, estimate float64, behind job.ID) {
	pr.executing, pr.running, pr.estEnd = true, e, g.now+estimate
	cpu := int32(g.plat.First(r.Site) + r.Proc)
	if g.task != nil {
		g.taskStarted(TaskRun{Machine: r.Site, Proc: r.Proc, CPU: cpu, ID: g.slots.at(e.slot).job.ID, Task: int(e.task), Start: g.now,
			End: g.now + runtime, EstEnd: g.now + estimate, Behind: behind})
	}
	g.usage.Busy[r.Site]++
	g.events.Push(g.now+runtime, ClassCompletion, cpu)
}

// next gives a free processor its next job: the first waiting entry if it
// is a local job or a gang that can start; else, if the head is a gang
// that cannot start, a local the policy picks to backfill.
func (g *GangGrid) next(s, p int) error {
	pr := &g.sites[s][p]
	if pr.executing || pr.queue.len() == 0 {
		return nil
	}
	head := pr.queue.peek()
	if head.task < 0 {
		pr.queue.pop()
		g.startLocal(pr, policy.ProcRef{Site: s, Proc: p}, head.slot, 0)
		return nil
	}
	if g.ready(head.slot) {
		return g.tryStartGang(head.slot)
	}
	k := g.cfg.Policy.Backfill(g.now, s, p, g.view())
	if k < 0 {
		return nil
	}
	if k == 0 || k >= pr.queue.len() || pr.queue.at(k).task >= 0 {
		return fmt.Errorf("policy %s at t=%g: backfill at processor %d of site %d (gang %d at the head): queue position %d is not a waiting local job",
			g.cfg.Policy.Name(), g.now, p, s, g.slots.at(head.slot).job.ID, k)
	}
	e := pr.queue.removeAt(k)
	g.startLocal(pr, policy.ProcRef{Site: s, Proc: p}, e.slot, g.slots.at(head.slot).job.ID)
	return nil
}

// startLocal starts local job i on pr; behind is the gang it backfills
// ahead of (0 if it is not a backfill).
func (g *GangGrid) startLocal(pr *gProc, r policy.ProcRef, i int32, behind job.ID) {
	sl := g.slots.at(i)
	reason := reasonFor(g.now, sl.job.Submit)
	if behind != 0 {
		reason = job.Backfilled
	}
	g.startSlot(i, reason, behind)
	mach := g.plat.Machine(r.Site)
	g.run(pr, r, gEntry{slot: i, task: -1}, mach.Duration(sl.job.Runtime, sl.job.BMEst), mach.Duration(sl.job.Estimate, sl.job.BMEst), behind)
}

// complete frees the processor with global CPU id cpu and records the end
// of its job (or of the gang, with its last task).
func (g *GangGrid) complete(cpu int32) error {
	s := g.plat.MachineOf(int(cpu))
	p := int(cpu) - g.plat.First(s)
	pr := &g.sites[s][p]
	e := pr.running
	pr.executing = false
	g.usage.Busy[s]--
	g.usage.Jobs[s]--
	g.freed = append(g.freed, policy.ProcRef{Site: s, Proc: p})
	g.sitesBuf = g.sitesBuf[:0]
	if e.task >= 0 {
		gs := g.gangs[e.slot]
		gs.remaining--
		if gs.remaining > 0 {
			return nil
		}
		for _, r := range gs.procs {
			if !slices.Contains(g.sitesBuf, r.Site) {
				g.sitesBuf = append(g.sitesBuf, r.Site)
			}
		}
		slices.Sort(g.sitesBuf)
		delete(g.gangs, e.slot)
	} else {
		g.sitesBuf = append(g.sitesBuf, s)
	}
	g.end(e.slot, g.sitesBuf)
	g.release(e.slot)
	return nil
}

// examineQueue lets the grid scheduler place gangs from its queue until
// it places none.
func (g *GangGrid) examineQueue() error {
	for len(g.gsQueue) > 0 {
		// A copy: the policy may read or reorder it without touching the queue.
		g.gsView = append(g.gsView[:0], g.gsInfo...)
		k, pl, ok := g.cfg.Policy.PickQueued(g.now, g.gsView, g.view())
		if !ok {
			return nil
		}
		if k < 0 || k >= len(g.gsQueue) {
			return fmt.Errorf("policy %s at t=%g: picked queue position %d of a grid-scheduler queue of %d gangs", g.cfg.Policy.Name(), g.now, k, len(g.gsQueue))
		}
		i := g.gsQueue[k]
		g.gsQueue = append(g.gsQueue[:k], g.gsQueue[k+1:]...)
		g.gsInfo = append(g.gsInfo[:k], g.gsInfo[k+1:]...)
		if err := g.place(i, pl); err != nil {
			return err
		}
	}
	return nil
}
