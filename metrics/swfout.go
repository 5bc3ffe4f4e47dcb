package metrics

import (
	"container/heap"
	"io"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/workload/swf"
)

// SWFSchedule writes the simulated schedule as an SWF trace: the input's
// fields with the simulated wait time in field 3, the executed time in
// field 4 and status 1 (completed) or 0 (killed at its limit). Records come
// out in submission order, as SWF requires; a small reorder buffer holds
// the jobs that ended before an earlier-submitted one, so memory stays
// bounded by the jobs in flight.
type SWFSchedule struct {
	engine.NopListener
	w       *swf.Writer
	seq     map[job.ID]uint64
	nextSeq uint64
	nextOut uint64
	pending recHeap
	err     error
}

// NewSWFSchedule writes the header h (e.g. the input trace's, with a note)
// and returns the listener. Call Close after the run.
func NewSWFSchedule(w io.Writer, h swf.Header) *SWFSchedule {
	s := &SWFSchedule{w: swf.NewWriter(w), seq: make(map[job.ID]uint64)}
	s.err = s.w.WriteHeader(h)
	return s
}

func (s *SWFSchedule) JobSubmitted(now float64, j *actual.Job) {
	s.seq[j.ID] = s.nextSeq
	s.nextSeq++
}

func (s *SWFSchedule) JobFinished(now float64, r *engine.Record) { s.add(r, 1) }
func (s *SWFSchedule) JobKilled(now float64, r *engine.Record)   { s.add(r, 0) }

func (s *SWFSchedule) add(r *engine.Record, status int) {
	j := r.Job
	req := j.Request
	if req <= 0 {
		req = -1
	}
	rec := swf.Record{
		JobNumber: int64(j.ID), Submit: j.Submit, Wait: r.Wait(), Run: r.Exec(),
		AllocProcs: j.Procs, AvgCPU: -1, UsedMem: -1, ReqProcs: j.Procs, ReqTime: req,
		ReqMem: -1, Status: status, User: int(j.User), Group: int(j.Group),
		Exec: -1, Queue: -1, Partition: int(j.Partition), PrecedingJob: -1, ThinkTime: -1,
	}
	if j.ReqMem > 0 {
		rec.ReqMem = j.ReqMem
	}
	seq := s.seq[j.ID]
	delete(s.seq, j.ID)
	heap.Push(&s.pending, seqRec{seq, rec})
	for len(s.pending) > 0 && s.pending[0].seq == s.nextOut {
		x := heap.Pop(&s.pending).(seqRec)
		if s.err == nil {
			s.err = s.w.Write(x.rec)
		}
		s.nextOut++
	}
}

// Close flushes the writer; it reports the first write error.
func (s *SWFSchedule) Close() error {
	if s.err != nil {
		return s.err
	}
	return s.w.Flush()
}

type seqRec struct {
	seq uint64
	rec swf.Record
}

type recHeap []seqRec

func (h recHeap) Len() int           { return len(h) }
func (h recHeap) Less(i, j int) bool { return h[i].seq < h[j].seq }
func (h recHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *recHeap) Push(x any)        { *h = append(*h, x.(seqRec)) }
func (h *recHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
