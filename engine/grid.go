package engine

import (
	"errors"
	"fmt"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// GridConfig describes a two-level grid (zikos-karatza-2008): sites of
// processors (one machine of the platform per site), each processor with
// its own FCFS queue, fed by a grid scheduler through local schedulers that
// have no queue.
type GridConfig struct {
	Platform platform.Platform     // one machine per site
	Grid     policy.GridScheduler  // grid-level dispatch
	Local    policy.LocalScheduler // processor selection, the same at every site
	Source   Source                // one-processor jobs
	Listener Listener              // may be nil
	// StopAfter ends the run when this many jobs have completed (0: when
	// the source is exhausted and every job has completed).
	StopAfter int64
	// MaxWaiting ends the run with a *WaitingError once more than this
	// many jobs have arrived and not started (0: no bound).
	MaxWaiting int64
}

type proc struct {
	queue fifo[int32] // slots waiting
	busy  bool
}

func (p *proc) jobs() int {
	n := p.queue.len()
	if p.busy {
		n++
	}
	return n
}

// A site's load (jobs queued + in service) and busy processors (running
// a job; FCFS: a processor with a queue is busy) are kept in the kernel's
// usage counts; its idle processors are the others.
type site struct {
	procs []proc
}

// Grid is one run of the two-level grid model; build it with NewGrid.
type Grid struct {
	kernel
	noCompletionsDone
	cfg   GridConfig
	sites []site
	// held is the grid scheduler's queue (slots, in arrival order);
	// heldView is the copy of it that GridView.Held hands out.
	held     fifo[int32]
	heldView []job.Info
	arrivals []job.Info
	tick     bool
	ticks    int64
	sitesBuf []int
}

// NewGrid checks cfg and returns a simulation ready to Run.
func NewGrid(cfg GridConfig) (*Grid, error) {
	if cfg.Platform.Machines() == 0 {
		return nil, errors.New("engine: a grid needs at least one site")
	}
	if cfg.Grid == nil || cfg.Local == nil || cfg.Source == nil {
		return nil, errors.New("engine: a grid scheduler, a local scheduler and a source are required")
	}
	if p := cfg.Grid.Period(); !(p >= 0) {
		return nil, fmt.Errorf("engine: grid scheduler %s has a negative period %g", cfg.Grid.Name(), p)
	}
	g := &Grid{cfg: cfg}
	g.sites = make([]site, cfg.Platform.Machines())
	for i := range g.sites {
		n := cfg.Platform.Machine(i).CPUs
		g.sites[i] = site{procs: make([]proc, n)}
	}
	g.init(cfg.Platform, cfg.Listener, cfg.Source)
	g.newRoom = 2 // a grid job holds one CPU: one run (send)
	g.stopAfter = cfg.StopAfter
	g.maxWaiting = cfg.MaxWaiting
	if p := cfg.Grid.Period(); p > 0 {
		g.ticks = 1
		g.events.Push(p, ClassTimer, -1)
	}
	return g, nil
}

func (g *Grid) admit(j *actual.Job, _ int) error {
	if j.Procs != 1 {
		return fmt.Errorf("job %d: needs %d processors; grid jobs here are sequential (1 processor)", j.ID, j.Procs)
	}
	return nil
}

// Stats returns the kernel's counts (complete after Run).
func (g *Grid) Stats() Stats { return g.stats }

// Run simulates until the stopping rule.
func (g *Grid) Run() error { return g.loop(g) }

// gridView is the policies' read-only view: it cannot be turned back into
// the model or the dispatcher.
type gridView struct{ g *Grid }

func (v gridView) Sites() int            { return len(v.g.sites) }
func (v gridView) SiteProcs(s int) int   { return len(v.g.sites[s].procs) }
func (v gridView) SiteLoad(s int) int    { return v.g.usage.Jobs[s] }
func (v gridView) SiteIdle(s int) int    { return len(v.g.sites[s].procs) - v.g.usage.Busy[s] }
func (v gridView) ProcJobs(s, p int) int { return v.g.sites[s].procs[p].jobs() }
func (v gridView) Held() []job.Info      { return v.g.heldCopy() }

// gridDispatcher applies the grid scheduler's sends.
type gridDispatcher struct{ g *Grid }

func (d gridDispatcher) Send(id job.ID, s int) error { return d.g.send(id, s) }

func (g *Grid) arrive(i int32) error {
	g.held.push(i)
	g.arrivals = append(g.arrivals, g.slots.at(i).job.Info())
	return nil
}

func (g *Grid) timer(int32) error {
	g.tick = true
	// Keep ticking while anything can still need a dispatch.
	// (k x period, not a running sum, so ticks do not drift.)
	if !g.srcDone[0] || g.held.len() > 0 {
		g.ticks++
		g.events.Push(float64(g.ticks)*g.cfg.Grid.Period(), ClassTimer, -1)
	}
	return nil
}

func (g *Grid) decide() error {
	if len(g.arrivals) > 0 || g.tick {
		g.stats.Passes++
		if err := g.cfg.Grid.Schedule(g.now, g.arrivals, g.tick, gridView{g}, gridDispatcher{g}); err != nil {
			return fmt.Errorf("grid scheduler %s at t=%g: %w", g.cfg.Grid.Name(), g.now, err)
		}
		if q := g.held.len(); q > g.stats.MaxQueued {
			g.stats.MaxQueued = q
		}
	}
	g.arrivals = g.arrivals[:0]
	g.tick = false
	return nil
}

func (g *Grid) finish() error {
	if n := g.held.len(); n > 0 {
		return fmt.Errorf("grid scheduler %s: %d job(s) never dispatched", g.cfg.Grid.Name(), n)
	}
	return nil
}

// heldCopy is the grid scheduler's queue as policy views, in a buffer of
// the model's that a policy may read or even reorder without harm.
func (g *Grid) heldCopy() []job.Info {
	g.heldView = g.heldView[:0]
	for k := 0; k < g.held.len(); k++ {
		g.heldView = append(g.heldView, g.slots.at(g.held.at(k)).job.Info())
	}
	return g.heldView
}

// send: the job leaves the grid scheduler's queue for site s, where the
// local scheduler picks its processor.
func (g *Grid) send(id job.ID, s int) error {
	k := 0
	for k < g.held.len() && g.slots.at(g.held.at(k)).job.ID != id {
		k++
	}
	if k == g.held.len() {
		return fmt.Errorf("send job %d: the job is not in the grid scheduler's queue", id)
	}
	if s < 0 || s >= len(g.sites) {
		return fmt.Errorf("send job %d: no site %d (there are %d)", id, s, len(g.sites))
	}
	i := g.held.at(k)
	sl := g.slots.at(i)
	p := g.cfg.Local.Select(g.now, s, sl.job.Info(), gridView{g})
	st := &g.sites[s]
	if p < 0 || p >= len(st.procs) {
		return fmt.Errorf("local scheduler %s: job %d: no processor %d at site %d (it has %d)", g.cfg.Local.Name(), id, p, s, len(st.procs))
	}
	if k == 0 { // the oldest (a deferred dispatch)
		g.held.pop()
	} else {
		g.held.removeAt(k)
	}
	cpu := int32(g.plat.First(s) + p)
	sl.cpus, sl.machine = append(sl.cpus[:0], cpu, cpu), int32(s)
	g.sitesBuf = append(g.sitesBuf[:0], s)
	g.lis.JobDispatched(g.now, &sl.job, g.sitesBuf)
	g.usage.Jobs[s]++
	pr := &st.procs[p]
	if pr.busy {
		pr.queue.push(i)
		return nil
	}
	g.usage.Busy[s]++
	g.startOn(s, p, i)
	return nil
}

func (g *Grid) startOn(s, p int, i int32) {
	g.sites[s].procs[p].busy = true
	sl := g.slots.at(i)
	g.startSlot(i, reasonFor(g.now, sl.job.Submit), 0)
	dur := g.plat.Machine(s).Duration(sl.job.Runtime, sl.job.BMEst)
	if g.task != nil {
		g.taskStarted(TaskRun{Machine: s, Proc: p, CPU: sl.cpus[0], ID: sl.job.ID, Task: -1,
			Start: g.now, End: g.now + dur, EstEnd: g.now + sl.job.Estimate})
	}
	g.events.Push(g.now+dur, ClassCompletion, i)
}

func (g *Grid) complete(i int32) error {
	sl := g.slots.at(i)
	s := int(sl.machine)
	p := int(sl.cpus[0]) - g.plat.First(s)
	st := &g.sites[s]
	pr := &st.procs[p]
	g.sitesBuf = append(g.sitesBuf[:0], s)
	g.end(i, g.sitesBuf)
	g.release(i)
	g.usage.Jobs[s]--
	if g.stopped {
		pr.busy = false
		return nil
	}
	if pr.queue.len() > 0 {
		g.startOn(s, p, pr.queue.pop())
		return nil
	}
	pr.busy = false
	g.usage.Busy[s]--
	return nil
}
