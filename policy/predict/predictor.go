package predict

import (
	"fmt"
	"io"
	"math"

	"github.com/schedlab/schedlab/freeprofile"
	"github.com/schedlab/schedlab/internal/endheap"
	"github.com/schedlab/schedlab/internal/idmap"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// Predictor is a queue policy that hands its inner policy predicted
// runtimes instead of the jobs' estimates, learns runtimes from the
// starts and ends it sees, and corrects the prediction of a running job
// that outlives it (see the package doc). NodePredictor is the same over
// a platform of nodes; both are one core (the prediction and correction
// logic) around their inner policy.
type Predictor struct {
	inner policy.QueueScheduler
	core
}

// core is what a predictor does whatever the form of its inner policy:
// the users' histories, the predictions of waiting and running jobs and
// their corrections.
type core struct {
	re   policy.Reestimator // inner's, nil if it takes no new estimate
	caps policy.Caps        // what it passes on of the inner's (Forwards)
	k    int
	corr Correction
	part bool

	users   *Histories
	waiting idmap.Map[job.ID, pending]
	running idmap.Map[job.ID, running]
	due     endheap.Heap // running jobs that can still be corrected, by predicted end

	predicted, corrections, corrected int64

	// OnCorrect, when set, is told of every correction: job id's k-th
	// correction at now raised its prediction to estimate (tests, tools).
	OnCorrect func(now float64, id job.ID, k int, estimate float64)
}

// pending is a waiting job as Submit left it.
type pending struct {
	user       int32
	req, pred  float64
	bmEst      float64
	hasHistory bool
}

// running is a started job: its prediction, first and current, and
// where its predicted end falls.
type running struct {
	user       int32
	steps      int32 // corrections so far
	req        float64
	pred0      float64
	pred       float64
	bmEst      float64
	start      float64
	due        float64 // predicted end: start + duration of pred on mach
	mach       platform.Machine
	hasHistory bool
}

// New wraps inner: jobs reach it with their predicted runtime as
// Estimate. p must be valid (the zero Params is: last2, increments; the
// parse functions only return valid values); New panics on a Params that
// fails Check, a programming error, never user input.
func New(inner policy.QueueScheduler, p Params) *Predictor {
	return NewShared(inner, p, NewHistories())
}

// Histories are users' runtime histories. Predictors built with
// NewShared over one Histories learn from each other's jobs: the
// predictors of the partitions of one machine, each over its
// partition's policy, predict a user's job from all the user's jobs.
type Histories struct {
	users map[int32]*history // lookup only, never iterated
}

// NewHistories returns empty histories.
func NewHistories() *Histories { return &Histories{users: map[int32]*history{}} }

// NewShared is New with the users' histories h, which other predictors
// may share (with the same Params).
func NewShared(inner policy.QueueScheduler, p Params, h *Histories) *Predictor {
	return &Predictor{inner: inner, core: newCore(policy.CapsOf(inner), p, h)}
}

// newCore is a predictor's core over an inner policy of capabilities in.
func newCore(in policy.Caps, p Params, h *Histories) core {
	if err := p.Check(); err != nil {
		panic(fmt.Sprintf("predict: %v", err))
	}
	return core{re: in.Reestimate, caps: in.Only(Forwards), k: p.Predictor.K(), corr: p.Correction, part: p.Partial, users: h}
}

// Inner is the wrapped policy.
func (p *Predictor) Inner() policy.QueueScheduler { return p.inner }

// Name is the inner policy's name: the predictor changes what the
// policy believes, not which policy runs.
func (p *Predictor) Name() string { return p.inner.Name() }

// Predicted is the number of jobs submitted with a prediction from their
// user's history (the others kept their estimate).
func (p *core) Predicted() int64 { return p.predicted }

// Corrections is the number of corrections made: each step of the rule
// counts once (a job corrected three times counts three).
func (p *core) Corrections() int64 { return p.corrections }

// Corrected is the number of jobs corrected at least once.
func (p *core) Corrected() int64 { return p.corrected }

// Submit predicts j's runtime and passes j on with Estimate = the
// prediction: the mean of its user's last K runtimes (with Partial, of
// those known, at least one), at most its estimate. A job of an unknown
// user (User < 0), of a user with too short a history, or with no
// positive estimate keeps its estimate.
func (p *Predictor) Submit(now float64, j job.Info) { p.inner.Submit(now, p.submit(j)) }

// submit records j's prediction and returns j with it as Estimate.
func (p *core) submit(j job.Info) job.Info {
	pd := pending{user: j.User, req: j.Estimate, pred: j.Estimate, bmEst: j.BMEst}
	if j.User >= 0 && j.Estimate > 0 {
		if h := p.users.users[j.User]; h != nil && (h.n >= p.k || (p.part && h.n > 0)) {
			pd.pred = min(h.mean, j.Estimate)
			pd.hasHistory = true
			p.predicted++
		}
	}
	p.waiting.Set(j.ID, pd)
	j.Estimate = pd.pred
	return j
}

// Finish learns the job's runtime (end - start, converted to the speed
// of its estimate) into its user's history, then tells the inner policy.
func (p *Predictor) Finish(now float64, id job.ID) {
	p.finish(now, id)
	p.inner.Finish(now, id)
}

// finish learns the runtime of job id, which ended at now.
func (p *core) finish(now float64, id job.ID) {
	if r, ok := p.running.Get(id); ok {
		p.running.Delete(id) // its entry in due, if any, is skipped when it surfaces
		if r.user >= 0 {
			p.learn(r.user, work(now-r.start, r.mach, r.bmEst))
		}
	}
}

// Schedule corrects every running job whose predicted end is at or before
// now (the rule applied until the prediction ends after now or reaches
// the request), tells the inner policy (policy.Reestimator), runs its
// pass, records the starts it made and asks for a pass at the next
// predicted end (Plan.Wake, the earlier of it and the inner policy's).
func (p *Predictor) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	p.correct(now)
	n0 := len(plan.Starts)
	p.inner.Schedule(now, v, plan)
	if len(plan.Starts) > n0 {
		plat := v.Platform()
		for _, s := range plan.Starts[n0:] {
			var mach platform.Machine // the reference machine if the start names none that exists (the model refuses it)
			if s.Machine >= 0 && s.Machine < plat.Machines() {
				mach = plat.Machine(s.Machine)
			}
			p.started(now, s.ID, mach)
		}
	}
	p.wake(now, plan)
}

// wake asks for a pass at the next predicted end (the earlier of it and
// the inner policy's Plan.Wake).
func (p *core) wake(now float64, plan *policy.Plan) {
	if t, ok := p.nextDue(); ok && t > now && (plan.Wake <= now || t < plan.Wake) {
		plan.Wake = t
	}
}

// started records that waiting job id started at now on mach.
func (p *core) started(now float64, id job.ID, mach platform.Machine) {
	w, ok := p.waiting.Get(id)
	if !ok {
		return
	}
	p.waiting.Delete(id)
	r := running{user: w.user, req: w.req, pred0: w.pred, pred: w.pred, bmEst: w.bmEst, start: now, mach: mach, hasHistory: w.hasHistory}
	r.due = freeprofile.Span(now, mach.Duration(r.pred, r.bmEst))
	p.running.Set(id, r)
	p.push(id, &r)
}

// push queues r for correction if its prediction can still grow.
func (p *core) push(id job.ID, r *running) {
	if r.pred < r.req && !math.IsInf(r.due, 0) && !math.IsNaN(r.due) {
		p.due.Push(endheap.Item{At: r.due, ID: id})
	}
}

// correct applies the rule to every running job whose predicted end is
// at or before now, in (predicted end, id) order.
func (p *core) correct(now float64) {
	for len(p.due) > 0 && p.due[0].At <= now {
		it := p.due.Pop()
		r := p.running.Ptr(it.ID)
		if r == nil || r.due != it.At {
			continue // ended, or already moved
		}
		if r.steps == 0 {
			p.corrected++
		}
		for r.pred < r.req && r.due <= now {
			r.steps++
			r.pred = p.corr.Step(r.pred0, r.req, int(r.steps))
			r.due = freeprofile.Span(r.start, r.mach.Duration(r.pred, r.bmEst))
			p.corrections++
		}
		if p.re != nil {
			p.re.Reestimate(now, it.ID, r.pred)
		}
		if p.OnCorrect != nil {
			p.OnCorrect(now, it.ID, int(r.steps), r.pred)
		}
		p.push(it.ID, r)
	}
}

// nextDue is the earliest predicted end of a job that can still be
// corrected (stale entries are dropped on the way).
func (p *core) nextDue() (float64, bool) {
	for len(p.due) > 0 {
		it := p.due[0]
		if r := p.running.Ptr(it.ID); r != nil && r.due == it.At {
			return it.At, true
		}
		p.due.Pop()
	}
	return 0, false
}

// Prediction is job id's current prediction (its Estimate as the inner
// policy knows it) and how many corrections it had, while the job waits
// or runs; ok is false for a job not known or ended.
func (p *core) Prediction(id job.ID) (estimate float64, corrections int, ok bool) {
	if r := p.running.Ptr(id); r != nil {
		return r.pred, int(r.steps), true
	}
	if w, ok := p.waiting.Get(id); ok {
		return w.pred, 0, true
	}
	return 0, 0, false
}

// work is the runtime at the speed of the estimate (bmEst, 0: 1) of a
// job that ran for elapsed on m: the inverse of m.Duration.
func work(elapsed float64, m platform.Machine, bmEst float64) float64 {
	if bmEst == 0 {
		bmEst = 1
	}
	if s := m.BM(); s != bmEst {
		return elapsed * s / bmEst
	}
	return elapsed
}

func (p *core) learn(user int32, runtime float64) {
	h := p.users.users[user]
	if h == nil {
		h = &history{}
		p.users.users[user] = h
	}
	h.add(runtime, p.k)
}

// history is a user's last K runtimes (a ring) and their mean.
type history struct {
	rt   []float64
	next int // where the next runtime goes once rt is full
	n    int // runtimes held, at most K
	mean float64
}

func (h *history) add(x float64, k int) {
	if len(h.rt) < k {
		h.rt = append(h.rt, x)
	} else {
		h.rt[h.next] = x
		h.next = (h.next + 1) % k
	}
	h.n = len(h.rt)
	// Oldest first, so that the sum does not depend on the ring's layout.
	sum := 0.0
	for i := range h.n {
		sum += h.rt[(h.next+i)%h.n]
	}
	h.mean = sum / float64(h.n)
}

// Forwards are the capabilities a Predictor passes on from its inner
// policy (policy.Layer): refusals at submission (the job as submitted,
// its estimate unchanged), reservations, the jobs of other partitions
// (their ends from the estimates they were submitted with, not a
// prediction; the predictor learns only from its own jobs), failures
// and closing. It takes the inner's Reestimator itself (corrections)
// and passes on nothing else: the inner policy's windows, availability
// planning and summary fields are not reached through a Predictor.
const Forwards = policy.CapScreen | policy.CapReserve | policy.CapForeign | policy.CapFail | policy.CapClose

// Caps implements policy.Layer: the inner policy's capabilities among
// Forwards, as the inner policy's own values (a call reaches the inner
// policy directly), nil where the inner policy has none.
func (p *core) Caps() policy.Caps { return p.caps }

// Close closes the inner policy if it is an io.Closer (an external
// decision process).
func (p *core) Close() error {
	if p.caps.Close != nil {
		return p.caps.Close.Close()
	}
	return nil
}

var (
	_ policy.QueueScheduler = (*Predictor)(nil)
	_ policy.Layer          = (*Predictor)(nil)
	_ io.Closer             = (*Predictor)(nil)
)
