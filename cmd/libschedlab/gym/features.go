package gym

import (
	"fmt"
	"slices"
	"strings"
)

// Feature is one number of the observation, chosen by name
// (Config.Features; SchedulingEnv's features=), or on a platform of
// nodes a few (PerKind: one per GRES kind of the platform).
type Feature struct {
	Name    string
	Slot    bool   // one per slot of the window (else one for the machine, or Node)
	Meaning string // what it is
	Scale   string // what maps to 1 (a value above is clipped to 1)
	// Node: one per node of the platform (in node id order), after the
	// machine's features; NodesOnly: the feature needs a platform of
	// nodes (Config.Nodes); PerKind: the feature is one number per GRES
	// kind of the platform (nodes.Nodes.Kinds order: (name, type)).
	Node, NodesOnly, PerKind bool
}

// The declared features' indices in Declared.
const (
	fPresent = iota
	fCPUs
	fEstimate
	fWait
	fFits
	fUserWaiting
	fUserUsage
	fReqNodes
	fReqTasks
	fReqCPUsPerTask
	fReqMemPerNode
	fReqMemPerCPU
	fReqGRESPerNode
	fReqGRESPerJob
	fReqExclusive
	mFree
	mRunning
	mWaiting
	mRemainingMean
	mRemainingMin
	mQueueWork
	mPower
	nFreeCores
	nFreeMem
	nFreeGRES
)

// slot, machine and node features.
func slot(name, meaning, scale string) Feature {
	return Feature{Name: name, Slot: true, Meaning: meaning, Scale: scale}
}
func machine(name, meaning, scale string) Feature {
	return Feature{Name: name, Meaning: meaning, Scale: scale}
}

// onNodes is a feature that needs a platform of nodes.
func onNodes(f Feature, perKind bool) Feature {
	f.NodesOnly, f.PerKind = true, perKind
	return f
}

func node(name, meaning, scale string, perKind bool) Feature {
	return Feature{Name: name, Meaning: meaning, Scale: scale, Node: true, NodesOnly: true, PerKind: perKind}
}

// Declared lists every feature: per slot first, then the machine's,
// then the nodes'. An empty slot (fewer waiting jobs than slots) is all
// zeros. The Python package documents this table (python/README.md,
// "Observation features"); a test checks the two agree.
var Declared = []Feature{
	fPresent:     slot("present", "1 for a slot that holds a job", "1"),
	fCPUs:        slot("cpus", "CPUs the job requests", "the platform's CPUs"),
	fEstimate:    slot("estimate", "the job's runtime estimate (walltime)", "time_scale"),
	fWait:        slot("wait", "now - the job's submit time", "time_scale"),
	fFits:        slot("fits", "1 if the job fits what is still free at this instant: the CPUs; on nodes, by the engine's selection rule", "1"),
	fUserWaiting: slot("user_waiting", "waiting jobs of the job's user (itself included) at this instant", "queue_scale"),
	fUserUsage: slot("user_usage",
		"CPU-seconds the job's user has used in the episode so far: jobs ended (CPUs x (end - start)) and running (CPUs x (now - start))",
		"the platform's CPUs x time_scale"),
	fReqNodes:       onNodes(slot("req_nodes", "on nodes: the least number of nodes the job asks for (0: any)", "the platform's nodes"), false),
	fReqTasks:       onNodes(slot("req_tasks", "on nodes: the job's tasks", "the platform's cores"), false),
	fReqCPUsPerTask: onNodes(slot("req_cpus_per_task", "on nodes: CPUs per task", "the largest node's CPUs"), false),
	fReqMemPerNode:  onNodes(slot("req_mem_per_node", "on nodes: memory per node asked (MB; 0 none)", "the largest node's memory"), false),
	fReqMemPerCPU:   onNodes(slot("req_mem_per_cpu", "on nodes: memory per CPU asked (MB; 0 none)", "the largest memory per CPU of a node"), false),
	fReqGRESPerNode: onNodes(slot("req_gres_per_node",
		"on nodes, one per GRES kind of the platform: units per node asked that the kind serves (a GRES without type counts for every type of its name)",
		"the most units of the kind on one node"), true),
	fReqGRESPerJob: onNodes(slot("req_gres_per_job",
		"on nodes, one per GRES kind of the platform: units per job asked that the kind serves (as req_gres_per_node)",
		"the platform's units of the kind"), true),
	fReqExclusive: onNodes(slot("req_exclusive", "on nodes: 1 if the job asks for whole nodes", "1"), false),
	mFree:         machine("free_cpus", "CPUs still free at this instant", "the platform's CPUs"),
	mRunning:      machine("running_jobs", "jobs running", "the platform's CPUs"),
	mWaiting:      machine("waiting_jobs", "jobs waiting at this instant (picked ones included)", "queue_scale"),
	mRemainingMean: machine("running_remaining_mean",
		"mean over the running jobs of their estimated remaining time, max(0, start + estimate - now); 0 when none runs", "time_scale"),
	mRemainingMin: machine("running_remaining_min",
		"the least estimated remaining time of a running job (the soonest estimated end); 0 when none runs", "time_scale"),
	mQueueWork: machine("queue_work", "estimated work waiting: sum of CPUs x estimate over the waiting jobs", "the platform's CPUs x time_scale"),
	mPower: machine("power",
		"the machine's watts at this instant under the run's power model (power=IDLE_W:COMPUTE_W; docs/energy.md): IDLE_W x CPUs + (COMPUTE_W - IDLE_W) x CPUs busy; on nodes the sum over the nodes of IDLE_W + (COMPUTE_W - IDLE_W) x cores held / cores; needs power=",
		"COMPUTE_W x the platform's CPUs (on nodes: x its nodes)"),
	nFreeCores: node("node_free_cores", "cores of the node still free at this instant", "the node's cores", false),
	nFreeMem: node("node_free_mem", "memory of the node still free at this instant (1 on a node whose memory is not modelled: it never limits)",
		"the node's memory", false),
	nFreeGRES: node("node_free_gres", "one per GRES kind of the platform: units of the kind still free on the node at this instant (0 on a node without the kind)",
		"the node's units of the kind", true),
}

// DefaultFeatures is the observation when Config.Features is empty: the
// environment's original five numbers per slot and three for the
// machine.
var DefaultFeatures = []string{"present", "cpus", "estimate", "wait", "fits", "free_cpus", "running_jobs", "waiting_jobs"}

// DefaultNodeFeatures is the observation on a platform of nodes when
// Config.Features is empty: DefaultFeatures, each slot's request and
// each node's free cores, memory and GRES.
var DefaultNodeFeatures = []string{"present", "cpus", "estimate", "wait", "fits",
	"req_nodes", "req_tasks", "req_cpus_per_task", "req_mem_per_node", "req_mem_per_cpu", "req_gres_per_node", "req_gres_per_job", "req_exclusive",
	"free_cpus", "running_jobs", "waiting_jobs",
	"node_free_cores", "node_free_mem", "node_free_gres"}

// Names is the declared features' names, in Declared's order.
func Names() []string {
	out := make([]string, len(Declared))
	for k, f := range Declared {
		out[k] = f.Name
	}
	return out
}

// Layout is the observation's layout for a list of names: the slot
// features in the order given, then the machine's in the order given,
// then, on a platform of nodes, the nodes' in the order given, for each
// node in id order; an unknown or repeated name is an error that lists
// the known ones.
type Layout struct {
	Slot, Machine, Node []int // indices into Declared
}

// ParseFeatures is the layout of names on a pool of CPUs (empty:
// DefaultFeatures).
func ParseFeatures(names []string) (Layout, error) { return ParseFeaturesOn(names, false) }

// ParseFeaturesOn is the layout of names on a pool of CPUs or (onNodes)
// a platform of nodes (empty: DefaultFeatures, DefaultNodeFeatures).
// A feature of nodes on a pool is an error.
func ParseFeaturesOn(names []string, onNodes bool) (Layout, error) {
	if len(names) == 0 {
		names = DefaultFeatures
		if onNodes {
			names = DefaultNodeFeatures
		}
	}
	var l Layout
	seen := map[string]bool{}
	for _, n := range names {
		k := slices.IndexFunc(Declared, func(f Feature) bool { return f.Name == n })
		if k < 0 {
			var pool, more []string
			for _, f := range Declared {
				if f.NodesOnly {
					more = append(more, f.Name)
				} else {
					pool = append(pool, f.Name)
				}
			}
			return Layout{}, fmt.Errorf("gym: unknown observation feature %q (known: %s); on a platform of nodes also: %s",
				n, strings.Join(pool, ", "), strings.Join(more, ", "))
		}
		if seen[n] {
			return Layout{}, fmt.Errorf("gym: observation feature %q given twice", n)
		}
		seen[n] = true
		f := Declared[k]
		switch {
		case f.NodesOnly && !onNodes:
			return Layout{}, fmt.Errorf("gym: observation feature %q is for a platform of nodes (nodes=)", n)
		case f.Slot:
			l.Slot = append(l.Slot, k)
		case f.Node:
			l.Node = append(l.Node, k)
		default:
			l.Machine = append(l.Machine, k)
		}
	}
	return l, nil
}

// width is the numbers feature k takes (for each slot, or node) on a
// platform with kinds GRES kinds.
func width(k, kinds int) int {
	if Declared[k].PerKind {
		return kinds
	}
	return 1
}

// SlotWidth is the numbers of one slot on a platform with kinds GRES
// kinds (0 on a pool).
func (l Layout) SlotWidth(kinds int) int {
	n := 0
	for _, k := range l.Slot {
		n += width(k, kinds)
	}
	return n
}

// NodeWidth is the numbers of one node on a platform with kinds GRES
// kinds.
func (l Layout) NodeWidth(kinds int) int {
	n := 0
	for _, k := range l.Node {
		n += width(k, kinds)
	}
	return n
}

// Size is the observation's length for a window on a pool of CPUs.
func (l Layout) Size(window int) int { return l.SizeOn(window, 0, 0) }

// SizeOn is the observation's length for a window on a platform of
// nodes of nodes nodes and kinds GRES kinds (both 0: a pool of CPUs).
func (l Layout) SizeOn(window, nodes, kinds int) int {
	return window*l.SlotWidth(kinds) + len(l.Machine) + nodes*l.NodeWidth(kinds)
}
