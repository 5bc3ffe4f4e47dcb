// Package engine is schedlab's deterministic discrete-event kernel and the
// resource models built on it.
//
// The kernel is a typed min-heap of value events ordered by (time, class,
// sequence). At one instant the engine applies every completion, then every
// arrival and timer, then calls the policy's scheduling logic exactly once
// (DESIGN.md section 2). Sequence numbers are assigned in push order, so
// events of the same time and class are applied in the order they were
// created: nothing depends on map iteration or on heap accidents.
//
// The engine owns all mutable state of a simulation: the clock, the jobs
// waiting and running, the processors. A policy only decides: it returns a
// plan, and the engine validates every decision before applying it (the job
// must be waiting, the processors must be free); a bad decision stops the run
// with an error naming the policy, the time and the job.
//
// There are no goroutines and no package-level mutable state: one Engine is
// one single-threaded simulation, and many can run in parallel.
//
// Memory is bounded by the number of jobs present (waiting or running), not
// by the length of the workload: jobs are pulled from a streaming Source one
// arrival ahead, and a finished job's record is handed to the listeners and
// dropped.
package engine
