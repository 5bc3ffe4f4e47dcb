package engine

import (
	"errors"
	"fmt"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/policy"
)

// GridConfig describes a two-level grid (zikos-karatza-2008): sites of
// processors, each processor with its own FCFS queue, fed by a grid
// scheduler through local schedulers that have no queue.
type GridConfig struct {
	Sites    []int                 // processors per site
	Grid     policy.GridScheduler  // grid-level dispatch
	Local    policy.LocalScheduler // processor selection, the same at every site
	Source   Source                // one-processor jobs
	Listener Listener              // may be nil
	// StopAfter ends the run when this many jobs have completed (0: when
	// the source is exhausted and every job has completed).
	StopAfter int64
}

type proc struct {
	queue []int32 // slots waiting, FIFO from head
	head  int
	busy  bool
}

func (p *proc) jobs() int {
	n := len(p.queue) - p.head
	if p.busy {
		n++
	}
	return n
}

type site struct {
	procs []proc
	load  int // jobs queued + in service
	idle  int // processors with nothing running and nothing queued
}

// Grid is one simulation run of a grid model; build it with NewGrid.
type Grid struct {
	kernel
	cfg       GridConfig
	sites     []site
	held      map[job.ID]int32 // jobs in the grid scheduler's queue
	arrivals  []job.Info
	tick      bool
	ticks     int64
	completed int64
	ran       bool
	// busy-time accounting for utilization, per site
	busyArea []float64
	loadArea []float64
	stopped  bool
}

// NewGrid checks cfg and returns a simulation ready to Run.
func NewGrid(cfg GridConfig) (*Grid, error) {
	if len(cfg.Sites) == 0 {
		return nil, errors.New("engine: a grid needs at least one site")
	}
	for i, n := range cfg.Sites {
		if n < 1 {
			return nil, fmt.Errorf("engine: site %d has %d processors", i, n)
		}
	}
	if cfg.Grid == nil || cfg.Local == nil || cfg.Source == nil {
		return nil, errors.New("engine: a grid scheduler, a local scheduler and a source are required")
	}
	if p := cfg.Grid.Period(); p < 0 {
		return nil, fmt.Errorf("engine: grid scheduler %s has a negative period %g", cfg.Grid.Name(), p)
	}
	g := &Grid{cfg: cfg, held: make(map[job.ID]int32)}
	g.sites = make([]site, len(cfg.Sites))
	for i, n := range cfg.Sites {
		g.sites[i] = site{procs: make([]proc, n), idle: n}
	}
	g.busyArea = make([]float64, len(cfg.Sites))
	g.loadArea = make([]float64, len(cfg.Sites))
	g.lis = cfg.Listener
	if g.lis == nil {
		g.lis = NopListener{}
	}
	g.src, g.check = cfg.Source, g.checkJob
	return g, nil
}

func (g *Grid) checkJob(j *actual.Job) error {
	switch {
	case j.Procs != 1:
		return fmt.Errorf("job %d: needs %d processors; grid jobs here are sequential (1 processor)", j.ID, j.Procs)
	case !(j.Runtime >= 0):
		return fmt.Errorf("job %d: invalid runtime %g", j.ID, j.Runtime)
	case j.Submit < g.lastSub:
		return fmt.Errorf("job %d: submit time %g is before the previous job's %g (workload not sorted)", j.ID, j.Submit, g.lastSub)
	}
	return nil
}

// Stats returns the engine's counts (complete after Run).
func (g *Grid) Stats() Stats { return g.stats }

// Sites, SiteProcs, SiteLoad, SiteIdle and ProcJobs implement
// policy.GridView from live state.
func (g *Grid) Sites() int            { return len(g.sites) }
func (g *Grid) SiteProcs(s int) int   { return len(g.sites[s].procs) }
func (g *Grid) SiteLoad(s int) int    { return g.sites[s].load }
func (g *Grid) SiteIdle(s int) int    { return g.sites[s].idle }
func (g *Grid) ProcJobs(s, p int) int { return g.sites[s].procs[p].jobs() }

// Utilization returns, per site, the fraction of processor-time busy and
// the time-averaged number of jobs in the site, over the run.
func (g *Grid) Utilization() (busy, load []float64) {
	span := g.span()
	busy = make([]float64, len(g.sites))
	load = make([]float64, len(g.sites))
	if span <= 0 {
		return busy, load
	}
	for i := range g.sites {
		busy[i] = g.busyArea[i] / (span * float64(len(g.sites[i].procs)))
		load[i] = g.loadArea[i] / span
	}
	return busy, load
}

// advance moves to instant t, accumulating the time integrals of busy
// processors and site loads.
func (g *Grid) advance(t float64) {
	if dt := g.moveTo(t); dt > 0 {
		for i := range g.sites {
			s := &g.sites[i]
			g.busyArea[i] += float64(dt * float64(len(s.procs)-s.idle)) // FCFS: a processor with a queue is busy
			g.loadArea[i] += float64(dt * float64(s.load))
		}
	}
}

// Run simulates until the stopping rule.
func (g *Grid) Run() error {
	if g.ran {
		return errors.New("engine: Run called twice")
	}
	g.ran = true
	if err := g.loadNext(); err != nil {
		return err
	}
	if p := g.cfg.Grid.Period(); p > 0 {
		g.ticks = 1
		g.events.Push(p, ClassTimer, -1)
	}
	for g.events.Len() > 0 && !g.stopped {
		t := g.events.Peek().Time
		g.advance(t)
		g.arrivals = g.arrivals[:0]
		g.tick = false
		for g.events.Len() > 0 && g.events.Peek().Time == t && !g.stopped {
			ev := g.events.Pop()
			g.stats.Events++
			switch ev.Class {
			case ClassCompletion:
				g.complete(ev.Ref)
			case ClassArrival:
				s := &g.slots[ev.Ref]
				g.held[s.job.ID] = ev.Ref
				g.stats.Jobs++
				g.lis.JobSubmitted(t, &s.job)
				g.arrivals = append(g.arrivals, s.job.Info())
				if err := g.loadNext(); err != nil {
					return err
				}
			case ClassTimer:
				g.tick = true
				// Keep ticking while anything can still need a dispatch.
				// (k x period, not a running sum, so ticks do not drift.)
				if !g.srcDone || len(g.held) > 0 {
					g.ticks++
					g.events.Push(float64(g.ticks)*g.cfg.Grid.Period(), ClassTimer, -1)
				}
			}
		}
		if g.stopped {
			break
		}
		if len(g.arrivals) > 0 || g.tick {
			g.stats.Passes++
			if err := g.cfg.Grid.Schedule(t, g.arrivals, g.tick, g, g); err != nil {
				return fmt.Errorf("grid scheduler %s at t=%g: %w", g.cfg.Grid.Name(), t, err)
			}
			if q := len(g.held); q > g.stats.MaxQueued {
				g.stats.MaxQueued = q
			}
		}
	}
	g.stats.End = g.now
	if !g.stopped && len(g.held) > 0 {
		return fmt.Errorf("grid scheduler %s: %d job(s) never dispatched", g.cfg.Grid.Name(), len(g.held))
	}
	return nil
}

// Send implements policy.Dispatcher: the job leaves the grid scheduler's
// queue for site s, where the local scheduler picks its processor.
func (g *Grid) Send(id job.ID, s int) error {
	i, ok := g.held[id]
	if !ok {
		return fmt.Errorf("send job %d: the job is not in the grid scheduler's queue", id)
	}
	if s < 0 || s >= len(g.sites) {
		return fmt.Errorf("send job %d: no site %d (there are %d)", id, s, len(g.sites))
	}
	sl := &g.slots[i]
	p := g.cfg.Local.Select(g.now, s, sl.job.Info(), g)
	st := &g.sites[s]
	if p < 0 || p >= len(st.procs) {
		return fmt.Errorf("local scheduler %s: job %d: no processor %d at site %d (it has %d)", g.cfg.Local.Name(), id, p, s, len(st.procs))
	}
	delete(g.held, id)
	sl.site, sl.proc = int32(s), int32(p)
	g.lis.JobDispatched(g.now, &sl.job, s)
	st.load++
	pr := &st.procs[p]
	if pr.busy {
		pr.queue = append(pr.queue, i)
		return nil
	}
	st.idle--
	g.startOn(pr, i)
	return nil
}

func (g *Grid) startOn(pr *proc, i int32) {
	pr.busy = true
	sl := &g.slots[i]
	sl.start, sl.reason = g.now, job.Reserved
	if g.now == sl.job.Submit {
		sl.reason = job.Immediate
	}
	g.lis.JobStarted(g.now, &sl.job, sl.reason)
	g.events.Push(g.now+sl.job.Runtime, ClassCompletion, i)
}

func (g *Grid) complete(i int32) {
	sl := &g.slots[i]
	st := &g.sites[sl.site]
	pr := &st.procs[sl.proc]
	g.recSites = append(g.recSites[:0], int(sl.site))
	g.ended(i)
	g.release(i)
	st.load--
	g.completed++
	if g.cfg.StopAfter > 0 && g.completed >= g.cfg.StopAfter {
		g.stopped = true
		pr.busy = false
		return
	}
	if pr.head < len(pr.queue) {
		next := pr.queue[pr.head]
		pr.head++
		if pr.head == len(pr.queue) {
			pr.queue, pr.head = pr.queue[:0], 0
		} else if pr.head > 64 && pr.head*2 > len(pr.queue) {
			n := copy(pr.queue, pr.queue[pr.head:])
			pr.queue, pr.head = pr.queue[:n], 0
		}
		g.startOn(pr, next)
		return
	}
	pr.busy = false
	st.idle++
}
