package swf

import (
	"math"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

// Options control the conversion of records to jobs.
type Options struct {
	// MaxProcs is the machine size in processors. 0 means: take the
	// header's MaxProcs if it is positive, else no limit.
	MaxProcs int
	// Clamp makes jobs larger than the machine use MaxProcs processors
	// instead of being rejected.
	Clamp bool
}

// Counts tallies what a Source did with the records it read. Every record
// read lands in exactly one of Jobs, SkippedNoSubmit, SkippedNoRuntime,
// SkippedNoProcs and Rejected (tested in that order, so a record with
// neither submit time nor run time counts as SkippedNoSubmit):
//
//	Read == Jobs + SkippedNoSubmit + SkippedNoRuntime + SkippedNoProcs + Rejected
//
// Clamped counts the jobs (included in Jobs) whose size was clamped.
type Counts struct {
	Read             int64 // records read
	Jobs             int64 // jobs returned
	SkippedNoSubmit  int64 // submit time -1
	SkippedNoRuntime int64 // run time -1
	SkippedNoProcs   int64 // neither allocated nor requested processors known
	Rejected         int64 // larger than the machine (Clamp off)
	Clamped          int64 // larger than the machine, clamped (Clamp on)
}

// Skipped returns the number of records skipped for missing data.
func (c Counts) Skipped() int64 {
	return c.SkippedNoSubmit + c.SkippedNoRuntime + c.SkippedNoProcs
}

// Source converts the records of a Reader into jobs.
type Source struct {
	r        *Reader
	opt      Options
	maxProcs int
	counts   Counts
}

// NewSource returns a Source of the usable jobs of r.
func NewSource(r *Reader, opt Options) *Source {
	mp := opt.MaxProcs
	if mp <= 0 {
		mp = max(r.Header().MaxProcs, 0)
	}
	return &Source{r: r, opt: opt, maxProcs: mp}
}

// MaxProcs returns the effective machine size: Options.MaxProcs, else the
// header's MaxProcs, else 0 (unknown, no limit).
func (s *Source) MaxProcs() int { return s.maxProcs }

// Counts returns the tallies so far.
func (s *Source) Counts() Counts { return s.counts }

// Header returns the header of the underlying Reader.
func (s *Source) Header() Header { return s.r.Header() }

// Next returns the next usable job, io.EOF at the end of the trace, or the
// Reader's error. The job has ID = job number, Submit = field 2, Runtime =
// field 4, Procs = allocated processors if known, else requested ones,
// Request = requested time if positive else -1, User and Group (-1 when
// unknown or beyond int32), ReqMem = field 10, Mem = memory per processor
// (used memory, field 7, else requested memory, field 10; KB; 0 when
// unknown), Req = the record's request (Reader.Request: nil for a plain
// SWF trace; a job table's row asking for more than its processors as
// tasks of one CPU; kept as given when Clamp changes Procs), and
// Estimate 0 (set by another layer).
func (s *Source) Next() (actual.Job, error) {
	var j actual.Job
	if err := s.NextInto(&j); err != nil {
		return actual.Job{}, err
	}
	return j, nil
}

// NextInto is Next writing the job to *j (no copy of it through the
// layers of readers); on error *j is unchanged.
func (s *Source) NextInto(j *actual.Job) error {
	var rec Record
	return s.nextInto(j, &rec)
}

func (s *Source) next() (actual.Job, Record, error) {
	var j actual.Job
	var rec Record
	if err := s.nextInto(&j, &rec); err != nil {
		return actual.Job{}, Record{}, err
	}
	return j, rec, nil
}

// nextInto reads the next usable job into *j and its record into *rec;
// on error *j is unchanged.
func (s *Source) nextInto(j *actual.Job, rec *Record) error {
	for {
		if err := s.r.next(rec); err != nil {
			return err
		}
		s.counts.Read++
		procs := rec.AllocProcs
		if procs <= 0 {
			procs = rec.ReqProcs
		}
		switch {
		case rec.Submit == -1:
			s.counts.SkippedNoSubmit++
			continue
		case rec.Run == -1:
			s.counts.SkippedNoRuntime++
			continue
		case procs <= 0:
			s.counts.SkippedNoProcs++
			continue
		}
		if s.maxProcs > 0 && procs > s.maxProcs {
			if !s.opt.Clamp {
				s.counts.Rejected++
				continue
			}
			procs = s.maxProcs
			s.counts.Clamped++
		}
		s.counts.Jobs++
		req := rec.ReqTime
		if req <= 0 {
			req = -1
		}
		mem := rec.UsedMem
		if mem <= 0 {
			mem = rec.ReqMem
		}
		mem = max(mem, 0)
		*j = actual.Job{
			ID:        job.ID(rec.JobNumber),
			Submit:    rec.Submit,
			Procs:     procs,
			Runtime:   rec.Run,
			Request:   req,
			User:      toInt32(rec.User),
			Group:     toInt32(rec.Group),
			ReqMem:    rec.ReqMem,
			Partition: toInt32(rec.Partition),
			QOS:       toInt32(rec.Queue),
			Mem:       mem,
			Req:       s.r.req,
		}
		if rec.Wait >= 0 {
			j.Recorded, j.RecordedWait = true, rec.Wait
		}
		return nil
	}
}

func toInt32(v int) int32 {
	if v < math.MinInt32 || v > math.MaxInt32 {
		return -1
	}
	return int32(v)
}
