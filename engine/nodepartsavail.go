package engine

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
)

// Unavailable nodes with partitions (docs/nodes.md, "Reservations,
// maintenance and failures on nodes"): each partition's policy is told
// of the windows cut to its nodes, in its ids (PlanNodeAvailability);
// its view shows its nodes down now, in its ids (DownNodes), and a node
// unavailable now held whole in its state, as the model's state holds
// it; a change of availability on its nodes makes it due. The model
// checks every start against the windows and the down nodes of the
// platform, as without partitions.

// PlanNodeAvailability implements policy.NodeAvailabilityPlanner for
// the router: every partition's policy is given the windows cut to its
// nodes (those on none of them left out), in its ids, sorted as the
// model sorts windows; it reports false when one of them cannot plan
// around unavailable nodes.
func (p *nodeParts) PlanNodeAvailability(ws []policy.NodeWindow) bool {
	ok := true
	for k, s := range p.subs {
		pl, can := p.list[k].Policy.(policy.NodeAvailabilityPlanner)
		if !can {
			p.refusingPolicy = fmt.Sprintf("%s (partition %s)", p.list[k].Policy.Name(), p.list[k].Name)
			return false
		}
		var mine []policy.NodeWindow
		for _, w := range ws {
			if cut := s.cutNodes(w.Nodes); cut != nil {
				mine = append(mine, policy.NodeWindow{Start: w.Start, End: w.End, Nodes: cut})
			}
		}
		slices.SortStableFunc(mine, func(a, b policy.NodeWindow) int {
			return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.Nodes[0], b.Nodes[0]))
		})
		if !pl.PlanNodeAvailability(mine) && ok {
			ok, p.refusingPolicy = false, fmt.Sprintf("%s (partition %s)", p.list[k].Policy.Name(), p.list[k].Name)
		}
	}
	return ok
}

// cutNodes is the nodes r of the platform (ascending merged runs) that
// are the partition's, in its ids (nil: none).
func (s *partNodes) cutNodes(r platform.Runs) platform.Runs {
	var out platform.Runs
	forRuns(r, func(nd int32) {
		if l := s.lid[nd]; l >= 0 {
			out = out.Add(l)
		}
	})
	return out
}

// touchNodes makes due every partition holding one of the nodes r (a
// change of availability on them).
func (p *nodeParts) touchNodes(r platform.Runs) {
	forRuns(r, func(nd int32) {
		for k, s := range p.subs {
			if s.lid[nd] >= 0 {
				p.due[k] = true
			}
		}
	})
}

// block holds node nd whole (on) or gives it back in the state of
// every partition holding it, as the model's state does when the node
// becomes unavailable or available again.
func (p *nodeParts) block(nd int, on bool) error {
	for k, s := range p.subs {
		l := s.lid[nd]
		if l < 0 {
			continue
		}
		if s.whole == nil {
			s.whole = make([]nodes.Allocation, s.ns.Len())
			s.blocked = make([]bool, s.ns.Len())
		}
		if s.whole[l].Nodes == nil {
			s.whole[l] = s.ns.WholeAlloc(int(l))
		}
		switch {
		case on && !s.blocked[l]:
			if !s.state.Occupy(s.whole[l]) {
				return fmt.Errorf("engine: node %s could not be held whole in partition %s (a job still holds it)", p.c.ns.Name(nd), p.list[k].Name)
			}
			s.blocked[l] = true
		case !on && s.blocked[l]:
			s.state.Release(s.whole[l])
			s.blocked[l] = false
		}
	}
	return nil
}

// partClear is a partition's free amounts with the nodes whose next
// window begins before end shown as held whole (the model's allocation
// when the policy names none, as clearNodes).
type partClear struct {
	s   *partNodes
	av  *nodeAvail
	end float64
}

func (x partClear) FreeOn(n int, f *nodes.NodeFree) {
	x.s.state.FreeOn(n, f)
	if t, _ := x.av.nextStart(x.s.gid[n]); t < x.end {
		f.Cores, f.Whole, f.Jobs = 0, true, true
	}
}

// allocClear allocates r by the selection rule on the partition's nodes
// clear of every window until end.
func (s *partNodes) allocClear(av *nodeAvail, r nodes.Request, end float64) (nodes.Allocation, bool) {
	sel := s.state.Selector()
	pr, err := sel.Prepare(r)
	if err != nil {
		return nodes.Allocation{}, false
	}
	var out nodes.Selection
	if !sel.Select(partClear{s, av, end}, pr, &out) {
		return nodes.Allocation{}, false
	}
	return s.state.Assign(&out), true
}

// DownNodes implements policy.NodeAvailabilityView: the partition's
// nodes down now (failed, not in a begun window), in its ids,
// ascending.
func (v partNodeView) DownNodes(dst []int) []int {
	av := v.p.c.av
	if av == nil {
		return dst
	}
	for _, g := range av.down {
		if l := v.s.lid[g]; l >= 0 {
			dst = append(dst, int(l))
		}
	}
	return dst
}
