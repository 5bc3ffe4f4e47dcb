package grid

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// fakeGrid is a hand-set grid state that records dispatches and updates
// loads as a real engine would (each sent job joins the least busy
// processor of the site for simplicity; tests set loads explicitly).
type fakeGrid struct {
	procs []int
	load  []int
	idle  []int
	jobs  [][]int // per site, per processor
	sent  []sent
	held  []job.Info // the grid scheduler's queue, as a model keeps it
}

type sent struct {
	id   job.ID
	site int
	t    float64
}

func (f *fakeGrid) Sites() int              { return len(f.procs) }
func (f *fakeGrid) SiteProcs(s int) int     { return f.procs[s] }
func (f *fakeGrid) SiteLoad(s int) int      { return f.load[s] }
func (f *fakeGrid) SiteIdle(s int) int      { return f.idle[s] }
func (f *fakeGrid) ProcJobs(s, p int) int   { return f.jobs[s][p] }
func (f *fakeGrid) Held() []job.Info        { return f.held }
func (f *fakeGrid) now(t float64) *fakeDisp { return &fakeDisp{f, t} }

// schedule is one pass as a model runs it: the arrivals join the grid
// scheduler's queue, then the scheduler decides.
func (f *fakeGrid) schedule(gs policy.GridScheduler, t float64, arrivals []job.Info, tick bool) error {
	f.held = append(f.held, arrivals...)
	return gs.Schedule(t, arrivals, tick, f, f.now(t))
}

type fakeDisp struct {
	f *fakeGrid
	t float64
}

func (d *fakeDisp) Send(id job.ID, s int) error {
	d.f.held = slices.DeleteFunc(d.f.held, func(j job.Info) bool { return j.ID == id })
	d.f.sent = append(d.f.sent, sent{id, s, d.t})
	d.f.load[s]++
	if d.f.idle[s] > 0 {
		d.f.idle[s]--
	}
	return nil
}

func info(id job.ID, t float64) job.Info { return job.Info{ID: id, Submit: t, Procs: 1} }

// Deferred, A_I = 0.5, two sites with loads 3 and 1 and no idle processor:
// jobs arriving at 0.1, 0.2 and 0.35 wait in the grid scheduler's queue
// (nothing is sent before the tick). At the tick (t = 0.5) they leave in
// FCFS order, each to the least loaded site with loads updated as jobs are
// placed: job 1 -> site 1 (3 vs 1, load becomes 2), job 2 -> site 1 (3 vs
// 2, becomes 3), job 3: tie 3-3, broken at random.
func TestDeferredDispatchAtTick(t *testing.T) {
	f := &fakeGrid{procs: []int{2, 2}, load: []int{3, 1}, idle: []int{0, 0}}
	r := rand.New(rand.NewPCG(1, 1))
	gs, _ := NewDeferred(Options{AllocationInterval: 0.5}, r)
	if gs.Period() != 0.5 {
		t.Fatalf("period %v", gs.Period())
	}
	for i, at := range []float64{0.1, 0.2, 0.35} {
		f.schedule(gs, at, []job.Info{info(job.ID(i+1), at)}, false)
	}
	if len(f.sent) != 0 {
		t.Fatalf("deferred sent before the tick: %v", f.sent)
	}
	f.schedule(gs, 0.5, nil, true)
	// The tie for job 3 is the policy's first random draw: IntN(2) on a
	// copy of its stream.
	tie := rand.New(rand.NewPCG(1, 1)).IntN(2)
	want := []sent{{1, 1, 0.5}, {2, 1, 0.5}, {3, tie, 0.5}}
	if !slices.Equal(f.sent, want) {
		t.Fatalf("sent %v, want %v", f.sent, want)
	}
}

// Hybrid, A_I = 1, A_I% = 0.5: a job arriving at 0.3 (in the first half of
// the interval) goes at once to a random site; one arriving at 0.7 waits
// for the tick at 1.0 and goes to the least loaded site; at 1.2 the next
// interval's first half sends at once again.
func TestHybridSplitsTheInterval(t *testing.T) {
	f := &fakeGrid{procs: []int{1, 1, 1}, load: []int{0, 5, 5}, idle: []int{1, 0, 0}}
	gs, _ := NewHybrid(Options{AllocationInterval: 1, RandomFraction: 0.5}, rand.New(rand.NewPCG(9, 9)))
	replay := rand.New(rand.NewPCG(9, 9))
	f.schedule(gs, 0.3, []job.Info{info(1, 0.3)}, false)
	r1 := replay.IntN(3)
	f.schedule(gs, 0.7, []job.Info{info(2, 0.7)}, false)
	if len(f.sent) != 1 || f.sent[0] != (sent{1, r1, 0.3}) {
		t.Fatalf("after 0.7: sent %v, want job 1 to random site %d at 0.3 only", f.sent, r1)
	}
	// reset loads so the least loaded site is unambiguous at the tick
	f.load = []int{4, 0, 6}
	f.schedule(gs, 1.0, nil, true)
	f.schedule(gs, 1.2, []job.Info{info(3, 1.2)}, false)
	r3 := replay.IntN(3)
	want := []sent{{1, r1, 0.3}, {2, 1, 1.0}, {3, r3, 1.2}}
	if !slices.Equal(f.sent, want) {
		t.Fatalf("sent %v, want %v", f.sent, want)
	}
}

// Real-time with shortest-queue local policy: sites with an idle processor
// come first even if more loaded overall; without any idle processor, the
// least loaded site. Random and hybrid(1) never look at loads.
func TestRealTimePrefersIdleWithSQ(t *testing.T) {
	f := &fakeGrid{procs: []int{8, 8, 8}, load: []int{2, 9, 12}, idle: []int{0, 0, 1}}
	gs := NewRealTime(Options{PreferIdle: true}, rand.New(rand.NewPCG(1, 2)))
	f.schedule(gs, 1, []job.Info{info(1, 1)}, false)
	// site 2 had the only idle processor (load 12 > 2); now none is idle:
	// least loaded is site 0.
	f.schedule(gs, 2, []job.Info{info(2, 2)}, false)
	want := []sent{{1, 2, 1}, {2, 0, 2}}
	if !slices.Equal(f.sent, want) {
		t.Fatalf("sent %v, want %v", f.sent, want)
	}
	// Without the SQ preference the least loaded site wins at once.
	f2 := &fakeGrid{procs: []int{8, 8, 8}, load: []int{2, 9, 12}, idle: []int{0, 0, 1}}
	gs2 := NewRealTime(Options{}, rand.New(rand.NewPCG(1, 2)))
	f2.schedule(gs2, 1, []job.Info{info(1, 1)}, false)
	if f2.sent[0].site != 0 {
		t.Fatalf("without PreferIdle: site %d, want 0", f2.sent[0].site)
	}
}

// Heterogeneous sites: with NormalizeLoad, load is compared per processor:
// 6 jobs on 12 processors (0.5) beat 3 jobs on 4 (0.75).
func TestNormalizedLoad(t *testing.T) {
	f := &fakeGrid{procs: []int{4, 12}, load: []int{3, 6}, idle: []int{0, 0}}
	gs := NewRealTime(Options{NormalizeLoad: true}, rand.New(rand.NewPCG(1, 2)))
	f.schedule(gs, 1, []job.Info{info(1, 1)}, false)
	if f.sent[0].site != 1 {
		t.Fatalf("normalized: site %d, want 1", f.sent[0].site)
	}
}

// With NormalizeLoad, random dispatch is proportional to site size: a site
// of 12 processors gets three times the jobs of one of 4.
func TestRandomWeightedByCapacity(t *testing.T) {
	f := &fakeGrid{procs: []int{4, 12}, load: []int{0, 0}, idle: []int{4, 12}}
	gs := NewRandom(Options{NormalizeLoad: true}, rand.New(rand.NewPCG(5, 6)))
	const n = 40000
	for i := 0; i < n; i++ {
		f.schedule(gs, 1, []job.Info{info(job.ID(i), 1)}, false)
	}
	share := float64(f.load[0]) / n // binomial sd at n=40000: 0.0022
	if share < 0.24 || share > 0.26 {
		t.Fatalf("small site got %.3f of the jobs, want 0.25", share)
	}
}

// Shortest queue: fewest jobs (queued + in service) wins; an idle
// processor (0 jobs) beats a busy one with an empty queue (1 job).
// 2RSQ: the shorter of two distinct random processors.
func TestLocalPolicies(t *testing.T) {
	f := &fakeGrid{procs: []int{4}, jobs: [][]int{{3, 1, 0, 2}}}
	sq := NewShortestQueue(rand.New(rand.NewPCG(3, 3)))
	if p := sq.Select(0, 0, info(1, 0), f); p != 2 {
		t.Fatalf("sq chose %d, want the idle processor 2", p)
	}
	f.jobs[0] = []int{3, 1, 5, 1}
	counts := map[int]int{}
	for i := 0; i < 400; i++ {
		counts[sq.Select(0, 0, info(1, 0), f)]++
	}
	if counts[1] == 0 || counts[3] == 0 || counts[0]+counts[2] != 0 {
		t.Fatalf("sq ties between 1 and 3 should both be taken, and nothing else: %v", counts)
	}
	two := NewTwoRandom(rand.New(rand.NewPCG(4, 4)))
	replay := rand.New(rand.NewPCG(4, 4))
	for i := 0; i < 200; i++ {
		got := two.Select(0, 0, info(1, 0), f)
		a := replay.IntN(4)
		b := replay.IntN(3)
		if b >= a {
			b++
		}
		ja, jb := f.jobs[0][a], f.jobs[0][b]
		var want int
		switch {
		case ja < jb:
			want = a
		case jb < ja:
			want = b
		default:
			if replay.IntN(2) == 0 {
				want = a
			} else {
				want = b
			}
		}
		if got != want {
			t.Fatalf("draw %d: 2rsq chose %d, want %d (pair %d,%d)", i, got, want, a, b)
		}
	}
	rl := NewRandomLocal(rand.New(rand.NewPCG(5, 5)))
	replay = rand.New(rand.NewPCG(5, 5))
	for i := 0; i < 50; i++ {
		if got, want := rl.Select(0, 0, info(1, 0), f), replay.IntN(4); got != want {
			t.Fatalf("random chose %d, want %d", got, want)
		}
	}
}

func TestBadOptions(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	if _, err := NewDeferred(Options{}, r); err == nil {
		t.Error("deferred without an allocation interval accepted")
	}
	if _, err := NewHybrid(Options{RandomFraction: 0.5}, r); err == nil {
		t.Error("hybrid without an allocation interval accepted")
	}
	if _, err := NewHybrid(Options{AllocationInterval: 1, RandomFraction: 1.5}, r); err == nil {
		t.Error("hybrid with a random fraction of 1.5 accepted")
	}
}
