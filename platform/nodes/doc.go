// Package nodes describes a cluster as nodes, in Slurm's terms: groups
// of identical nodes with cores (sockets x cores per socket x threads per
// core), memory, typed generic resources (GRES, such as GPUs), features
// and a weight; what a job asks of such nodes (Request); and the
// allocation of requests to nodes (State), now and over time
// (Profile). The engine's model of a queue over nodes (engine.NodeCluster)
// and the backfilling policies on nodes (policy/backfill) are built on
// it; a run on nodes is `schedlab run --nodes` (docs/nodes.md).
//
// It has these parts:
//
//   - Slurm's hostlist syntax: Expand turns "gpu[01-32]", "n[1-3,7]",
//     "a[1-2]b[3-4]" and comma lists into names, keeping zero-padding;
//     Compress turns a set of names back into the canonical hostlist
//     (Sort gives the canonical order), so that
//     Expand(Compress(names)) is Sort(names).
//   - The node group spec of the command line,
//     NAMES:cores=N[:sockets=S][:threads=T][:mem=SIZE][:gres=NAME[:TYPE]=COUNT[,...]][:features=F[,...]][:weight=W],
//     parsed by ParseGroup into a NodeGroup; ParseFields parses the same
//     fields given as a mapping (the form of a scenario file).
//   - Nodes, built by New from node groups: global ids for nodes, cores
//     and the units of each GRES kind (node n owns the contiguous ids
//     after node n-1's), lookups by name, totals per resource, and
//     feature constraints (ParseConstraint: Slurm's --constraint with
//     '&', '|' and parentheses) evaluated against a node's features.
//   - Request: nodes (a count or a range), tasks, CPUs per task, memory
//     per node or per CPU, GRES per node or per job, a constraint,
//     exclusive, in sbatch's terms, with Check.
//   - State: the cores, GRES units and memory in use on each node at one
//     instant; Alloc takes a request's resources by one documented rule
//     (candidates by weight then node id, whole cores per task, block
//     distribution, lowest free ids) and Release gives them back.
//     validate.CheckNodes checks such allocations independently.
//   - The rule as counts: Selector.Select applies it to any FreeSource
//     (per-node free counts: a State now, a Free, a Profile over an
//     interval) and gives a Selection (nodes with tasks, cores, memory,
//     units per kind); State.Assign (AssignInto: in an allocation's
//     storage) names its ids. State.Alloc is Select then Assign.
//   - Profile: per-node amounts held over intervals, the free amounts
//     of a node over an interval (capacity minus the peak), Select and
//     Earliest over intervals: the plan of the queue policies on nodes
//     (policy/backfill), with what makes it fast (docs/nodes.md,
//     "Speed") and DisableShortcuts to turn that off. Plan is the
//     earlier planner of named allocations.
//
// Every size is bounded (MaxNames, MaxNameLen, MaxNodes, MaxCPUsPerNode,
// MaxCPUs, MaxMemMB, MaxGRESPerNode, MaxGRESUnits, ...) and checked
// before anything of that size is allocated: a hostlist's names are
// counted on its parsed text before one is made. Malformed text gives an
// *Error naming the field and the column. A Nodes is immutable once
// built (its methods return copies) and safe to share. The package keeps
// no state of its own.
//
// docs/nodes.md states the syntax and the decisions in full.
package nodes
