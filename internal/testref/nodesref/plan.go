package nodesref

import (
	"cmp"
	"slices"
	"strings"
)

// hold is an allocation held over [from, to): a running job until its
// estimated end, or a reservation.
type hold struct {
	from, to  float64
	exclusive bool
	uses      []NodeUse
}

// overlaps reports whether h overlaps [a, b) (touching intervals do not).
func (h hold) overlaps(a, b float64) bool { return h.from < b && a < h.to }

// nodeFree is what is held on one node over an interval.
type nodeFree struct {
	whole   bool              // an exclusive hold overlaps: the node is held whole
	busy    bool              // some hold overlaps: the node runs a job
	core    []bool            // core[i]: core i is held
	unit    map[string][]bool // per kind of the node, unit u is held
	memHeld int64             // peak of the holds' memory at one instant
}

// freeCores is the number of cores not held.
func (f nodeFree) freeCores() int {
	n := 0
	for _, h := range f.core {
		if !h {
			n++
		}
	}
	return n
}

// during is the state of every node over [a, b) given holds (docs/nodes.md,
// "Reservations on nodes": every core and unit of a hold overlapping the
// interval is held, a node with an overlapping exclusive hold is held
// whole, a node's memory held is the peak of its holds' memory at one
// instant of the interval).
func during(nodes []Node, holds []hold, a, b float64) []nodeFree {
	fs := make([]nodeFree, len(nodes))
	for i, n := range nodes {
		fs[i].core = make([]bool, n.Cores)
		fs[i].unit = map[string][]bool{}
		for k, c := range n.GRES {
			fs[i].unit[k] = make([]bool, c)
		}
	}
	for _, h := range holds {
		if !h.overlaps(a, b) {
			continue
		}
		for _, u := range h.uses {
			f := &fs[u.Node]
			f.busy = true
			f.whole = f.whole || h.exclusive
			for _, c := range u.Cores {
				f.core[c] = true
			}
			for k, ids := range u.GRES {
				for _, id := range ids {
					f.unit[k][id] = true
				}
			}
		}
	}
	// The memory peak: the sum of the memory of the holds in force at an
	// instant changes only where a hold starts, so the instants to try are
	// a and every start inside (a, b).
	instants := []float64{a}
	for _, h := range holds {
		if h.from > a && h.from < b {
			instants = append(instants, h.from)
		}
	}
	for _, t := range instants {
		sum := make([]int64, len(nodes))
		for _, h := range holds {
			if h.from <= t && t < h.to {
				for _, u := range h.uses {
					sum[u.Node] += u.MemMB
				}
			}
		}
		for i := range fs {
			fs[i].memHeld = max(fs[i].memHeld, sum[i])
		}
	}
	return fs
}

// earliest is docs/nodes.md's Plan.Earliest: the candidate times are now
// and every hold's end after now, in increasing order; the first at which
// the allocation rule places r on what is free over [t, t+d) is returned
// with that allocation. ok is false when no candidate time fits.
func earliest(nodes []Node, holds []hold, r Request, now, d float64) (t float64, uses []NodeUse, ok bool) {
	times := []float64{now}
	for _, h := range holds {
		if h.to > now {
			times = append(times, h.to)
		}
	}
	slices.Sort(times)
	times = slices.Compact(times)
	for _, t := range times {
		if uses, ok := allocate(nodes, during(nodes, holds, t, t+d), r); ok {
			return t, uses, true
		}
	}
	return 0, nil, false
}

// kinds lists the GRES kinds of n that a request of (name, typ) can use,
// in (name, type) order: the kind name:typ when typ is given, else every
// kind of that name (docs/nodes.md: "an untyped GRES takes its name's
// types in (name, type) order").
func kinds(n Node, name, typ string) []string {
	var ks []string
	for k := range n.GRES {
		kn, kt, _ := strings.Cut(k, ":")
		if kn == name && (typ == "" || kt == typ) {
			ks = append(ks, k)
		}
	}
	slices.SortFunc(ks, func(x, y string) int {
		xn, xt, _ := strings.Cut(x, ":")
		yn, yt, _ := strings.Cut(y, ":")
		return cmp.Or(cmp.Compare(xn, yn), cmp.Compare(xt, yt))
	})
	return ks
}
