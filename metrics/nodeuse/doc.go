// Package nodeuse measures the use of a platform of nodes over a run,
// exactly (closed form between instants, no polling), from the usage the
// kernel reports at every instant (engine.Usage.Nodes) and the jobs'
// records:
//
//   - utilization of each resource type: the integral of what running
//     jobs hold (cores; memory, on a platform that models it; the units
//     of each GRES kind) over the capacity times the span, the span
//     running from the first submission to the last end, as the
//     summary's utilization is measured (metrics.Summary). Nothing is
//     held outside the span, so the integral over the whole run is the
//     integral over the span. Each value is in [0, 1];
//   - GPU-hours: the unit-hours held of each kind of name "gpu" (typed
//     or not), and their sum;
//   - the mean wait of the jobs that ask for a GRES named "gpu" (per
//     node or per job), and of the others, with their counts (a job
//     requeued after a failure counts once, its last run's wait, as in
//     the summary);
//   - idle GPU-hours while GPU jobs wait: for each gpu kind, the
//     integral of its free units over the time some waiting job could
//     use that kind (NodeUsage.WaitingGRES > 0), summed over the gpu
//     kinds;
//   - the busy-node fraction: the integral of the nodes running at least
//     one job over the nodes times the span.
//
// Meter is the listener (an engine.TimeListener). Trace runs on nodes
// (experiment.PlatformSpec.Nodes) write its Result as summary.json's
// "nodes" section; docs/nodes.md, "Outputs of a run on nodes".
package nodeuse
