package plan

import "slices"

// tabuSearch is one Tabu search at now (package doc, "Tabu search").
func (p *Planner) tabuSearch(now float64) {
	p.stats.TabuRuns++
	w := p.planned
	if w == 0 {
		return
	}
	p.ensure(now)
	budget := p.opt.Iterations
	if budget == 0 {
		budget = 2 * w
	}
	capacity := p.opt.TabuLength
	if capacity == 0 {
		capacity = min(10, w/2)
	}
	// A move that found nothing at plan version ver finds nothing again
	// until a move is accepted: remembering that failure skips the
	// repeated search (the tabu list cycles through the same few jobs when
	// no move is accepted) without changing any outcome.
	p.ver++
	msOld, ndOld := p.makespan(now), p.nd
	defer p.clearTabu()
	order, late := p.byLate() // valid until a move is accepted
	byDL := p.opt.Suitable == SuitDeadline
	for range budget {
		// Stop when no delayed job is outside the tabu list.
		n := late
		for _, e := range p.tabuList {
			n -= b2i(!e.meets())
		}
		if n == 0 {
			break
		}
		// The machine with the most delayed jobs that has a non-tabu job:
		// the first such in order (at most len(tabuList) are skipped).
		// With PickLastLate: the first such machine with a delayed
		// non-tabu job, and its last one.
		src, idx := -1, -1
		for _, m := range order {
			mc := &p.ms[m]
			if p.opt.Pick == PickLastLate {
				if i := lastLateFree(mc.list); i >= 0 {
					src, idx = m, i
					break
				}
			} else if len(mc.list) > mc.tabu {
				src, idx = m, len(mc.list)-1
				for mc.list[idx].tabu {
					idx--
				}
				break
			}
		}
		if src < 0 {
			break // cannot happen: a delayed non-tabu job has a machine
		}
		sm := &p.ms[src]
		j := sm.list[idx]
		p.pushTabu(j, capacity)
		p.stats.TabuIterations++
		if p.opt.Order == OrderRandom {
			p.rnd.Shuffle(len(p.perm), func(a, b int) { p.perm[a], p.perm[b] = p.perm[b], p.perm[a] })
		}
		if j.failed == p.ver {
			continue
		}
		// The schedule without j: src replanned, the others unchanged.
		msSrc, okSrc, _ := p.tentative(src, now, nil, -1, idx)
		msWithout := max(now, msSrc)
		for m := range p.ms {
			if m != src {
				msWithout = max(msWithout, p.ms[m].ms)
			}
		}
		ndWithout := ndOld - sm.okPlanned + okSrc
		// j in a gap of m ends by m's makespan, so the weight of a move
		// is one of two values, whether j meets its deadline there or
		// not: skip what cannot be accepted.
		wMiss := weight(msOld, msWithout, ndOld, ndWithout)
		if !(weight(msOld, msWithout, ndOld, ndWithout+1) > 0) {
			j.failed = p.ver
			continue
		}
		moved := false
		for _, m := range p.perm {
			if m == src || !p.suitable(j, m) || (byDL || !(wMiss > 0)) && now+p.dur(j, m) > j.deadline {
				continue
			}
			pos, s, e, ok := p.earliestGap(m, now, j)
			if !ok || byDL && e > j.deadline {
				continue
			}
			wt := weight(msOld, max(msWithout, e), ndOld, ndWithout+b2i(e <= j.deadline))
			if !(wt > 0) {
				continue
			}
			p.move(now, j, src, idx, m, pos, s, e)
			moved = true
			p.stats.TabuMoves++
			if p.OnMove != nil {
				p.OnMove(Move{Now: now, ID: j.id, From: src, To: m, Pos: pos, Weight: wt})
			}
			break
		}
		if !moved {
			j.failed = p.ver
			continue
		}
		p.ver++
		msOld, ndOld = p.makespan(now), p.nd
		order, late = p.byLate()
	}
}

// lastLateFree is the index of the last non-tabu job of list that misses
// its deadline, -1 if none.
func lastLateFree(list []*entry) int {
	for i := len(list) - 1; i >= 0; i-- {
		if x := list[i]; !x.tabu && !x.meets() {
			return i
		}
	}
	return -1
}

// byLate lists the machines with delayed jobs, most delayed first (ties:
// lowest index), and returns the total number of delayed jobs.
func (p *Planner) byLate() ([]int, int) {
	p.order = p.order[:0]
	total := 0
	for m := range p.ms {
		if l := p.ms[m].late; l > 0 {
			p.order = append(p.order, m)
			total += l
		}
	}
	slices.SortStableFunc(p.order, func(a, b int) int { return p.ms[b].late - p.ms[a].late })
	return p.order, total
}

// move takes j from position idx of machine from (replanned) into a gap
// of machine to at position pos, where it starts at s and ends at e.
func (p *Planner) move(now float64, j *entry, from, idx, to, pos int, s, e float64) {
	fm := &p.ms[from]
	fm.list = slices.Delete(fm.list, idx, idx+1)
	if j.meets() {
		fm.okPlanned--
		p.nd--
	} else {
		fm.late--
	}
	p.planned--
	p.replan(from, now)
	p.insertAt(to, pos, j, s, e)
	if j.tabu { // not with a tabu list of length 0
		fm.tabu--
		p.ms[to].tabu++
	}
}

// pushTabu appends j to the tabu list, removing the oldest entry when the
// list would exceed capacity (capacity 0: nothing stays tabu).
func (p *Planner) pushTabu(j *entry, capacity int) {
	if capacity == 0 {
		return
	}
	if len(p.tabuList) == capacity {
		old := p.tabuList[0]
		old.tabu = false
		p.ms[old.m].tabu--
		p.tabuList = slices.Delete(p.tabuList, 0, 1)
	}
	j.tabu = true
	p.ms[j.m].tabu++
	p.tabuList = append(p.tabuList, j)
}

// clearTabu empties the tabu list: each search starts with a fresh one.
func (p *Planner) clearTabu() {
	for _, e := range p.tabuList {
		e.tabu = false
		p.ms[e.m].tabu--
	}
	p.tabuList = p.tabuList[:0]
}
