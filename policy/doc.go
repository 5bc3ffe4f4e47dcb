// Package policy defines the contracts between the models and scheduling
// policies: policies import this package, package job and package
// platform, never the engine, the models or job/actual (an
// import-boundary test in internal/lint enforces it).
//
// It also defines how a policy declares itself (declare.go): Decl names
// the policy, the model and kind it serves, its traits and its typed
// options (package policy/option) and gives its one factory,
// New(Env, option.Values) (Built, error). Each policy package lists its
// Decls in its own folder; package registry lists the packages.
//
// Three contracts, one per way jobs wait:
//   - QueueScheduler: a central queue over the machines of a platform. Told
//     of submissions and ends, asked once per instant to fill a Plan of
//     starts (job, machine, optionally CPUs) over a Machines view.
//   - GridScheduler and LocalScheduler: a grid of sites whose processors
//     have their own queues. The grid scheduler sends jobs to sites through
//     a Dispatcher (each send is applied and validated at once, so the
//     GridView it reads reflects it); the local scheduler picks the
//     processor.
//   - GangPolicy: the gang model's placement, GS-queue and backfilling
//     questions over a GangView.
//
// What a runner or a model needs from a built policy beyond its contract
// it asks through small optional interfaces, never by the policy's name
// or type: Screener (jobs refused at submission), ReservationReporter,
// Reestimator, Failer (a decision process that broke), WindowReporter
// (matrix scanning's window heads), QueueExaminer (when the gang
// model examines the GS queue), AvailabilityPlanner (on nodes
// NodeAvailabilityPlanner, asserted by the node model), ForeignLoad (the
// jobs of other partitions on a partition's shared CPUs) and
// SummaryReporter. CapsOf gathers them once, when a policy is built,
// into Caps (caps.go): the models and runners read Caps and assert
// nothing themselves; a policy that wraps another (a Layer) declares
// its Caps from its inner's. What a runner needs before a policy is
// built is in its declaration: Traits (Threads, PeriodOption, ...) and
// Decl.CheckInProcess.
//
// Views are read-only values from live model state; they cannot be
// converted back into the model (nor a GridView into the Dispatcher). A
// policy only ever sees job.Info, never a job's actual runtime: it learns
// that a job ended when the model tells it so, exactly as a real resource
// manager does.
//
// "Cannot place now" is a normal outcome (the job is simply not in the
// plan, or the answer is false or -1), never an error; an error from a
// model means the policy is broken.
package policy
