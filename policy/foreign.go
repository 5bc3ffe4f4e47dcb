package policy

import "github.com/schedlab/schedlab/job"

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
