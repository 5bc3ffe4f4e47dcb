// Package metrics turns engine events into results. Every metric is an
// engine.Listener: adding one never edits the engine.
//
// JobsCSV streams one row per finished job (Batsim's jobs.csv column names
// plus start_reason) in finish order, so memory does not grow with the
// number of finished jobs; NewJobsCSVNodes adds, on a platform of nodes,
// allocated_nodes and allocated_gres after allocated_resources. Summary accumulates the summary metrics in O(1)
// memory.
//
// Definitions (all per finished job, then averaged over jobs):
//   - wait = start - submit; response (turnaround) = end - submit;
//   - slowdown (Batsim's stretch) = response / execution time; jobs that
//     executed for zero seconds have no defined slowdown: their stretch cell
//     is empty and they are left out of the mean (and counted);
//   - bounded slowdown = max(1, response / max(execution time, tau)), with
//     tau = 10 s by default (Feitelson's bounded slowdown);
//   - utilization = sum(procs x execution time) / (machine procs x
//     (last end - first submit)); with a warm-up of n jobs, the span starts
//     at the n-th end instead (the counted jobs' work is taken whole);
//   - makespan = time of the last job end, on the workload's own clock
//     (seconds since the trace's origin), as Batsim reports it.
package metrics
