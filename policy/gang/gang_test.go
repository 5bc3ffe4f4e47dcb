package gang

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// view is a scripted GangView.
type view struct {
	procs     [][]policy.ProcState
	gangStart float64
	locals    map[[2]int][]float64 // waiting local estimates per processor
}

func (v *view) Sites() int                     { return len(v.procs) }
func (v *view) Procs(s int) int                { return len(v.procs[s]) }
func (v *view) Proc(s, p int) policy.ProcState { return v.procs[s][p] }
func (v *view) GangStart(s, p int) float64     { return v.gangStart }
func (v *view) WaitingLocals(s, p int) ([]int, []float64) {
	est := v.locals[[2]int{s, p}]
	pos := make([]int, len(est))
	for i := range est {
		pos[i] = i + 1 // behind the gang at position 0
	}
	return pos, est
}

var (
	idleP      = policy.ProcState{}
	busy       = func(end float64) policy.ProcState { return policy.ProcState{Executing: true, EstEnd: end} }
	busyQueued = policy.ProcState{Executing: true, Waiting: 1, EstEnd: 1}
)

func gang(id job.ID, size int) job.Info { return job.Info{ID: id, Procs: size, Gang: true} }

func refs(site int, procs ...int) []policy.ProcRef {
	var out []policy.ProcRef
	for _, p := range procs {
		out = append(out, policy.ProcRef{Site: site, Proc: p})
	}
	return out
}

// Rule (b): a site with enough empty queues takes the gang: idle
// processors first, then the busy ones whose job is expected to end
// soonest. Site 0 has 2 idle processors and 2 busy (ends 9 and 4) ones
// with empty queues plus a busy one with a queue: a 3-task gang goes to the
// two idle processors and the one ending at 4.
func TestEmptyQueuesIdleFirstThenSoonest(t *testing.T) {
	v := &view{procs: [][]policy.ProcState{{busy(9), idleP, busyQueued, busy(4), idleP}}}
	p, _ := New(Options{Approach: 1}, rand.New(rand.NewPCG(1, 1)))
	pl, ok := p.PlaceArrival(0, gang(1, 3), v)
	if !ok || pl.Split || !slices.Equal(pl.Procs, refs(0, 1, 4, 3)) {
		t.Fatalf("placement %+v ok %v, want site 0 processors 1, 4, 3", pl, ok)
	}
	// A 5-task gang does not fit (4 empty queues): approach 1 queues it.
	if _, ok := p.PlaceArrival(0, gang(2, 5), v); ok {
		t.Fatal("a gang larger than the empty queues was placed")
	}
	// With "empty queue = idle processor", only the two idle ones count.
	pi, _ := New(Options{Approach: 1, EmptyIdle: true}, rand.New(rand.NewPCG(1, 1)))
	if _, ok := pi.PlaceArrival(0, gang(3, 3), v); ok {
		t.Fatal("empty-is-idle placed a 3-task gang on 2 idle processors")
	}
}

// Approach 2 splits when neither site alone has room but the idle
// processors of both do: the site with more idle processors first.
func TestSplitAcrossSites(t *testing.T) {
	v := &view{procs: [][]policy.ProcState{
		{idleP, busyQueued, idleP, busyQueued},
		{idleP, idleP, idleP, busyQueued},
	}}
	p, _ := New(Options{Approach: 2}, rand.New(rand.NewPCG(1, 1)))
	pl, ok := p.PlaceArrival(0, gang(1, 4), v)
	want := append(refs(1, 0, 1, 2), refs(0, 0)...)
	if !ok || !pl.Split || !slices.Equal(pl.Procs, want) {
		t.Fatalf("placement %+v ok %v, want split onto %v", pl, ok, want)
	}
	p1, _ := New(Options{Approach: 1}, rand.New(rand.NewPCG(1, 1)))
	if _, ok := p1.PlaceArrival(0, gang(1, 4), v); ok {
		t.Fatal("approach 1 split a gang")
	}
}

// The GS queue: step 1 takes the largest gang that fits a site's empty
// queues, the oldest on ties; step 2 (approach 2) the largest that fits the
// idle processors of both sites.
func TestPickQueuedLargestOldest(t *testing.T) {
	v := &view{procs: [][]policy.ProcState{{idleP, busy(3), busy(5), busyQueued}, {idleP, busyQueued, busyQueued, busyQueued}}}
	queue := []job.Info{gang(1, 2), gang(2, 3), gang(3, 3), gang(4, 4)}
	p, _ := New(Options{Approach: 2}, rand.New(rand.NewPCG(1, 1)))
	i, pl, ok := p.PickQueued(0, queue, v)
	if !ok || i != 1 || !slices.Equal(pl.Procs, refs(0, 0, 1, 2)) {
		t.Fatalf("picked %d onto %+v (ok %v), want the older 3-task gang (index 1) onto site 0's empty queues 0, 1, 2", i, pl, ok)
	}
	// Nothing fits the empty queues of one site (1 each), but the two idle
	// processors together take the 2-task gang, split.
	v = &view{procs: [][]policy.ProcState{{idleP, busyQueued}, {idleP, busyQueued}}}
	i, pl, ok = p.PickQueued(0, []job.Info{gang(5, 3), gang(6, 2)}, v)
	if !ok || i != 1 || !pl.Split {
		t.Fatalf("step 2: picked %d %+v ok %v, want the 2-task gang split", i, pl, ok)
	}
	p1, _ := New(Options{Approach: 1}, rand.New(rand.NewPCG(1, 1)))
	if _, _, ok := p1.PickQueued(0, []job.Info{gang(5, 3), gang(6, 2)}, v); ok {
		t.Fatal("approach 1 used step 2")
	}
}

// Backfilling picks the first waiting local whose estimate fits the time
// until the gang's estimated start plus T.
func TestBackfillFirstFitting(t *testing.T) {
	v := &view{procs: [][]policy.ProcState{{idleP}}, gangStart: 10, locals: map[[2]int][]float64{{0, 0}: {8, 5, 1}}}
	p, _ := New(Options{Approach: 1, Threshold: 0}, rand.New(rand.NewPCG(1, 1)))
	if k := p.Backfill(4, 0, 0, v); k != 2 {
		t.Fatalf("T=0 at t=4 (6 until the gang): position %d, want 2 (estimate 5)", k)
	}
	p2, _ := New(Options{Approach: 1, Threshold: 2}, rand.New(rand.NewPCG(1, 1)))
	if k := p2.Backfill(4, 0, 0, v); k != 1 {
		t.Fatalf("T=2: position %d, want 1 (estimate 8 <= 6 + 2)", k)
	}
	if k := p.Backfill(9.5, 0, 0, v); k != -1 {
		t.Fatalf("0.5 until the gang: position %d, want none", k)
	}
}

// empty_queue idle-in-gs-queue: step 1 of the GS queue counts idle
// processors, arrivals' rule (b) still counts queues with nothing waiting.
// Site 0: 2 idle processors and 2 busy ones with nothing waiting (ends 9
// and 4), a busy one with a queue. A 3-task gang waits in the GS queue:
//   - waiting (default): 4 empty queues >= 3: step 1 sends it to
//     processors 1, 4 (idle) and 3 (ends first);
//   - idle-in-gs-queue: 2 idle processors < 3: step 1 does not take it
//     (approach 1: it keeps waiting);
//   - yet an arriving 3-task gang still goes by rule (b) to 1, 4, 3.
func TestStepOneIdleInGSQueue(t *testing.T) {
	v := &view{procs: [][]policy.ProcState{{busy(9), idleP, busyQueued, busy(4), idleP}}}
	q := []job.Info{gang(7, 3)}
	def, _ := New(Options{Approach: 1}, rand.New(rand.NewPCG(1, 1)))
	if i, pl, ok := def.PickQueued(0, q, v); !ok || i != 0 || !slices.Equal(pl.Procs, refs(0, 1, 4, 3)) {
		t.Errorf("waiting: pick %d %+v %v, want gang 0 on 1, 4, 3", i, pl, ok)
	}
	p, _ := New(Options{Approach: 1, StepOneIdle: true}, rand.New(rand.NewPCG(1, 1)))
	if i, pl, ok := p.PickQueued(0, q, v); ok {
		t.Errorf("idle-in-gs-queue: picked %d %+v, want none (2 idle < 3)", i, pl)
	}
	if pl, ok := p.PlaceArrival(0, gang(8, 3), v); !ok || !slices.Equal(pl.Procs, refs(0, 1, 4, 3)) {
		t.Errorf("idle-in-gs-queue arrival: %+v %v, want rule (b) on 1, 4, 3", pl, ok)
	}
	// A 2-task gang fits the 2 idle processors in step 1.
	if i, pl, ok := p.PickQueued(0, []job.Info{gang(9, 2)}, v); !ok || i != 0 || !slices.Equal(pl.Procs, refs(0, 1, 4)) {
		t.Errorf("idle-in-gs-queue, 2 tasks: %d %+v %v, want 1, 4", i, pl, ok)
	}
}

// The option examine reaches the gang model through policy.QueueExaminer:
// every departure with "every", only a departure that empties a queue by
// default.
func TestExamineOption(t *testing.T) {
	for _, d := range Declarations() {
		for text, want := range map[string]bool{"emptied": false, "every": true} {
			opts, err := option.Check(d.Options, map[string]string{"examine": text})
			if err != nil {
				t.Fatal(err)
			}
			b, err := d.New(policy.Env{Rand: rand.New(rand.NewPCG(1, 2))}, opts)
			if err != nil {
				t.Fatal(err)
			}
			e, ok := b.Gang.(policy.QueueExaminer)
			if !ok || e.ExamineEveryDeparture() != want {
				t.Errorf("approach %s, examine %s: QueueExaminer %v, every departure %v; want %v", d.Name, text, ok, ok && e.ExamineEveryDeparture(), want)
			}
		}
	}
}
