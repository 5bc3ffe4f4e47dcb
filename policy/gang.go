package policy

import "github.com/schedlab/schedlab/job"

// ProcRef names a processor of a multi-site grid.
type ProcRef struct{ Site, Proc int }

// ProcState is what a gang-model policy may see of one processor.
type ProcState struct {
	Executing bool    // a job or task is running on it
	Waiting   int     // entries waiting in its queue (locals and gang tasks)
	HeadGang  bool    // the first waiting entry is a gang task
	EstEnd    float64 // estimated end of the running job (now if it overran; meaningless if not executing)
}

// Idle reports a processor executing nothing with nothing waiting.
func (s ProcState) Idle() bool { return !s.Executing && s.Waiting == 0 }

// Jobs is the processor's load: waiting entries plus the running one.
func (s ProcState) Jobs() int {
	if s.Executing {
		return s.Waiting + 1
	}
	return s.Waiting
}

// GangView is the read-only state of the two-site gang model
// (dimitriadou-karatza-2010) from live model state. A view cannot be
// turned into the model.
type GangView interface {
	Sites() int
	Procs(site int) int
	Proc(site, proc int) ProcState
	// GangStart is the estimated start of the gang waiting at the head of
	// the processor's queue: the latest estimated end of the jobs running
	// on its processors (an overrun job counts as ending now).
	GangStart(site, proc int) float64
	// WaitingLocals lists the estimates of the local jobs waiting at the
	// processor, in queue order, with their positions in the queue.
	WaitingLocals(site, proc int) (pos []int, est []float64)
}

// GangPlacement is where a gang's tasks go: one processor per task, on
// processors with empty queues. Split marks a gang spread over two sites
// (it gets the split overhead).
type GangPlacement struct {
	Procs []ProcRef
	Split bool
}

// QueueExaminer is implemented by a gang policy that says when the grid
// scheduler's queue is examined (PickQueued). ExamineEveryDeparture
// true: after every departure; false: only after a departure that left
// a queue empty (dimitriadou-karatza-2010's rule), which is also what a
// policy that does not implement it gets. The gang model asks once,
// when it is built (package policy/gang declares the choice as its
// option examine).
type QueueExaminer interface {
	ExamineEveryDeparture() bool
}

// GangPolicy decides for the gang model; the engine applies and validates
// (distinct processors with empty queues, a placement per task, gang tasks
// starting together, backfilled entries that are local jobs).
type GangPolicy interface {
	Name() string
	// PlaceArrival decides for a gang that just arrived at the grid
	// scheduler: a placement, or false to put it in the GS queue.
	PlaceArrival(now float64, g job.Info, v GangView) (GangPlacement, bool)
	// PickQueued examines the GS queue (oldest first) after a departure
	// left a queue empty (after every departure: QueueExaminer): the index of the gang to place and where, or
	// false when none can go. The engine calls it until it says false.
	PickQueued(now float64, queue []job.Info, v GangView) (int, GangPlacement, bool)
	// RouteLocal picks the processor of a site for an arriving local job.
	RouteLocal(now float64, site int, j job.Info, v GangView) int
	// Backfill is called when a processor is free and the gang at the
	// head of its queue cannot start: the queue position of a waiting
	// local to start instead, or -1 to leave the processor idle.
	Backfill(now float64, site, proc int, v GangView) int
}
