package repro

// MaxReps bounds Options.Reps: every replication's result of every
// configuration is kept for the intervals and the paired comparisons
// (the papers use 2 to 20).
const MaxReps = 1000

// MaxJobs bounds Options.Jobs, the completed jobs of one replication
// (the papers use at most 120,000; the heterogeneous and JRB workloads
// have their own, lower, limits: synth.MaxHeteroJobs, synth.MaxJRBJobs).
const MaxJobs = 100_000_000
