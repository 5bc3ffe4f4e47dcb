package job

import (
	"fmt"

	"github.com/schedlab/schedlab/platform/nodes"
)

// ID identifies a job. For SWF traces it is the SWF job number (field 1).
type ID int64

// Info is everything a policy may know about a job: never its actual
// runtime.
type Info struct {
	ID       ID
	Submit   float64
	Procs    int
	Estimate float64
	User     int32
	Group    int32
	// Partition and QOS are the job's partition (SWF field 16) and
	// quality of service (SWF field 15, the queue); -1 when unknown.
	Partition, QOS int32
	// Mem is the memory per processor in KB (0: unknown), Speed the CPU
	// speed the job requires (0: any), BMEst the speed at which Estimate
	// holds (0: the reference speed 1), Deadline the absolute time by
	// which the job should end (0: none).
	Mem, Speed, BMEst, Deadline float64
	// Local marks a job submitted at a site's local scheduler.
	Local bool
	// RecordedStart is when the trace records that the job started on
	// the real machine (submit + SWF field 3): a fact of the past, not a
	// prediction; NaN when the trace gives none.
	RecordedStart float64
	// Gang is set for a gang; TaskEstimates are its tasks' estimates.
	Gang          bool
	TaskEstimates []float64
	// Req is what the job asks of a platform of nodes (nodes, tasks,
	// CPUs per task, memory, GRES, a constraint, exclusive); nil for a
	// job that asks only for Procs processors (on nodes: Procs tasks of
	// one CPU, nodes.FromProcs). A pool of CPUs ignores it. Shared, not
	// copied: never change it.
	Req *nodes.Request
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
	// Killed: killed by the platform, a CPU it ran on became unavailable
	// (a failure, or a reservation it overran into; docs/availability.md).
	// Batsim's name for a job killed before its end.
	Killed
	// Preempted: stopped by a preemption that cancels it
	// (policy.Preempt without Requeue; Slurm's PREEMPTED).
	Preempted
)

func (s FinalState) String() string {
	switch s {
	case Completed:
		return "COMPLETED_SUCCESSFULLY"
	case WalltimeReached:
		return "COMPLETED_WALLTIME_REACHED"
	case Killed:
		return "COMPLETED_KILLED"
	case Preempted:
		return "COMPLETED_PREEMPTED"
	}
	return fmt.Sprintf("FinalState(%d)", s)
}
