package backfill

import (
	"fmt"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
)

// Unavailable nodes (policy.NodeAvailabilityPlanner; docs/nodes.md,
// "Reservations, maintenance and failures on nodes").
//
// An announced window holds its nodes whole in the profile over
// [start, end), a hold that never moves: no job is planned on them then,
// a job whose estimate would run into a window on its nodes neither
// starts nor backfills there, and EASY's and conservative's reservations
// are placed around them. While a window lasts, and while a node is down
// (a failure, read from the view at each pass), the mirror state holds
// the node whole, so the starts now never take it. A node that is down
// is held in the profile for the current instant only, as the pool holds
// its down CPUs: its return is not announced, so no reservation is
// pushed back for it.
//
// With unavailable nodes every pass is a full pass (no going on from the
// last) and every start is checked against the profile (windows
// included). The profile's shortcuts stay on: no node is held beyond its
// cores, since a running job's hold ends by its estimate before the
// node's next window (the model refuses any other start), a job past its
// estimate is held for the instant only and is killed or requeued when a
// window begins on its nodes, and the predicting layer, whose
// re-estimates could stretch a hold into a window, is refused with
// unavailable nodes. A window's hold leaves the profile once it is over.

// nodeWin is a window on one node and its hold in the profile.
type nodeWin struct {
	Start, End float64
	hold       nodes.HoldID
}

// PlanNodeAvailability is called once by the model before the first
// job. Slurm's schedulers do not plan around unavailable nodes.
func (b *NodePolicy) PlanNodeAvailability(ws []policy.NodeWindow) bool {
	if b.slurm != nil {
		return false
	}
	b.av = true
	n := b.ns.Len()
	b.winOf = make([][]nodeWin, n)
	b.blocked = make([]bool, n)
	b.whole = make([]nodes.Allocation, n)
	b.unav = make([]bool, n)
	for id := range n {
		b.whole[id] = b.ns.WholeAlloc(id)
	}
	for _, w := range ws {
		for k := 0; k+1 < len(w.Nodes); k += 2 {
			for id := w.Nodes[k]; id <= w.Nodes[k+1]; id++ {
				h := b.prof.AddAllocation(w.Start, w.End, b.whole[id])
				b.winOf[id] = append(b.winOf[id], nodeWin{w.Start, w.End, h})
			}
		}
	}
	return true
}

// availPass makes the mirror state hold whole the nodes unavailable now
// (in a window that has begun, or down) and gives back the others, and
// holds the down nodes in the profile for the instant (releaseDown gives
// them back at the end of the pass).
func (b *NodePolicy) availPass(now float64, v policy.NodeView) {
	if av, ok := v.(policy.NodeAvailabilityView); ok {
		b.down = av.DownNodes(b.down[:0])
	} else {
		b.down = b.down[:0]
	}
	for _, id := range b.down {
		b.unav[id] = true
	}
	for id := range b.winOf {
		ws := b.winOf[id]
		for len(ws) > 0 && ws[0].End <= now {
			b.prof.Remove(ws[0].hold) // over: the profile no longer carries it
			ws = ws[1:]
		}
		b.winOf[id] = ws
		if len(ws) > 0 && ws[0].Start <= now {
			b.unav[id] = true
		}
	}
	for id, want := range b.unav {
		switch {
		case want && !b.blocked[id]:
			if !b.st.Occupy(b.whole[id]) {
				b.fail(fmt.Errorf("policy %s at t=%g: node %s is unavailable but a job it started still holds it", b.name, now, b.ns.Name(id)))
				continue
			}
			b.blocked[id] = true
			b.freeCores -= len(b.whole[id].Nodes[0].Cores)
		case !want && b.blocked[id]:
			b.st.Release(b.whole[id])
			b.blocked[id] = false
			b.freeCores += len(b.whole[id].Nodes[0].Cores)
		}
		b.unav[id] = false
	}
	b.downHolds = b.downHolds[:0]
	for _, id := range b.down {
		b.downHolds = append(b.downHolds, b.prof.AddAllocation(now, nodes.Span(now, 0), b.whole[id]))
	}
	b.changes++
}

// releaseDown gives back the down nodes held for the instant.
func (b *NodePolicy) releaseDown() {
	if len(b.downHolds) > 0 {
		b.prof.RemoveAll(b.downHolds)
		b.downHolds = b.downHolds[:0]
	}
}

// clearOfWindows reports whether the nodes of sel are clear of every
// window over [now, y).
func (b *NodePolicy) clearOfWindows(sel *nodes.Selection, now, y float64) bool {
	for _, pk := range sel.Picks {
		for _, w := range b.winOf[pk.Node] {
			if w.Start >= y {
				break
			}
			if w.End > now {
				return false
			}
		}
	}
	return true
}
