package engine

import (
	"io"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

// kernel is what every model shares: the clock, the event heap, the job
// slots and the streaming source with one pending arrival.
type kernel struct {
	events   Queue
	slots    []slot
	freeList []int32
	now      float64
	lastSub  float64
	src      Source
	srcDone  bool
	lis      Listener
	rec      Record
	stats    Stats
	check    func(*actual.Job) error
	recSites []int // set by multi-site models just before ended

	// The observed span, for time integrals (utilization, loads): from
	// the first instant to the latest one reached.
	spanStart, spanLast float64
	spanOpen            bool
}

// moveTo makes t the current instant and returns the time elapsed since
// the previous one (0 at the first), for models that integrate over time.
func (k *kernel) moveTo(t float64) float64 {
	if !k.spanOpen {
		k.spanStart, k.spanLast, k.spanOpen = t, t, true
	}
	dt := t - k.spanLast
	k.spanLast, k.now = t, t
	return dt
}

// span is the length of time observed so far.
func (k *kernel) span() float64 { return k.spanLast - k.spanStart }

type slot struct {
	job    actual.Job
	start  float64
	reason job.StartReason
	killed bool
	site   int32
	proc   int32
}

func (k *kernel) alloc() int32 {
	if n := len(k.freeList); n > 0 {
		i := k.freeList[n-1]
		k.freeList = k.freeList[:n-1]
		return i
	}
	k.slots = append(k.slots, slot{})
	return int32(len(k.slots) - 1)
}

func (k *kernel) release(i int32) {
	k.slots[i] = slot{}
	k.freeList = append(k.freeList, i)
}

// loadNext reads the next job and schedules its arrival.
func (k *kernel) loadNext() error {
	if k.srcDone {
		return nil
	}
	j, err := k.src.Next()
	if err == io.EOF {
		k.srcDone = true
		return nil
	}
	if err != nil {
		return err
	}
	if err := k.check(&j); err != nil {
		return err
	}
	k.lastSub = j.Submit
	i := k.alloc()
	k.slots[i] = slot{job: j, site: -1, proc: -1}
	k.events.Push(j.Submit, ClassArrival, i)
	return nil
}

// ended builds the Record of slot i ending now and hands it to the
// listeners. One Record is reused: a fresh one per job would cost an
// allocation each.
func (k *kernel) ended(i int32) {
	s := &k.slots[i]
	rec := &k.rec
	*rec = Record{Job: &s.job, Start: s.start, End: k.now, Reason: s.reason, Site: int(s.site), Proc: int(s.proc), Sites: k.recSites}
	if s.killed {
		rec.State = job.WalltimeReached
		k.stats.Killed++
		k.lis.JobKilled(k.now, rec)
	} else {
		k.lis.JobFinished(k.now, rec)
	}
}
