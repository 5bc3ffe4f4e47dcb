package nodestest

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/platform/nodes"
)

// Must is the platform of the node group specs (nodes.ParseGroup's
// form); an error fails t.
func Must(t testing.TB, specs ...string) *nodes.Nodes {
	t.Helper()
	var gs []nodes.NodeGroup
	for _, s := range specs {
		g, err := nodes.ParseGroup(s)
		if err != nil {
			t.Fatal(err)
		}
		gs = append(gs, g)
	}
	ns, err := nodes.New(gs)
	if err != nil {
		t.Fatal(err)
	}
	return &ns
}

// PlatformDraw bounds RandomPlatform: per group 1 to Nodes nodes of 1 to
// Cores cores, and 0 to GPUs-1 GPUs.
type PlatformDraw struct{ Nodes, Cores, GPUs int }

// RandomPlatform draws 1-3 groups g0, g1, … (the group count drawn again
// before each group): d's nodes and cores, 1-2 threads, memory of 1-4 GB
// or none, GPUs of type a or b or none, features x, y or both, weights
// 0-2.
func RandomPlatform(t testing.TB, r *rand.Rand, d PlatformDraw) *nodes.Nodes {
	t.Helper()
	var specs []string
	for g := 0; g < 1+r.IntN(3); g++ {
		s := fmt.Sprintf("g%d-[1-%d]:cores=%d:threads=%d", g, 1+r.IntN(d.Nodes), 1+r.IntN(d.Cores), 1+r.IntN(2))
		if r.IntN(2) == 0 {
			s += fmt.Sprintf(":mem=%dM", 1000*(1+r.IntN(4)))
		}
		if n := r.IntN(d.GPUs); n > 0 {
			s += fmt.Sprintf(":gres=gpu:%c=%d", "ab"[r.IntN(2)], n)
		}
		s += ":features=" + []string{"x", "y", "x,y"}[r.IntN(3)]
		s += fmt.Sprintf(":weight=%d", r.IntN(3))
		specs = append(specs, s)
	}
	return Must(t, specs...)
}

// RequestDraw bounds RandomRequest: 1 to Tasks tasks; GRES per job
// drawn only when PerJob; the constraint, when there is one, one of
// Constraints.
type RequestDraw struct {
	Tasks       int
	PerJob      bool
	Constraints []string
}

// RandomRequest draws a request of d's tasks of 1-3 CPUs with, now and
// then, node bounds (a count, or a range from 1), memory per node or per
// CPU, GPUs per node (typed or not) or per job, a constraint and
// exclusive.
func RandomRequest(r *rand.Rand, d RequestDraw) nodes.Request {
	q := nodes.Request{Tasks: 1 + r.IntN(d.Tasks), CPUsPerTask: 1 + r.IntN(3)}
	switch r.IntN(4) {
	case 0:
		q.Nodes = 1 + r.IntN(min(q.Tasks, 3))
	case 1:
		q.Nodes, q.MaxNodes = 1, 1+r.IntN(3)
	}
	switch r.IntN(3) {
	case 0:
		q.MemPerNodeMB = int64(100 * (1 + r.IntN(20)))
	case 1:
		q.MemPerCPUMB = int64(50 * (1 + r.IntN(10)))
	}
	switch r.IntN(4) {
	case 0:
		q.GRESPerNode = []nodes.GRES{{Name: "gpu", Count: 1 + r.IntN(2)}}
	case 1:
		q.GRESPerNode = []nodes.GRES{{Name: "gpu", Type: string("ab"[r.IntN(2)]), Count: 1}}
	case 2:
		if d.PerJob {
			q.GRESPerJob = []nodes.GRES{{Name: "gpu", Count: 1 + r.IntN(3)}}
		}
	}
	if r.IntN(4) == 0 {
		q.Constraint = d.Constraints[r.IntN(len(d.Constraints))]
	}
	q.Exclusive = r.IntN(6) == 0
	return q
}
