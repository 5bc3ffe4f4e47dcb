// Package threads is the thread-level transform of a central-queue run
// (hafshejani-2012's matrix scanning): a job of k processors is run as k
// one-processor threads that may start at different times, and the
// job's record is made of its threads' again. Any queue policy whose
// declaration has the Threads trait (policy.Traits) gets its workload
// this way; the kernel and the cluster model run unchanged, since a
// thread is an ordinary one-processor job to them.
//
// The transform has three parts, which a runner puts around the engine:
//
//   - Split, a source wrapper: every job becomes its threads, IDs
//     job.ThreadID(parent, index), consecutive and in index order, so
//     that a job's threads arrive in one instant.
//   - Fold, a listener wrapper: the threads' events become the jobs'
//     events for the listeners it wraps (a job starts with its first
//     thread and ends with its last), and Correct sets a summary's
//     utilization from the threads' CPU time.
//   - The thread records: CSV writes threads.csv (one row per thread),
//     Recorder keeps the threads' records for the independent checker
//     (package validate).
//
// The thread IDs are defined in package job (ThreadID, ID.Thread), the
// vocabulary policies see, so that a policy grouping threads and the
// fold folding them back need no table shared between them. A policy
// never imports this package: it imports the engine.
package threads
