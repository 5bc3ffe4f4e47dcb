package policy

import (
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
)

// QueueScheduler is a policy for a central queue over the machines of a
// platform (docs/scheduling.md).
//
// Calls arrive in this order at each instant: Finish for every job that
// ended at that instant, then Submit for every job that arrived, then one
// Schedule. A job started with a zero duration ends at the same time: that
// end is another batch at the same instant (Finish, then Schedule again). Every job named in a Plan is started by the model
// at that instant (or the run stops with an error naming the policy, the
// time and the job), so a policy may record the start as soon as it puts
// it in the plan.
type QueueScheduler interface {
	// Name is the policy's registry name, used in errors and reports.
	Name() string
	// Submit adds a job to the policy's queue.
	Submit(now float64, j job.Info)
	// Finish tells the policy that a running job ended at now (completed
	// or killed). now may be earlier than the job's estimated end.
	Finish(now float64, id job.ID)
	// Schedule is one scheduling pass at time now: it appends to plan the
	// jobs to start now. v is the machines' state at the start of the
	// pass; it does not change while the policy fills the plan.
	Schedule(now float64, v Machines, plan *Plan)
}

// NodeScheduler is a policy for a central queue over a platform of
// nodes (docs/nodes.md): the calls come in QueueScheduler's order; a
// Schedule sees the nodes' use at the start of the pass. A job's request
// is job.Info.Req (nil: Procs tasks of one CPU, nodes.FromProcs).
type NodeScheduler interface {
	Name() string
	Submit(now float64, j job.Info)
	Finish(now float64, id job.ID)
	Schedule(now float64, v NodeView, plan *Plan)
}

// NodeView is the read-only state of a platform of nodes under a central
// queue: what is free on each node now. A policy that names allocations
// keeps its own nodes.State (it knows what it started); the view is for
// one that does not, and for checks.
type NodeView interface {
	// Nodes describes the platform (immutable, shared).
	Nodes() *nodes.Nodes
	// FreeCores, FreeMemMB and FreeGRES are node id's free cores,
	// memory (MB; 0 where not modelled) and units of a GRES kind now.
	FreeCores(id int) int
	FreeMemMB(id int) int64
	FreeGRES(id int, k nodes.Kind) int
	// Jobs is the number of jobs running on node id; Whole reports
	// whether an exclusive job holds it.
	Jobs(id int) int
	Whole(id int) bool
}

// Machines is the read-only state of the machines under a central queue.
type Machines interface {
	// Platform describes the machines (immutable).
	Platform() platform.Platform
	// Free is the number of idle CPUs of machine m.
	Free(m int) int
}

// Start is one decision: start a waiting job now on a machine. CPUs, when
// set, names the CPUs (global ids, all on Machine, exactly the job's
// size); when nil the model gives the job the lowest free ids of Machine.
//
// On a platform of nodes (NodeScheduler) Machine and CPUs are unused:
// Alloc, when set, names the nodes, cores, memory and GRES units the job
// takes (an allocation of nodes.State.Alloc, or one built by hand: the
// model checks it against the job's request and what is free); when nil
// the model allocates by its own rule (nodes.State.Alloc, docs/nodes.md).
// The model copies an Alloc it keeps: a policy may reuse its storage
// after the pass.
type Start struct {
	ID      job.ID
	Reason  job.StartReason
	Machine int
	CPUs    platform.Runs
	Alloc   *nodes.Allocation
}

// Plan collects the decisions of one scheduling pass. The model resets it
// before each pass.
type Plan struct {
	Starts []Start
	// Rejects are waiting jobs the policy rejects: they leave the queue
	// and never start (Batsim's REJECT_JOB). The policy forgets them
	// itself; the model validates each (the job must be waiting), counts
	// them and tells its RejectListeners.
	Rejects []job.ID
	// Wake, when after now, asks the model for another pass at that time
	// even if nothing else happens then (Batsim's CALL_ME_LATER). The
	// central-queue model honours it while jobs are waiting after the
	// pass, and stops a run whose policy asks MaxIdleWakes times in a row
	// without a job starting, arriving or ending in between.
	Wake float64
	// Power are switches of CPUs on and off (a power model with states:
	// PowerView), applied before the starts.
	Power []PowerSwitch
	// Preempts are running jobs the policy stops now (Slurm's
	// preemption, docs/slurm.md), applied in order before the starts: each
	// must be running, started at an earlier pass. On a platform of nodes
	// only: the CPU-pool models refuse a plan with preemptions. The model
	// tells the policy Finish for each (and, for a requeued one, Submit
	// again at once, its job unchanged), then, after the plan's starts,
	// runs another pass at the same instant, so that the jobs the
	// preemptions make room for can start on what they freed.
	Preempts []Preempt
	// PowerWake, when after now, asks for another pass at that time
	// while jobs are present or will arrive (not only while jobs wait, as
	// Wake): an idle sleeper's timeout.
	PowerWake float64
}

// Preempt is one preemption: running job ID is stopped now; with Requeue
// it goes back to the queue (Slurm's PreemptMode=REQUEUE: the run is
// lost, the job waits again and later starts from its beginning), else
// it ends (PreemptMode=CANCEL: its final state job.Preempted).
type Preempt struct {
	ID      job.ID
	Requeue bool
}

// Preempt appends a preemption of running job id.
func (p *Plan) Preempt(id job.ID, requeue bool) {
	p.Preempts = append(p.Preempts, Preempt{ID: id, Requeue: requeue})
}

// MaxIdleWakes bounds the consecutive passes caused only by Plan.Wake
// with nothing started: a policy that keeps asking to be woken and never
// starts a waiting job would otherwise never end the run.
const MaxIdleWakes = 1_000_000

// Start appends a decision to start job id now on machine 0.
func (p *Plan) Start(id job.ID, reason job.StartReason) {
	p.Starts = append(p.Starts, Start{ID: id, Reason: reason})
}

// StartOn appends a decision to start job id now on machine m.
func (p *Plan) StartOn(id job.ID, reason job.StartReason, m int) {
	p.Starts = append(p.Starts, Start{ID: id, Reason: reason, Machine: m})
}

// Reject appends a decision to reject waiting job id.
func (p *Plan) Reject(id job.ID) { p.Rejects = append(p.Rejects, id) }

// Reset empties the plan, keeping its storage.
func (p *Plan) Reset() {
	p.Starts, p.Rejects, p.Wake, p.Power, p.PowerWake, p.Preempts = p.Starts[:0], p.Rejects[:0], 0, p.Power[:0], 0, p.Preempts[:0]
}

// Screener is implemented by a queue policy that refuses some jobs at
// submission (Job Ranking Backfilling's rank -1: no machine can ever hold
// the job). A runner asks Refuse before handing a job to the model: a
// non-empty reason means the job is dropped and counted, never submitted.
// Refuse must not depend on the policy's state (only on the job and the
// policy's configuration), so that the runner may call it ahead of time.
type Screener interface {
	Refuse(j job.Info) string
}

// ReservationReporter is implemented by a queue policy that holds
// reservations (backfilling): SetOnReserve asks it to tell f of every
// reservation it makes or keeps in a pass (job id and reserved start),
// for tools that explain a schedule ('schedlab explain'). A policy
// without reservations does not implement it.
type ReservationReporter interface {
	SetOnReserve(f func(now float64, id job.ID, at float64))
}

// WindowReporter is implemented by a queue policy that takes its queue
// in windows of jobs (matrix scanning, hafshejani-2012: each window is
// scheduled as one matrix of threads): SetOnWindow asks it to tell f of
// every window it forms, by the time and the window's first (head) job,
// so that a runner can follow the head jobs (the reproduction compares
// their response across policies). A policy without windows does not
// implement it.
type WindowReporter interface {
	SetOnWindow(f func(now float64, head job.ID))
}

// Reestimator is implemented by a queue policy that accepts a new estimate
// for a job it is running (package policy/predict calls it when a job
// outlives its predicted runtime, EASY++'s correction). estimate is the
// job's new total estimated runtime from its start, in the units of
// job.Info.Estimate (at the speed BMEst): the job's estimated end becomes
// its start plus that runtime on its machine, as if it had been submitted
// with that estimate. Calls come at time now before the Schedule of the
// same instant, for jobs started by an earlier pass and not yet finished;
// an unknown id, or an estimate that is negative, NaN or infinite, is
// ignored. A job whose new end is not after now is treated as having
// overrun its estimate. A new estimate changes what the policy believes,
// never when the job ends: the kernel alone knows the runtime, and kills
// at the job's request as before.
type Reestimator interface {
	Reestimate(now float64, id job.ID, estimate float64)
}

// Failer is implemented by a queue policy that can fail on its own (an
// external decision process that crashed, hung or wrote garbage:
// package policy/external). The cluster model calls Err after every
// Schedule; a non-nil error stops the run with that error, which names
// the policy, the time and what went wrong. In-process policies do not
// implement it and cost nothing.
type Failer interface {
	Err() error
}
