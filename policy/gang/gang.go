package gang

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/schedlab/schedlab/internal/choose"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// Options configure the gang policy.
type Options struct {
	Approach  int     // 1 or 2
	Threshold float64 // T >= 0
	// EmptyIdle reads the paper's "empty queue" as an idle processor
	// (nothing waiting and nothing running) in rule (b) and step 1, instead
	// of a queue with nothing waiting (the reading of docs/papers/dimitriadou2010.md).
	EmptyIdle bool
	// StepOneIdle reads "empty queue" as an idle processor in step 1 of
	// the GS queue only, while arrivals' rule (b) still counts queues with
	// nothing waiting (empty_queue idle-in-gs-queue: the one reading found
	// that gives the paper's Fig. 3; docs/papers/dimitriadou2010.md).
	// It overrides EmptyIdle in step 1.
	StepOneIdle bool
	// ExamineEvery asks the gang model to examine the GS queue after
	// every departure, not only after one that left a queue empty (option
	// examine every; policy.QueueExaminer).
	ExamineEvery bool
}

// Placer implements policy.GangPolicy: the gang placement of approaches 1 and 2.
type Placer struct {
	o     Options
	r     *rand.Rand
	cands []int
	procs []procKey
}

type procKey struct {
	p      int
	idle   bool
	estEnd float64
}

// New returns the policy; r is its stream for random choices.
func New(o Options, r *rand.Rand) (*Placer, error) {
	if o.Approach != 1 && o.Approach != 2 {
		return nil, fmt.Errorf("gang policy: approach must be 1 or 2, got %d", o.Approach)
	}
	if !(o.Threshold >= 0) {
		return nil, fmt.Errorf("gang policy: threshold T must be >= 0, got %g", o.Threshold)
	}
	return &Placer{o: o, r: r}, nil
}

func (p *Placer) Name() string { return fmt.Sprintf("approach%d", p.o.Approach) }

// ExamineEveryDeparture implements policy.QueueExaminer.
func (p *Placer) ExamineEveryDeparture() bool { return p.o.ExamineEvery }

var _ policy.QueueExaminer = (*Placer)(nil)

func count(v policy.GangView, s int, f func(policy.ProcState) bool) int {
	n := 0
	for q := 0; q < v.Procs(s); q++ {
		if f(v.Proc(s, q)) {
			n++
		}
	}
	return n
}

func idle(st policy.ProcState) bool  { return st.Idle() }
func empty(st policy.ProcState) bool { return st.Waiting == 0 }

// emptyRule is the "empty queue" test of rule (b) and step 1.
func (p *Placer) emptyRule() func(policy.ProcState) bool {
	if p.o.EmptyIdle {
		return idle
	}
	return empty
}

// pickSite returns a random site among those where f counts at least
// size processors, or -1.
func (p *Placer) pickSite(v policy.GangView, size int, f func(policy.ProcState) bool) int {
	p.cands = p.cands[:0]
	for s := 0; s < v.Sites(); s++ {
		if count(v, s, f) >= size {
			p.cands = append(p.cands, s)
		}
	}
	switch len(p.cands) {
	case 0:
		return -1
	case 1:
		return p.cands[0]
	}
	return p.cands[p.r.IntN(len(p.cands))]
}

// onSite places size tasks on empty queues of site s: idle processors
// first, then busy ones by estimated end, earliest first (index order on
// ties).
func (p *Placer) onSite(v policy.GangView, s, size int) policy.GangPlacement {
	p.procs = p.procs[:0]
	for q := 0; q < v.Procs(s); q++ {
		if st := v.Proc(s, q); st.Waiting == 0 {
			p.procs = append(p.procs, procKey{q, !st.Executing, st.EstEnd})
		}
	}
	slices.SortStableFunc(p.procs, func(a, b procKey) int {
		if a.idle != b.idle {
			if a.idle {
				return -1
			}
			return 1
		}
		if a.idle {
			return 0
		}
		return cmp.Compare(a.estEnd, b.estEnd)
	})
	pl := policy.GangPlacement{}
	for _, k := range p.procs[:size] {
		pl.Procs = append(pl.Procs, policy.ProcRef{Site: s, Proc: k.p})
	}
	return pl
}

// split places size tasks on idle processors of all sites, the site with
// the most idle processors first.
func (p *Placer) split(v policy.GangView, size int) (policy.GangPlacement, bool) {
	type siteIdle struct{ s, n int }
	var order []siteIdle
	total := 0
	for s := 0; s < v.Sites(); s++ {
		n := count(v, s, idle)
		order = append(order, siteIdle{s, n})
		total += n
	}
	if total < size {
		return policy.GangPlacement{}, false
	}
	slices.SortStableFunc(order, func(a, b siteIdle) int { return b.n - a.n })
	pl := policy.GangPlacement{}
	for _, si := range order {
		for q := 0; q < v.Procs(si.s) && len(pl.Procs) < size; q++ {
			if v.Proc(si.s, q).Idle() {
				pl.Procs = append(pl.Procs, policy.ProcRef{Site: si.s, Proc: q})
			}
		}
	}
	pl.Split = pl.Procs[0].Site != pl.Procs[len(pl.Procs)-1].Site
	return pl, true
}

func (p *Placer) PlaceArrival(now float64, g job.Info, v policy.GangView) (policy.GangPlacement, bool) {
	if s := p.pickSite(v, g.Procs, idle); s >= 0 { // (a)
		return p.onSite(v, s, g.Procs), true
	}
	if s := p.pickSite(v, g.Procs, p.emptyRule()); s >= 0 { // (b)
		return p.onSite(v, s, g.Procs), true
	}
	if p.o.Approach == 2 { // (c')
		return p.split(v, g.Procs)
	}
	return policy.GangPlacement{}, false
}

// largest returns the index of the largest gang of at most limit tasks,
// the oldest (first in the queue) on ties, or -1. A gang of exactly limit
// tasks ends the scan: nothing later can beat it.
func largest(queue []job.Info, limit int) int {
	best, size := -1, 0
	for i := range queue {
		if n := queue[i].Procs; n <= limit && n > size {
			best, size = i, n
			if n == limit {
				break
			}
		}
	}
	return best
}

func (p *Placer) PickQueued(now float64, queue []job.Info, v policy.GangView) (int, policy.GangPlacement, bool) {
	rule := p.emptyRule()
	if p.o.StepOneIdle {
		rule = idle
	}
	maxEmpty := 0
	for s := 0; s < v.Sites(); s++ {
		maxEmpty = max(maxEmpty, count(v, s, rule))
	}
	if i := largest(queue, maxEmpty); i >= 0 { // step 1
		s := p.pickSite(v, queue[i].Procs, rule)
		return i, p.onSite(v, s, queue[i].Procs), true
	}
	if p.o.Approach == 2 { // step 2
		totalIdle := 0
		for s := 0; s < v.Sites(); s++ {
			totalIdle += count(v, s, idle)
		}
		if i := largest(queue, totalIdle); i >= 0 {
			pl, _ := p.split(v, queue[i].Procs)
			return i, pl, true
		}
	}
	return 0, policy.GangPlacement{}, false
}

// fits is the backfill condition for a local of estimate est at a free
// processor whose queue head is a gang.
func (p *Placer) fits(now, est float64, v policy.GangView, s, q int) bool {
	return est <= v.GangStart(s, q)-now+p.o.Threshold
}

func (p *Placer) randomOf(xs []int) int {
	if len(xs) == 1 {
		return xs[0]
	}
	return xs[p.r.IntN(len(xs))]
}

func (p *Placer) RouteLocal(now float64, s int, j job.Info, v policy.GangView) int {
	p.cands = p.cands[:0]
	for q := 0; q < v.Procs(s); q++ {
		if v.Proc(s, q).Idle() {
			p.cands = append(p.cands, q)
		}
	}
	if len(p.cands) > 0 {
		return p.randomOf(p.cands)
	}
	for q := 0; q < v.Procs(s); q++ {
		if st := v.Proc(s, q); !st.Executing && st.HeadGang && p.fits(now, j.Estimate, v, s, q) {
			p.cands = append(p.cands, q)
		}
	}
	if len(p.cands) > 0 {
		return p.randomOf(p.cands)
	}
	return choose.Min(v.Procs(s), func(q int) int { return v.Proc(s, q).Jobs() }, nil, p.r, &p.cands)
}

func (p *Placer) Backfill(now float64, s, q int, v policy.GangView) int {
	pos, est := v.WaitingLocals(s, q)
	for k := range pos {
		if p.fits(now, est[k], v, s, q) {
			return pos[k]
		}
	}
	return -1
}
