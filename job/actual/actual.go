package actual

import (
	"math"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
)

// Job is the full record of a job, actual runtime included. Times are
// model time (seconds for traces, the paper's unit for synthetic models).
type Job struct {
	ID     job.ID
	Submit float64 // arrival time
	Procs  int     // processors (or tasks) used, >= 1

	// Runtime is the actual execution time at the job's reference speed
	// BMEst. Only the kernel, the models and the metrics read it.
	Runtime float64

	// Request is the user's requested (wall) time, or a negative number
	// when unknown. It is what a resource manager enforces as a limit.
	Request float64

	// Estimate is what schedulers believe the runtime is (at speed BMEst):
	// the request, the actual runtime, or a model of it.
	Estimate float64

	User, Group int32 // -1 when unknown

	// ReqMem is the SWF requested memory per processor (field 10, KB;
	// <= 0 unknown), kept so that a simulated schedule can be written back
	// as SWF. Mem is the memory per processor a scheduler fits: used
	// memory (field 7) else requested memory, in KB; 0 when unknown.
	ReqMem float64
	Mem    float64

	// Speed is the CPU speed the job requires (0: any).
	Speed float64
	// BMEst is the speed of the machine at which Runtime and Estimate
	// hold (0 means the reference speed 1). On a machine of speed BM the
	// job runs Runtime x BMEst / BM.
	BMEst float64
	// Deadline is the absolute time by which the job should end; 0 means
	// none (+Inf).
	Deadline float64

	// Local marks a job submitted at a site's local scheduler (gang
	// model); grid jobs and trace jobs leave it false.
	Local bool
	// Recorded marks a job whose trace records when it started:
	// RecordedWait seconds after its submission (SWF field 3), what the
	// real machine did. A source that moves submissions apart from the
	// trace (resampling, all jobs at time 0) clears it. The recorded
	// policy starts jobs at Submit + RecordedWait.
	Recorded     bool
	RecordedWait float64
	// Partition is the trace's partition number (SWF field 16); -1 when
	// unknown. The outputs (jobs.csv, schedule.swf) and the multifactor
	// queue order read it.
	Partition int32
	// QOS is the job's quality of service: the trace's queue number (SWF
	// field 15), which the Slurm importer fills with the QOS; -1 when
	// unknown. The multifactor queue order reads it.
	QOS int32

	// Tasks, for a job whose tasks the model starts as units of their own
	// (a gang's tasks, which start together on distinct processors),
	// holds each task's actual runtime and estimate; nil for an ordinary
	// job. len(Tasks) == Procs when set.
	Tasks []Task

	// Req is what the job asks of a platform of nodes (job.Info.Req);
	// nil: Procs tasks of one CPU. The pool of CPUs ignores it.
	Req *nodes.Request
}

// Task is one task of a job.
type Task struct {
	Runtime  float64
	Estimate float64
}

// DeadlineOrInf returns the deadline, +Inf when the job has none.
func (j *Job) DeadlineOrInf() float64 {
	if j.Deadline == 0 {
		return math.Inf(1)
	}
	return j.Deadline
}

// Info returns the policy-visible view of j: everything but the actual
// runtimes. It allocates only for jobs with tasks.
func (j *Job) Info() job.Info {
	i := job.Info{ID: j.ID, Submit: j.Submit, Procs: j.Procs, Estimate: j.Estimate, User: j.User, Group: j.Group,
		Mem: j.Mem, Speed: j.Speed, BMEst: j.BMEst, Deadline: j.Deadline, Local: j.Local,
		Partition: j.Partition, QOS: j.QOS, RecordedStart: math.NaN(), Req: j.Req}
	if j.Recorded {
		i.RecordedStart = j.Submit + j.RecordedWait
	}
	if j.Tasks != nil {
		i.Gang = true
		i.TaskEstimates = make([]float64, len(j.Tasks))
		for k, t := range j.Tasks {
			i.TaskEstimates[k] = t.Estimate
		}
	}
	return i
}
