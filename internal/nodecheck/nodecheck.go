// Package nodecheck puts a run on a platform of nodes in the terms of the
// independent node checker (validate.CheckNodes): the platform as its
// capacities (Caps) and each job's request and allocation as a record
// (Rec), cores and GRES units numbered within their node. It is the one
// conversion the runs' --check (package experiment) and the tests of the
// engine and the node policies share; it checks nothing itself.
package nodecheck

import (
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/validate"
)

// Caps is ns in the checker's terms: per node its name, cores, threads
// per core, memory, GRES counts by kind ("name" or "name:type") and
// features.
func Caps(ns *nodes.Nodes) []validate.NodeCap {
	caps := make([]validate.NodeCap, ns.Len())
	for id := range caps {
		nd := ns.Node(id)
		c := validate.NodeCap{Name: nd.Name, Cores: nd.Cores(), ThreadsPerCore: nd.ThreadsPerCore, MemMB: nd.MemMB, GRES: map[string]int{}, Features: nd.Features()}
		for _, g := range nd.GRES() {
			c.GRES[g.Kind().String()] = g.Count
		}
		caps[id] = c
	}
	return caps
}

// Rec is job id's request q and what it held over [start, end) (a; nil:
// nothing, a job that never started) in the checker's terms: global core
// and unit ids made numbers within their node.
func Rec(ns *nodes.Nodes, id int64, start, end float64, q nodes.Request, a *nodes.Allocation) validate.NodeRec {
	gm := func(gs []nodes.GRES) map[string]int {
		m := map[string]int{}
		for _, g := range gs {
			m[g.Kind().String()] += g.Count
		}
		return m
	}
	rec := validate.NodeRec{ID: id, Start: start, Finish: end, Nodes: q.Nodes, MaxNodes: q.MaxNodes, Tasks: q.Tasks, CPUsPerTask: q.CPUsPerTask,
		MemPerNodeMB: q.MemPerNodeMB, MemPerCPUMB: q.MemPerCPUMB, GRESPerNode: gm(q.GRESPerNode), GRESPerJob: gm(q.GRESPerJob),
		Constraint: q.Constraint, Exclusive: q.Exclusive}
	if a == nil {
		return rec
	}
	for _, na := range a.Nodes {
		nd := ns.Node(na.Node)
		u := validate.NodeUse{Node: na.Node, Tasks: na.Tasks, MemMB: na.MemMB, GRES: map[string][]int{}}
		for _, c := range na.Cores {
			u.Cores = append(u.Cores, c-nd.FirstCore)
		}
		for _, g := range na.GRES {
			first, _ := ns.FirstGRES(na.Node, g.Kind)
			for _, x := range g.Units {
				u.GRES[g.Kind.String()] = append(u.GRES[g.Kind.String()], x-first)
			}
		}
		rec.Uses = append(rec.Uses, u)
	}
	return rec
}
