package policy

import (
	"sort"

	"github.com/schedlab/schedlab/platform"
)

// Window is an announced period [Start, End) during which CPUs of one
// machine are unavailable: an advance reservation or a maintenance
// window (docs/availability.md). Windows are known before the run; the
// CPUs are global ids, all on Machine.
type Window struct {
	Start, End float64
	Machine    int
	CPUs       platform.Runs
}

// AvailabilityPlanner is implemented by a queue policy that plans around
// unavailable CPUs: the announced windows, and the CPUs that are down
// (failed) now. The cluster model refuses to run a workload with
// windows or failures under a policy that does not implement it. Before
// the first Submit, the model calls PlanAvailability once with every
// window of the run (sorted by start, then machine, then first CPU; no
// CPU in two windows at once); ws may be empty (failures only). After
// it, the Machines view of every Schedule also implements
// AvailabilityView.
//
// A policy that implements it must start a job only on CPUs that are
// clear of every window over the job's estimated run: the model gives a
// job, among the idle available CPUs of its machine, those whose next
// window begins at or after now + its estimated duration, and refuses a
// start for which there are not enough (Horizons answers the question
// exactly, pass by pass).
type AvailabilityPlanner interface {
	PlanAvailability(ws []Window)
}

// AvailabilityView is what a Machines view adds when CPUs can be
// unavailable.
type AvailabilityView interface {
	Machines
	// Down is the number of CPUs of machine m that are down now (failed)
	// and not inside a window that has begun: a policy knows nothing of
	// when they come back. Free(m) counts neither down CPUs nor those of
	// a window that has begun.
	Down(m int) int
	// Horizons appends to dst, ascending, for every idle available CPU of
	// machine m, the start of the next window on it (+Inf: none), and
	// returns it.
	Horizons(m int, dst []float64) []float64
}

// Horizons is the multiset of next-window starts of a machine's idle
// available CPUs, for one scheduling pass: it answers "how many idle
// CPUs are clear of every window until end" and follows the starts the
// policy plans in the pass, taking from it exactly what the model will
// give the job (the CPUs whose next window begins soonest at or after
// the job's estimated end).
type Horizons struct{ h []float64 }

// Load replaces the contents with machine m's horizons from v.
func (z *Horizons) Load(v AvailabilityView, m int) { z.h = v.Horizons(m, z.h[:0]) }

// Clear is the number of CPUs clear of every window until end.
func (z *Horizons) Clear(end float64) int { return len(z.h) - z.first(end) }

func (z *Horizons) first(end float64) int { return sort.SearchFloat64s(z.h, end) }

// Take removes the n CPUs a job of estimated end end is given (the
// caller checked Clear(end) >= n).
func (z *Horizons) Take(end float64, n int) {
	i := z.first(end)
	n = min(n, len(z.h)-i)
	z.h = append(z.h[:i], z.h[i+n:]...)
}

// NodeWindow is an announced period [Start, End) during which whole
// nodes of a platform of nodes are unavailable (docs/nodes.md,
// "Reservations, maintenance and failures on nodes"): node ids,
// ascending merged runs.
type NodeWindow struct {
	Start, End float64
	Nodes      platform.Runs
}

// NodeAvailabilityPlanner is implemented by a node policy
// (NodeScheduler) that plans around unavailable nodes: the announced
// windows and the nodes down now. Before the first Submit the node
// model calls PlanNodeAvailability once with every window (sorted by
// start, then first node; no node in two windows at once; ws may be
// empty: failures only); the policy reports false when it cannot plan
// around them (the model then refuses the run). After it the NodeView
// of every Schedule also implements NodeAvailabilityView.
//
// Such a policy must start a job only on nodes that are available now
// and clear of every window until now + the job's estimate: the model
// refuses any other start, naming the job, the node and the window.
type NodeAvailabilityPlanner interface {
	PlanNodeAvailability(ws []NodeWindow) bool
}

// NodeAvailabilityView is what a NodeView adds when nodes can be
// unavailable.
type NodeAvailabilityView interface {
	NodeView
	// DownNodes appends to dst, ascending, the nodes down now (failed)
	// and not inside a window that has begun, and returns it: a policy
	// knows nothing of when they come back. A node down or in a begun
	// window shows no free core (FreeCores 0).
	DownNodes(dst []int) []int
}
