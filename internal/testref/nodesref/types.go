package nodesref

import (
	"fmt"
	"math"
)

// Node is one node of the platform, as docs/nodes.md describes it.
type Node struct {
	Name                  string
	Cores, ThreadsPerCore int            // ThreadsPerCore >= 1
	MemMB                 int64          // 0: memory not modelled on this node
	GRES                  map[string]int // units per kind, key "name" or "name:type"
	Features              []string
	Weight                uint32
}

// GRESReq asks for Count units of Name; Type "" takes any type of Name.
type GRESReq struct {
	Name, Type string
	Count      int
}

// Request is what a job asks of the platform (docs/nodes.md, "Requests").
type Request struct {
	Nodes, MaxNodes, Tasks, CPUsPerTask int
	MemPerNodeMB, MemPerCPUMB           int64
	GRESPerNode, GRESPerJob             []GRESReq
	Constraint                          string // features with & | and parentheses; "" none
	Exclusive                           bool
}

// Job is one job: it runs Runtime from its start, and the schedulers plan
// with Estimate (Estimate >= Runtime, Estimate > 0).
type Job struct {
	ID                        int64
	Submit, Runtime, Estimate float64
	Req                       Request
}

// NodeUse is what a job holds on one node. Numbers are within the node.
type NodeUse struct {
	Node  int   // index into the platform's nodes
	Tasks int   // tasks placed on the node
	Cores []int // core numbers within the node, increasing
	MemMB int64 // memory held (0 on a node whose memory is not modelled)
	// GRES holds, per unit kind ("name" or "name:type"), the unit numbers
	// within the node for that kind, increasing. Only kinds with at least
	// one unit appear; nil when the job holds no unit on the node.
	GRES map[string][]int
}

// Start is the outcome of one job.
type Start struct {
	ID    int64
	Time  float64
	Uses  []NodeUse // in the order the nodes were taken
	Never bool      // the job can never fit the empty platform: not started (Time, Uses zero)
}

// Policy is the queue policy of a simulation.
type Policy int

// The policies.
const (
	FCFS Policy = iota
	EASY
	Conservative
)

func (p Policy) String() string {
	switch p {
	case FCFS:
		return "fcfs"
	case EASY:
		return "easy"
	case Conservative:
		return "conservative"
	}
	return fmt.Sprintf("Policy(%d)", int(p))
}

// check panics on input outside the documented domain: this package is a
// test oracle, not an API for user data.
func check(nodes []Node, jobs []Job, p Policy) {
	if p != FCFS && p != EASY && p != Conservative {
		panic(fmt.Sprintf("nodesref: unknown policy %d", int(p)))
	}
	for i, n := range nodes {
		if n.Cores < 1 || n.ThreadsPerCore < 1 || n.MemMB < 0 {
			panic(fmt.Sprintf("nodesref: node %d (%s): cores %d, threads %d, memory %d", i, n.Name, n.Cores, n.ThreadsPerCore, n.MemMB))
		}
		for k, c := range n.GRES {
			if c < 1 {
				panic(fmt.Sprintf("nodesref: node %d: GRES %s count %d", i, k, c))
			}
		}
	}
	for _, j := range jobs {
		finite := !math.IsInf(j.Submit, 0) && !math.IsNaN(j.Submit) && !math.IsInf(j.Estimate, 0) && !math.IsNaN(j.Estimate)
		if !finite || j.Runtime < 0 || j.Estimate <= 0 || j.Estimate < j.Runtime {
			panic(fmt.Sprintf("nodesref: job %d: submit %v, runtime %v, estimate %v", j.ID, j.Submit, j.Runtime, j.Estimate))
		}
		checkRequest(j.ID, j.Req)
	}
}

// checkRequest panics on a request Request.Check would refuse (the
// bounds of the sizes aside).
func checkRequest(id int64, r Request) {
	bad := r.Tasks < 1 || r.CPUsPerTask < 1 || r.Nodes < 0 || r.MaxNodes < 0 ||
		(r.MaxNodes > 0 && r.MaxNodes < r.Nodes) || r.Nodes > r.Tasks ||
		r.MemPerNodeMB < 0 || r.MemPerCPUMB < 0 || (r.MemPerNodeMB > 0 && r.MemPerCPUMB > 0)
	for _, gs := range [][]GRESReq{r.GRESPerNode, r.GRESPerJob} {
		for _, g := range gs {
			bad = bad || g.Count < 1 || g.Name == ""
		}
	}
	if bad {
		panic(fmt.Sprintf("nodesref: job %d: invalid request %+v", id, r))
	}
	parseConstraint(r.Constraint) // panics on a malformed constraint
}
