// Package inproc runs `schedlab run --policy external` inside the calling
// process, its decisions made by the caller one instant at a time: the
// Go side of the shared library cmd/libschedlab, through which Python's
// schedlab package drives the engine without a second process.
//
// It is the command line's own run (an experiment.RunSpec, run by
// RunSpec.Run: the same checks, assembly, outputs and messages as
// 'schedlab run', whose flags map to the same spec) with the external
// policy's in-process form (policy/external.Decider) in place of a
// decision process, so it is no second implementation: the decisions
// are validated by the code that validates a protocol reply.
//
// The run is a coroutine (iter.Pull): Next hands the caller's decision
// to the run and switches to it; the run switches back at the next
// instant at which a job could start (the protocol's requests), or at
// its end. The switch is a direct goroutine switch, not a channel
// handoff between threads (docs/performance.md measures both), and one
// goroutine at a time runs the simulation, as everywhere else. Because
// of the coroutine, a Sim must be driven from one OS thread when its
// caller is C (cmd/libschedlab checks it).
package inproc
