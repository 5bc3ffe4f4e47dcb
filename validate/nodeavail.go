package validate

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// NodeSpan is a span [Start, End) during which node Node (an index into
// the checker's []NodeCap) was unavailable: Kind "reserved" (a window)
// or "down" (a failure), as unavailability.csv names them.
type NodeSpan struct {
	Kind       string
	Node       int
	Start, End float64
}

// CheckNodesUnavailable verifies that no job held a node while it was
// unavailable: no record's use of a node overlaps a span of that node
// in time ([Start, Finish) against [span.Start, span.End); a job ending
// exactly when a span begins, or starting exactly when it ends, is
// fine). Every violation is reported (at most 20 named, then a count),
// naming the job, the node, the span and its kind. A span naming no
// node of caps is an error too.
func CheckNodesUnavailable(caps []NodeCap, recs []NodeRec, spans []NodeSpan) error {
	var errs []string
	by := make([][]NodeSpan, len(caps))
	for i, s := range spans {
		if s.Node < 0 || s.Node >= len(caps) {
			errs = append(errs, fmt.Sprintf("span %d (%s [%g, %g)): node %d is not on the platform (%d nodes)", i+1, s.Kind, s.Start, s.End, s.Node, len(caps)))
			continue
		}
		by[s.Node] = append(by[s.Node], s)
	}
	for n := range by {
		slices.SortFunc(by[n], func(a, b NodeSpan) int { return cmp.Compare(a.Start, b.Start) })
	}
	more := 0
	for _, r := range recs {
		for _, u := range r.Uses {
			if u.Node < 0 || u.Node >= len(caps) {
				continue // CheckNodes reports it
			}
			ss := by[u.Node]
			// the spans starting before the job's finish; of those, the
			// ones ending after its start overlap it
			k := sort.Search(len(ss), func(i int) bool { return ss[i].Start >= r.Finish })
			for _, s := range ss[:k] {
				if s.End > r.Start && s.End > s.Start && r.Finish > r.Start {
					if len(errs) < 20 {
						errs = append(errs, fmt.Sprintf("job %d holds node %s over [%g, %g), inside its %s span [%g, %g)", r.ID, caps[u.Node].Name, r.Start, r.Finish, s.Kind, s.Start, s.End))
					} else {
						more++
					}
				}
			}
		}
	}
	if more > 0 {
		errs = append(errs, fmt.Sprintf("and %d more", more))
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}
