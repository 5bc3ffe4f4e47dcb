package engine

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// GangConfig describes the two-site grid of dimitriadou-karatza-2010:
// sites of processors with per-processor FCFS queues; local jobs arrive at
// each site, gangs at the grid scheduler.
type GangConfig struct {
	Sites    []int             // processors per site
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
	// Audit, when set, is told of every run a processor starts (tests
	// check invariants with it).
	Audit func(ProcRun)
}

// ProcRun is one job or gang task started on a processor.
type ProcRun struct {
	Site, Proc int
	ID         job.ID
	Task       int     // -1 for a local job
	Start, End float64 // actual interval
	EstEnd     float64
	Behind     job.ID // for a backfilled local: the gang at the head of the queue
}

// gEntry is a queue entry or a running thing: a local job (task -1) or a
// gang task.
type gEntry struct {
	slot int32
	task int32
}

type gProc struct {
	queue     []gEntry
	head      int
	executing bool
	running   gEntry
	estEnd    float64
}

func (p *gProc) waiting() int { return len(p.queue) - p.head }

type gangState struct {
	procs     []policy.ProcRef
	split     bool
	started   bool
	remaining int
}

// GangStats are the gang model's own counts.
type GangStats struct {
	LocalsArrived, GangsArrived   int64
	LocalsFinished, GangsFinished int64
	GangsSplit                    int64
	Backfilled                    int64
	Utilization                   float64 // busy processor-time / (processors x span)
}

// GangGrid is one run of the gang model; build it with NewGangGrid.
type GangGrid struct {
	kernel
	cfg       GangConfig
	sites     [][]gProc
	base      []int // global index of each site's first processor
	gangs     map[int32]*gangState
	gsQueue   []int32    // slots of gangs waiting at the grid scheduler, oldest first
	gsInfo    []job.Info // their policy views, kept alongside
	srcs      []Source
	srcDone   []bool
	freed     []policy.ProcRef
	emptied   bool // a queue became empty during this instant's departures
	completed int64
	stopped   bool
	busy      int
	busyArea  float64
	total     int // processors in the grid
	gstats    GangStats
	ran       bool
}

// NewGangGrid checks cfg and returns a simulation ready to Run.
func NewGangGrid(cfg GangConfig) (*GangGrid, error) {
	if len(cfg.Sites) == 0 || len(cfg.Locals) != len(cfg.Sites) {
		return nil, errors.New("engine: the gang model needs sites and one local source per site")
	}
	if cfg.Policy == nil || cfg.Gangs == nil {
		return nil, errors.New("engine: a gang policy and a gang source are required")
	}
	if !(cfg.SplitOverhead >= 0) || math.IsInf(cfg.SplitOverhead, 1) {
		return nil, fmt.Errorf("engine: negative split overhead %g", cfg.SplitOverhead)
	}
	g := &GangGrid{cfg: cfg, gangs: map[int32]*gangState{}}
	total := 0
	for i, n := range cfg.Sites {
		if n < 1 {
			return nil, fmt.Errorf("engine: site %d has %d processors", i, n)
		}
		g.sites = append(g.sites, make([]gProc, n))
		g.base = append(g.base, total)
		total += n
	}
	g.total = total
	g.srcs = append(append([]Source(nil), cfg.Locals...), cfg.Gangs)
	g.srcDone = make([]bool, len(g.srcs))
	g.lis = cfg.Listener
	if g.lis == nil {
		g.lis = NopListener{}
	}
	return g, nil
}

// Stats returns the gang model's counts (complete after Run).
func (g *GangGrid) Stats() GangStats {
	s := g.gstats
	if span := g.span(); span > 0 {
		s.Utilization = g.busyArea / (span * float64(g.total))
	}
	return s
}

// load reads the next job of stream k (a site's locals, or the gangs).
func (g *GangGrid) load(k int) error {
	if g.srcDone[k] {
		return nil
	}
	j, err := g.srcs[k].Next()
	if err == io.EOF {
		g.srcDone[k] = true
		return nil
	}
	if err != nil {
		return err
	}
	gang := k == len(g.cfg.Sites)
	switch {
	case gang && (len(j.Tasks) != j.Procs || j.Procs < 1):
		return fmt.Errorf("gang %d: %d tasks for %d processors", j.ID, len(j.Tasks), j.Procs)
	case !gang && (j.Procs != 1 || j.Tasks != nil):
		return fmt.Errorf("local job %d: local jobs are sequential (1 processor, no tasks)", j.ID)
	case !(j.Runtime >= 0) || !(j.Estimate >= 0):
		return fmt.Errorf("job %d: invalid runtime %g or estimate %g", j.ID, j.Runtime, j.Estimate)
	}
	if j.Procs > g.total {
		return fmt.Errorf("gang %d: %d tasks, the grid has %d processors", j.ID, j.Procs, g.total)
	}
	i := g.alloc()
	g.slots[i] = slot{job: j, site: int32(k), proc: -1}
	g.events.Push(j.Submit, ClassArrival, i)
	return nil
}

// Sites, Procs, Proc, GangStart and WaitingLocals implement policy.GangView.
func (g *GangGrid) Sites() int      { return len(g.sites) }
func (g *GangGrid) Procs(s int) int { return len(g.sites[s]) }
func (g *GangGrid) Proc(s, p int) policy.ProcState {
	pr := &g.sites[s][p]
	st := policy.ProcState{Executing: pr.executing, Waiting: pr.waiting(), EstEnd: math.Max(pr.estEnd, g.now)}
	if st.Waiting > 0 {
		st.HeadGang = pr.queue[pr.head].task >= 0
	}
	return st
}

func (g *GangGrid) GangStart(s, p int) float64 {
	pr := &g.sites[s][p]
	if pr.waiting() == 0 || pr.queue[pr.head].task < 0 {
		return g.now
	}
	gs := g.gangs[pr.queue[pr.head].slot]
	t := g.now
	for _, r := range gs.procs {
		q := &g.sites[r.Site][r.Proc]
		if q.executing {
			t = math.Max(t, q.estEnd)
		}
	}
	return t
}

func (g *GangGrid) WaitingLocals(s, p int) (pos []int, est []float64) {
	pr := &g.sites[s][p]
	for k := pr.head; k < len(pr.queue); k++ {
		if e := pr.queue[k]; e.task < 0 {
			pos = append(pos, k-pr.head)
			est = append(est, g.slots[e.slot].job.Estimate)
		}
	}
	return pos, est
}

// advance moves to instant t, accumulating busy processor-time.
func (g *GangGrid) advance(t float64) {
	g.busyArea += float64(g.moveTo(t) * float64(g.busy))
}

// Run simulates until the stopping rule.
func (g *GangGrid) Run() error {
	if g.ran {
		return errors.New("engine: Run called twice")
	}
	g.ran = true
	for k := range g.srcs {
		if err := g.load(k); err != nil {
			return err
		}
	}
	for g.events.Len() > 0 && !g.stopped {
		t := g.events.Peek().Time
		g.advance(t)
		// 1. Every completion of the instant frees its processor.
		g.freed = g.freed[:0]
		for g.events.Len() > 0 && g.events.Peek().Time == t && g.events.Peek().Class == ClassCompletion {
			ev := g.events.Pop()
			g.stats.Events++
			g.complete(ev.Ref)
			if g.stopped {
				return nil
			}
		}
		// 2. Freed processors take their next job; 3. the grid scheduler
		// examines its queue if a departure left a queue empty.
		if len(g.freed) > 0 {
			// A queue emptied by a freed processor taking its next job, or
			// by a gang that this departure let start, counts.
			g.emptied = false
			for _, r := range g.freed {
				if err := g.next(r.Site, r.Proc); err != nil {
					return err
				}
				if g.sites[r.Site][r.Proc].waiting() == 0 {
					g.emptied = true
				}
			}
			if g.emptied || g.cfg.Policy.ExamineEveryDeparture() {
				if err := g.examineQueue(); err != nil {
					return err
				}
			}
		}
		// 4. Arrivals.
		for g.events.Len() > 0 && g.events.Peek().Time == t && g.events.Peek().Class == ClassArrival {
			ev := g.events.Pop()
			g.stats.Events++
			if err := g.arrive(ev.Ref); err != nil {
				return err
			}
		}
	}
	g.stats.End = g.now
	return nil
}

func (g *GangGrid) procIndex(s, p int) int32 { return int32(g.base[s] + p) }

func (g *GangGrid) procAt(idx int32) (int, int) {
	for s := len(g.base) - 1; s >= 0; s-- {
		if int(idx) >= g.base[s] {
			return s, int(idx) - g.base[s]
		}
	}
	return 0, int(idx)
}

func (g *GangGrid) arrive(i int32) error {
	sl := &g.slots[i]
	k := int(sl.site)
	g.stats.Jobs++
	g.lis.JobSubmitted(g.now, &sl.job)
	if err := g.load(k); err != nil {
		return err
	}
	sl = &g.slots[i]           // load may have grown the slots
	if k == len(g.cfg.Sites) { // a gang
		g.gstats.GangsArrived++
		pl, ok := g.cfg.Policy.PlaceArrival(g.now, sl.job.Info(), g)
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
	g.gstats.LocalsArrived++
	p := g.cfg.Policy.RouteLocal(g.now, k, sl.job.Info(), g)
	if p < 0 || p >= len(g.sites[k]) {
		return fmt.Errorf("policy %s at t=%g: local job %d: no processor %d at site %d", g.cfg.Policy.Name(), g.now, sl.job.ID, p, k)
	}
	sl.site, sl.proc = int32(k), int32(p)
	pr := &g.sites[k][p]
	pr.queue = append(pr.queue, gEntry{slot: i, task: -1})
	return g.next(k, p)
}

// place puts a gang's tasks on the processors of pl (validated), and starts
// it if they are all free.
func (g *GangGrid) place(i int32, pl policy.GangPlacement) error {
	j := &g.slots[i].job
	bad := func(format string, a ...any) error {
		return fmt.Errorf("policy %s at t=%g: gang %d: %s", g.cfg.Policy.Name(), g.now, j.ID, fmt.Sprintf(format, a...))
	}
	if len(pl.Procs) != j.Procs {
		return bad("%d processors for %d tasks", len(pl.Procs), j.Procs)
	}
	seen := map[policy.ProcRef]bool{}
	multi := false
	for _, r := range pl.Procs {
		if r.Site < 0 || r.Site >= len(g.sites) || r.Proc < 0 || r.Proc >= len(g.sites[r.Site]) {
			return bad("no processor %d at site %d", r.Proc, r.Site)
		}
		if seen[r] {
			return bad("two tasks on processor %d of site %d", r.Proc, r.Site)
		}
		seen[r] = true
		if g.sites[r.Site][r.Proc].waiting() != 0 {
			return bad("processor %d of site %d has a non-empty queue", r.Proc, r.Site)
		}
		multi = multi || r.Site != pl.Procs[0].Site
	}
	if multi != pl.Split {
		return bad("split flag %v for a placement on %d site(s)", pl.Split, map[bool]int{false: 1, true: 2}[multi])
	}
	gs := &gangState{procs: append([]policy.ProcRef(nil), pl.Procs...), split: pl.Split, remaining: j.Procs}
	if pl.Split {
		g.gstats.GangsSplit++
	}
	g.gangs[i] = gs
	for t, r := range pl.Procs {
		pr := &g.sites[r.Site][r.Proc]
		pr.queue = append(pr.queue, gEntry{slot: i, task: int32(t)})
	}
	g.lis.JobDispatched(g.now, j, pl.Procs[0].Site)
	return g.tryStartGang(i)
}

// ready: every processor of the gang executes nothing and has the gang's
// task first in its queue.
func (g *GangGrid) ready(i int32) bool {
	for t, r := range g.gangs[i].procs {
		pr := &g.sites[r.Site][r.Proc]
		if pr.executing || pr.waiting() == 0 || pr.queue[pr.head] != (gEntry{slot: i, task: int32(t)}) {
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
	sl := &g.slots[i]
	gs.started = true
	sl.start = g.now
	sl.reason = job.Reserved
	if g.now == sl.job.Submit {
		sl.reason = job.Immediate
	}
	stretch := 1.0
	if gs.split {
		stretch += g.cfg.SplitOverhead
	}
	g.lis.JobStarted(g.now, &sl.job, sl.reason)
	for t, r := range gs.procs {
		pr := &g.sites[r.Site][r.Proc]
		pr.head++
		g.compactQueue(pr)
		if pr.waiting() == 0 {
			g.emptied = true
		}
		task := sl.job.Tasks[t]
		g.run(pr, r, gEntry{slot: i, task: int32(t)}, task.Runtime*stretch, task.Estimate*stretch, 0)
	}
	return nil
}

func (g *GangGrid) compactQueue(pr *gProc) {
	if pr.head == len(pr.queue) {
		pr.queue, pr.head = pr.queue[:0], 0
	} else if pr.head > 32 && pr.head*2 > len(pr.queue) {
		n := copy(pr.queue, pr.queue[pr.head:])
		pr.queue, pr.head = pr.queue[:n], 0
	}
}

func (g *GangGrid) run(pr *gProc, r policy.ProcRef, e gEntry, runtime, estimate float64, behind job.ID) {
	pr.executing, pr.running, pr.estEnd = true, e, g.now+estimate
	if g.cfg.Audit != nil {
		g.cfg.Audit(ProcRun{Site: r.Site, Proc: r.Proc, ID: g.slots[e.slot].job.ID, Task: int(e.task), Start: g.now,
			End: g.now + runtime, EstEnd: g.now + estimate, Behind: behind})
	}
	g.busy++
	g.events.Push(g.now+runtime, ClassCompletion, g.procIndex(r.Site, r.Proc))
}

// next gives a free processor its next job: the first waiting entry if it
// is a local job or a gang that can start; else, if the head is a gang
// that cannot start, a local the policy picks to backfill.
func (g *GangGrid) next(s, p int) error {
	pr := &g.sites[s][p]
	if pr.executing || pr.waiting() == 0 {
		return nil
	}
	head := pr.queue[pr.head]
	if head.task < 0 {
		pr.head++
		g.compactQueue(pr)
		g.startLocal(pr, policy.ProcRef{Site: s, Proc: p}, head.slot, 0)
		return nil
	}
	if g.ready(head.slot) {
		return g.tryStartGang(head.slot)
	}
	k := g.cfg.Policy.Backfill(g.now, s, p, g)
	if k < 0 {
		return nil
	}
	if k == 0 || k >= pr.waiting() || pr.queue[pr.head+k].task >= 0 {
		return fmt.Errorf("policy %s at t=%g: backfill at processor %d of site %d: queue position %d is not a waiting local job", g.cfg.Policy.Name(), g.now, p, s, k)
	}
	e := pr.queue[pr.head+k]
	copy(pr.queue[pr.head+k:], pr.queue[pr.head+k+1:])
	pr.queue = pr.queue[:len(pr.queue)-1]
	g.gstats.Backfilled++
	g.startLocal(pr, policy.ProcRef{Site: s, Proc: p}, e.slot, g.slots[head.slot].job.ID)
	return nil
}

// startLocal starts local job i on pr; behind is the gang it backfills
// ahead of (0 if it is not a backfill).
func (g *GangGrid) startLocal(pr *gProc, r policy.ProcRef, i int32, behind job.ID) {
	sl := &g.slots[i]
	sl.start = g.now
	switch {
	case behind != 0:
		sl.reason = job.Backfilled
	case g.now == sl.job.Submit:
		sl.reason = job.Immediate
	default:
		sl.reason = job.Reserved
	}
	g.lis.JobStarted(g.now, &sl.job, sl.reason)
	g.run(pr, r, gEntry{slot: i, task: -1}, sl.job.Runtime, sl.job.Estimate, behind)
}

// complete frees the processor idx and records the end of its job (or of
// the gang, with its last task).
func (g *GangGrid) complete(idx int32) {
	s, p := g.procAt(idx)
	pr := &g.sites[s][p]
	e := pr.running
	pr.executing = false
	g.busy--
	g.freed = append(g.freed, policy.ProcRef{Site: s, Proc: p})
	if e.task >= 0 {
		gs := g.gangs[e.slot]
		gs.remaining--
		if gs.remaining > 0 {
			return
		}
		g.recSites = g.recSites[:0]
		for _, r := range gs.procs {
			if !slices.Contains(g.recSites, r.Site) {
				g.recSites = append(g.recSites, r.Site)
			}
		}
		slices.Sort(g.recSites)
		delete(g.gangs, e.slot)
		g.gstats.GangsFinished++
	} else {
		g.recSites = append(g.recSites[:0], s)
		g.gstats.LocalsFinished++
	}
	g.ended(e.slot)
	g.release(e.slot)
	g.completed++
	if g.cfg.StopAfter > 0 && g.completed >= g.cfg.StopAfter {
		g.stopped = true
	}
}

// examineQueue lets the grid scheduler place gangs from its queue until
// it places none.
func (g *GangGrid) examineQueue() error {
	for len(g.gsQueue) > 0 {
		k, pl, ok := g.cfg.Policy.PickQueued(g.now, g.gsInfo, g)
		if !ok {
			return nil
		}
		if k < 0 || k >= len(g.gsQueue) {
			return fmt.Errorf("policy %s at t=%g: picked gang %d of a queue of %d", g.cfg.Policy.Name(), g.now, k, len(g.gsQueue))
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
