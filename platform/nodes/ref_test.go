package nodes

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/internal/testref/nodesref"
)

func refNodes(ns *Nodes) []nodesref.Node {
	out := make([]nodesref.Node, ns.Len())
	for id := range out {
		nd := ns.Node(id)
		n := nodesref.Node{Name: nd.Name, Cores: nd.Cores(), ThreadsPerCore: nd.ThreadsPerCore, MemMB: nd.MemMB, Features: nd.Features(), Weight: nd.Weight, GRES: map[string]int{}}
		for _, g := range nd.GRES() {
			n.GRES[g.Kind().String()] = g.Count
		}
		out[id] = n
	}
	return out
}

func refGRES(gs []GRES) []nodesref.GRESReq {
	var out []nodesref.GRESReq
	for _, g := range gs {
		out = append(out, nodesref.GRESReq{Name: g.Name, Type: g.Type, Count: g.Count})
	}
	return out
}

func refJobs(jobs []simJob) []nodesref.Job {
	out := make([]nodesref.Job, len(jobs))
	for i, j := range jobs {
		q := j.Req
		out[i] = nodesref.Job{ID: j.ID, Submit: j.Submit, Runtime: j.Runtime, Estimate: j.Estimate, Req: nodesref.Request{
			Nodes: q.Nodes, MaxNodes: q.MaxNodes, Tasks: q.Tasks, CPUsPerTask: q.CPUsPerTask, MemPerNodeMB: q.MemPerNodeMB, MemPerCPUMB: q.MemPerCPUMB,
			GRESPerNode: refGRES(q.GRESPerNode), GRESPerJob: refGRES(q.GRESPerJob), Constraint: q.Constraint, Exclusive: q.Exclusive}}
	}
	return out
}

// usesOf writes an allocation as the reference does: numbers within the
// node, nil GRES where none.
func usesOf(ns *Nodes, a Allocation) string {
	var b []string
	for _, na := range a.Nodes {
		nd := ns.Node(na.Node)
		var cores []int
		for _, c := range na.Cores {
			cores = append(cores, c-nd.FirstCore)
		}
		g := map[string][]int{}
		for _, u := range na.GRES {
			first, _ := ns.FirstGRES(na.Node, u.Kind)
			for _, x := range u.Units {
				g[u.Kind.String()] = append(g[u.Kind.String()], x-first)
			}
		}
		if len(g) == 0 {
			g = nil
		}
		b = append(b, fmt.Sprintf("n%d t%d c%v m%d g%v", na.Node, na.Tasks, cores, na.MemMB, g))
	}
	return fmt.Sprint(b)
}

func refUses(us []nodesref.NodeUse) string {
	var b []string
	for _, u := range us {
		b = append(b, fmt.Sprintf("n%d t%d c%v m%d g%v", u.Node, u.Tasks, u.Cores, u.MemMB, u.GRES))
	}
	return fmt.Sprint(b)
}

// State and Plan (through the test simulator) against the independent
// reference written from docs/nodes.md (internal/testref/nodesref):
// the same start time and the same nodes, cores, memory and GRES units
// for every job, under FCFS, EASY and conservative, on random platforms
// and multi-resource workloads.
func TestSimulateAgreesWithReference(t *testing.T) {
	runs := 150
	if testing.Short() {
		runs = 30
	}
	for seed := 0; seed < runs; seed++ {
		for _, pol := range []simPolicy{simFCFS, simEASY, simConservative} {
			r := rand.New(rand.NewPCG(uint64(seed), 17))
			ns := randomPlatform(t, r)
			jobs := randomJobs(r, 40)
			for i := range jobs {
				jobs[i].Estimate = max(jobs[i].Estimate, 1)
			}
			got := simulate(ns, jobs, pol)
			want := nodesref.Simulate(refNodes(ns), refJobs(jobs), []nodesref.Policy{nodesref.FCFS, nodesref.EASY, nodesref.Conservative}[pol])
			for i := range jobs {
				g, w := got[i], want[i]
				if g.Never != w.Never || (!g.Never && (g.Time != w.Time || usesOf(ns, g.Alloc) != refUses(w.Uses))) {
					t.Fatalf("seed %d policy %v job %d (%v): got at %v %s (never %v)\nreference at %v %s (never %v)",
						seed, pol, jobs[i].ID, jobs[i].Req, g.Time, usesOf(ns, g.Alloc), g.Never, w.Time, refUses(w.Uses), w.Never)
				}
			}
		}
	}
}
