package job

// Threads of a job (hafshejani-2012's thread-level scheduling): a job of
// k processors may be run as k one-processor threads. A thread is an
// ordinary one-processor job to the kernel; its ID packs the parent job's
// ID and the thread's index, so that a policy grouping threads and a
// listener folding them back into jobs (package threads) need no table
// shared between them.

// ThreadBits is the number of low bits of a thread ID that hold the
// thread's index: a job has at most 1<<ThreadBits threads (the largest
// platform has 1<<22 CPUs, platform.MaxCPUs, so no job is larger).
const ThreadBits = 22

// MaxThreadParent is the largest job ID whose threads have IDs: parent IDs
// must lie in [0, MaxThreadParent].
const MaxThreadParent = ID(1)<<(63-ThreadBits) - 1

// MaxThreads is the largest number of threads of one job.
const MaxThreads = 1 << ThreadBits

// ThreadID is the ID of thread r (0-based) of job parent. The caller
// checks 0 <= parent <= MaxThreadParent and 0 <= r < MaxThreads.
func ThreadID(parent ID, r int) ID { return parent<<ThreadBits | ID(r) }

// Thread splits a thread ID made by ThreadID into its parent job's ID and
// its index.
func (id ID) Thread() (parent ID, r int) {
	return id >> ThreadBits, int(id & (MaxThreads - 1))
}
