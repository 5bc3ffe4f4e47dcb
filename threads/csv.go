package threads

import (
	"bufio"
	"io"
	"math"
	"strconv"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/digits"
	"github.com/schedlab/schedlab/validate"
)

// Header is the header row of threads.csv.
const Header = "job_id,thread,submission_time,starting_time,execution_time,finish_time,cpu,final_state\n"

// CSV writes one threads.csv row per ended thread of a run whose
// jobs were split into threads: the job's id, the thread's index (0-based),
// its times and CPU. Check Err after the run, then Flush.
type CSV struct {
	engine.NopListener
	w   *bufio.Writer
	buf []byte
	err error
}

// NewCSV writes the header to w and returns the listener.
func NewCSV(w io.Writer) *CSV {
	t := &CSV{w: bufio.NewWriterSize(w, 1<<16)}
	_, t.err = t.w.WriteString(Header)
	return t
}

func (t *CSV) JobFinished(now float64, r *engine.Record) { t.row(r) }
func (t *CSV) JobKilled(now float64, r *engine.Record)   { t.row(r) }

func (t *CSV) row(r *engine.Record) {
	if t.err != nil {
		return
	}
	parent, k := r.Job.ID.Thread()
	b := strconv.AppendInt(t.buf[:0], int64(parent), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(k), 10)
	for _, v := range []float64{r.Job.Submit, r.Start, r.Exec(), r.End} {
		b = append(b, ',')
		b = num(b, v)
	}
	b = append(b, ',')
	b = r.CPUs.AppendText(b)
	b = append(b, ',')
	b = append(b, r.State.String()...)
	b = append(b, '\n')
	t.buf = b
	_, t.err = t.w.Write(b)
}

// Err is the first write error.
func (t *CSV) Err() error { return t.err }

// Flush writes what is buffered.
func (t *CSV) Flush() error {
	if t.err != nil {
		return t.err
	}
	return t.w.Flush()
}

// num appends v in the shortest form that reads back exactly, as
// jobs.csv writes its times (metrics.JobsCSV).
func num(b []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return digits.AppendInt(b, int64(v))
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

// Recorder keeps every thread's record, as the independent checker reads
// a schedule (validate.Check): with threads, the threads are the
// schedule, each holding one CPU over its own interval.
type Recorder struct {
	engine.NopListener
	Recs []validate.Rec
}

func (t *Recorder) JobFinished(now float64, r *engine.Record) {
	t.add(r, validate.StateCompleted)
}
func (t *Recorder) JobKilled(now float64, r *engine.Record) { t.add(r, validate.StateWalltime) }

func (t *Recorder) add(r *engine.Record, state string) {
	var cpus []validate.Interval
	for i := 0; i+1 < len(r.CPUs); i += 2 {
		cpus = append(cpus, validate.Interval{Lo: int(r.CPUs[i]), Hi: int(r.CPUs[i+1])})
	}
	t.Recs = append(t.Recs, validate.Rec{ID: int64(r.Job.ID), Submit: r.Job.Submit, Start: r.Start, Finish: r.End,
		Procs: r.Job.Procs, State: state, CPUs: cpus})
}
