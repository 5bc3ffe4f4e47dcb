package metrics

import (
	"bufio"
	"io"
	"math"
	"strconv"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/platform"
)

// JobsHeader is the header row of jobs.csv.
const JobsHeader = "job_id,submission_time,requested_number_of_resources,requested_time," +
	"starting_time,execution_time,finish_time,waiting_time,turnaround_time,stretch," +
	"allocated_resources,final_state,start_reason\n"

// JobsCSV writes one jobs.csv row per finished job. Unknown values
// (requested_time when the request is unknown, stretch of a zero-length
// job) are empty cells. Check Err after the run, then call Flush.
type JobsCSV struct {
	engine.NopListener
	w     *bufio.Writer
	buf   []byte
	err   error
	sites bool
	plat  *platform.Platform // machine columns (NewJobsCSVMachines)
}

// NewJobsCSV writes the header to w and returns the listener.
func NewJobsCSV(w io.Writer) *JobsCSV {
	j := &JobsCSV{w: bufio.NewWriterSize(w, 1<<16)}
	_, j.err = j.w.WriteString(JobsHeader)
	return j
}

// NewJobsCSVSites is NewJobsCSV for multi-site models: two more columns,
// kind (local, gang or job) and sites (the sites the job ran on, separated
// by ';'); kind "job" is a sequential job of the grid model.
func NewJobsCSVSites(w io.Writer) *JobsCSV {
	j := &JobsCSV{w: bufio.NewWriterSize(w, 1<<16), sites: true}
	_, j.err = j.w.WriteString(JobsHeader[:len(JobsHeader)-1] + ",kind,sites\n")
	return j
}

// MachineColumns are the columns NewJobsCSVMachines adds: the machine
// the job ran on, its speed BM, the speed at which the job's estimate
// holds (BM_est; empty when it is the reference speed) and the job's
// deadline (empty: none).
const MachineColumns = "machine,speed,bm_est,deadline"

// NewJobsCSVMachines is NewJobsCSV for platforms of machines of different
// speeds (the hetero model, traces with deadlines): MachineColumns after
// the jobs.csv columns.
func NewJobsCSVMachines(w io.Writer, p platform.Platform) *JobsCSV {
	j := &JobsCSV{w: bufio.NewWriterSize(w, 1<<16), plat: &p}
	_, j.err = j.w.WriteString(JobsHeader[:len(JobsHeader)-1] + "," + MachineColumns + "\n")
	return j
}

func (j *JobsCSV) JobFinished(now float64, r *engine.Record) { j.row(r) }
func (j *JobsCSV) JobKilled(now float64, r *engine.Record)   { j.row(r) }

// num appends v in the shortest form that reads back exactly. Trace times
// are whole seconds: integers take the fast path.
func num(b []byte, v float64) []byte {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return strconv.AppendInt(b, int64(v), 10)
	}
	return strconv.AppendFloat(b, v, 'f', -1, 64)
}

func (j *JobsCSV) row(r *engine.Record) {
	if j.err != nil {
		return
	}
	b := j.buf[:0]
	b = strconv.AppendInt(b, int64(r.Job.ID), 10)
	b = append(b, ',')
	b = num(b, r.Job.Submit)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(r.Job.Procs), 10)
	b = append(b, ',')
	if r.Job.Request > 0 {
		b = num(b, r.Job.Request)
	}
	b = append(b, ',')
	b = num(b, r.Start)
	b = append(b, ',')
	ex := r.Exec()
	b = num(b, ex)
	b = append(b, ',')
	b = num(b, r.End)
	b = append(b, ',')
	b = num(b, r.Wait())
	b = append(b, ',')
	b = num(b, r.Turnaround())
	b = append(b, ',')
	if ex > 0 {
		b = num(b, r.Turnaround()/ex)
	}
	b = append(b, ',')
	b = r.CPUs.AppendText(b)
	b = append(b, ',')
	b = append(b, r.State.String()...)
	b = append(b, ',')
	b = append(b, r.Reason.String()...)
	if j.sites {
		switch {
		case r.Job.Tasks != nil:
			b = append(b, ",gang,"...)
		case r.Job.Local:
			b = append(b, ",local,"...)
		default:
			b = append(b, ",job,"...)
		}
		for i, s := range r.Sites {
			if i > 0 {
				b = append(b, ';')
			}
			b = strconv.AppendInt(b, int64(s), 10)
		}
	}
	if j.plat != nil {
		b = append(b, ',')
		if r.Machine >= 0 {
			b = strconv.AppendInt(b, int64(r.Machine), 10)
			b = append(b, ',')
			b = num(b, j.plat.Machine(r.Machine).BM())
		} else {
			b = append(b, ',')
		}
		b = append(b, ',')
		if r.Job.BMEst > 0 {
			b = num(b, r.Job.BMEst)
		}
		b = append(b, ',')
		if r.Job.Deadline != 0 {
			b = num(b, r.Job.Deadline)
		}
	}
	b = append(b, '\n')
	j.buf = b
	_, j.err = j.w.Write(b)
}

// Err reports the first write error.
func (j *JobsCSV) Err() error { return j.err }

// Flush writes buffered rows.
func (j *JobsCSV) Flush() error {
	if j.err != nil {
		return j.err
	}
	return j.w.Flush()
}

// PlatformHeader is the header row of a platform file.
const PlatformHeader = "machine,first_cpu,cpus,speed\n"

// WritePlatformCSV writes p's machines, one row each: index, the global id
// of its first CPU (allocated_resources in jobs.csv are global ids), CPU
// count and speed BM.
func WritePlatformCSV(w io.Writer, p platform.Platform) error {
	b := []byte(PlatformHeader)
	for m := range p.Machines() {
		b = strconv.AppendInt(b, int64(m), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(p.First(m)), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(p.Machine(m).CPUs), 10)
		b = append(b, ',')
		b = num(b, p.Machine(m).BM())
		b = append(b, '\n')
	}
	_, err := w.Write(b)
	return err
}
