package plan

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// naive is the reference EG-EDF (+ Tabu search, index order): it keeps
// only the machines' lists and running jobs and rebuilds every plan from
// scratch, CPU by CPU, whenever it needs one. It takes no shortcut: every
// candidate is evaluated with the makespan and nondelayed count of the
// whole schedule recomputed.
type naive struct {
	plat     platform.Platform
	tabu     bool
	iters    int        // 0: 2 x planned
	tabuLen  int        // 0: min(10, planned/2)
	rnd      *rand.Rand // random machine order when set
	byEnd    bool       // weight ties: earliest end of the job (else lowest index)
	tail     bool       // the idle time after a plan counts as a gap
	byDL     bool       // a gap suits a job only if it meets its deadline there
	lateOnly bool       // Tabu moves the last non-tabu late job
	perm     []int
	every    int     // Tabu after every every-th arrival (0: each)
	interval float64 // Tabu at the first pass at or after each multiple (0: off)
	tick     float64
	arrivals int
	lists    [][]*nJob
	running  [][]*nJob
	jobs     map[job.ID]*nJob
	onTime   int
	accepted []float64 // weights of accepted Tabu moves
	log      []string  // Tabu search steps, for debugging
}

type nJob struct {
	info job.Info
	dl   float64
	end  float64 // running: estimated end
}

// newNaive follows o (machine order random when r is set).
func newNaive(p platform.Platform, o Options, r *rand.Rand) *naive {
	n := &naive{plat: p, tabu: o.Tabu, iters: o.Iterations, tabuLen: o.TabuLength,
		lists: make([][]*nJob, p.Machines()), running: make([][]*nJob, p.Machines()), jobs: map[job.ID]*nJob{}}
	if o.Order == OrderRandom {
		n.rnd = r
	}
	n.byEnd, n.tail = o.Ties == TieEnd, o.Gaps == GapTail
	n.byDL, n.lateOnly = o.Suitable == SuitDeadline, o.Pick == PickLastLate
	switch o.Trigger {
	case EveryN:
		n.every = max(o.Every, 1)
	case Interval:
		n.interval, n.tick = o.Interval, o.Interval
	}
	for m := range p.Machines() {
		n.perm = append(n.perm, m)
	}
	return n
}

func (n *naive) Name() string { return "naive" }

func (n *naive) dur(j *nJob, m int) float64 {
	return n.plat.Machine(m).Duration(j.info.Estimate, j.info.BMEst)
}

// planOf list-schedules list on machine m at now, one free time per CPU:
// each job takes the q CPUs free first (sorted), starts at the latest of
// them. It returns the starts and the machine's makespan.
func (n *naive) planOf(m int, now float64, list []*nJob) ([]float64, float64) {
	free := []float64{}
	for _, r := range n.running[m] {
		for range r.info.Procs {
			free = append(free, math.Max(r.end, now))
		}
	}
	for len(free) < n.plat.Machine(m).CPUs {
		free = append(free, now)
	}
	starts := make([]float64, len(list))
	for i, j := range list {
		slices.Sort(free)
		q := j.info.Procs
		s := free[q-1]
		for k := 0; k < q; k++ {
			free[k] = s + n.dur(j, m)
		}
		starts[i] = s
	}
	return starts, slices.Max(free)
}

// state is the makespan and nondelayed count of lists (one per machine).
func (n *naive) state(now float64, lists [][]*nJob) (float64, int) {
	ms, nd := now, n.onTime
	for m := range lists {
		starts, msm := n.planOf(m, now, lists[m])
		ms = math.Max(ms, msm)
		for _, r := range n.running[m] {
			if r.end <= r.dl {
				nd++
			}
		}
		for i, j := range lists[m] {
			if starts[i]+n.dur(j, m) <= j.dl {
				nd++
			}
		}
	}
	return ms, nd
}

func naiveWeight(msOld, msNew float64, ndOld, ndNew int) float64 {
	return (msOld-msNew)/math.Max(msOld, 1e-13) + float64(ndNew-ndOld)/float64(max(ndOld, 1))
}

func with(list []*nJob, pos int, j *nJob) []*nJob {
	return slices.Insert(slices.Clone(list), pos, j)
}

// gap is EG(j, m): try every position; keep the first where every other
// start is unchanged and j ends by the machine's makespan. With byDL that
// gap suits j only if j ends there by its deadline.
func (n *naive) gap(now float64, m int, j *nJob) (int, bool) {
	pos, ok := n.earliest(now, m, j)
	if ok && n.byDL {
		starts, _ := n.planOf(m, now, with(n.lists[m], pos, j))
		ok = starts[pos]+n.dur(j, m) <= j.dl
	}
	return pos, ok
}

func (n *naive) earliest(now float64, m int, j *nJob) (int, bool) {
	old, ms := n.planOf(m, now, n.lists[m])
	for pos := 0; pos <= len(n.lists[m]); pos++ {
		starts, _ := n.planOf(m, now, with(n.lists[m], pos, j))
		if !n.tail && starts[pos]+n.dur(j, m) > ms {
			continue
		}
		same := true
		for i := range old {
			k := i
			if i >= pos {
				k = i + 1
			}
			same = same && starts[k] == old[i]
		}
		if same {
			return pos, true
		}
	}
	return 0, false
}

func (n *naive) fits(j *nJob, m int) bool { return j.info.Procs <= n.plat.Machine(m).CPUs }

func (n *naive) copyLists() [][]*nJob {
	c := make([][]*nJob, len(n.lists))
	for m := range n.lists {
		c[m] = slices.Clone(n.lists[m])
	}
	return c
}

func (n *naive) Submit(now float64, info job.Info) {
	j := &nJob{info: info, dl: info.Deadline}
	if j.dl == 0 {
		j.dl = math.Inf(1)
	}
	n.jobs[info.ID] = j
	msOld, ndOld := n.state(now, n.lists)
	best, bestPos, bestW, bestEnd := -1, 0, 0.0, 0.0
	try := func(m, pos int) {
		c := n.copyLists()
		c[m] = with(c[m], pos, j)
		ms, nd := n.state(now, c)
		starts, _ := n.planOf(m, now, c[m])
		end := starts[pos] + n.dur(j, m)
		w := naiveWeight(msOld, ms, ndOld, nd)
		if best < 0 || w > bestW || n.byEnd && w == bestW && end < bestEnd {
			best, bestPos, bestW, bestEnd = m, pos, w, end
		}
	}
	for m := range n.lists {
		if n.fits(j, m) {
			if pos, ok := n.gap(now, m, j); ok {
				try(m, pos)
			}
		}
	}
	if best < 0 {
		for m := range n.lists {
			if !n.fits(j, m) {
				continue
			}
			pos := len(n.lists[m])
			for i, x := range n.lists[m] {
				if x.dl > j.dl {
					pos = i
					break
				}
			}
			try(m, pos)
		}
	}
	if best < 0 {
		n.arrivals++
		return
	}
	n.lists[best] = with(n.lists[best], bestPos, j)
	n.arrivals++
	if n.tabu && n.interval == 0 && (n.every == 0 || n.arrivals%n.every == 0) {
		n.tabuSearch(now)
	}
}

func (n *naive) tabuSearch(now float64) {
	w := 0
	for _, l := range n.lists {
		w += len(l)
	}
	budget, capacity := n.iters, n.tabuLen
	if budget == 0 {
		budget = 2 * w
	}
	if capacity == 0 {
		capacity = min(10, w/2)
	}
	var tabu []*nJob
	isTabu := func(j *nJob) bool { return slices.Contains(tabu, j) }
	msOld, ndOld := n.state(now, n.lists)
	for range budget {
		late := make([]int, len(n.lists))
		lateFree := 0
		for m, l := range n.lists {
			starts, _ := n.planOf(m, now, l)
			for i, j := range l {
				if starts[i]+n.dur(j, m) > j.dl {
					late[m]++
					if !isTabu(j) {
						lateFree++
					}
				}
			}
		}
		if lateFree == 0 {
			return
		}
		// The candidates of machine m: its non-tabu jobs, or with
		// lateOnly its non-tabu late jobs; the last one is moved.
		lastCand := func(m int) int {
			starts, _ := n.planOf(m, now, n.lists[m])
			for i := len(n.lists[m]) - 1; i >= 0; i-- {
				j := n.lists[m][i]
				if !isTabu(j) && (!n.lateOnly || starts[i]+n.dur(j, m) > j.dl) {
					return i
				}
			}
			return -1
		}
		src, idx := -1, -1
		for m := range n.lists {
			if i := lastCand(m); late[m] > 0 && i >= 0 && (src < 0 || late[m] > late[src]) {
				src, idx = m, i
			}
		}
		j := n.lists[src][idx]
		n.log = append(n.log, fmt.Sprintf("t=%g: job %d from machine %d", now, j.info.ID, src))
		if capacity > 0 {
			if len(tabu) == capacity {
				tabu = tabu[1:]
			}
			tabu = append(tabu, j)
		}
		if n.rnd != nil {
			n.rnd.Shuffle(len(n.perm), func(a, b int) { n.perm[a], n.perm[b] = n.perm[b], n.perm[a] })
		}
		for _, m := range n.perm {
			if m == src || !n.fits(j, m) {
				continue
			}
			saved := n.lists[src]
			n.lists[src] = slices.Delete(slices.Clone(saved), idx, idx+1)
			pos, ok := n.gap(now, m, j)
			if !ok {
				n.lists[src] = saved
				continue
			}
			c := n.copyLists()
			c[m] = with(c[m], pos, j)
			ms, nd := n.state(now, c)
			wt := naiveWeight(msOld, ms, ndOld, nd)
			n.log = append(n.log, fmt.Sprintf("  gap on machine %d at %d: weight %g", m, pos, wt))
			if wt > 0 {
				n.lists = c
				n.accepted = append(n.accepted, wt)
				msOld, ndOld = ms, nd
				break
			}
			n.lists[src] = saved
		}
	}
}

func (n *naive) Finish(now float64, id job.ID) {
	j := n.jobs[id]
	for m := range n.running {
		if i := slices.Index(n.running[m], j); i >= 0 {
			n.running[m] = slices.Delete(n.running[m], i, i+1)
		}
	}
	if now <= j.dl {
		n.onTime++
	}
	delete(n.jobs, id)
}

func (n *naive) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	if n.tabu && n.interval > 0 && now >= n.tick {
		n.tabuSearch(now)
		for n.tick <= now {
			n.tick += n.interval
		}
	}
	for m := range n.lists {
		free := v.Free(m)
		for len(n.lists[m]) > 0 && n.lists[m][0].info.Procs <= free {
			j := n.lists[m][0]
			free -= j.info.Procs
			reason := job.Reserved
			if now == j.info.Submit {
				reason = job.Immediate
			}
			plan.StartOn(j.info.ID, reason, m)
			j.end = now + n.dur(j, m)
			n.running[m] = append(n.running[m], j)
			n.lists[m] = n.lists[m][1:]
		}
	}
}

// plans returns, per machine, the planned jobs with starts and ends
// recomputed from scratch at now.
func (n *naive) plans(now float64) [][]Planned {
	out := make([][]Planned, len(n.lists))
	for m, l := range n.lists {
		starts, _ := n.planOf(m, now, l)
		out[m] = []Planned{}
		for i, j := range l {
			out[m] = append(out[m], Planned{j.info.ID, starts[i], starts[i] + n.dur(j, m)})
		}
	}
	return out
}
