package job

import "fmt"

// ID identifies a job. For SWF traces it is the SWF job number (field 1).
type ID int64

// Job is the engine's full record of a job. Times are model time (seconds
// for traces, the paper's unit for synthetic models).
type Job struct {
	ID     ID
	Submit float64 // arrival time
	Procs  int     // processors (or tasks) used, >= 1

	// Runtime is the actual execution time at reference speed. Only the
	// engine and metrics read it; policies never receive a Job.
	Runtime float64

	// Request is the user's requested (wall) time, or a negative number
	// when unknown. It is what a resource manager enforces as a limit.
	Request float64

	// Estimate is what schedulers believe the runtime is: the request, the
	// actual runtime, or a model of it (see workload estimate models).
	Estimate float64

	User, Group int32 // -1 when unknown
	ReqMem      float64

	// Local marks a job submitted at a site's local scheduler (gang
	// model); grid jobs and trace jobs leave it false.
	Local bool

	// Tasks, for a gang (a parallel job whose tasks must start together on
	// distinct processors), holds each task's actual runtime and estimate;
	// nil for an ordinary job. len(Tasks) == Procs.
	Tasks []Task
}

// Task is one task of a gang.
type Task struct {
	Runtime  float64
	Estimate float64
}

// Info is everything a policy may know about a job: never its actual
// runtime.
type Info struct {
	ID       ID
	Submit   float64
	Procs    int
	Estimate float64
	User     int32
	Group    int32
	// Gang is set for a gang; TaskEstimates are its tasks' estimates.
	Gang          bool
	TaskEstimates []float64
}

// Info returns the policy-visible view of j.
func (j *Job) Info() Info {
	i := Info{ID: j.ID, Submit: j.Submit, Procs: j.Procs, Estimate: j.Estimate, User: j.User, Group: j.Group}
	if j.Tasks != nil {
		i.Gang = true
		i.TaskEstimates = make([]float64, len(j.Tasks))
		for k, t := range j.Tasks {
			i.TaskEstimates[k] = t.Estimate
		}
	}
	return i
}

// StartReason records how a job came to start (Fluxion's habit).
type StartReason uint8

const (
	// Immediate: started in queue order at the instant it was submitted.
	Immediate StartReason = iota
	// Backfilled: started while a job ahead of it in the queue was waiting.
	Backfilled
	// Reserved: started in queue order after having had to wait (it held
	// a reservation, or in strict FCFS it waited behind the head).
	Reserved
	numReasons
)

// NumReasons is the number of distinct start reasons.
const NumReasons = int(numReasons)

var reasonNames = [...]string{"immediate", "backfilled", "reserved"}

func (r StartReason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("StartReason(%d)", r)
}

// FinalState is how a job ended, with Batsim's names.
type FinalState uint8

const (
	// Completed: ran its full runtime.
	Completed FinalState = iota
	// WalltimeReached: killed at its requested time limit.
	WalltimeReached
)

func (s FinalState) String() string {
	switch s {
	case Completed:
		return "COMPLETED_SUCCESSFULLY"
	case WalltimeReached:
		return "COMPLETED_WALLTIME_REACHED"
	}
	return fmt.Sprintf("FinalState(%d)", s)
}
