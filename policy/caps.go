package policy

import (
	"io"
	"strings"

	"github.com/schedlab/schedlab/job"
)

// Caps is what a built policy can do beyond its contract
// (QueueScheduler, GangPolicy, ...): each field is the policy's
// implementation of one optional interface, nil when it has none.
// CapsOf computes it once, when the policy is built; the models and the
// runners read the fields and never look for the interfaces
// themselves, so what a policy can do is decided in one place, and a
// layer (a policy wrapped in another: Layer) says exactly what it
// passes on.
type Caps struct {
	// Screen refuses jobs at submission (Screener: Job Ranking
	// Backfilling's rank -1); a runner drops and counts them.
	Screen Screener
	// Reserve reports the reservations it makes (ReservationReporter:
	// backfilling), for 'schedlab explain' and planned.csv.
	Reserve ReservationReporter
	// Windows reports the windows of jobs it forms (WindowReporter:
	// matrix scanning).
	Windows WindowReporter
	// Reestimate takes a new estimate for a running job (Reestimator:
	// backfilling, under the predicting layer of policy/predict).
	Reestimate Reestimator
	// Fail can fail on its own (Failer: an external decision process);
	// the cluster model asks it after every pass.
	Fail Failer
	// Avail plans around unavailable CPUs (AvailabilityPlanner): the
	// cluster model refuses windows and failures without it.
	Avail AvailabilityPlanner
	// Foreign sees the jobs of other partitions on shared CPUs
	// (ForeignLoad): the cluster model refuses overlapping partitions
	// without it.
	Foreign ForeignLoad
	// Examine says when the gang model examines its grid-scheduler
	// queue (QueueExaminer, gang policies only).
	Examine QueueExaminer
	// Close ends what the policy holds outside the process (io.Closer:
	// an external decision process); a runner closes it on every path.
	Close io.Closer
	// Summary adds fields to a run's summary (SummaryReporter: Job
	// Ranking Backfilling's rank function, head rule and refusal note).
	Summary SummaryReporter
	// NodeForeign sees the jobs of other partitions on shared nodes
	// (NodeForeignLoad): the model of nodes refuses overlapping
	// partitions without it.
	NodeForeign NodeForeignLoad
	// Reasons says why each waiting job it considered did not start,
	// pass by pass, in its own terms (ReasonReporter: the slurm policy's
	// Slurm reasons), for 'schedlab explain'.
	Reasons ReasonReporter
}

// ReasonReporter is implemented by a policy that gives a reason for
// each waiting job it considers at a pass and does not start:
// SetOnReason asks it to tell f, at every pass, of each such job (its
// id and the Reason).
type ReasonReporter interface {
	SetOnReason(f func(now float64, id job.ID, r Reason))
}

// Reason is why a job did not start at a pass: Name in the policy's
// terms (Slurm's reason names: Priority, Resources, QOS...Limit),
// Position its place in the pass's priority order (1: first) of
// Waiting, At a planned start (NaN: none) and Note the rule that
// applied, in words.
type Reason struct {
	Name              string
	Position, Waiting int
	At                float64
	Note              string
}

// SummaryReporter is implemented by a queue policy that adds fields to
// a run's summary (summary.json and the summary line): the rank
// function and head rule of a ranking policy, and its word on which
// jobs it refuses at submission.
type SummaryReporter interface {
	RankHead() (rank, head string)
	RefusalNote() string
}

// Layer is implemented by a policy that wraps another (the predicting
// layer of policy/predict, a runner's timing wrapper, the partitions of
// the cluster model) and declares what it can do from what its inner
// policy can: CapsOf returns Caps, and looks for no optional interface
// on the layer itself. A layer computes its inner policy's capabilities
// with CapsOf (once, when it is built) and passes on each one it
// forwards (the inner's value, or the layer itself where it adds to the
// call), leaving nil those it does not.
type Layer interface {
	Caps() Caps
}

// CapsOf is what the built policy p can do: Layer.Caps for a layer,
// otherwise each optional interface p implements. It is the one place
// the optional interfaces are asserted; call it once, when the policy
// is built, never per event.
func CapsOf(p any) Caps {
	if l, ok := p.(Layer); ok {
		return l.Caps()
	}
	var c Caps
	c.Screen, _ = p.(Screener)
	c.Reserve, _ = p.(ReservationReporter)
	c.Windows, _ = p.(WindowReporter)
	c.Reestimate, _ = p.(Reestimator)
	c.Fail, _ = p.(Failer)
	c.Avail, _ = p.(AvailabilityPlanner)
	c.Foreign, _ = p.(ForeignLoad)
	c.Examine, _ = p.(QueueExaminer)
	c.Close, _ = p.(io.Closer)
	c.Summary, _ = p.(SummaryReporter)
	c.NodeForeign, _ = p.(NodeForeignLoad)
	c.Reasons, _ = p.(ReasonReporter)
	return c
}

// CapSet is a set of capabilities, one bit per field of Caps: what the
// assembly of a run compares and prints.
type CapSet uint16

// The capabilities, one per field of Caps.
const (
	CapScreen CapSet = 1 << iota
	CapReserve
	CapWindows
	CapReestimate
	CapFail
	CapAvail
	CapForeign
	CapExamine
	CapClose
	CapSummary
	CapNodeForeign
	CapReasons
	capEnd
)

// AllCaps is every capability.
const AllCaps CapSet = capEnd - 1

var capNames = [...]string{"screen", "reserve", "windows", "reestimate", "fail", "avail", "foreign", "examine", "close", "summary", "nodeforeign", "reasons"}

// String names the capabilities of s joined by "+" ("none" for none),
// in the order of the fields of Caps.
func (s CapSet) String() string {
	var b strings.Builder
	for i, n := range capNames {
		if s&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte('+')
			}
			b.WriteString(n)
		}
	}
	if b.Len() == 0 {
		return "none"
	}
	return b.String()
}

// Set is the set of capabilities c holds (its non-nil fields).
func (c Caps) Set() CapSet {
	var s CapSet
	for i, has := range [...]bool{c.Screen != nil, c.Reserve != nil, c.Windows != nil, c.Reestimate != nil,
		c.Fail != nil, c.Avail != nil, c.Foreign != nil, c.Examine != nil, c.Close != nil, c.Summary != nil, c.NodeForeign != nil, c.Reasons != nil} {
		if has {
			s |= 1 << i
		}
	}
	return s
}

// Only is c with the capabilities outside s removed: what a layer that
// forwards s passes on of its inner policy's c.
func (c Caps) Only(s CapSet) Caps {
	if s&CapScreen == 0 {
		c.Screen = nil
	}
	if s&CapReserve == 0 {
		c.Reserve = nil
	}
	if s&CapWindows == 0 {
		c.Windows = nil
	}
	if s&CapReestimate == 0 {
		c.Reestimate = nil
	}
	if s&CapFail == 0 {
		c.Fail = nil
	}
	if s&CapAvail == 0 {
		c.Avail = nil
	}
	if s&CapForeign == 0 {
		c.Foreign = nil
	}
	if s&CapExamine == 0 {
		c.Examine = nil
	}
	if s&CapClose == 0 {
		c.Close = nil
	}
	if s&CapSummary == 0 {
		c.Summary = nil
	}
	if s&CapNodeForeign == 0 {
		c.NodeForeign = nil
	}
	if s&CapReasons == 0 {
		c.Reasons = nil
	}
	return c
}
