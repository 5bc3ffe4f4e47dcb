// Package gpumix generates a synthetic GPU-cluster workload: the jobs of
// the Lublin-Feitelson generator (package workload/lublin), of which a
// declared share ask for GPUs. It is schedlab's construction, not a
// published model: the GPU part is fitted to no trace.
//
// Every job is a lublin job (arrival, runtime, requested time, user, as
// lublin.Source gives them). Each is then, with probability Share
// (gpu_share, default 0.25), a GPU job: its GPU count g is drawn from a
// discrete distribution (gpus_per_job, default
// "1:0.5,2:0.25,4:0.15,8:0.1"); it asks for g tasks of CPUsPerGPU CPUs
// (cpus_per_gpu, default 8), one task a GPU, on exactly
// n = ceil(g / GPUsPerNode) nodes (gpus_per_node, default 4) with g / n
// GPUs on each (Slurm's --nodes=n --ntasks=g --cpus-per-task=c
// --gres=gpu[:TYPE]:g/n; gpu_type, default "" any type): its
// actual.Job.Req, and Procs = g x CPUsPerGPU. The GPUs are asked per
// node, not per job (--gpus), so that every node of the job holds its
// share: the allocation rule of platform/nodes spreads tasks by CPUs and
// does not add a node for GPUs alone. A GPU job keeps the lublin runtime
// drawn for its lublin size (a simplification: the runtime is
// independent of g). A CPU job is the lublin job unchanged, Req nil (its
// Procs tasks of one CPU).
//
// Determinism and common random numbers: the lublin jobs come from
// lublin's streams of (seed, replication); whether a job is a GPU job
// and its GPU count from two streams of their own (PurposeKind,
// PurposeGPUs), one draw each for every job whatever it becomes. So the
// same (Params, seed, replication) give the same jobs, bit for bit; the
// same seed gives the same arrivals, runtimes and requested times
// whatever the GPU settings; the CPU jobs are lublin's jobs, the same
// whatever gpu_share except those that became GPU jobs; a job that is a
// GPU job at one share is one at every larger share, with the same GPU
// count (for one distribution).
//
// Check names the setting of every bad parameter; New calls it. The
// bounds: gpu_share 0..1, GPU counts 1..MaxGPUsPerJob (at most
// MaxDistValues of them, probabilities summing to 1), cpus_per_gpu
// 1..MaxCPUsPerGPU, gpus_per_node 1..MaxGPUsPerNode, a count above
// gpus_per_node a multiple of it, and the largest GPU job's CPUs at most
// the machine's processors. On a pool of CPUs a GPU job runs on its
// Procs (the pool ignores Req).
package gpumix
