package policy

import (
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
)

// ForeignLoad is implemented by a queue policy that can decide for a
// partition whose CPUs other partitions share (overlapping partitions,
// docs/partitions.md). The policy decides over a view of its
// partition's CPUs alone; a job of another partition that runs on some
// of them is, to it, a foreign job: it holds those CPUs, and the policy
// never sees it in its queue.
//
// The cluster model calls Occupy when a foreign job starts on procs of
// the partition's CPUs (procs >= 1, as many as the job holds there, not
// its whole size), and Release when it ends, completed or killed (now
// may be before end). Calls come at time now between the passes of the
// instant: after the pass of the partition that started the job and
// before this partition's next pass, which the model always gives at
// the same instant. id is never one of the policy's own jobs; a
// Release for an id it was never told of is ignored.
//
// end is the job's estimated end as the model computes it from the
// estimate the job was submitted with (now + its estimated duration);
// an end not after now is a job already at its estimate (zero), held
// as an own job of zero estimate would be. A policy that plans ahead
// (reservations) treats a foreign job exactly as one of its own running
// jobs: its CPUs are busy until end, then free; if it runs past end, it
// holds them "until any moment", as an own job that overran its
// estimate. A policy that only reads Machines.Free needs to do nothing:
// Free already counts the partition's idle CPUs only. The model refuses
// overlapping partitions under a policy that does not implement it.
type ForeignLoad interface {
	Occupy(now float64, id job.ID, procs int, end float64)
	Release(now float64, id job.ID)
}

// NodeForeignLoad is ForeignLoad for a NodeScheduler: implemented by a
// node policy that can decide for a partition of nodes that other
// partitions share (overlapping partitions on a platform of nodes,
// docs/nodes.md, "Overlapping partitions"). A job of another partition
// that holds resources on some of the partition's nodes is, to the
// policy, a foreign job: it never sees it in its queue, but the node
// view counts what it holds, and the policy is told of it here.
//
// The model calls OccupyNodes when a foreign job starts: a is what the
// job holds on the partition's nodes alone (its allocation cut to them:
// those nodes, their cores, memory and GRES units, Exclusive when the
// job holds its nodes whole), in the partition's platform's ids (the
// policy's); the policy must not keep a's storage beyond the call. end
// is the job's estimated end, as ForeignLoad's: an end not after now is
// a job at its estimate already. ReleaseNodes comes when it ends,
// completed or killed. Calls come between the passes of the instant,
// as ForeignLoad's, and the partition passes again at that instant; id
// is never one of the policy's own jobs, and a ReleaseNodes for an id
// it was never told of is ignored.
//
// A policy that plans ahead treats a foreign job as one of its own
// running jobs (busy until end, "until any moment" once past it); one
// that reads only the view needs to do nothing. The model refuses
// overlapping partitions of nodes under a policy that does not
// implement it.
type NodeForeignLoad interface {
	OccupyNodes(now float64, id job.ID, a nodes.Allocation, end float64)
	ReleaseNodes(now float64, id job.ID)
}
