package backfill

import (
	"container/heap"
	"math"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
)

var _ policy.Reestimator = (*NodePolicy)(nil)

// Reestimate implements policy.Reestimator on nodes, with the meaning of
// the pool's (Backfill.Reestimate): running job id's estimated runtime
// becomes estimate, so its estimated end becomes start + estimate,
// exactly as if it had started with that estimate. Its hold in the plan
// moves to [start, start + estimate) and its place in the heap of
// estimated ends with it; a job that was past its old end is a running
// job again, held until the new end. A new end not after now leaves (or
// makes) the job past its end: it holds its resources for this instant
// only, as a pass finds an overrunning job.
//
// A change of an estimate is a change of the plan (the count of
// changes moves): the next pass makes every reservation anew instead of
// going on from the last one. An unknown id (not running) and an
// estimate that is negative, NaN or +Inf are ignored.
func (b *NodePolicy) Reestimate(now float64, id job.ID, estimate float64) {
	s, ok := b.runOf[id]
	if !ok || !(estimate >= 0) || math.IsInf(estimate, 1) {
		return
	}
	r := &b.runs[s]
	start := r.start
	end := start + estimate
	if end == r.end {
		return
	}
	r.end = end
	b.changes++
	if end <= now {
		// Past its new end already: overrunning, as the pass would find.
		if !r.late {
			r.late = true
			b.overdue = append(b.overdue, s)
		}
		b.prof.SetInterval(r.hold, now, nodes.Span(now, 0))
		return
	}
	if r.late {
		r.late = false
		for i, x := range b.overdue {
			if x == s {
				b.overdue = append(b.overdue[:i], b.overdue[i+1:]...)
				break
			}
		}
	}
	b.prof.SetInterval(r.hold, start, nodes.Span(start, estimate))
	heap.Push(&b.due, dueItem{end: end, slot: s, id: id}) // the old entry is skipped when it surfaces
}
