package engine

import (
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
)

// Record is what the kernel knows about a job when it ends. The pointers
// and slices are valid only during the listener call; copy what you keep.
type Record struct {
	Job    *actual.Job
	Start  float64
	End    float64
	Reason job.StartReason
	State  job.FinalState
	// Machine is the machine of the job's first CPU (-1 if it held none).
	Machine int
	// CPUs are the global ids of the CPUs the job held (all its tasks').
	CPUs platform.Runs
	// Sites lists the machines a job ran on, ascending, in the grid
	// models (a gang's tasks may use two); nil on a central queue.
	Sites []int
	// Attempts is the number of runs of the job: 1, or more for a job
	// requeued after a failure (docs/availability.md); 0 where the model
	// does not count them.
	Attempts int
	// Alloc, on a platform of nodes (NodeCluster), is what the job held:
	// its nodes, cores, memory and GRES units (CPUs are then its global
	// core ids, Machine 0); nil on a pool of CPUs. It belongs to the
	// model, which reuses its storage for a later job: valid only during
	// the call (copy what is kept).
	Alloc *nodes.Allocation
}

// Wait is the time the job spent queued.
func (r *Record) Wait() float64 { return r.Start - r.Job.Submit }

// Exec is the time the job occupied its processors.
func (r *Record) Exec() float64 { return r.End - r.Start }

// Turnaround is the response time: end minus submit.
func (r *Record) Turnaround() float64 { return r.End - r.Job.Submit }

// Start is a job's start, as listeners see it (passed by value: it is
// small, and a pointer would have to live on the heap).
type Start struct {
	Job    *actual.Job
	Reason job.StartReason
	// CPUs the job holds from now (a gang: all its tasks').
	CPUs platform.Runs
	// Behind is, for a job backfilled in a per-processor queue, the gang
	// it passed; 0 otherwise.
	Behind job.ID
	// Alloc, on a platform of nodes, is what the job holds from now (its
	// CPUs are its global core ids); nil on a pool of CPUs. It belongs
	// to the model: valid only during the call.
	Alloc *nodes.Allocation
}

// Listener observes a simulation. Metrics are listeners: adding one never
// edits the kernel or a model. Calls for one instant come in kernel order
// (ends, arrivals, then the starts of the pass). A listener must not keep
// the pointers it is given.
type Listener interface {
	JobSubmitted(now float64, j *actual.Job)
	// JobDispatched: a grid scheduler sent the job to these machines
	// (ascending; a split gang names two).
	JobDispatched(now float64, j *actual.Job, machines []int)
	JobStarted(now float64, s Start)
	// JobFinished: the job ran to completion.
	JobFinished(now float64, r *Record)
	// JobKilled: the job was killed at its requested time limit (State
	// job.WalltimeReached), because a CPU it ran on became unavailable
	// (State job.Killed), or by a preemption that cancels it (State
	// job.Preempted).
	JobKilled(now float64, r *Record)
}

// PreemptListener is a Listener also told of every run a preemption cut
// short (policy.Plan.Preempts), with requeued saying whether the job goes
// back to the queue: told before the job's JobKilled (State
// job.Preempted) for a job the preemption cancels; a requeued job's run
// has no other record (its JobStarted and JobFinished are its last
// run's).
type PreemptListener interface {
	Listener
	JobPreempted(now float64, r *Record, requeued bool)
}

// RejectListener is a Listener also told of the waiting jobs a policy
// rejected (policy.Plan.Rejects, Batsim's REJECT_JOB): they leave the
// queue without starting, and no other call names them again.
type RejectListener interface {
	Listener
	JobRejected(now float64, j *actual.Job)
}

// Usage is what a time listener may read of the resources in use: per
// machine, the CPUs executing a job or task (Busy) and the jobs at the
// machine, waiting in its queues or running on it (Jobs; a gang counts once
// per task; always 0 for a central-queue model, whose waiting jobs are at
// no machine). The slices belong to the model: read them during the call,
// never keep or change them.
//
// On a platform of nodes (NodeCluster) the platform is one machine whose
// CPUs are the nodes' cores: Busy[0] counts the cores held, and Nodes
// says what else is in use.
type Usage struct {
	Platform platform.Platform
	Busy     []int
	Jobs     []int
	Nodes    *NodeUsage // nil on a pool of CPUs
}

// NodeUsage is what is in use on a platform of nodes, for time
// listeners (Usage.Nodes). It belongs to the model: read it during the
// call, never keep or change it.
type NodeUsage struct {
	Platform *nodes.Nodes
	// Cores, MemMB: cores and memory (MB) held by running jobs; an
	// exclusive job holds all of its nodes' cores and memory.
	Cores int
	MemMB int64
	// NodesBusy: nodes on which at least one job runs.
	NodesBusy int
	// GRES[k]: units of kind Kinds[k] held (Kinds: Platform.Kinds(), in
	// that order).
	Kinds []nodes.Kind
	GRES  []int
	// Waiting: jobs waiting; WaitingGRES[k]: waiting jobs whose request
	// could use units of Kinds[k] (a GRES per node or per job of that
	// name, untyped or of that type).
	Waiting     int
	WaitingGRES []int
}

// TimeListener is a Listener that also integrates over time. The kernel
// calls TimeAdvanced at the start of every instant t, before any event of
// t is applied: u then describes the resources in use since the previous
// instant (the first call is at the first instant).
type TimeListener interface {
	Listener
	TimeAdvanced(t float64, u *Usage)
}

// TaskListener is a Listener told of every job or task a processor of a
// per-processor-queue model starts, with its actual end (tests check
// invariants with it; nothing else should need actual ends).
type TaskListener interface {
	Listener
	TaskStarted(r TaskRun)
}

// TaskRun is one job or task started on one processor.
type TaskRun struct {
	Machine, Proc int
	CPU           int32
	ID            job.ID
	Task          int     // -1 for a job without tasks
	Start, End    float64 // actual interval
	EstEnd        float64
	Behind        job.ID // for a backfilled job: the gang it passed
}

// NopListener implements Listener with methods that do nothing; embed it to
// implement only the calls you need.
type NopListener struct{}

func (NopListener) JobSubmitted(float64, *actual.Job)         {}
func (NopListener) JobDispatched(float64, *actual.Job, []int) {}
func (NopListener) JobStarted(float64, Start)                 {}
func (NopListener) JobFinished(float64, *Record)              {}
func (NopListener) JobKilled(float64, *Record)                {}

// Tee fans every call out to several listeners, in order. Time and task
// calls go to the members that take them.
type Tee []Listener

func (t Tee) JobSubmitted(now float64, j *actual.Job) {
	for _, l := range t {
		l.JobSubmitted(now, j)
	}
}

func (t Tee) JobStarted(now float64, s Start) {
	for _, l := range t {
		l.JobStarted(now, s)
	}
}

func (t Tee) JobDispatched(now float64, j *actual.Job, ms []int) {
	for _, l := range t {
		l.JobDispatched(now, j, ms)
	}
}

func (t Tee) JobFinished(now float64, r *Record) {
	for _, l := range t {
		l.JobFinished(now, r)
	}
}

func (t Tee) JobKilled(now float64, r *Record) {
	for _, l := range t {
		l.JobKilled(now, r)
	}
}

// flatten lists l's listeners, the members of Tees included, in call order.
func flatten(l Listener, out []Listener) []Listener {
	if t, ok := l.(Tee); ok {
		for _, m := range t {
			out = flatten(m, out)
		}
		return out
	}
	return append(out, l)
}
