package avail

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
)

// NodeWindow is an announced period [Start, End) during which whole
// nodes of a platform of nodes are unavailable (docs/nodes.md,
// "Reservations, maintenance and failures on nodes").
type NodeWindow struct {
	Start, End float64
	Nodes      platform.Runs // node ids (nodes.Nodes order), sorted, merged
}

// AllNodes is the NODES of a window that holds every node.
const AllNodes = "ALL"

// ParseNodeSet reads a set of nodes of ns: a hostlist in Slurm's syntax
// ("n[001-004]", "gpu1,n3"; nodes.Expand), or ALL for every node. Every
// name must be a node of ns; a name given twice counts once. It returns
// the node ids as sorted, merged runs.
func ParseNodeSet(s string, ns *nodes.Nodes) (platform.Runs, error) {
	s = strings.TrimSpace(s)
	if s == AllNodes {
		return platform.Runs{0, int32(ns.Len() - 1)}, nil
	}
	if s == "" {
		return nil, errors.New("no node names: want a hostlist such as n[1-4], or ALL")
	}
	names, err := nodes.Expand(s)
	if err != nil {
		return nil, fmt.Errorf("hostlist %q: %w", s, err)
	}
	ids := make([]int32, 0, len(names))
	for _, name := range names {
		id, ok := ns.Lookup(name)
		if !ok {
			return nil, fmt.Errorf("node %q is not on the platform (%s)", name, clipText(ns.String()))
		}
		ids = append(ids, int32(id))
	}
	slices.Sort(ids)
	var out platform.Runs
	for _, id := range slices.Compact(ids) {
		out = out.Add(id)
	}
	return out, nil
}

// ParseNodeReservationAt reads "START:END:NODES" for the platform ns:
// START and END as ParseReservationAt takes them (seconds, or dates
// that instant places; START < END), NODES as ParseNodeSet. A count or
// CPU ids (the form of a pool of CPUs) that names no node is refused,
// saying that on nodes a window names nodes.
func ParseNodeReservationAt(s string, ns *nodes.Nodes, instant func(string) (float64, error)) (NodeWindow, error) {
	var w NodeWindow
	c, err := splitSpan(s, instant, &w.Start, &w.End, "NODES", "node names such as n[1-4], or ALL")
	if err != nil {
		return NodeWindow{}, err
	}
	if w.Nodes, err = ParseNodeSet(c, ns); err != nil {
		if c != "" && strings.Trim(c, "0123456789- ") == "" {
			return NodeWindow{}, fmt.Errorf("%q: NODES: %q is a CPU count or CPU ids; on a platform of nodes a reservation names nodes (a hostlist such as n[1-4], or ALL)", s, c)
		}
		return NodeWindow{}, fmt.Errorf("%q: NODES: %w", s, err)
	}
	return w, nil
}

// CheckNodeWindows checks that no node is in two windows that overlap
// in time, naming the windows by their place in ws (1-based) and what,
// and the node by its name; and that there are at most MaxWindows.
func CheckNodeWindows(ws []NodeWindow, ns *nodes.Nodes, what string) error {
	if len(ws) > MaxWindows {
		return fmt.Errorf("%d %ss: at most %d", len(ws), what, MaxWindows)
	}
	for i := range ws {
		for j := i + 1; j < len(ws); j++ {
			if ws[i].Start < ws[j].End && ws[j].Start < ws[i].End {
				if c := common(ws[i].Nodes, ws[j].Nodes); c >= 0 {
					return fmt.Errorf("%s %d [%g, %g) and %s %d [%g, %g) overlap on node %s", what, i+1, ws[i].Start, ws[i].End, what, j+1, ws[j].Start, ws[j].End, ns.Name(int(c)))
				}
			}
		}
	}
	return nil
}

func clipText(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
