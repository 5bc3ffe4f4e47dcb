package nodesref

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Order is the order of the queue under Schedule.
type Order int

// The orders of spec v1.
const (
	// ByFCFS orders the queue by (submit, id).
	ByFCFS Order = iota
	// BySJF orders the queue by (estimate, submit, id).
	BySJF
)

func (o Order) String() string {
	switch o {
	case ByFCFS:
		return "fcfs"
	case BySJF:
		return "sjf"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// Sched is a queue policy of spec v1: the depth of its reservations
// (0 none, -1 unlimited, k > 0 at most k a pass), whether the pass stops
// at the first job that does not start (FCFS strict), and its order.
type Sched struct {
	Depth int
	Stop  bool
	Order Order
}

// The policies of spec v1 in fcfs order (set Order for another).
var (
	SchedFCFS         = Sched{Depth: 0, Stop: true}
	SchedFirstFit     = Sched{Depth: 0}
	SchedEASY         = Sched{Depth: 1}
	SchedConservative = Sched{Depth: -1}
)

// SchedBackfill is "backfill depth k" (k = 0: unlimited).
func SchedBackfill(k int) Sched {
	if k == 0 {
		return Sched{Depth: -1}
	}
	return Sched{Depth: k}
}

func (p Sched) String() string {
	return fmt.Sprintf("depth=%d stop=%v order=%v", p.Depth, p.Stop, p.Order)
}

// span is spec v1's span(t, d): t + d when d > 0, else the next float
// after t, so that a hold of length 0 still covers its instant.
func span(t, d float64) float64 {
	if d > 0 {
		return t + d
	}
	return math.Nextafter(t, math.Inf(1))
}

// amount is what a hold holds on one node, counted: cores, memory and
// units per kind ("name" or "name:type").
type amount struct {
	node  int
	tasks int
	cores int
	mem   int64
	units map[string]int
}

// chold is a hold of spec v1: [from, to) with per-node amounts.
type chold struct {
	from, to  float64
	exclusive bool
	amts      []amount
}

func (h chold) overlaps(x, y float64) bool { return h.from < y && x < h.to }
func (h chold) covers(s float64) bool      { return h.from <= s && s < h.to }

// countsOf turns a selection (made by allocate on a state of counts, so
// its ids mean nothing) into per-node amounts.
func countsOf(uses []NodeUse) []amount {
	out := make([]amount, len(uses))
	for i, u := range uses {
		a := amount{node: u.Node, tasks: u.Tasks, cores: len(u.Cores), mem: u.MemMB, units: map[string]int{}}
		for k, ids := range u.GRES {
			a.units[k] = len(ids)
		}
		out[i] = a
	}
	return out
}

// freeOver is the free amounts of every node over [x, y) given holds,
// as a nodeFree of counts for allocate: the peak use of each resource
// (cores, memory, units of each kind) is the maximum, over the instants
// x and every hold boundary inside (x, y), of the sum of the amounts of
// the holds covering it; the first peak cores (units) are marked held,
// so that allocate, which only counts, sees the free counts. busy: some
// hold overlaps [x, y); whole: an exclusive one does.
func freeOver(nodes []Node, holds []chold, x, y float64) []nodeFree {
	instants := []float64{x}
	for _, h := range holds {
		for _, b := range []float64{h.from, h.to} {
			if b > x && b < y {
				instants = append(instants, b)
			}
		}
	}
	fs := make([]nodeFree, len(nodes))
	for i, n := range nodes {
		var peakCores int
		var peakMem int64
		peakUnits := map[string]int{}
		for _, s := range instants {
			cores, mem := 0, int64(0)
			units := map[string]int{}
			for _, h := range holds {
				if !h.covers(s) {
					continue
				}
				for _, a := range h.amts {
					if a.node != i {
						continue
					}
					cores += a.cores
					mem += a.mem
					for k, c := range a.units {
						units[k] += c
					}
				}
			}
			peakCores = max(peakCores, cores)
			peakMem = max(peakMem, mem)
			for k, c := range units {
				peakUnits[k] = max(peakUnits[k], c)
			}
		}
		f := nodeFree{core: make([]bool, n.Cores), unit: map[string][]bool{}, memHeld: peakMem}
		for c := 0; c < n.Cores && c < peakCores; c++ {
			f.core[c] = true
		}
		for k, cnt := range n.GRES {
			f.unit[k] = make([]bool, cnt)
			for u := 0; u < cnt && u < peakUnits[k]; u++ {
				f.unit[k][u] = true
			}
		}
		for _, h := range holds {
			if !h.overlaps(x, y) {
				continue
			}
			for _, a := range h.amts {
				if a.node == i {
					f.busy = true
					f.whole = f.whole || h.exclusive
				}
			}
		}
		fs[i] = f
	}
	return fs
}

// sel is Sel(I, r) over holds: the selection, counted, or ok false.
func sel(nodes []Node, holds []chold, x, y float64, r Request) ([]amount, bool) {
	uses, ok := allocate(nodes, freeOver(nodes, holds, x, y), r)
	if !ok {
		return nil, false
	}
	return countsOf(uses), true
}

// sched is the state of one run of Schedule.
type sched struct {
	nodes   []Node
	jobs    []Job
	p       Sched
	starts  []Start
	queue   []int // job indices, in queue order
	running []srun
	now     float64
}

// srun is a running job: it ends at end; it started at start, named uses.
type srun struct {
	job        int
	start, end float64
	uses       []NodeUse
	amts       []amount
}

// reservation is one reservation of a pass.
type reservation struct {
	job int
	h   chold
}

// Schedule runs jobs on nodes under p with the semantics of spec v1 (see
// the package doc) and returns one Start per job, in the jobs' order.
// It panics on input outside its domain (estimates may be 0 here).
func Schedule(nodes []Node, jobs []Job, p Sched) []Start {
	checkSchedule(nodes, jobs, p)
	s := &sched{nodes: nodes, jobs: jobs, p: p, starts: make([]Start, len(jobs))}
	empty := freeOver(nodes, nil, 0, 1)
	var arrivals []int
	for i, j := range jobs {
		s.starts[i].ID = j.ID
		if _, ok := allocate(nodes, empty, j.Req); !ok {
			s.starts[i].Never = true
			continue
		}
		arrivals = append(arrivals, i)
	}
	// Arrivals by submit, then input order.
	slices.SortStableFunc(arrivals, func(a, b int) int { return cmp.Compare(jobs[a].Submit, jobs[b].Submit) })
	for len(arrivals) > 0 || len(s.queue) > 0 || len(s.running) > 0 {
		if len(arrivals) == 0 && len(s.running) == 0 {
			panic(fmt.Sprintf("nodesref: %v: stalled at %v with %d jobs waiting", p, s.now, len(s.queue)))
		}
		s.now = math.Inf(1)
		if len(arrivals) > 0 {
			s.now = jobs[arrivals[0]].Submit
		}
		for _, r := range s.running {
			s.now = min(s.now, r.end)
		}
		// Ends, then submissions, then one pass.
		s.running = slices.DeleteFunc(s.running, func(r srun) bool { return r.end <= s.now })
		for len(arrivals) > 0 && jobs[arrivals[0]].Submit <= s.now {
			s.queue = append(s.queue, arrivals[0])
			arrivals = arrivals[1:]
		}
		s.sortQueue()
		s.pass()
	}
	return s.starts
}

// sortQueue orders the queue by the policy's order; ties (equal keys)
// keep the input order.
func (s *sched) sortQueue() {
	js := s.jobs
	slices.SortStableFunc(s.queue, func(a, b int) int {
		if s.p.Order == BySJF {
			if c := cmp.Compare(js[a].Estimate, js[b].Estimate); c != 0 {
				return c
			}
		}
		return cmp.Or(cmp.Compare(js[a].Submit, js[b].Submit), cmp.Compare(js[a].ID, js[b].ID), cmp.Compare(a, b))
	})
}

// pass is one scheduling pass at s.now (spec v1, "One scheduling pass").
func (s *sched) pass() {
	var H []chold
	for _, r := range s.running {
		est := s.jobs[r.job].Estimate
		h := chold{from: r.start, to: r.start + est, exclusive: s.jobs[r.job].Req.Exclusive, amts: r.amts}
		if !(r.start+est > s.now) {
			h.from, h.to = s.now, span(s.now, 0)
		}
		H = append(H, h)
	}
	var R []reservation
	var S []chold
	holdsOf := func(rs []reservation) []chold {
		out := make([]chold, len(rs))
		for i, r := range rs {
			out[i] = r.h
		}
		return out
	}
	all := func(extra ...[]chold) []chold {
		var out []chold
		for _, e := range extra {
			out = append(out, e...)
		}
		return out
	}
	var waiting []int
	for qi, j := range s.queue {
		jb := s.jobs[j]
		x, y := s.now, span(s.now, jb.Estimate)
		mk := func(a []amount) chold { return chold{from: x, to: y, exclusive: jb.Req.Exclusive, amts: a} }
		started := false
		// 1. Fit now.
		if a, ok := sel(s.nodes, all(H, holdsOf(R), S), x, y, jb.Req); ok {
			s.start(j, a)
			S = append(S, mk(a))
			started = true
		}
		// 2. Repair.
		if !started && len(R) > 0 {
			if a, ok := sel(s.nodes, all(H, S), x, y, jb.Req); ok {
				tent := mk(a)
				placed := slices.Clone(R)
				good := true
				for ci := range placed {
					c := placed[ci]
					if !c.h.overlaps(x, y) {
						continue
					}
					others := append(slices.Clone(placed[:ci]), placed[ci+1:]...)
					cj := s.jobs[c.job]
					na, ok := sel(s.nodes, all(H, S, []chold{tent}, holdsOf(others)), c.h.from, c.h.to, cj.Req)
					if !ok {
						good = false
						break
					}
					placed[ci].h.amts = na
				}
				if good {
					R = placed
					s.start(j, a)
					S = append(S, tent)
					started = true
				}
			}
		}
		// 3. Reserve.
		if !started && (s.p.Depth < 0 || len(R) < s.p.Depth) {
			plan := all(H, holdsOf(R), S)
			var times []float64
			for _, h := range plan {
				if h.to > s.now && !math.IsInf(h.to, 1) {
					times = append(times, h.to)
				}
			}
			slices.Sort(times)
			times = slices.Compact(times)
			done := false
			for _, t := range times {
				ty := span(t, jb.Estimate)
				if a, ok := sel(s.nodes, plan, t, ty, jb.Req); ok {
					R = append(R, reservation{job: j, h: chold{from: t, to: ty, exclusive: jb.Req.Exclusive, amts: a}})
					done = true
					break
				}
			}
			if !done {
				panic(fmt.Sprintf("nodesref: %v: job %d: no reservation at %v", s.p, jb.ID, s.now))
			}
		}
		// 4. Wait.
		if !started {
			waiting = append(waiting, j)
			if s.p.Stop {
				waiting = append(waiting, s.queue[qi+1:]...)
				break
			}
		}
	}
	s.queue = waiting
}

// start starts job j now with the counted selection a, naming its ids:
// on each node the lowest free cores (all of them when exclusive) and
// the lowest free units of each kind, on the state at now (the running
// jobs, those started before it in this pass included).
func (s *sched) start(j int, a []amount) {
	jb := s.jobs[j]
	uses := make([]NodeUse, len(a))
	for i, am := range a {
		n := s.nodes[am.node]
		coreHeld := make([]bool, n.Cores)
		unitHeld := map[string][]bool{}
		for k, c := range n.GRES {
			unitHeld[k] = make([]bool, c)
		}
		for _, r := range s.running {
			for _, u := range r.uses {
				if u.Node != am.node {
					continue
				}
				for _, c := range u.Cores {
					coreHeld[c] = true
				}
				for k, ids := range u.GRES {
					for _, id := range ids {
						unitHeld[k][id] = true
					}
				}
			}
		}
		u := NodeUse{Node: am.node, Tasks: am.tasks, MemMB: am.mem}
		for c := 0; c < n.Cores && len(u.Cores) < am.cores; c++ {
			if jb.Req.Exclusive || !coreHeld[c] {
				u.Cores = append(u.Cores, c)
			}
		}
		if len(u.Cores) < am.cores {
			panic(fmt.Sprintf("nodesref: %v: job %d: %d cores free on node %d at %v, want %d", s.p, jb.ID, len(u.Cores), am.node, s.now, am.cores))
		}
		for k, want := range am.units {
			for id, held := range unitHeld[k] {
				if len(u.GRES[k]) == want {
					break
				}
				if !held {
					if u.GRES == nil {
						u.GRES = map[string][]int{}
					}
					u.GRES[k] = append(u.GRES[k], id)
				}
			}
			if len(u.GRES[k]) < want {
				panic(fmt.Sprintf("nodesref: %v: job %d: too few %s free on node %d at %v", s.p, jb.ID, k, am.node, s.now))
			}
		}
		uses[i] = u
	}
	s.starts[j] = Start{ID: jb.ID, Time: s.now, Uses: uses}
	s.running = append(s.running, srun{job: j, start: s.now, end: s.now + jb.Runtime, uses: uses, amts: a})
}

// checkSchedule panics on input outside Schedule's domain: as check, but
// estimates may be 0.
func checkSchedule(nodes []Node, jobs []Job, p Sched) {
	if p.Depth < -1 || (p.Order != ByFCFS && p.Order != BySJF) {
		panic(fmt.Sprintf("nodesref: unknown policy %v", p))
	}
	for i, n := range nodes {
		if n.Cores < 1 || n.ThreadsPerCore < 1 || n.MemMB < 0 {
			panic(fmt.Sprintf("nodesref: node %d (%s): cores %d, threads %d, memory %d", i, n.Name, n.Cores, n.ThreadsPerCore, n.MemMB))
		}
		for k, c := range n.GRES {
			if c < 1 {
				panic(fmt.Sprintf("nodesref: node %d: GRES %s count %d", i, k, c))
			}
		}
	}
	for _, j := range jobs {
		finite := !math.IsInf(j.Submit, 0) && !math.IsNaN(j.Submit) && !math.IsInf(j.Estimate, 0) && !math.IsNaN(j.Estimate)
		if !finite || j.Runtime < 0 || j.Estimate < 0 || j.Estimate < j.Runtime {
			panic(fmt.Sprintf("nodesref: job %d: submit %v, runtime %v, estimate %v", j.ID, j.Submit, j.Runtime, j.Estimate))
		}
		checkRequest(j.ID, j.Req)
	}
}
