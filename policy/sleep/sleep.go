package sleep

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/internal/idmap"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// MaxAfter bounds Params.After: a year, in seconds.
const MaxAfter = 366 * 86400

// Params are the sleeper's settings.
type Params struct {
	// After is the idle timeout, seconds (>= 0): a CPU idle that long is
	// switched off.
	After float64
	// Keep is the fewest CPUs kept on (on or switching on), >= 0.
	Keep int
}

// ParseParams reads "T" or "T:keep=K" ('run --sleep-after').
func ParseParams(s string) (Params, error) {
	a, b, two := strings.Cut(s, ":")
	var p Params
	var err error
	if p.After, err = strconv.ParseFloat(strings.TrimSpace(a), 64); err != nil || math.IsNaN(p.After) {
		return Params{}, fmt.Errorf("%q: the timeout %q is not a number of seconds (want T or T:keep=K)", s, a)
	}
	if two {
		k, ok := strings.CutPrefix(strings.TrimSpace(b), "keep=")
		if !ok {
			return Params{}, fmt.Errorf("%q: %q: want keep=K after the timeout", s, b)
		}
		if p.Keep, err = strconv.Atoi(k); err != nil {
			return Params{}, fmt.Errorf("%q: keep=%s: want a whole number of CPUs", s, k)
		}
	}
	if err := p.Check(); err != nil {
		return Params{}, fmt.Errorf("%q: %v", s, err)
	}
	return p, nil
}

// Check reports settings out of their bounds.
func (p Params) Check() error {
	switch {
	case !(p.After >= 0 && p.After <= MaxAfter):
		return fmt.Errorf("the timeout %g s: want 0 <= T <= %d", p.After, MaxAfter)
	case p.Keep < 0 || p.Keep > platform.MaxCPUs:
		return fmt.Errorf("keep=%d: want 0..%d CPUs", p.Keep, platform.MaxCPUs)
	}
	return nil
}

// String is the settings as ParseParams reads them.
func (p Params) String() string {
	s := strconv.FormatFloat(p.After, 'g', -1, 64)
	if p.Keep > 0 {
		s += ":keep=" + strconv.Itoa(p.Keep)
	}
	return s
}

// ErrNoStates is the error of a sleeper on a run without power states.
var ErrNoStates = errors.New("the idle sleeper needs a power model with states (--power IDLE_W:COMPUTE_W:OFF_W:ON_S:ON_J:OFF_S:OFF_J, docs/energy.md)")

// Sleeper is the idle sleeper around a queue policy (see the package
// doc).
type Sleeper struct {
	inner   policy.QueueScheduler
	p       Params
	caps    policy.Caps
	waiting idmap.Map[job.ID, int] // procs of the jobs waiting
	demand  int                    // their sum
	hidden  []int                  // per machine: CPUs switched off in this pass
	cands   []cand
	runs    platform.Runs
	view    hideView
	// OffDecisions and OnDecisions count the CPUs the layer switched off
	// and on.
	OffDecisions, OnDecisions int64
}

type cand struct {
	since float64
	cpu   int
}

// New wraps inner. p must pass Check (ParseParams only returns such);
// New panics otherwise, a programming error.
func New(inner policy.QueueScheduler, p Params) *Sleeper {
	if err := p.Check(); err != nil {
		panic(fmt.Sprintf("sleep: %v", err))
	}
	return &Sleeper{inner: inner, p: p, caps: policy.CapsOf(inner).Only(Forwards)}
}

// Name is the inner policy's name.
func (s *Sleeper) Name() string { return s.inner.Name() }

// Inner is the wrapped policy.
func (s *Sleeper) Inner() policy.QueueScheduler { return s.inner }

// Params are the layer's settings.
func (s *Sleeper) Params() Params { return s.p }

// Submit counts the job's CPUs in the demand and passes it on.
func (s *Sleeper) Submit(now float64, j job.Info) {
	if old, ok := s.waiting.Get(j.ID); ok {
		s.demand -= old
	}
	s.waiting.Set(j.ID, j.Procs)
	s.demand += j.Procs
	s.inner.Submit(now, j)
}

// Finish passes on.
func (s *Sleeper) Finish(now float64, id job.ID) { s.inner.Finish(now, id) }

func (s *Sleeper) left(id job.ID) {
	var n int
	if s.waiting.Take(id, &n) {
		s.demand -= n
	}
}

// Schedule is one pass: switches off, the inner policy's pass, switches
// on, the next timeout (the package doc).
func (s *Sleeper) Schedule(now float64, v policy.Machines, plan *policy.Plan) {
	pv, ok := v.(policy.PowerView)
	plat := v.Platform()
	n := plat.CPUs()
	if !ok {
		s.inner.Schedule(now, v, plan)
		return
	}
	if len(s.hidden) != plat.Machines() {
		s.hidden = make([]int, plat.Machines())
	}
	clear(s.hidden)
	idle, on, off, swOn := 0, 0, 0, 0
	s.cands = s.cands[:0]
	for cpu := range n {
		switch pv.PowerState(cpu) {
		case policy.PowerOn:
			on++
			if pv.Idle(cpu) {
				idle++
				if since := pv.IdleSince(cpu); since+s.p.After <= now {
					s.cands = append(s.cands, cand{since, cpu})
				}
			}
		case policy.PowerSwitchingOn:
			on++
			swOn++
		case policy.PowerOff:
			off++
		}
	}
	// 1. Off.
	nOff := min(len(s.cands), idle-s.demand, on-s.p.Keep)
	if nOff > 0 {
		slices.SortFunc(s.cands, func(a, b cand) int { return cmp.Or(cmp.Compare(a.since, b.since), cmp.Compare(b.cpu, a.cpu)) })
		s.runs = s.runs[:0]
		picked := s.cands[:nOff]
		slices.SortFunc(picked, func(a, b cand) int { return cmp.Compare(a.cpu, b.cpu) })
		for _, c := range picked {
			s.runs = s.runs.Add(int32(c.cpu))
			s.hidden[plat.MachineOf(c.cpu)]++
		}
		plan.Power = append(plan.Power, policy.PowerSwitch{CPUs: slices.Clone(s.runs)})
		s.OffDecisions += int64(nOff)
	} else {
		nOff = 0
	}
	// 2. The inner pass, without the CPUs switched off.
	s.view = hideView{PowerView: pv, hidden: s.hidden}
	s.inner.Schedule(now, &s.view, plan)
	started := 0
	for _, st := range plan.Starts {
		if n, ok := s.waiting.Get(st.ID); ok {
			started += n
		}
		s.left(st.ID)
	}
	for _, id := range plan.Rejects {
		s.left(id)
	}
	// 3. On.
	if supply := idle - nOff - started + swOn; s.demand > supply && off > 0 {
		k := min(s.demand-supply, off)
		s.runs = s.runs[:0]
		for cpu := 0; cpu < n && k > 0; cpu++ {
			if pv.PowerState(cpu) == policy.PowerOff {
				s.runs = s.runs.Add(int32(cpu))
				k--
				s.OnDecisions++
			}
		}
		plan.Power = append(plan.Power, policy.PowerSwitch{CPUs: slices.Clone(s.runs), On: true})
	}
	// 4. The next timeout of an idle CPU left on.
	next := math.Inf(1)
	for cpu := range n {
		if pv.Idle(cpu) {
			if t := pv.IdleSince(cpu) + s.p.After; t > now && t < next {
				next = t
			}
		}
	}
	if !math.IsInf(next, 1) {
		plan.PowerWake = next
	}
}

// hideView is the inner policy's view: the CPUs switched off in the
// pass are neither free nor (in Down) up.
type hideView struct {
	policy.PowerView
	hidden []int
}

func (h *hideView) Free(m int) int { return h.PowerView.Free(m) - h.hidden[m] }
func (h *hideView) Down(m int) int { return h.PowerView.Down(m) + h.hidden[m] }

// Horizons drops the hidden CPUs' entries (the sleeper runs without
// windows: every entry is +Inf).
func (h *hideView) Horizons(m int, dst []float64) []float64 {
	n0 := len(dst)
	dst = h.PowerView.Horizons(m, dst)
	return dst[:max(n0, len(dst)-h.hidden[m])]
}

// Forwards are the capabilities a Sleeper passes on from its inner
// policy (policy.Layer): refusals at submission, reservations, windows
// of jobs, new estimates, availability planning (which the model
// requires: the off CPUs are unavailable), failures of the policy
// itself, closing and summary fields. Not the jobs of other partitions:
// power states do not go with partitions.
const Forwards = policy.CapScreen | policy.CapReserve | policy.CapWindows | policy.CapReestimate |
	policy.CapAvail | policy.CapFail | policy.CapClose | policy.CapSummary

// Caps implements policy.Layer.
func (s *Sleeper) Caps() policy.Caps { return s.caps }

// Close closes the inner policy if it is an io.Closer.
func (s *Sleeper) Close() error {
	if s.caps.Close != nil {
		return s.caps.Close.Close()
	}
	return nil
}

var (
	_ policy.QueueScheduler = (*Sleeper)(nil)
	_ policy.Layer          = (*Sleeper)(nil)
	_ io.Closer             = (*Sleeper)(nil)
)
