package nodes

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxTasks bounds a request's tasks, and MaxCPUsPerTask its CPUs per
// task: a request never asks for more CPUs than a platform may have
// (MaxCPUs).
const (
	MaxTasks       = MaxCPUs
	MaxCPUsPerTask = MaxCPUsPerNode
)

// Request is what a job asks of a node platform, in Slurm's terms
// (sbatch's --nodes, --ntasks, --cpus-per-task, --mem, --mem-per-cpu,
// --gres, --gpus, --constraint, --exclusive). The zero value is not a
// request: Tasks and CPUsPerTask are at least 1. An SWF job, which gives
// only its processors P, asks for P tasks of one CPU on any nodes
// (FromProcs).
type Request struct {
	// Nodes is the least number of nodes and MaxNodes the most (Slurm's
	// --nodes=MIN[-MAX]); 0 and 0: any number, the allocation takes as
	// few as fit. MaxNodes 0 with Nodes > 0 means exactly Nodes.
	Nodes, MaxNodes int
	// Tasks and CPUsPerTask: the job's CPUs are Tasks x CPUsPerTask, a
	// task's CPUs all on one node.
	Tasks, CPUsPerTask int
	// MemPerNodeMB is the memory the job needs on each of its nodes, or
	// MemPerCPUMB on each node per CPU it holds there; at most one of
	// the two is set (0: no memory asked; memory is then not
	// accounted for the job).
	MemPerNodeMB, MemPerCPUMB int64
	// GRESPerNode are generic resources on each of its nodes (--gres),
	// GRESPerJob on all its nodes together (--gpus), each kind once; a
	// GRES with Type "" takes units of any type of its Name.
	GRESPerNode, GRESPerJob []GRES
	// Constraint is a feature expression every node must satisfy
	// (ParseConstraint's syntax; "" none).
	Constraint string
	// Exclusive asks for whole nodes: no other job shares them.
	Exclusive bool
}

// FromProcs is the request of an SWF job of p processors on a node
// platform: p tasks of one CPU, on as few nodes as fit.
func FromProcs(p int) Request { return Request{Tasks: p, CPUsPerTask: 1} }

// CoresAlone reports whether r asks for cores alone: tasks of one CPU
// with nothing else (no node count or range, no memory, no GRES, no
// constraint, not exclusive). A nil request (an SWF job: its Procs
// tasks of one CPU, FromProcs) does. Such a request can take any
// free core of any node: a task of one CPU holds one whole core
// (docs/nodes.md, Allocation, rule 1), whatever the node's threads.
func CoresAlone(r *Request) bool {
	if r == nil {
		return true
	}
	return r.Nodes == 0 && r.MaxNodes == 0 && r.Tasks >= 1 && r.CPUsPerTask == 1 &&
		r.MemPerNodeMB == 0 && r.MemPerCPUMB == 0 && len(r.GRESPerNode) == 0 && len(r.GRESPerJob) == 0 &&
		r.Constraint == "" && !r.Exclusive
}

// CPUs is the CPUs the request asks for: Tasks x CPUsPerTask.
func (r Request) CPUs() int { return r.Tasks * r.CPUsPerTask }

// Check reports the first problem of r, naming the field: counts within
// their bounds, MaxNodes >= Nodes, no more nodes than tasks (a node
// without a task holds nothing), at most one memory form, GRES counts
// positive and each kind once per list, a constraint that parses.
func (r Request) Check() error {
	switch {
	case r.Tasks < 1 || r.Tasks > MaxTasks:
		return fmt.Errorf("tasks %d: want 1..%d", r.Tasks, MaxTasks)
	case r.CPUsPerTask < 1 || r.CPUsPerTask > MaxCPUsPerTask:
		return fmt.Errorf("cpus per task %d: want 1..%d", r.CPUsPerTask, MaxCPUsPerTask)
	case r.Tasks*r.CPUsPerTask > MaxCPUs:
		return fmt.Errorf("%d tasks x %d cpus per task: more than %d CPUs", r.Tasks, r.CPUsPerTask, MaxCPUs)
	case r.Nodes < 0 || r.Nodes > MaxNodes:
		return fmt.Errorf("nodes %d: want 0..%d", r.Nodes, MaxNodes)
	case r.MaxNodes != 0 && (r.MaxNodes < r.Nodes || r.MaxNodes > MaxNodes):
		return fmt.Errorf("max nodes %d: want %d..%d (or 0)", r.MaxNodes, max(r.Nodes, 1), MaxNodes)
	case r.Nodes > r.Tasks:
		return fmt.Errorf("nodes %d: more than its %d tasks", r.Nodes, r.Tasks)
	case r.MemPerNodeMB < 0 || r.MemPerNodeMB > MaxMemMB:
		return fmt.Errorf("memory per node %d MB: want 0..%d", r.MemPerNodeMB, int64(MaxMemMB))
	case r.MemPerCPUMB < 0 || r.MemPerCPUMB > MaxMemMB:
		return fmt.Errorf("memory per cpu %d MB: want 0..%d", r.MemPerCPUMB, int64(MaxMemMB))
	case r.MemPerNodeMB > 0 && r.MemPerCPUMB > 0:
		return fmt.Errorf("memory given both per node (%d MB) and per cpu (%d MB)", r.MemPerNodeMB, r.MemPerCPUMB)
	}
	for _, l := range []struct {
		name string
		g    []GRES
	}{{"gres per node", r.GRESPerNode}, {"gres per job", r.GRESPerJob}} {
		seen := map[Kind]bool{}
		for _, g := range l.g {
			if g.Name == "" {
				return fmt.Errorf("%s: a GRES without a name", l.name)
			}
			if g.Count < 1 || g.Count > MaxGRESUnits {
				return fmt.Errorf("%s %s: count %d, want 1..%d", l.name, g.Kind(), g.Count, MaxGRESUnits)
			}
			if seen[g.Kind()] {
				return fmt.Errorf("%s: %s given twice", l.name, g.Kind())
			}
			seen[g.Kind()] = true
		}
	}
	if r.Constraint != "" {
		if _, err := ParseConstraint(r.Constraint); err != nil {
			return fmt.Errorf("constraint %q: %v", r.Constraint, err)
		}
	}
	return nil
}

// String writes r in sbatch's words, the fields it sets only, e.g.
// "nodes=2 ntasks=8 cpus-per-task=2 mem=4000M gres=gpu:a100:2
// constraint=a&b exclusive".
func (r Request) String() string {
	var b strings.Builder
	word := func(s string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s)
	}
	switch {
	case r.Nodes > 0 && r.MaxNodes > r.Nodes:
		word(fmt.Sprintf("nodes=%d-%d", r.Nodes, r.MaxNodes))
	case r.Nodes > 0:
		word("nodes=" + strconv.Itoa(r.Nodes))
	}
	word("ntasks=" + strconv.Itoa(r.Tasks))
	if r.CPUsPerTask != 1 {
		word("cpus-per-task=" + strconv.Itoa(r.CPUsPerTask))
	}
	if r.MemPerNodeMB > 0 {
		word(fmt.Sprintf("mem=%dM", r.MemPerNodeMB))
	}
	if r.MemPerCPUMB > 0 {
		word(fmt.Sprintf("mem-per-cpu=%dM", r.MemPerCPUMB))
	}
	gres := func(key string, gs []GRES) {
		if len(gs) == 0 {
			return
		}
		parts := make([]string, len(gs))
		for i, g := range gs {
			parts[i] = g.Kind().String() + ":" + strconv.Itoa(g.Count)
		}
		word(key + "=" + strings.Join(parts, ","))
	}
	gres("gres", r.GRESPerNode)
	gres("gpus", r.GRESPerJob)
	if r.Constraint != "" {
		word("constraint=" + r.Constraint)
	}
	if r.Exclusive {
		word("exclusive")
	}
	return b.String()
}
