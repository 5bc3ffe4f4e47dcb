package policy

import "github.com/schedlab/schedlab/job"

// GridView is the read-only state of a grid of sites that grid and local
// schedulers may consult. Loads count jobs queued plus in service.
// Implementations answer from live state: after a Dispatcher.Send the view
// reflects the job just placed. A view cannot be turned into the model or
// the Dispatcher.
type GridView interface {
	Sites() int
	SiteProcs(site int) int
	// SiteLoad is the number of jobs in the site: queued plus in service.
	SiteLoad(site int) int
	// SiteIdle is the number of idle processors of the site (nothing
	// running, nothing queued).
	SiteIdle(site int) int
	// ProcJobs is the number of jobs at a processor: queued plus in service.
	ProcJobs(site, proc int) int
	// Held lists the jobs waiting in the grid scheduler's queue, in
	// arrival order: a copy, valid until the next call of Held.
	Held() []job.Info
}

// Dispatcher applies a grid scheduler's decisions at once; the engine
// validates each (the job must be held by the grid scheduler, the site must
// exist) and hands the job to the site's local scheduler.
type Dispatcher interface {
	Send(id job.ID, site int) error
}

// GridScheduler is a grid-level (meta) scheduler over sites with
// per-processor queues (zikos-karatza-2008). Jobs it does not send stay in
// the grid scheduler's queue, which the model keeps (GridView.Held).
type GridScheduler interface {
	Name() string
	// Period is the allocation interval at whose ends Schedule is called
	// with tick set (0: no ticks). Ticks fall at Period, 2 Period, ...
	Period() float64
	// Schedule is called once per instant that has arrivals or a tick,
	// after all completions of that instant: arrivals in arrival order,
	// tick true at the end of an allocation interval.
	Schedule(now float64, arrivals []job.Info, tick bool, v GridView, d Dispatcher) error
}

// LocalScheduler picks the processor of a site for a job sent to it
// (there is no queue at the local scheduler).
type LocalScheduler interface {
	Name() string
	Select(now float64, site int, j job.Info, v GridView) int
}
