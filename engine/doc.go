// Package engine is schedlab's deterministic discrete-event kernel and the
// resource models built on it.
//
// The kernel (kernel.go) is what every model shares, and the only place
// with an event loop: the clock, a typed min-heap of value events ordered
// by (time, class, sequence), the job slots (the only holder of actual
// runtimes), the streaming sources with one pending arrival each, the free
// CPUs of the platform, the listeners and the stopping rule. At one instant
// it applies every completion, then every arrival and timer, then asks the
// model to decide once (a zero-length job's end at the same time forms
// another batch, followed by another decision). Sequence numbers are
// assigned in push order, so events of the same time and class are
// applied in the order they were created: nothing depends on map iteration
// or on heap accidents.
//
// A model is small: how jobs wait and what a legal start is.
//   - Cluster (central.go): one central queue over the machines of a
//     platform; a QueueScheduler decides which waiting jobs start, on which
//     machine, optionally on which CPUs (else the lowest free ids), and
//     which waiting jobs it rejects (Plan.Rejects: they leave without
//     starting, counted in Stats.Rejected, told to RejectListeners).
//     CPUs may be unavailable (avail.go): announced windows the policy
//     plans around and failures it learns of, the jobs they hit killed or
//     requeued (docs/availability.md). Or the CPUs of its one machine
//     are split into partitions (partition.go, docs/partitions.md), each
//     with a queue and a policy of its own over a view of its CPUs;
//     partitions may share CPUs, and are then served in order, each
//     policy told of the other partitions' jobs on its shared CPUs.
//     Disjoint partitions go with unavailable CPUs: each policy is told
//     of the windows cut to its CPUs and sees its own down CPUs and
//     horizons; overlapping partitions with unavailable CPUs are refused.
//     With Switching (power.go, docs/energy.md) the CPUs have power
//     states: the policy switches idle CPUs off and off CPUs on
//     (Plan.Power, applied before the pass's starts; policy.PowerView),
//     a CPU not on is unavailable (counted as down), a start on it is
//     refused, and PowerListeners hear every switch (not with windows,
//     failures or partitions yet). With Cap (cap.go) the machine has a
//     power budget over time (docs/energy.md, "Power caps"): a start or
//     a switch that would make it draw more than the cap in force is
//     refused, and so is a change of the cap below what it draws (a
//     background event at each step of the cap, followed by a pass).
//   - NodeCluster (nodes.go): one central queue over a platform of
//     nodes (package platform/nodes, docs/nodes.md); a NodeScheduler
//     decides over a read-only view of the nodes' state (free cores,
//     memory and GRES units per node, jobs per node, nodes held whole).
//     A job asks for its request (actual.Job.Req, else Procs tasks of
//     one CPU); one that could not start even on the empty platform is
//     refused at admission. A start either names its allocation, which
//     must satisfy the request (nodes.Nodes.CheckAlloc) and be free
//     (nodes.State.Occupy, else an error naming the node and the
//     resource), or leaves it to the model's rule (nodes.State.Alloc),
//     a request that does not fit now being an error. The kernel sees
//     one machine of speed 1 whose CPUs are the nodes' cores: a job's
//     CPUs are its global core ids, and Start.Alloc and Record.Alloc say
//     what it holds node by node; Usage.Nodes counts what is held and
//     what waits, kept up as jobs start and end. Rejections, wake-ups
//     and kills at the limit are Cluster's. Whole nodes may be
//     unavailable (NodeAvailability, nodeavail.go): announced windows
//     the policy is told of (policy.NodeAvailabilityPlanner) and
//     failures it sees at each pass (policy.NodeAvailabilityView); an
//     unavailable node is held whole, its jobs killed or requeued as on
//     Cluster, and a start on it or into its next window is refused.
//     Its nodes may be split into partitions (NodePartition,
//     nodeparts.go; with unavailable nodes too, nodepartsavail.go): each a node
//     policy over a platform of its nodes alone (PartitionNodes), its
//     allocations mapped to the platform's ids. Partitions may share
//     nodes: each partition's state then holds the other partitions'
//     jobs on its nodes, and its policy is told of them
//     (policy.NodeForeignLoad; refused without: ErrNoNodeForeignLoad).
//   - Grid (grid.go): sites (one machine each) of processors with their own
//     FCFS queues, under a grid scheduler and a local scheduler
//     (zikos-karatza-2008).
//   - GangGrid (gang.go): per-processor queues holding local jobs and gang
//     tasks that start together across sites (dimitriadou-karatza-2010).
//
// The kernel and the models own all mutable state. A policy decides over a
// read-only view (a value type with only reading methods: it cannot be
// converted back into the model) and answers with decisions; the model
// validates every one (the job must be waiting, the machine able to hold
// it, the CPUs free and as many as needed, gang tasks on distinct
// processors with empty queues) and a bad decision stops the run with an
// error naming the policy, the time and the job. What a policy can do
// beyond its contract (fail on its own, plan around unavailable CPUs,
// see other partitions' jobs, when the gang model examines its queue)
// the models read from policy.CapsOf, once in their constructor, never
// per event; Cluster.Caps says what the model's policy can do.
//
// Every start names its CPUs (global ids of the platform): listeners see
// them in Start and Record, and jobs.csv prints them as Batsim's
// allocated_resources. Metrics are listeners: job events, plus, for a
// TimeListener, the resources in use at the start of every instant.
//
// There are no goroutines and no package-level mutable state: one run is
// one single-threaded simulation, and many can run in parallel.
//
// Memory is bounded by the number of jobs present (waiting or running), not
// by the length of the workload: jobs are pulled from streaming Sources one
// arrival ahead, and a finished job's record is handed to the listeners and
// its slot reused.
package engine
