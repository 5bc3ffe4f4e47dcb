package threads

import (
	"fmt"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/workload"
)

// Source splits every job of a source into one-processor threads: a job
// of k processors becomes k jobs of one processor, IDs
// job.ThreadID(parent, 0..k-1), each with the job's submit time, runtime,
// request, estimate and attributes. The threads of a job come out
// consecutively, in index order, so that they arrive in one instant.
// Memory: one job at a time.
type Source struct {
	src  workload.Source
	cur  actual.Job
	next int // index of the next thread of cur; cur.Procs when done
}

// Split wraps src.
func Split(src workload.Source) *Source { return &Source{src: src} }

// Next returns the next thread. A job whose ID is outside
// [0, job.MaxThreadParent] or whose size is outside 1..job.MaxThreads is
// an error naming it.
func (t *Source) Next() (actual.Job, error) {
	if t.next >= t.cur.Procs {
		j, err := t.src.Next()
		if err != nil {
			return actual.Job{}, err
		}
		switch {
		case j.ID < 0 || j.ID > job.MaxThreadParent:
			return actual.Job{}, fmt.Errorf("job %d: id outside 0..%d, the range whose threads have ids", j.ID, job.MaxThreadParent)
		case j.Procs < 1 || j.Procs > job.MaxThreads:
			return actual.Job{}, fmt.Errorf("job %d: %d processors, a job split into threads needs 1..%d", j.ID, j.Procs, job.MaxThreads)
		case j.Tasks != nil:
			return actual.Job{}, fmt.Errorf("job %d: a gang (tasks of their own) cannot be split into threads", j.ID)
		}
		t.cur, t.next = j, 0
	}
	th := t.cur
	th.ID = job.ThreadID(t.cur.ID, t.next)
	th.Procs = 1
	t.next++
	return th, nil
}
