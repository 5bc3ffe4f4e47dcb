package grid

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedlab/schedlab/internal/choose"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// Options configure a grid scheduler.
type Options struct {
	AllocationInterval float64 // A_I, for deferred and hybrid; > 0
	RandomFraction     float64 // A_I%, for hybrid, in [0, 1]
	// PreferIdle restricts informed choices to sites with an idle
	// processor when there is one. It suits a local scheduler that prefers
	// idle processors (shortest queue); package registry sets it from the
	// local scheduler's PreferIdle trait.
	PreferIdle    bool
	NormalizeLoad bool // compare load / processors (heterogeneous sites)
}

func (o Options) chooser(r *rand.Rand) chooser {
	return chooser{r: r, preferIdle: o.PreferIdle, normalize: o.NormalizeLoad}
}

// NewRandom returns random dispatch: each job at once to a uniformly
// random site (capacity-weighted with NormalizeLoad); r is its stream.
func NewRandom(o Options, r *rand.Rand) *Hybrid {
	return &Hybrid{name: "random", c: o.chooser(r), frac: 1}
}

// NewRealTime returns real-time dispatch: each job at once to the least
// loaded site.
func NewRealTime(o Options, r *rand.Rand) *RealTime { return &RealTime{c: o.chooser(r)} }

// NewDeferred returns deferred dispatch: jobs wait in the grid
// scheduler's queue until the end of the allocation interval.
func NewDeferred(o Options, r *rand.Rand) (*Hybrid, error) {
	if !(o.AllocationInterval > 0) {
		return nil, fmt.Errorf("grid scheduler deferred: allocation interval must be positive, got %g", o.AllocationInterval)
	}
	return &Hybrid{name: "deferred", c: o.chooser(r), ai: o.AllocationInterval}, nil
}

// NewHybrid returns hybrid dispatch: random during the first
// RandomFraction of each allocation interval, deferred after.
func NewHybrid(o Options, r *rand.Rand) (*Hybrid, error) {
	if !(o.AllocationInterval > 0) {
		return nil, fmt.Errorf("grid scheduler hybrid: allocation interval must be positive, got %g", o.AllocationInterval)
	}
	if !(o.RandomFraction >= 0 && o.RandomFraction <= 1) {
		return nil, fmt.Errorf("grid scheduler hybrid: random fraction (A_I%%) must be in [0, 1], got %g", o.RandomFraction)
	}
	return &Hybrid{name: "hybrid", c: o.chooser(r), ai: o.AllocationInterval, frac: o.RandomFraction}, nil
}

// chooser picks sites at random or by load.
type chooser struct {
	r          *rand.Rand
	preferIdle bool
	normalize  bool
	ties       []int
}

// random picks a site uniformly, or, with normalize (heterogeneous sites),
// with probability proportional to its processor count: uniform choice
// would send a small site as many jobs as a large one and overload it.
func (c *chooser) random(v policy.GridView) int {
	if !c.normalize {
		return c.r.IntN(v.Sites())
	}
	total := 0
	for s := 0; s < v.Sites(); s++ {
		total += v.SiteProcs(s)
	}
	k := c.r.IntN(total)
	for s := 0; s < v.Sites(); s++ {
		if k -= v.SiteProcs(s); k < 0 {
			return s
		}
	}
	return v.Sites() - 1
}

// leastLoaded returns the least loaded site (restricted to sites with an
// idle processor when preferIdle and there is one), ties at random.
func (c *chooser) leastLoaded(v policy.GridView) int {
	n := v.Sites()
	anyIdle := false
	if c.preferIdle {
		for s := 0; s < n; s++ {
			if v.SiteIdle(s) > 0 {
				anyIdle = true
				break
			}
		}
	}
	load := func(s int) float64 {
		l := float64(v.SiteLoad(s))
		if c.normalize {
			l /= float64(v.SiteProcs(s))
		}
		return l
	}
	var ok func(int) bool
	if anyIdle {
		ok = func(s int) bool { return v.SiteIdle(s) > 0 }
	}
	return choose.Min(n, load, ok, c.r, &c.ties)
}

// RealTime sends each arriving job at once to the least loaded site.
type RealTime struct{ c chooser }

func (p *RealTime) Name() string    { return "realtime" }
func (p *RealTime) Period() float64 { return 0 }
func (p *RealTime) Schedule(now float64, arrivals []job.Info, tick bool, v policy.GridView, d policy.Dispatcher) error {
	for _, j := range arrivals {
		if err := d.Send(j.ID, p.c.leastLoaded(v)); err != nil {
			return err
		}
	}
	return nil
}

// Hybrid is random, deferred and hybrid dispatch: a job arriving in the
// first frac of an allocation interval goes to a random site at once, a
// later one waits for the interval's end (frac 1 = random, 0 = deferred).
type Hybrid struct {
	name string
	c    chooser
	ai   float64
	frac float64
	ids  []job.ID // scratch: the held jobs to send at a tick
}

func (p *Hybrid) Name() string { return p.name }
func (p *Hybrid) Period() float64 {
	if p.frac >= 1 {
		return 0
	}
	return p.ai
}

func (p *Hybrid) Schedule(now float64, arrivals []job.Info, tick bool, v policy.GridView, d policy.Dispatcher) error {
	for _, j := range arrivals {
		if p.frac >= 1 || now-float64(math.Floor(now/p.ai)*p.ai) < p.frac*p.ai {
			if err := d.Send(j.ID, p.c.random(v)); err != nil {
				return err
			}
			continue
		}
		// Deferred: it stays in the grid scheduler's queue (v.Held).
	}
	if tick {
		p.ids = p.ids[:0]
		for _, j := range v.Held() { // FCFS; copied because Send changes Held
			p.ids = append(p.ids, j.ID)
		}
		for _, id := range p.ids {
			if err := d.Send(id, p.c.leastLoaded(v)); err != nil {
				return err
			}
		}
	}
	return nil
}

// NewRandomLocal returns the local scheduler that picks a processor
// uniformly; r is its stream.
func NewRandomLocal(r *rand.Rand) *RandomLocal { return &RandomLocal{r: r} }

// NewShortestQueue returns the shortest-queue local scheduler.
func NewShortestQueue(r *rand.Rand) *ShortestQueue { return &ShortestQueue{r: r} }

// NewTwoRandom returns the two-random-choices local scheduler.
func NewTwoRandom(r *rand.Rand) *TwoRandom { return &TwoRandom{r: r} }

// RandomLocal picks a processor uniformly.
type RandomLocal struct{ r *rand.Rand }

func (l *RandomLocal) Name() string { return "random" }
func (l *RandomLocal) Select(now float64, s int, j job.Info, v policy.GridView) int {
	return l.r.IntN(v.SiteProcs(s))
}

// ShortestQueue picks the processor with the fewest jobs (queued plus in
// service, so an idle processor beats a busy one with an empty queue),
// ties at random.
type ShortestQueue struct {
	r    *rand.Rand
	ties []int
}

func (l *ShortestQueue) Name() string { return "sq" }
func (l *ShortestQueue) Select(now float64, s int, j job.Info, v policy.GridView) int {
	return choose.Min(v.SiteProcs(s), func(p int) int { return v.ProcJobs(s, p) }, nil, l.r, &l.ties)
}

// TwoRandom picks two distinct processors at random and takes the one with
// fewer jobs, ties at random.
type TwoRandom struct{ r *rand.Rand }

func (l *TwoRandom) Name() string { return "2rsq" }
func (l *TwoRandom) Select(now float64, s int, j job.Info, v policy.GridView) int {
	n := v.SiteProcs(s)
	if n == 1 {
		return 0
	}
	a := l.r.IntN(n)
	b := l.r.IntN(n - 1)
	if b >= a {
		b++
	}
	ja, jb := v.ProcJobs(s, a), v.ProcJobs(s, b)
	switch {
	case ja < jb:
		return a
	case jb < ja:
		return b
	case l.r.IntN(2) == 0:
		return a
	}
	return b
}
