package plan

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/schedlab/schedlab/internal/enum"
)

// Order is the order in which Tabu search tries the other machines for a
// selected job.
type Order uint8

const (
	// OrderIndex tries the machines in index order (the paper's "next
	// machine's schedule").
	OrderIndex Order = iota
	// OrderRandom tries them in a fresh random permutation at every
	// iteration, drawn from the *rand.Rand given to the constructor (as
	// the authors' later simulator Alea does).
	OrderRandom
)

func (o Order) String() string {
	switch o {
	case OrderIndex:
		return "index"
	case OrderRandom:
		return "random"
	}
	return fmt.Sprintf("Order(%d)", o)
}

// Trigger says when Tabu search runs.
type Trigger uint8

const (
	// EachArrival runs Tabu search after every EG-EDF decision (the
	// paper's incremental use).
	EachArrival Trigger = iota
	// EveryN runs it after the EG-EDF decision of every Options.Every-th
	// arrival (the Every-th, the 2 x Every-th, ... job submitted).
	EveryN
	// Interval runs it at the first scheduling pass at or after each
	// multiple of Options.Interval of model time (Alea runs it every 300
	// s), before that pass starts jobs. A pass happens only at instants
	// with events, so a period with no event is skipped, never made up.
	Interval
)

func (t Trigger) String() string {
	switch t {
	case EachArrival:
		return "each-arrival"
	case EveryN:
		return "every-n"
	case Interval:
		return "interval"
	}
	return fmt.Sprintf("Trigger(%d)", t)
}

// Ties says which of the machines whose EG-EDF weight ties gets the job.
type Ties uint8

const (
	// TieIndex takes the lowest machine index (the rule as written).
	TieIndex Ties = iota
	// TieEnd takes the machine where the job's planned end is earliest
	// (remaining ties: lowest index). Where the weight cannot tell the
	// machines apart (the job ends before the global makespan and meets
	// its deadline everywhere) the job goes where it finishes first
	// instead of piling on the low-numbered machines.
	TieEnd
)

func (t Ties) String() string {
	switch t {
	case TieIndex:
		return "index"
	case TieEnd:
		return "end"
	}
	return fmt.Sprintf("Ties(%d)", t)
}

// Gaps says which places in a machine's plan count as gaps.
type Gaps uint8

const (
	// GapFinite: a gap is finite idle time inside the plan; appending
	// counts only if the job ends by the machine's makespan (the rule as
	// written: an idle machine has no gap).
	GapFinite Gaps = iota
	// GapTail: the idle time after the plan's last job counts too, so
	// appending is a gap everywhere and an idle machine offers its CPUs
	// at once; the weight then also sees the makespan a gap raises. EDF
	// insertion is reached only when no machine can hold the job. The
	// authors' later simulator keeps such a tail hole.
	GapTail
)

func (g Gaps) String() string {
	switch g {
	case GapFinite:
		return "finite"
	case GapTail:
		return "tail"
	}
	return fmt.Sprintf("Gaps(%d)", g)
}

// Suitable says which gaps suit a job.
type Suitable uint8

const (
	// SuitAny: every earliest gap suits the job, even one where it ends
	// after its deadline; EDF insertion happens only when no machine has
	// a gap at all (the rule as first implemented).
	SuitAny Suitable = iota
	// SuitDeadline: a gap suits a job with a deadline only if the job
	// ends there by it; a job without a deadline takes any gap. EDF
	// insertion happens when no machine offers a suitable gap ("S=0
	// means there are no suitable gaps"; the authors' 2011 abstract: "if
	// the gap is not suitable for an incoming job, the EDF policy is
	// used"). Tabu search's moves use the same test ("if suitable EG is
	// found").
	SuitDeadline
)

func (s Suitable) String() string {
	switch s {
	case SuitAny:
		return "any"
	case SuitDeadline:
		return "deadline"
	}
	return fmt.Sprintf("Suitable(%d)", s)
}

// Pick says which job of the source machine a Tabu iteration moves.
type Pick uint8

const (
	// PickLast takes the last non-tabu job of the machine's list, late
	// or not (the rule as first implemented).
	PickLast Pick = iota
	// PickLastLate takes the last non-tabu job that misses its deadline
	// there, and the source is the first machine (most delayed jobs
	// first) that has one: the paper's stop rule, "until there are no
	// delayed non-tabu jobs", speaks of delayed jobs.
	PickLastLate
)

func (p Pick) String() string {
	switch p {
	case PickLast:
		return "last"
	case PickLastLate:
		return "last-late"
	}
	return fmt.Sprintf("Pick(%d)", p)
}

// Options configures the policy. The zero value is EG-EDF without Tabu
// search.
type Options struct {
	// Tabu turns on Tabu search after EG-EDF decisions (name "tabu");
	// without it the policy is plain EG-EDF ("eg-edf") and the other
	// fields must be zero.
	Tabu bool
	// Iterations is the iteration budget of one Tabu search; 0 means
	// 2 x the number of planned (waiting) jobs when the search starts.
	Iterations int
	// TabuLength is the capacity of the tabu list; 0 means
	// min(10, planned/2) with planned counted when the search starts.
	TabuLength int
	// Order is the order in which the other machines are tried.
	Order Order
	// Trigger says when Tabu search runs; Every and Interval are its
	// parameters (Every 0 means 1 with EveryN).
	Trigger  Trigger
	Every    int
	Interval float64
	// Ties breaks ties of EG-EDF's weight (plain EG-EDF and the EG-EDF
	// decisions under Tabu search; Tabu's own moves take the first machine
	// with a positive weight).
	Ties Ties
	// Gaps says what counts as a gap (EG-EDF's decisions and Tabu's
	// moves).
	Gaps Gaps
	// Suitable says which gaps suit a job (EG-EDF's decisions and Tabu's
	// moves).
	Suitable Suitable
	// Pick says which job a Tabu iteration moves (Tabu only).
	Pick Pick
}

// validate reports every problem at once; r is the constructor's random
// stream.
func (o Options) validate(hasRand bool) error {
	var probs []string
	bad := func(format string, a ...any) { probs = append(probs, fmt.Sprintf(format, a...)) }
	if o.Iterations < 0 {
		bad("iterations %d < 0 (0 means 2 x planned jobs)", o.Iterations)
	}
	if o.TabuLength < 0 {
		bad("tabu length %d < 0 (0 means min(10, planned/2))", o.TabuLength)
	}
	switch o.Order {
	case OrderIndex:
	case OrderRandom:
		if !hasRand {
			bad("machine order random needs a *rand.Rand (got nil)")
		}
	default:
		bad("unknown machine order %v (want index or random)", o.Order)
	}
	switch o.Trigger {
	case EachArrival:
		if o.Every != 0 || o.Interval != 0 {
			bad("trigger each-arrival takes no period (every %d, interval %g)", o.Every, o.Interval)
		}
	case EveryN:
		if o.Every < 0 {
			bad("every %d < 0 arrivals", o.Every)
		}
		if o.Interval != 0 {
			bad("trigger every-n takes no interval (got %g)", o.Interval)
		}
	case Interval:
		if !(o.Interval > 0) || math.IsInf(o.Interval, 1) {
			bad("trigger interval needs a finite interval > 0 (got %g)", o.Interval)
		}
		if o.Every != 0 {
			bad("trigger interval takes no arrival count (every %d)", o.Every)
		}
	default:
		bad("unknown trigger %v (want each-arrival, every-n or interval)", o.Trigger)
	}
	if o.Gaps != GapFinite && o.Gaps != GapTail {
		bad("unknown gap rule %v (want finite or tail)", o.Gaps)
	}
	if o.Ties != TieIndex && o.Ties != TieEnd {
		bad("unknown tie rule %v (want index or end)", o.Ties)
	}
	if o.Suitable != SuitAny && o.Suitable != SuitDeadline {
		bad("unknown suitability rule %v (want any or deadline)", o.Suitable)
	}
	if o.Pick != PickLast && o.Pick != PickLastLate {
		bad("unknown tabu pick rule %v (want last or last-late)", o.Pick)
	}
	if !o.Tabu && (o.Pick != PickLast || o.Iterations != 0 || o.TabuLength != 0 || o.Order != OrderIndex || o.Trigger != EachArrival || o.Every != 0 || o.Interval != 0) {
		bad("tabu options set without Tabu (plain EG-EDF takes none)")
	}
	if len(probs) > 0 {
		return errors.New("schedule: " + strings.Join(probs, "; "))
	}
	return nil
}

var (
	orders    = []Order{OrderIndex, OrderRandom}
	triggers  = []Trigger{EachArrival, EveryN, Interval}
	tieRules  = []Ties{TieIndex, TieEnd}
	gapRules  = []Gaps{GapFinite, GapTail}
	suitRules = []Suitable{SuitAny, SuitDeadline}
	pickRules = []Pick{PickLast, PickLastLate}
)

// SuitRules lists the suitability rules' names, the default first.
func SuitRules() []string { return enum.Names(suitRules...) }

// ParseSuitable reads a suitability rule's name (SuitRules).
func ParseSuitable(s string) (Suitable, error) {
	return enum.ParseNamed("suitability rule", s, suitRules...)
}

// PickRules lists Tabu's pick rules' names, the default first.
func PickRules() []string { return enum.Names(pickRules...) }

// ParsePick reads a Tabu pick rule's name (PickRules).
func ParsePick(s string) (Pick, error) { return enum.ParseNamed("tabu pick rule", s, pickRules...) }

// Orders lists the machine orders' names, the default first.
func Orders() []string { return enum.Names(orders...) }

// ParseMachineOrder reads a machine order's name (Orders); not to be
// confused with backfill's queue orders (backfill.ParseOrderName).
func ParseMachineOrder(s string) (Order, error) {
	return enum.ParseNamed("machine order", s, orders...)
}

// Triggers lists the Tabu triggers' names, the default first.
func Triggers() []string { return enum.Names(triggers...) }

// ParseTrigger reads a Tabu trigger's name (Triggers).
func ParseTrigger(s string) (Trigger, error) { return enum.ParseNamed("tabu trigger", s, triggers...) }

// TieRules lists the tie rules' names, the default first.
func TieRules() []string { return enum.Names(tieRules...) }

// ParseTies reads a tie rule's name (TieRules).
func ParseTies(s string) (Ties, error) { return enum.ParseNamed("tie rule", s, tieRules...) }

// GapRules lists the gap rules' names, the default first.
func GapRules() []string { return enum.Names(gapRules...) }

// ParseGaps reads a gap rule's name (GapRules).
func ParseGaps(s string) (Gaps, error) { return enum.ParseNamed("gap rule", s, gapRules...) }
