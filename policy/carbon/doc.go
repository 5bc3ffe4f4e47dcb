// Package carbon is a carbon-aware delay layer over any central-queue
// policy: a worked example of scheduling under a carbon intensity
// signal (docs/energy.md, "A carbon-aware delay").
//
// New(inner, sig, Params) wraps a policy.QueueScheduler in a Delay, a
// policy.QueueScheduler itself, given the carbon intensity sig
// (gCO2/kWh, package platform/signal); NewNodes wraps a
// policy.NodeScheduler (a platform of nodes, docs/nodes.md) in a
// NodeDelay, the same core around a node scheduler:
//
//   - Deferrable jobs: every job, or with Params.MaxEstimate the jobs
//     whose estimate (as submitted to the layer) is at most MaxEstimate
//     seconds.
//   - Submit at time s of a deferrable job: L is the lowest value the
//     signal takes over [s, s + MaxDelay], and r the first time in that
//     window at which the signal is L (s itself, or a change point in
//     (s, s + MaxDelay]). If r = s (the intensity is already at the
//     window's lowest) the job goes to the inner policy at once;
//     otherwise it is held: the inner policy does not see it until the
//     pass at r, where it is submitted (at time r, with its own submit
//     time unchanged). So r <= s + MaxDelay always: a job is held at
//     most MaxDelay, and released at the first change point where the
//     intensity reaches the window's lowest.
//   - Schedule(now): every held job with r <= now is handed to the
//     inner policy, in (r, job id) order, then the inner policy's pass
//     runs; the layer asks for a pass at the next r (Plan.Wake, kept if
//     the inner policy asks earlier). Held jobs count as waiting for
//     the model, so the wake-up is honoured.
//   - A released job keeps its submit time (job.Info.Submit): an inner
//     policy that orders its queue by submit time (FCFS, EASY) puts it
//     ahead of the jobs submitted after it that it already sees.
//
// A Delay is a declared layer (policy.Layer): its capabilities are its
// inner policy's among Forwards. Deterministic: held jobs are kept in a
// heap by (release, id), no map is iterated.
package carbon
