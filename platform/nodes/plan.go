package nodes

import (
	"cmp"
	"math"
	"slices"
)

// Occupy marks the resources of a as held, exactly those (the inverse
// of Release): a plan builds the state of an interval from the
// allocations that overlap it. It reports false, changing nothing, when
// any of them is already held or a is not of this platform.
func (s *State) Occupy(a Allocation) bool {
	for _, na := range a.Nodes {
		if na.Node < 0 || na.Node >= s.ns.Len() || (a.Exclusive && s.jobs[na.Node] > 0) || s.whole[na.Node] {
			return false
		}
		nd := s.ns.Node(na.Node)
		for _, c := range na.Cores {
			if c < nd.FirstCore || c >= nd.FirstCore+nd.Cores() || s.coreUsed[c] {
				return false
			}
		}
		if nd.MemMB > 0 && s.memUsed[na.Node]+na.MemMB > nd.MemMB {
			return false
		}
		for _, g := range na.GRES {
			k, ok := slices.BinarySearchFunc(s.ns.kinds, g.Kind, compareKind)
			if !ok {
				return false
			}
			first, count := s.ns.FirstGRES(na.Node, g.Kind)
			for _, u := range g.Units {
				if u < first || u >= first+count || s.unitUsed[k][u] {
					return false
				}
			}
		}
	}
	for _, na := range a.Nodes {
		for _, c := range na.Cores {
			s.coreUsed[c] = true
		}
		s.freeCores[na.Node] -= len(na.Cores)
		s.freed(na.Node)
		s.memUsed[na.Node] += na.MemMB
		for _, g := range na.GRES {
			k, _ := slices.BinarySearchFunc(s.ns.kinds, g.Kind, compareKind)
			for _, u := range g.Units {
				s.unitUsed[k][u] = true
			}
			s.freeUnits[na.Node][k] -= len(g.Units)
		}
		s.jobs[na.Node]++
		if a.Exclusive {
			s.whole[na.Node] = true
		}
	}
	return true
}

// Plan is a node platform's use over time: allocations held over
// [Start, End) intervals (running jobs until their estimated end,
// reservations of waiting jobs), from which it finds where and when a
// request can start. It is the multi-resource form of a backfilling
// profile: a reservation holds named nodes, cores and GRES units, so a
// later job may start before it ends only on resources it leaves free
// (docs/nodes.md, "nodes.Plan"; the policies plan with Profile).
type Plan struct {
	ns    *Nodes
	holds []Hold
}

// Hold is one allocation held over [Start, End) (End +Inf: no end
// known).
type Hold struct {
	ID         int64
	Start, End float64
	Alloc      Allocation
}

// NewPlan returns an empty plan of ns.
func NewPlan(ns *Nodes) *Plan { return &Plan{ns: ns} }

// Add holds a over [start, end) for id.
func (p *Plan) Add(id int64, start, end float64, a Allocation) {
	p.holds = append(p.holds, Hold{ID: id, Start: start, End: end, Alloc: a})
}

// Remove drops id's holds.
func (p *Plan) Remove(id int64) {
	p.holds = slices.DeleteFunc(p.holds, func(h Hold) bool { return h.ID == id })
}

// Holds returns the plan's holds, in the order added.
func (p *Plan) Holds() []Hold { return slices.Clone(p.holds) }

// During returns the state of [from, to): the cores and GRES units of
// every hold overlapping the interval are held (a hold ending at from, or
// starting at to, does not overlap it; two holds of one core at
// different instants of the interval both keep it), a node is held whole
// if an exclusive hold overlaps it, and a node's memory held is the peak,
// over the interval, of its holds' memory at one instant. A request
// allocated from it is free over the whole interval.
func (p *Plan) During(from, to float64) *State {
	s := NewState(p.ns)
	type memEv struct {
		t     float64
		delta int64
	}
	mem := map[int][]memEv{}
	for _, h := range p.holds {
		if !(h.Start < to && from < h.End) {
			continue
		}
		for _, na := range h.Alloc.Nodes {
			for _, c := range na.Cores {
				if !s.coreUsed[c] {
					s.coreUsed[c] = true
					s.freeCores[na.Node]--
				}
			}
			for _, g := range na.GRES {
				k, _ := slices.BinarySearchFunc(p.ns.kinds, g.Kind, compareKind)
				for _, u := range g.Units {
					if !s.unitUsed[k][u] {
						s.unitUsed[k][u] = true
						s.freeUnits[na.Node][k]--
					}
				}
			}
			s.jobs[na.Node]++
			if h.Alloc.Exclusive {
				s.whole[na.Node] = true
			}
			if na.MemMB > 0 {
				mem[na.Node] = append(mem[na.Node], memEv{max(h.Start, from), na.MemMB}, memEv{h.End, -na.MemMB})
			}
		}
	}
	for n, evs := range mem {
		slices.SortFunc(evs, func(a, b memEv) int { // ends before starts at one instant
			if a.t != b.t {
				return cmp.Compare(a.t, b.t)
			}
			return cmp.Compare(a.delta, b.delta)
		})
		var cur, peak int64
		for _, e := range evs {
			cur += e.delta
			peak = max(peak, cur)
		}
		s.memUsed[n] = peak
	}
	return s
}

// Earliest finds the earliest time t >= now at which r can hold its
// resources over [t, t+d), and the allocation it would take then: the
// candidate times are now and the ends of the holds after now, in
// increasing order, and at each the selection rule of State.Alloc picks
// among the resources free over the whole interval. It reports false
// when r fits at none of them (it does not fit the platform, or d is
// +Inf and some hold never ends on what it needs).
func (p *Plan) Earliest(r Request, now, d float64) (float64, Allocation, bool) {
	times := []float64{now}
	for _, h := range p.holds {
		if h.End > now && !math.IsInf(h.End, 1) {
			times = append(times, h.End)
		}
	}
	slices.Sort(times)
	times = slices.Compact(times)
	for _, t := range times {
		if a, ok := p.During(t, t+d).Alloc(r); ok {
			return t, a, true
		}
	}
	return 0, Allocation{}, false
}

// Overlaps reports whether a and b hold a common core or GRES unit, or
// share a node where either is exclusive.
func Overlaps(a, b Allocation) bool {
	for _, x := range a.Nodes {
		for _, y := range b.Nodes {
			if x.Node != y.Node {
				continue
			}
			if a.Exclusive || b.Exclusive {
				return true
			}
			for _, c := range x.Cores {
				if slices.Contains(y.Cores, c) {
					return true
				}
			}
			for _, g := range x.GRES {
				for _, h := range y.GRES {
					if g.Kind == h.Kind {
						for _, u := range g.Units {
							if slices.Contains(h.Units, u) {
								return true
							}
						}
					}
				}
			}
		}
	}
	return false
}
