package engine

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
)

// Source yields jobs in non-decreasing submit order; Next returns io.EOF
// after the last one. Other errors stop the simulation.
type Source interface {
	Next() (actual.Job, error)
}

// IntoSource is a Source that can also write its next job in place (the
// kernel then reads each job straight into its slot, with no copy of it
// on the way); on error the job is unchanged. A job read so is the one
// Next would return.
type IntoSource interface {
	Source
	NextInto(j *actual.Job) error
}

// Stats are the kernel's own counts for a finished run.
type Stats struct {
	Jobs      int64   // jobs submitted (= finished, on success)
	Killed    int64   // jobs killed at their limit
	Passes    int64   // scheduling passes (decision calls)
	Events    int64   // events applied
	End       float64 // time of the last instant
	MaxQueued int     // largest number of waiting jobs
	// FailureKilled counts the jobs killed because a CPU they ran on
	// became unavailable, Requeued the runs cut short and requeued
	// (docs/availability.md).
	FailureKilled, Requeued int64
	// Rejected counts the waiting jobs the policy rejected
	// (policy.Plan.Rejects); they are among Jobs but never start.
	Rejected int64
	// Preempted counts the runs a preemption cut short
	// (policy.Plan.Preempts), PreemptRequeued those of them requeued
	// (the others cancelled: among the jobs that ended).
	Preempted, PreemptRequeued int64
}

// model is what a resource model adds to the kernel: how jobs wait and
// what a legal start is. The kernel calls it, for each instant, in this
// order: complete for every completion (in push order), completionsDone
// once the instant's completions are applied (again if a later step adds
// completions at the same instant), arrive for every arrival and timer
// for every timer (in push order), then decide once.
type model interface {
	// admit checks a job read from source stream k before it is queued.
	admit(j *actual.Job, stream int) error
	arrive(slot int32) error
	complete(ref int32) error
	completionsDone() error
	timer(ref int32) error
	decide() error
	// finish is called once after the last instant (not after a stop).
	finish() error
}

// slot is a job present in the system: the only place that holds its
// actual runtime.
type slot struct {
	job     actual.Job
	start   float64
	reason  job.StartReason
	killed  bool
	stream  int32
	machine int32
	cpus    platform.Runs // CPUs held (a gang's: all its tasks')
	// alloc is what the job holds on a platform of nodes (NodeCluster,
	// which sets it at every start; nil in the other models).
	alloc *nodeHold
	// With unavailable CPUs (avail.go): endAt is the time of the
	// completion event of the current run; stale counts the void
	// completion events of runs cut short; dead marks a killed job whose
	// slot waits for them; failKilled a job killed by unavailability;
	// preempted one a preemption cancelled (with stale and dead as
	// failKilled); attempts its runs so far (1 on the first).
	endAt      float64
	stale      int32
	attempts   int32
	dead       bool
	failKilled bool
	preempted  bool
}

// kernel is what every model shares: the clock, the event heap, the job
// slots, the streaming sources with one pending arrival each, the CPUs,
// the listeners and the stopping rule; and the one run loop.
type kernel struct {
	plat     platform.Platform
	events   eventHeap
	slots    slotTable
	freeList []int32
	now      float64
	srcs     []Source
	into     []IntoSource // srcs[s] if it is one, else nil
	srcDone  []bool
	lastSub  []float64
	lis      Listener
	tlis     []TimeListener // the listeners that integrate over time
	task     []TaskListener // the listeners told of task starts
	rej      []RejectListener
	pre      []PreemptListener
	usage    Usage // the model's counts, for time listeners
	rec      Record
	stats    Stats
	cpus     cpuSet
	// stopAfter ends the run once that many jobs have ended (0: never).
	stopAfter, ended int64
	stopped          bool
	ran              bool
	// maxWaiting bounds the jobs that have arrived and not started (0:
	// no bound); started counts the jobs started.
	maxWaiting, started int64
	runChunk            platform.Runs // storage for slots' CPU lists (cpuRoom)
	// newRoom is the room of a new slot's CPU list (0: slotRuns): 2 for
	// a model whose jobs hold one CPU each (one run), so that the
	// waiting jobs of an overloaded run do not hold 16 ids each.
	newRoom    int
	runScratch platform.Runs // the CPUs a start takes, before they go to the slot
	// background counts the pending events that do not keep a run
	// going (availability changes): the run ends when only they are left
	// and no job is present.
	background int
}

func (k *kernel) init(p platform.Platform, lis Listener, srcs ...Source) {
	k.plat = p
	if lis == nil {
		lis = NopListener{}
	}
	k.lis = lis
	for _, l := range flatten(lis, nil) {
		if t, ok := l.(TimeListener); ok {
			k.tlis = append(k.tlis, t)
		}
		if t, ok := l.(TaskListener); ok {
			k.task = append(k.task, t)
		}
		if r, ok := l.(RejectListener); ok {
			k.rej = append(k.rej, r)
		}
		if r, ok := l.(PreemptListener); ok {
			k.pre = append(k.pre, r)
		}
	}
	n := p.Machines()
	k.usage = Usage{Platform: p, Busy: make([]int, n), Jobs: make([]int, n)}
	k.srcs = srcs
	k.into = make([]IntoSource, len(srcs))
	for s, src := range srcs {
		k.into[s], _ = src.(IntoSource)
	}
	k.srcDone = make([]bool, len(srcs))
	k.lastSub = make([]float64, len(srcs))
	k.cpus = newCPUSet(p.CPUs())
}

// loop is the one event loop of every model.
func (k *kernel) loop(m model) error {
	if k.ran {
		return errors.New("engine: Run called twice")
	}
	k.ran = true
	for s := range k.srcs {
		if err := k.load(m, s); err != nil {
			return err
		}
	}
	for k.events.Len() > 0 && !k.stopped && (k.events.Len() > k.background || k.stats.Jobs > k.ended) {
		t := k.events.Peek().Time
		k.now = t
		for _, l := range k.tlis {
			l.TimeAdvanced(t, &k.usage)
		}
		completions := false
		for k.events.Len() > 0 && k.events.Peek().Time == t && !k.stopped {
			if completions && k.events.Peek().Class != ClassCompletion {
				completions = false
				if err := m.completionsDone(); err != nil {
					return err
				}
				continue // completionsDone may have added events at t
			}
			ev := k.events.Pop()
			k.stats.Events++
			var err error
			switch ev.Class {
			case ClassCompletion:
				completions = true
				err = m.complete(ev.Ref)
			case ClassArrival:
				err = k.arrive(m, ev.Ref)
			case ClassTimer:
				err = m.timer(ev.Ref)
			}
			if err != nil {
				return err
			}
		}
		if k.stopped {
			break
		}
		if completions {
			if err := m.completionsDone(); err != nil {
				return err
			}
		}
		if err := m.decide(); err != nil {
			return err
		}
	}
	k.stats.End = k.now
	if k.stopped {
		return nil
	}
	return m.finish()
}

// Stop ends the run at the current instant: called during the
// instant's pass (a listener's JobStarted), the pass completes; called
// while the instant's events are applied, no later event and no pass
// is applied. Run then returns nil without the model's end-of-run
// checks (the jobs still waiting or running are left as they are), and
// Stats.End is the instant. schedlab explain stops once the job it
// explains has started.
func (k *kernel) Stop() { k.stopped = true }

// load reads the next job of stream s and schedules its arrival. The job
// is read straight into a slot: a job checked through a pointer to a local
// variable would escape to the heap, one allocation per job.
func (k *kernel) load(m model, s int) error {
	if k.srcDone[s] {
		return nil
	}
	i := k.alloc()
	sl := k.slots.at(i)
	var err error
	if in := k.into[s]; in != nil {
		err = in.NextInto(&sl.job)
	} else {
		sl.job, err = k.srcs[s].Next()
	}
	if err != nil {
		k.release(i)
		if err == io.EOF {
			k.srcDone[s] = true
			return nil
		}
		return err
	}
	if err := k.admit(m, sl, s); err != nil {
		k.release(i)
		return &AdmitError{Job: sl.job.ID, Submit: sl.job.Submit, Err: err}
	}
	k.lastSub[s] = sl.job.Submit
	sl.stream, sl.machine, sl.killed, sl.cpus = int32(s), -1, false, sl.cpus[:0]
	sl.attempts, sl.dead, sl.failKilled, sl.preempted = 1, false, false, false
	k.events.Push(sl.job.Submit, ClassArrival, i)
	return nil
}

// ErrDuplicateID: a job arrives while another with its id is still in
// the system.
var ErrDuplicateID = errors.New("duplicate job id")

// DuplicateError is ErrDuplicateID for job ID, with the submit time of
// the job of that id still in the system (Holder), so that a caller who
// knows the source can tell which record was refused.
type DuplicateError struct {
	ID     job.ID
	Holder float64
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("job %d: %v (a job with this id is still in the system)", e.ID, ErrDuplicateID)
}

func (e *DuplicateError) Unwrap() error { return ErrDuplicateID }

// AdmitError is a job its model refused as it was read from its source
// (unsorted submit time, too large for every machine, ...) or as it
// arrived (duplicate id). Err names the job; Job lets a caller that knows the source find the
// job's record (a trace's file and line).
type AdmitError struct {
	Job    job.ID
	Submit float64 // the job's submit time: with Job, it finds the record
	Err    error
}

func (e *AdmitError) Error() string { return e.Err.Error() }
func (e *AdmitError) Unwrap() error { return e.Err }

// admit checks what every model needs checked of a job read from stream
// s, then asks the model.
func (k *kernel) admit(m model, sl *slot, s int) error {
	j := &sl.job
	switch {
	case !(j.Runtime >= 0):
		return fmt.Errorf("job %d: invalid runtime %g", j.ID, j.Runtime)
	case !(j.Estimate >= 0):
		return fmt.Errorf("job %d: invalid estimate %g", j.ID, j.Estimate)
	case j.Submit < k.lastSub[s]:
		return fmt.Errorf("job %d: submit time %g is before the previous job's %g (workload not sorted)", j.ID, j.Submit, k.lastSub[s])
	case j.Submit < k.now:
		return fmt.Errorf("job %d: submit time %g is in the past (now %g)", j.ID, j.Submit, k.now)
	case j.Deadline != 0 && !(j.Deadline >= j.Submit):
		return fmt.Errorf("job %d: deadline %g is before its submit time %g", j.ID, j.Deadline, j.Submit)
	case !(j.BMEst >= 0) || math.IsInf(j.BMEst, 1):
		return fmt.Errorf("job %d: invalid BM_est %g", j.ID, j.BMEst)
	}
	return m.admit(j, s)
}

// ErrTooManyWaiting: more jobs wait than the model's bound (MaxWaiting of
// its config): the arrivals outpace the machine.
var ErrTooManyWaiting = errors.New("too many jobs waiting")

// WaitingError is ErrTooManyWaiting at time Time, with the bound.
type WaitingError struct {
	Limit int64
	Time  float64
}

func (e *WaitingError) Error() string {
	return fmt.Sprintf("more than %d jobs waiting at t=%g: %v", e.Limit, e.Time, ErrTooManyWaiting)
}

func (e *WaitingError) Unwrap() error { return ErrTooManyWaiting }

func (k *kernel) arrive(m model, i int32) error {
	k.stats.Jobs++
	if k.maxWaiting > 0 && k.stats.Jobs-k.started-k.stats.Rejected > k.maxWaiting {
		return &WaitingError{Limit: k.maxWaiting, Time: k.now}
	}
	k.lis.JobSubmitted(k.now, &k.slots.at(i).job)
	s := int(k.slots.at(i).stream)
	if err := m.arrive(i); err != nil {
		return err
	}
	return k.load(m, s)
}

func (k *kernel) alloc() int32 {
	if n := len(k.freeList); n > 0 {
		i := k.freeList[n-1]
		k.freeList = k.freeList[:n-1]
		return i
	}
	// A new slot's CPU list starts with room for slotRuns ids, cut from
	// a shared chunk: appending to an empty list would allocate in small
	// steps, for every slot.
	n := slotRuns
	if k.newRoom > 0 {
		n = k.newRoom
	}
	return k.slots.add(slot{cpus: k.cutRoom(n)})
}

// slotTable holds the job slots in chunks of slotChunk that never move:
// growing it allocates one chunk, with no copy of the slots already
// there. (A slice of slots doubled by append held the old and the new
// array at once, and left the old as garbage: an overloaded model's
// 500,000 waiting jobs took about twice their 210 bytes a slot.)
type slotTable struct {
	chunks [][]slot
	n      int32
}

// slotChunk is the slots of one chunk, a power of two (slotShift).
const (
	slotShift = 12
	slotChunk = 1 << slotShift
)

// at returns slot i (< the slots added).
func (t *slotTable) at(i int32) *slot {
	return &t.chunks[i>>slotShift][i&(slotChunk-1)]
}

// add appends s and returns its index.
func (t *slotTable) add(s slot) int32 {
	if int(t.n)>>slotShift == len(t.chunks) {
		t.chunks = append(t.chunks, make([]slot, slotChunk))
	}
	i := t.n
	*t.at(i) = s
	t.n++
	return i
}

// cpuRoom returns an empty CPU list with room for n ids (n rounded up to
// a multiple of slotRuns), cut from a shared chunk: one allocation serves
// many lists.
func (k *kernel) cpuRoom(n int) platform.Runs {
	return k.cutRoom((n + slotRuns - 1) / slotRuns * slotRuns)
}

// cutRoom returns an empty CPU list with room for exactly n ids, cut
// from the shared chunk.
func (k *kernel) cutRoom(n int) platform.Runs {
	if len(k.runChunk) < n {
		k.runChunk = make(platform.Runs, max(n, slotRuns*256))
	}
	r := k.runChunk[:0:n]
	k.runChunk = k.runChunk[n:]
	return r
}

// slotRuns is the room of a new slot's CPU list: 16 ids, 8 runs.
const slotRuns = 16

// release frees slot i. The slot is not cleared: load overwrites every
// field a new job reads before it is read (and the CPU list's storage is
// reused).
func (k *kernel) release(i int32) {
	k.freeList = append(k.freeList, i)
}

// startSlot records the start of slot i now on the CPUs already in
// k.slots.at(i).cpus (on machine k.slots.at(i).machine, the machine of the first
// one, set by the model), and tells the listeners. behind is the job a
// backfilled job passed (0: none known).
func (k *kernel) startSlot(i int32, reason job.StartReason, behind job.ID) {
	k.started++
	s := k.slots.at(i)
	s.start, s.reason = k.now, reason
	k.lis.JobStarted(k.now, Start{Job: &s.job, Reason: reason, CPUs: s.cpus, Behind: behind, Alloc: s.allocation()})
}

// rejectSlot tells the listeners that the waiting job of slot i was
// rejected now, and counts it. The caller forgets and releases the slot.
func (k *kernel) rejectSlot(i int32) {
	k.stats.Rejected++
	for _, r := range k.rej {
		r.JobRejected(k.now, &k.slots.at(i).job)
	}
}

// reasonFor is the start reason of a job that starts in queue order (not
// backfilled): immediate at its submit time, reserved after waiting.
func reasonFor(now, submit float64) job.StartReason {
	if now == submit {
		return job.Immediate
	}
	return job.Reserved
}

// end builds the Record of slot i ending now, hands it to the listeners
// and counts it for the stopping rule. One Record is reused: a fresh one
// per job would cost an allocation each. The slot stays allocated: the
// caller releases it.
func (k *kernel) end(i int32, sites []int) {
	s := k.slots.at(i)
	rec := &k.rec
	*rec = Record{Job: &s.job, Start: s.start, End: k.now, Reason: s.reason, Machine: int(s.machine), CPUs: s.cpus, Sites: sites, Attempts: int(s.attempts), Alloc: s.allocation()}
	if s.failKilled {
		rec.State = job.Killed
		k.lis.JobKilled(k.now, rec)
	} else if s.preempted {
		rec.State = job.Preempted
		k.lis.JobKilled(k.now, rec)
	} else if s.killed {
		rec.State = job.WalltimeReached
		k.stats.Killed++
		k.lis.JobKilled(k.now, rec)
	} else {
		k.lis.JobFinished(k.now, rec)
	}
	k.ended++
	if k.stopAfter > 0 && k.ended >= k.stopAfter {
		k.stopped = true
	}
}

// noCompletionsDone and noTimers are the hooks of models that need none.
type noCompletionsDone struct{}

func (noCompletionsDone) completionsDone() error { return nil }

type noTimers struct{}

func (noTimers) timer(int32) error { return nil }

// taskStarted tells the task listeners of r.
func (k *kernel) taskStarted(r TaskRun) {
	for _, l := range k.task {
		l.TaskStarted(r)
	}
}
