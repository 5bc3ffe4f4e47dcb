// Package matrix is hafshejani-2012's thread-level matrix scanning as a
// queue policy of the cluster model.
//
// A job of k processors runs as k one-processor threads (each for the
// job's whole runtime; the job ends with its last thread). The policy
// sees threads: one-processor jobs whose IDs pack the parent job's ID and
// the thread's index (job.ThreadID). Its declaration has the Threads
// trait, so a runner splits the workload and folds the job records back
// (package threads, the thread-level transform any policy with the trait
// gets), and the kernel and the cluster model run unchanged.
// The threads of one job arrive consecutively in one instant; the policy
// groups them by parent.
//
// Windows (the paper's n x n matrix): n = the thread count of the first
// waiting job; the window is the first min(n, waiting) jobs; while a job
// of the window has more than n threads, n becomes that count and the
// window grows. The fixed point is unique whichever violating job is
// taken first (Size). The window's threads go into a FIFO thread queue
// row by row: thread 1 of every job of the window in job order, then
// thread 2 of the jobs that have one, and so on (the paper's Fig. 3).
// Threads start in queue order, each on one free CPU (the model gives the
// lowest free id). The next window is formed when the thread queue is
// empty and a CPU is free (Lazy, the default); Eager forms windows of all
// waiting jobs at every pass; Fixed:N makes every window N jobs.
//
// The policy never reads estimates or runtimes: the paper's method needs
// neither. The data-dependency "dangler" of the paper is not modelled
// (threads are independent).
//
// Start reasons: a thread is Backfilled when an earlier job of its window
// still has threads waiting behind it in the thread queue; otherwise
// Immediate at its submit time, else Reserved. A job's reason is its
// first thread's.
//
// Cost: every thread is queued and started once; forming a window costs
// its number of jobs plus its number of threads.
package matrix
