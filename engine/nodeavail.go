package engine

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
)

// NodeAvailability configures unavailable nodes on a NodeCluster
// (docs/nodes.md, "Reservations, maintenance and failures on nodes"):
// announced windows (the policy is told of them before the run) and
// failures (a ChangeSource whose Change.CPUs are node ids; the policy
// learns of them when they happen). A node is unavailable whole: in a
// window or down, none of its cores, memory or GRES can be held. The
// semantics are the pool's (Availability) with nodes for CPUs: a job
// holding a node when it becomes unavailable is killed or requeued by
// OnFailure, whether a window begins or the node fails.
type NodeAvailability struct {
	// Windows are the announced windows: no node in two windows that
	// overlap in time.
	Windows   []policy.NodeWindow
	Failures  ChangeSource // nil: none
	OnFailure OnFailure
}

// nodeAvail is the state of a NodeCluster whose nodes can be
// unavailable.
type nodeAvail struct {
	onFail OnFailure
	failureFeed
	windows []policy.NodeWindow
	byNode  [][]int32 // per node: its windows, by start
	cur     []int32   // per node: its next window not begun (index into byNode)
	inWin   []int32   // per node: 1 + the begun window holding it (0: none)
	failed  []bool
	since   []float64
	blocked []bool // per node: its whole-node hold is in the model's state
	block   []nodes.Allocation
	on      [][]int32 // per node: the slots of the jobs holding it
	down    []int     // the nodes failed and not in a begun window, ascending
	lis     []AvailListener
	hits    []int32
	lost    []int // nodes made unavailable, blocked once their jobs are hit
	changes int
	flipped int64
	spans   int
}

// initNodeAvail checks a and sets up the state.
func (c *NodeCluster) initNodeAvail(a *NodeAvailability) error {
	name := c.cfg.Policy.Name()
	pl, ok := c.cfg.Policy.(policy.NodeAvailabilityPlanner)
	if !ok {
		return fmt.Errorf("policy %s %w: use fcfs, easy, conservative or backfill", name, ErrNoAvailabilityPlanner)
	}
	if int(a.OnFailure) >= len(onFailureNames) {
		return fmt.Errorf("engine: unknown failure rule %d", a.OnFailure)
	}
	if len(a.Windows) > MaxWindows {
		return fmt.Errorf("%d reservation windows: at most %d (engine.MaxWindows)", len(a.Windows), MaxWindows)
	}
	n := c.ns.Len()
	v := &nodeAvail{onFail: a.OnFailure, failureFeed: newFailureFeed(a.Failures),
		byNode: make([][]int32, n), cur: make([]int32, n), inWin: make([]int32, n), failed: make([]bool, n),
		since: make([]float64, n), blocked: make([]bool, n), block: make([]nodes.Allocation, n), on: make([][]int32, n)}
	ws := slices.Clone(a.Windows)
	for i := range ws {
		w := &ws[i]
		w.Nodes = slices.Clone(w.Nodes)
		switch {
		case math.IsNaN(w.Start) || math.IsInf(w.Start, 0) || math.IsNaN(w.End) || math.IsInf(w.End, 0) || !(w.Start < w.End):
			return fmt.Errorf("reservation %d: window [%g, %g) must be finite, start before end", i+1, w.Start, w.End)
		case len(w.Nodes) == 0:
			return fmt.Errorf("reservation %d: no nodes", i+1)
		}
		if err := checkNodeRuns(w.Nodes, n); err != nil {
			return fmt.Errorf("reservation %d: %w", i+1, err)
		}
	}
	slices.SortStableFunc(ws, func(a, b policy.NodeWindow) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.Nodes[0], b.Nodes[0]))
	})
	for i := range ws {
		for j := i + 1; j < len(ws) && ws[j].Start < ws[i].End; j++ {
			if x := overlap(ws[i].Nodes, ws[j].Nodes); x >= 0 {
				return fmt.Errorf("reservations [%g, %g) and [%g, %g) both hold node %s", ws[i].Start, ws[i].End, ws[j].Start, ws[j].End, c.ns.Name(int(x)))
			}
		}
		forRuns(ws[i].Nodes, func(nd int32) { v.byNode[nd] = append(v.byNode[nd], int32(i)) })
	}
	v.windows = ws
	for _, l := range flatten(c.lis, nil) {
		if t, ok := l.(AvailListener); ok {
			v.lis = append(v.lis, t)
		}
	}
	c.av = v
	for k := range ws {
		c.pushBackground(ws[k].Start, refWindow-2*int32(k))
		c.pushBackground(ws[k].End, refWindow-2*int32(k)-1)
	}
	if err := c.readNodeChange(); err != nil {
		return err
	}
	if !pl.PlanNodeAvailability(ws) {
		if c.np != nil {
			name = c.np.refusingPolicy // the router plans when every partition's policy does
		}
		return fmt.Errorf("policy %s %w: use fcfs, easy, conservative or backfill", name, ErrNoAvailabilityPlanner)
	}
	return nil
}

// checkNodeRuns checks that r is ascending, disjoint, merged runs of
// node ids below n.
func checkNodeRuns(r platform.Runs, n int) error {
	if len(r)%2 != 0 {
		return fmt.Errorf("node list of odd length %d", len(r))
	}
	for k, prev := 0, int32(-2); k+1 < len(r); k += 2 {
		if r[k] > r[k+1] || r[k] <= prev+1 || r[k] < 0 {
			return fmt.Errorf("nodes %v are not ascending, disjoint, merged runs", []int32(r))
		}
		prev = r[k+1]
	}
	if last := r[len(r)-1]; int(last) >= n {
		return fmt.Errorf("node %d is not on the platform (%d nodes: ids 0-%d)", last, n, n-1)
	}
	return nil
}

// readNodeChange reads the next failure change (node ids) and pushes it.
func (c *NodeCluster) readNodeChange() error {
	ok, err := c.av.read(func(r platform.Runs) error { return checkNodeRuns(r, c.ns.Len()) })
	if ok {
		c.pushBackground(max(c.av.pend.Time, c.now), refFailure)
	}
	return err
}

// coresOfNodes is the global core ids of the nodes r, as runs.
func (c *NodeCluster) coresOfNodes(r platform.Runs) platform.Runs {
	var out platform.Runs
	forRuns(r, func(nd int32) {
		x := c.ns.Node(int(nd))
		out = append(out, int32(x.FirstCore), int32(x.FirstCore+x.Cores()-1))
	})
	// merge adjacent runs (the nodes' cores are numbered node by node)
	m := out[:0]
	for i := 0; i+1 < len(out); i += 2 {
		if k := len(m); k > 0 && m[k-1]+1 == out[i] {
			m[k-1] = out[i+1]
			continue
		}
		m = append(m, out[i], out[i+1])
	}
	return m
}

// reportNodes tells the listeners of a span of unavailable nodes, as
// the cores of those nodes, counting it against MaxSpans.
func (c *NodeCluster) reportNodes(kind UnavailKind, start, end float64, nds platform.Runs) error {
	v := c.av
	if v.spans++; v.spans > MaxSpans {
		return availLimit("more than %d spans of unavailable nodes by t=%g (engine.MaxSpans: the rows of unavailability.csv): make the failures rarer or the simulated span shorter", MaxSpans, c.now)
	}
	if len(v.lis) == 0 {
		return nil
	}
	cores := c.coresOfNodes(nds)
	for _, l := range v.lis {
		l.Unavailable(kind, start, end, cores)
	}
	return nil
}

// nodeAvailTimer applies the availability event ref.
func (c *NodeCluster) nodeAvailTimer(ref int32) error {
	c.background--
	c.jobEvent = true // the platform changed: a pass follows
	v := c.av
	v.hits, v.lost = v.hits[:0], v.lost[:0]
	if ref == refFailure {
		if v.changes++; v.changes > MaxFailureChanges {
			return availLimit("more than %d changes of availability (failures and returns) by t=%g (engine.MaxFailureChanges): make the mean times between failures and to repair longer, or the simulated span shorter",
				MaxFailureChanges, c.now)
		}
		ch := v.pend
		if c.np != nil {
			c.np.touchNodes(ch.CPUs)
		}
		if v.flipped += int64(ch.CPUs.Count()); v.flipped > maxFailureCPUs {
			return availLimit("the changes of availability (failures and returns) up to t=%g change more than %d nodes in all (engine.MaxFailureCPUs); make the failures rarer or the simulated span shorter",
				c.now, maxFailureCPUs)
		}
		var err error
		forRuns(ch.CPUs, func(nd int32) {
			switch {
			case ch.Down && !v.failed[nd]:
				v.failed[nd], v.since[nd] = true, c.now
				if v.inWin[nd] == 0 {
					v.setDown(int(nd), true)
					c.loseNode(int(nd))
				}
			case !ch.Down && v.failed[nd]:
				if e := c.reportNodes(KindDown, v.since[nd], c.now, platform.Runs{nd, nd}); e != nil && err == nil {
					err = e
				}
				v.failed[nd] = false
				if v.inWin[nd] == 0 {
					v.setDown(int(nd), false)
					if e := c.regainNode(int(nd)); e != nil && err == nil {
						err = e
					}
				}
			}
		})
		if err != nil {
			return err
		}
		if err := c.hitNodeJobs(); err != nil {
			return err
		}
		return c.readNodeChange()
	}
	k := int(refWindow - ref)
	w := &v.windows[k/2]
	if c.np != nil {
		c.np.touchNodes(w.Nodes)
	}
	if k%2 == 0 { // begins
		if err := c.reportNodes(KindReserved, w.Start, w.End, w.Nodes); err != nil {
			return err
		}
		forRuns(w.Nodes, func(nd int32) {
			v.inWin[nd] = int32(k/2) + 1
			v.cur[nd]++
			if v.failed[nd] {
				v.setDown(int(nd), false)
			} else {
				c.loseNode(int(nd))
			}
		})
		return c.hitNodeJobs()
	}
	var err error
	forRuns(w.Nodes, func(nd int32) {
		v.inWin[nd] = 0
		if v.failed[nd] {
			v.setDown(int(nd), true)
		} else if e := c.regainNode(int(nd)); e != nil && err == nil {
			err = e
		}
	})
	return err
}

// setDown adds node nd to, or removes it from, the down nodes.
func (v *nodeAvail) setDown(nd int, on bool) {
	i, found := slices.BinarySearch(v.down, nd)
	switch {
	case on && !found:
		v.down = slices.Insert(v.down, i, nd)
	case !on && found:
		v.down = slices.Delete(v.down, i, i+1)
	}
}

// usable reports whether node nd is available (neither down nor in a
// window that has begun).
func (v *nodeAvail) usable(nd int) bool { return !v.failed[nd] && v.inWin[nd] == 0 }

// nextStart is the start of node nd's next window not begun (+Inf).
func (v *nodeAvail) nextStart(nd int) (float64, *policy.NodeWindow) {
	if k := v.cur[nd]; int(k) < len(v.byNode[nd]) {
		w := &v.windows[v.byNode[nd][k]]
		return w.Start, w
	}
	return math.Inf(1), nil
}

// loseNode makes an available node unavailable: its jobs are hit, and
// it is held whole once they are gone (hitNodeJobs).
func (c *NodeCluster) loseNode(nd int) {
	v := c.av
	for _, i := range v.on[nd] {
		if !slices.Contains(v.hits, i) {
			v.hits = append(v.hits, i)
		}
	}
	v.lost = append(v.lost, nd)
}

// regainNode makes an unavailable node available: its whole-node hold
// is given back (in the partitions' states too).
func (c *NodeCluster) regainNode(nd int) error {
	v := c.av
	if v.blocked[nd] {
		c.state.Release(v.block[nd])
		v.blocked[nd] = false
		if c.np != nil {
			return c.np.block(nd, false)
		}
	}
	return nil
}

// hitNodeJobs ends or requeues the jobs holding nodes that became
// unavailable, in the order the nodes were met, then holds those nodes
// whole.
func (c *NodeCluster) hitNodeJobs() error {
	v := c.av
	for _, i := range v.hits {
		s := c.slots.at(i)
		requeue := v.onFail == FailRequeue
		if requeue && s.attempts > MaxRequeues {
			return availLimit("job %d (%d CPUs, runtime %g s) hit by a failure at t=%g after %d requeues (engine.MaxRequeues): failures come more often than it can run to its end (use the failure rule kill, or rarer failures)",
				s.job.ID, s.job.Procs, s.job.Runtime, c.now, s.attempts-1)
		}
		c.releaseHold(i)
		c.jobEvent = true
		s.stale++ // its completion event is void
		c.background++
		rec := Record{Job: &s.job, Start: s.start, End: c.now, Reason: s.reason, State: job.Killed, Machine: 0, CPUs: s.cpus, Attempts: int(s.attempts), Alloc: s.allocation()}
		for _, l := range v.lis {
			l.Interrupted(c.now, &rec, requeue)
		}
		if requeue {
			c.stats.Requeued++
			c.requeue(s)
			continue
		}
		c.stats.FailureKilled++
		s.failKilled = true
		c.end(i, nil)
		c.present.Delete(s.job.ID)
		c.cfg.Policy.Finish(c.now, s.job.ID)
		s.dead = true // released when its void completion event comes
	}
	v.hits = v.hits[:0]
	for _, nd := range v.lost {
		if !v.blocked[nd] && !v.usable(nd) {
			if v.block[nd].Nodes == nil {
				v.block[nd] = c.ns.WholeAlloc(nd)
			}
			if !c.state.Occupy(v.block[nd]) {
				return fmt.Errorf("engine: node %s could not be held whole at t=%g (a job still holds it)", c.ns.Name(nd), c.now)
			}
			v.blocked[nd] = true
			if c.np != nil {
				if err := c.np.block(nd, true); err != nil {
					return err
				}
			}
		}
	}
	v.lost = v.lost[:0]
	return nil
}

// holdNodes records that slot i's job holds the nodes of its allocation.
func (c *NodeCluster) holdNodes(i int32) {
	for _, na := range c.slots.at(i).alloc.a.Nodes {
		c.av.on[na.Node] = append(c.av.on[na.Node], i)
	}
}

// unholdNodes undoes holdNodes.
func (c *NodeCluster) unholdNodes(i int32) {
	for _, na := range c.slots.at(i).alloc.a.Nodes {
		on := c.av.on[na.Node]
		if k := slices.Index(on, i); k >= 0 {
			c.av.on[na.Node] = slices.Delete(on, k, k+1)
		}
	}
}

// checkNodeStart refuses a start on allocation a whose nodes are
// unavailable now, or reserved before the job's estimated end.
func (c *NodeCluster) checkNodeStart(d *policy.Start, a *nodes.Allocation, end float64) error {
	v := c.av
	for _, na := range a.Nodes {
		nd := na.Node
		if nd < 0 || nd >= c.ns.Len() {
			continue // CheckAlloc reports it
		}
		switch {
		case v.failed[nd]:
			return c.bad(d, "node %s is down (failed at t=%g)", c.ns.Name(nd), v.since[nd])
		case v.inWin[nd] > 0:
			w := &v.windows[v.inWin[nd]-1]
			return c.bad(d, "node %s is in the reservation [%g, %g)", c.ns.Name(nd), w.Start, w.End)
		}
		if t, w := v.nextStart(nd); t < end {
			return c.bad(d, "node %s is reserved over [%g, %g), before the job's estimated end t=%g", c.ns.Name(nd), w.Start, w.End, end)
		}
	}
	return nil
}

// clearNodes is the state's free amounts with the nodes whose next
// window begins before end shown as held whole (the model's allocation
// when the policy names none).
type clearNodes struct {
	c   *NodeCluster
	end float64
}

func (s clearNodes) FreeOn(n int, f *nodes.NodeFree) {
	s.c.state.FreeOn(n, f)
	if t, _ := s.c.av.nextStart(n); t < s.end {
		f.Cores, f.Whole, f.Jobs = 0, true, true
	}
}

// allocClear allocates r by the selection rule on the nodes clear of
// every window until end.
func (c *NodeCluster) allocClear(r nodes.Request, end float64) (nodes.Allocation, bool) {
	sel := c.state.Selector()
	pr, err := sel.Prepare(r)
	if err != nil {
		return nodes.Allocation{}, false
	}
	var out nodes.Selection
	if !sel.Select(clearNodes{c, end}, pr, &out) {
		return nodes.Allocation{}, false
	}
	return c.state.Assign(&out), true
}

// nodeAvailDone reports the failure spans still open at the end of the
// run, up to its last instant.
func (c *NodeCluster) nodeAvailDone() error {
	v := c.av
	for nd := range v.failed {
		if v.failed[nd] {
			if err := c.reportNodes(KindDown, v.since[nd], c.now, platform.Runs{int32(nd), int32(nd)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// DownNodes implements policy.NodeAvailabilityView.
func (v nodeView) DownNodes(dst []int) []int {
	if v.c.av == nil {
		return dst
	}
	return append(dst, v.c.av.down...)
}
