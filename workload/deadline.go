package workload

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/internal/enum"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/rng"
)

// DeadlineBase is what a derived deadline is a multiple of.
type DeadlineBase uint8

const (
	// DeadlineNone derives no deadline (the trace's jobs have none).
	DeadlineNone DeadlineBase = iota
	// DeadlineEstimate: deadline = submit + s x the estimate the scheduler
	// sees (after the estimate model: the request, or the runtime with
	// exact estimates). The analogue of klusacek-2008's rule, whose
	// Estimated is the job's runtime estimate.
	DeadlineEstimate
	// DeadlineRuntime: deadline = submit + s x the actual runtime (a slack
	// factor over what the job really needs; the scheduler never sees the
	// runtime, only the deadline).
	DeadlineRuntime
)

// DeadlineBases lists the rules' names, the default (none) first.
func DeadlineBases() []string { return []string{"none", "estimate", "runtime"} }

func (b DeadlineBase) String() string {
	if int(b) < len(DeadlineBases()) {
		return DeadlineBases()[b]
	}
	return fmt.Sprintf("DeadlineBase(%d)", uint8(b))
}

// ParseDeadlineBase reads a rule's name (DeadlineBases).
func ParseDeadlineBase(s string) (DeadlineBase, error) {
	vals := make([]DeadlineBase, len(DeadlineBases()))
	for i := range vals {
		vals[i] = DeadlineBase(i)
	}
	return enum.ParseNamed("deadline rule", s, vals...)
}

// DeadlineRule derives deadlines for jobs that have none (real traces):
// each job gets one with probability Fraction; its deadline is submit +
// s x base, s uniform on [Min, Max]. The draws come from the stream of
// Seed, in the order the jobs arrive, so a rule and a seed give every job
// the same deadline in every run.
type DeadlineRule struct {
	Base     DeadlineBase
	Min, Max float64 // the factor's range, 0 < Min <= Max
	Fraction float64 // 0..1
	Seed     uint64
}

// MaxDeadlineFactor bounds the factor, so that deadlines stay finite and
// far below the float64 range for any trace time.
const MaxDeadlineFactor = 1e6

// Check reports a rule that cannot derive deadlines.
func (r DeadlineRule) Check() error {
	if r.Base == DeadlineNone {
		return nil
	}
	if r.Base > DeadlineRuntime {
		return fmt.Errorf("unknown deadline rule %v", r.Base)
	}
	if !(r.Min > 0) || !(r.Max >= r.Min) || r.Max > MaxDeadlineFactor {
		return fmt.Errorf("deadline factor range [%g, %g]: want 0 < min <= max <= %g", r.Min, r.Max, float64(MaxDeadlineFactor))
	}
	if !(r.Fraction >= 0 && r.Fraction <= 1) {
		return fmt.Errorf("deadline fraction %g: want a number in [0, 1]", r.Fraction)
	}
	return nil
}

// ParseFactorRange reads "S" (a fixed factor) or "MIN-MAX". The '-' of
// an exponent ("1e-3", "1e-3-2e-3") is not the range's.
func ParseFactorRange(s string) (lo, hi float64, err error) {
	a, b, ok := s, "", false
	for i := 1; i < len(s); i++ {
		if s[i] == '-' && s[i-1] != 'e' && s[i-1] != 'E' {
			a, b, ok = s[:i], s[i+1:], true
			break
		}
	}
	if lo, err = strconv.ParseFloat(strings.TrimSpace(a), 64); err != nil {
		return 0, 0, fmt.Errorf("deadline factor %q: want S or MIN-MAX (numbers)", s)
	}
	hi = lo
	if ok {
		if hi, err = strconv.ParseFloat(strings.TrimSpace(b), 64); err != nil {
			return 0, 0, fmt.Errorf("deadline factor %q: want S or MIN-MAX (numbers)", s)
		}
	}
	if math.IsNaN(lo) || math.IsNaN(hi) || !(lo > 0) || hi < lo || hi > MaxDeadlineFactor {
		return 0, 0, fmt.Errorf("deadline factor %q: want 0 < MIN <= MAX <= %g", s, float64(MaxDeadlineFactor))
	}
	return lo, hi, nil
}

// WithDeadlines gives src's jobs deadlines by rule r (a job that already
// has one keeps it). With DeadlineNone it returns src unchanged.
func WithDeadlines(src Source, r DeadlineRule) (Source, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	if r.Base == DeadlineNone {
		return src, nil
	}
	return &deadlines{src: src, r: r, rnd: rng.New(r.Seed, 0, "trace-deadlines")}, nil
}

type deadlines struct {
	src Source
	r   DeadlineRule
	rnd *rand.Rand
}

func (d *deadlines) Next() (actual.Job, error) {
	j, err := d.src.Next()
	if err != nil {
		return j, err
	}
	// Two draws per job whatever the outcome, so that one job's draws
	// never shift another's.
	has := d.rnd.Float64() < d.r.Fraction
	s := d.r.Min + (d.r.Max-d.r.Min)*d.rnd.Float64()
	if j.Deadline != 0 || !has {
		return j, nil
	}
	base := j.Estimate
	if d.r.Base == DeadlineRuntime {
		base = j.Runtime
	}
	j.Deadline = j.Submit + s*base
	if j.Deadline <= j.Submit {
		// A zero-length job: a deadline at its submit time would be met
		// only by an instant start; the kernel refuses deadline <=
		// submit, so such a job gets none.
		j.Deadline = 0
	}
	return j, nil
}
