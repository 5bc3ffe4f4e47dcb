// Package sweep runs the points of a scenario file (scenario.Point): every
// replication of every point, in parallel, each one through
// experiment.RunReplication, the replication core of package experiment.
// It summarises a point's replications as means with 95% Student-t
// intervals (PointResult, Metric), pairs points that differ in one policy
// setting into paired differences (Compare; common random numbers make
// the pairing meaningful), explains comparisons that say nothing (Notes)
// and writes both tables (WriteSummaryCSV, WriteComparisonsCSV: the
// command's summary.csv and comparisons.csv).
//
// Sweep's replications run through the package's one replication core,
// which Run also uses: in memory, every replication of a list of
// scenarios (no folder, no summary); and Memo keeps Run's results by
// scenario key for callers that find their scenarios as they go (the
// reproductions of package repro: a search asks for more points after
// seeing the first), so that each key runs once.
//
// Results do not depend on the number of workers: a replication's result
// depends on its point and number only, and Each, the parallel runner
// under every run, gives the lowest-indexed failing task's error
// whatever the timing (a panicking task becomes a *PanicError). With an
// output folder, Sweep writes each point's result to
// DIR/points/NNNN-KEY.json as soon as its last replication ends, and a
// sweep run again reuses the points already there: a killed sweep
// resumes where it stopped.
//
// A sweep too large for one machine is split into shards (shard.go): its
// work units, one replication of one point each, go round-robin to N
// shards that run as the tasks of a Slurm job array or a Kubernetes
// Indexed Job, each writing its units' results into a shared folder
// (RunShard); Merge turns the folder into exactly the files Sweep writes.
// The folder's Manifest (manifest.go) keeps shards of other scenarios, of
// another N or another --records out.
//
// What a replication runs and which metrics it reports are experiment's
// and the registry's; the package names no policy, and a model only in
// one hint of Notes (the synthetic cluster workload, whose one-CPU jobs
// leave a queue policy nothing to choose).
package sweep
