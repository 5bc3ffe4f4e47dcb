package rank

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"

	"github.com/schedlab/schedlab/internal/enum"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// Head says what the submit-order head job gets.
type Head uint8

const (
	// HeadNone: nothing; pure smallest rank among the jobs that fit.
	HeadNone Head = iota
	// HeadFCFS: the submit-order head starts first whenever it fits.
	HeadFCFS
	// HeadEASY: the submit-order head starts first whenever it fits, and
	// holds an EASY reservation when it does not.
	HeadEASY
)

// Heads lists the head modes, the default first.
func Heads() []Head { return []Head{HeadNone, HeadFCFS, HeadEASY} }

func (h Head) String() string {
	switch h {
	case HeadNone:
		return "none"
	case HeadFCFS:
		return "fcfs"
	case HeadEASY:
		return "easy"
	}
	return "Head(" + strconv.Itoa(int(h)) + ")"
}

// HeadNames lists the head modes' names, the default first.
func HeadNames() []string { return enum.Names(Heads()...) }

// ParseHead parses "none", "fcfs" or "easy".
func ParseHead(s string) (Head, error) { return enum.ParseNamed("head", s, Heads()...) }

// Select says which waiting job a pass starts next.
type Select uint8

const (
	// SelectFitNow: the smallest rank among the jobs that fit now; a job
	// that does not fit is passed over (greedy fill-in; our first
	// reading).
	SelectFitNow Select = iota
	// SelectStrict: the smallest-rank job starts next; while it does not
	// fit, no job behind it in rank order starts ("Select the job with
	// the smallest positive rank value and assign it to start
	// execution").
	SelectStrict
)

// Selects lists the selection rules, the default first.
func Selects() []Select { return []Select{SelectFitNow, SelectStrict} }

func (s Select) String() string {
	switch s {
	case SelectFitNow:
		return "fit-now"
	case SelectStrict:
		return "strict"
	}
	return "Select(" + strconv.Itoa(int(s)) + ")"
}

// SelectNames lists the selection rules' names, the default first.
func SelectNames() []string { return enum.Names(Selects()...) }

// ParseSelect parses "fit-now" or "strict".
func ParseSelect(s string) (Select, error) { return enum.ParseNamed("selection rule", s, Selects()...) }

// Options configures a JRB policy.
type Options struct {
	Name     string            // the policy's name in errors and reports ("" = "jrb")
	Platform platform.Platform // the machines (at least one)
	Rank     Rank              // the rank function (Named(FormOriginal) for the paper's JRB)
	Head     Head              // what the submit-order head gets (default HeadNone)
	// PositiveOnly refuses jobs whose rank is <= 0 (the literal "smallest
	// positive rank": such a job would never start).
	PositiveOnly bool
	// Select says which waiting job starts next (default SelectFitNow).
	Select Select
}

// slot is a waiting job.
type slot struct {
	id         job.ID
	submit     float64
	procs      int
	mem, speed float64
	est, bmEst float64
	rank       float64
	started    bool
}

// running is a job started by the policy, for HeadEASY's shadow time.
type running struct {
	m     int32
	procs int
	end   float64 // estimated end
}

// JRB is Job Ranking Backfilling over the machines of a platform; build
// it with New. It implements policy.QueueScheduler and policy.Screener.
type JRB struct {
	name  string
	machs []platform.Machine
	maxM  int // the largest machine's CPUs
	rank  Rank
	head  Head
	pos   bool
	sel   Select

	slots   []slot
	freeIdx []int32
	byRank  []int32 // waiting slots by (rank, submit, id)
	fcfs    []int32 // waiting slots by (submit, id)
	free    []int   // free CPUs per machine during a pass
	refused int64
	run     map[job.ID]running // HeadEASY only
	buf     []running
}

var (
	_ policy.QueueScheduler = (*JRB)(nil)
	_ policy.Screener       = (*JRB)(nil)
)

// New checks o and returns the policy.
func New(o Options) (*JRB, error) {
	name := o.Name
	if name == "" {
		name = "jrb"
	}
	if o.Platform.Machines() == 0 {
		return nil, fmt.Errorf("policy %s: a platform is required", name)
	}
	if err := o.Rank.Valid(); err != nil {
		return nil, fmt.Errorf("policy %s: %w", name, err)
	}
	if o.Head > HeadEASY {
		return nil, fmt.Errorf("policy %s: unknown head mode %d", name, o.Head)
	}
	if o.Select > SelectStrict {
		return nil, fmt.Errorf("policy %s: unknown selection rule %d", name, o.Select)
	}
	p := &JRB{name: name, rank: o.Rank, head: o.Head, pos: o.PositiveOnly, sel: o.Select}
	for m := 0; m < o.Platform.Machines(); m++ {
		mc := o.Platform.Machine(m)
		p.machs = append(p.machs, mc)
		p.maxM = max(p.maxM, mc.CPUs)
	}
	p.free = make([]int, len(p.machs))
	if o.Head == HeadEASY {
		p.run = make(map[job.ID]running)
	}
	return p, nil
}

// Name is the policy's name.
func (p *JRB) Name() string { return p.name }

// RankHead names the policy's rank function and head rule (for a run's
// summary).
func (p *JRB) RankHead() (rank, head string) { return p.rank.String(), p.head.String() }

// RefusalNote says which jobs the policy refuses at submission, for a
// run's summary line.
func (p *JRB) RefusalNote() string {
	return "rank -1: no machine can hold them, or rank <= 0 under --positive-only"
}

// Refused is the number of jobs handed to Submit that the policy refused
// (Refuse non-empty): they were never queued.
func (p *JRB) Refused() int64 { return p.refused }

// holdable reports whether some machine can ever hold the job.
func (p *JRB) holdable(procs int, mem, speed float64) bool {
	if procs > p.maxM || procs < 1 {
		return false
	}
	for m := range p.machs {
		if p.machs[m].Holds(procs, mem, speed) {
			return true
		}
	}
	return false
}

// RankOf is j's rank, or -1 if no machine can ever hold j (the paper's
// rank -1).
func (p *JRB) RankOf(j job.Info) float64 {
	if !p.holdable(j.Procs, j.Mem, j.Speed) {
		return -1
	}
	return p.rank.Of(j.Procs, j.Mem, j.Speed)
}

// Refuse says why j is refused at submission ("" if it is accepted): no
// machine can ever hold it (rank -1), its rank is not a number, or, with
// PositiveOnly, its rank is <= 0.
func (p *JRB) Refuse(j job.Info) string {
	if !p.holdable(j.Procs, j.Mem, j.Speed) {
		return fmt.Sprintf("rank -1: no machine can hold %d CPUs with %g KB of memory per CPU and speed %g", j.Procs, j.Mem, j.Speed)
	}
	r := p.rank.Of(j.Procs, j.Mem, j.Speed)
	switch {
	case math.IsNaN(r) || math.IsInf(r, 0):
		return fmt.Sprintf("rank %g is not a finite number", r)
	case p.pos && r <= 0:
		return fmt.Sprintf("rank %g <= 0 never starts under positive_only", r)
	}
	return ""
}

func (p *JRB) byRankLess(a, b int32) bool {
	x, y := &p.slots[a], &p.slots[b]
	if x.rank != y.rank {
		return x.rank < y.rank
	}
	if x.submit != y.submit {
		return x.submit < y.submit
	}
	return x.id < y.id
}

func (p *JRB) fcfsLess(a, b int32) bool {
	x, y := &p.slots[a], &p.slots[b]
	if x.submit != y.submit {
		return x.submit < y.submit
	}
	return x.id < y.id
}

// insert puts s into the sorted slice q.
func insert(q []int32, s int32, less func(a, b int32) bool) []int32 {
	n := len(q)
	if n == 0 || !less(s, q[n-1]) {
		return append(q, s)
	}
	i := sort.Search(n, func(i int) bool { return less(s, q[i]) })
	q = append(q, 0)
	copy(q[i+1:], q[i:])
	q[i] = s
	return q
}

// Submit queues j with its rank; a job Refuse refuses is counted and
// dropped.
func (p *JRB) Submit(now float64, j job.Info) {
	if p.Refuse(j) != "" {
		p.refused++
		return
	}
	var s int32
	if n := len(p.freeIdx); n > 0 {
		s = p.freeIdx[n-1]
		p.freeIdx = p.freeIdx[:n-1]
	} else {
		p.slots = append(p.slots, slot{})
		s = int32(len(p.slots) - 1)
	}
	p.slots[s] = slot{id: j.ID, submit: j.Submit, procs: j.Procs, mem: j.Mem, speed: j.Speed,
		est: j.Estimate, bmEst: j.BMEst, rank: p.rank.Of(j.Procs, j.Mem, j.Speed)}
	p.byRank = insert(p.byRank, s, p.byRankLess)
	p.fcfs = insert(p.fcfs, s, p.fcfsLess)
}

// Finish forgets a running job.
func (p *JRB) Finish(now float64, id job.ID) {
	if p.run != nil {
		delete(p.run, id)
	}
}

// resv is HeadEASY's reservation for the blocked head during one pass.
type resv struct {
	on     bool
	m      int
	shadow float64
	extra  int
}

// fit returns the first machine (index order) on which waiting slot s
// fits now, free CPUs and reservation considered; -1 if none. With a
// reservation, a job placed on its machine that ends after the shadow
// time uses up extra CPUs (r is updated).
func (p *JRB) fit(now float64, s *slot, r *resv) int {
	for m := range p.machs {
		if p.free[m] < s.procs || !p.machs[m].Holds(s.procs, s.mem, s.speed) {
			continue
		}
		if r.on && m == r.m {
			if now+p.machs[m].Duration(s.est, s.bmEst) > r.shadow {
				if s.procs > r.extra {
					continue
				}
				r.extra -= s.procs
			}
		}
		return m
	}
	return -1
}

// reserve computes the blocked head's EASY reservation: over the machines
// that can hold it, the earliest time at which enough CPUs are free given
// the estimated ends of the running jobs (a job past its estimated end
// counts as ending now), ties to the lowest index; extra = CPUs free then
// beyond the head's.
func (p *JRB) reserve(now float64, h *slot) resv {
	best := resv{}
	for m := range p.machs {
		if !p.machs[m].Holds(h.procs, h.mem, h.speed) {
			continue
		}
		p.buf = p.buf[:0]
		for _, r := range p.run {
			if int(r.m) == m {
				p.buf = append(p.buf, running{m: r.m, procs: r.procs, end: max(r.end, now)})
			}
		}
		slices.SortFunc(p.buf, func(a, b running) int { return cmp.Compare(a.end, b.end) })
		avail, shadow := p.free[m], now
		for i := 0; i < len(p.buf) && avail < h.procs; {
			shadow = p.buf[i].end
			for ; i < len(p.buf) && p.buf[i].end == shadow; i++ {
				avail += p.buf[i].procs
			}
		}
		if avail < h.procs { // cannot happen: the machine holds the head
			continue
		}
		if !best.on || shadow < best.shadow {
			best = resv{on: true, m: m, shadow: shadow, extra: avail - h.procs}
		}
	}
	return best
}

// Schedule is one pass: the head (HeadFCFS, HeadEASY), then the waiting
// jobs in rank order, each started on the first machine where it fits;
// with SelectStrict the pass stops at the first that does not fit.
func (p *JRB) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	if len(p.byRank) == 0 {
		return
	}
	most := 0
	for m := range p.free {
		p.free[m] = v.Free(m)
		most = max(most, p.free[m])
	}
	if most == 0 {
		return
	}
	h := 0 // the submit-order head: p.fcfs[h] once advanced past started jobs
	advance := func() {
		for h < len(p.fcfs) && p.slots[p.fcfs[h]].started {
			h++
		}
	}
	started := 0
	start := func(s int32, m int) {
		sl := &p.slots[s]
		advance()
		reason := job.Immediate
		switch {
		case p.fcfs[h] != s:
			reason = job.Backfilled
		case now != sl.submit:
			reason = job.Reserved
		}
		plan.StartOn(sl.id, reason, m)
		sl.started = true
		started++
		p.free[m] -= sl.procs
		most = 0
		for _, f := range p.free {
			most = max(most, f)
		}
		if p.run != nil {
			p.run[sl.id] = running{m: int32(m), procs: sl.procs, end: now + p.machs[m].Duration(sl.est, sl.bmEst)}
		}
	}
	var r resv
	if p.head != HeadNone {
		for {
			advance()
			if h == len(p.fcfs) || most == 0 {
				break
			}
			s := p.fcfs[h]
			m := p.fit(now, &p.slots[s], &r)
			if m < 0 {
				if p.head == HeadEASY {
					r = p.reserve(now, &p.slots[s])
				}
				break
			}
			start(s, m)
		}
	}
	strict := p.sel == SelectStrict
	for _, s := range p.byRank {
		if most == 0 {
			break
		}
		sl := &p.slots[s]
		if sl.started {
			continue
		}
		m := -1
		if sl.procs <= most {
			m = p.fit(now, sl, &r)
		}
		if m >= 0 {
			start(s, m)
		} else if strict {
			break // the smallest rank holds the queue until it fits
		}
	}
	if started > 0 {
		p.byRank = p.compact(p.byRank, false)
		p.fcfs = p.compact(p.fcfs, true)
	}
}

// compact drops the started slots from q; with release, their slots are
// freed for reuse (done on the last of the two queues).
func (p *JRB) compact(q []int32, release bool) []int32 {
	k := 0
	for _, s := range q {
		if p.slots[s].started {
			if release {
				p.slots[s] = slot{}
				p.freeIdx = append(p.freeIdx, s)
			}
			continue
		}
		q[k] = s
		k++
	}
	return q[:k]
}
