package validate

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// Input is one job as read from the trace.
type Input struct {
	ID      int64
	Submit  float64
	Runtime float64 // actual runtime
	Request float64 // requested time (walltime); <= 0: unknown
	Procs   int
	// Allowed, when not nil, are the only CPUs the job may hold (its
	// partition's: docs/partitions.md); its record must list its CPUs.
	Allowed []Interval
}

// Rec is one job of the produced schedule.
type Rec struct {
	ID     int64
	Submit float64
	Start  float64
	Finish float64
	Procs  int
	State  string // StateCompleted or StateWalltime
	// CPUs are the CPUs the job held, as intervals of global CPU ids (see
	// ParseResources); nil when unknown (a jobs.csv without the
	// allocated_resources column). Check accepts any order, but lists read
	// from a file are in normal form.
	CPUs []Interval
}

// Final states of a job, as in Batsim's jobs.csv.
const (
	StateCompleted = "COMPLETED_SUCCESSFULLY"
	StateWalltime  = "COMPLETED_WALLTIME_REACHED"
)

// Options describe the machine and the kill rule the schedule was made
// with.
type Options struct {
	Procs int  // machine size: total CPU count of the platform
	Kill  bool // jobs running past a known Request are killed at Request

	// Machines are the CPU counts of the platform's machines in id order
	// (machine m owns the ids right after machine m-1's); they must sum to
	// Procs. nil: one machine of Procs CPUs.
	Machines []int
	// OneMachine: every job's CPUs must lie inside one machine (checked
	// only for records that list their CPUs).
	OneMachine bool
	// Unavailable are the spans when CPUs could hold no job (windows,
	// failures: docs/availability.md). With them, no record may hold a
	// CPU of a span during it, and a record may end with StateKilled,
	// shorter than its expected duration, exactly where a span begins on
	// one of its CPUs. Records must list their CPUs for both checks.
	Unavailable []Span
}

// Tolerance is the relative tolerance of time comparisons.
const Tolerance = 1e-9

// MaxListed is the number of problems an Error message lists in full.
const MaxListed = 20

// Error lists the problems found by Check, in a deterministic order:
// problems of the options and the input, of each record in schedule order
// (its CPU list last), missing jobs in input order, the capacity
// violation, records without CPUs when others have them, then CPU
// conflicts in time order.
type Error struct {
	Problems []string
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "invalid schedule: %d problem", len(e.Problems))
	if len(e.Problems) != 1 {
		b.WriteString("s")
	}
	for i, p := range e.Problems {
		if i == MaxListed {
			fmt.Fprintf(&b, "\n\tand %d more", len(e.Problems)-MaxListed)
			break
		}
		b.WriteString("\n\t")
		b.WriteString(p)
	}
	return b.String()
}

// near reports whether a and b differ by at most Tolerance times scale.
func near(a, b, scale float64) bool {
	return math.Abs(a-b) <= Tolerance*scale
}

func absMax(xs ...float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, math.Abs(x))
	}
	return m
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Expected returns the duration and final state a job must have under opt:
// if opt.Kill and the request is known and shorter than the runtime, the
// job is killed at the request; otherwise it runs for its runtime.
func Expected(in Input, opt Options) (duration float64, state string) {
	if opt.Kill && in.Request > 0 && in.Runtime > in.Request {
		return in.Request, StateWalltime
	}
	return in.Runtime, StateCompleted
}

// Check returns nil if out is a valid schedule of in under opt, else an
// *Error listing the problems.
//
// When records list their CPUs (Rec.CPUs non-nil), Check also verifies
// processor identities: each record lists as many CPUs as its Procs, no
// CPU twice, all in [0, opt.Procs), inside one machine if opt.OneMachine,
// and no CPU is held by two jobs at once. If some records list CPUs and
// others do not, that is a problem too. See the package documentation.
func Check(in []Input, out []Rec, opt Options) error {
	var probs []string
	add := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }

	if opt.Procs <= 0 {
		add("options: machine size %d, want > 0", opt.Procs)
	}
	bounds := machineBounds(opt, add) // machine m: CPUs bounds[m]..bounds[m+1]-1

	index := make(map[int64]int, len(in)) // id -> index into in
	for i, j := range in {
		if _, dup := index[j.ID]; dup {
			add("input: job %d listed twice", j.ID)
			continue
		}
		index[j.ID] = i
	}

	spans := newSpanIndex(opt.Unavailable)
	seen := make(map[int64]int, len(in)) // id -> number of records
	record := func(n int, r Rec) {
		i, ok := index[r.ID]
		if !ok {
			add("job %d: unknown id (record %d)", r.ID, n+1)
			return
		}
		seen[r.ID]++
		if seen[r.ID] > 1 {
			return // reported once below, with the count
		}
		j := in[i]
		if !finite(r.Submit, r.Start, r.Finish) {
			add("job %d: non-finite time (submit %v, start %v, finish %v)", r.ID, r.Submit, r.Start, r.Finish)
			return
		}
		if !near(r.Submit, j.Submit, absMax(r.Submit, j.Submit)) {
			add("job %d: submit time %v, trace says %v", r.ID, r.Submit, j.Submit)
		}
		if r.Start < j.Submit && !near(r.Start, j.Submit, absMax(r.Start, j.Submit)) {
			add("job %d: starts at %v before its submit time %v", r.ID, r.Start, j.Submit)
		}
		if r.Procs != j.Procs {
			add("job %d: %d processors, trace says %d", r.ID, r.Procs, j.Procs)
		}
		if j.Allowed != nil {
			if r.CPUs == nil {
				add("job %d: lists no CPUs, but may only hold CPUs %s (its partition)", r.ID, intervalsText(j.Allowed))
			} else if c := outside(r.CPUs, j.Allowed); c >= 0 {
				add("job %d: holds CPU %d, outside the CPUs %s it may hold (its partition)", r.ID, c, intervalsText(j.Allowed))
			}
		}
		dur, state := Expected(j, opt)
		if r.State == StateKilled && opt.Unavailable != nil {
			if r.CPUs == nil || !killedOK(r, r.CPUs, dur, spans) {
				add("job %d: final state %s at %v, but no unavailable span begins then on its CPUs before its expected end %v", r.ID, StateKilled, r.Finish, r.Start+dur)
			}
			return
		}
		if got := r.Finish - r.Start; !near(got, dur, absMax(r.Start, r.Finish, dur)) {
			add("job %d: ran %v (start %v, finish %v), want %v", r.ID, got, r.Start, r.Finish, dur)
		}
		if r.State != state {
			add("job %d: final state %q, want %q", r.ID, r.State, state)
		}
	}
	var cpus [][]Interval // per record: its CPUs in normal form, clipped to the platform; nil if none
	withCPUs := 0
	for n, r := range out {
		record(n, r)
		if r.CPUs != nil {
			if cpus == nil {
				cpus = make([][]Interval, len(out))
			}
			cpus[n] = cpuList(r, opt, bounds, add)
			withCPUs++
		}
	}
	for i, j := range in {
		if index[j.ID] != i {
			continue // a repeated input id, reported above
		}
		switch n := seen[j.ID]; {
		case n == 0:
			add("job %d: missing from the schedule", j.ID)
		case n > 1:
			add("job %d: appears %d times", j.ID, n)
		}
	}

	evs := timeEvents(out)
	if opt.Procs > 0 {
		if p := capacity(out, evs, opt.Procs); p != "" {
			probs = append(probs, p)
		}
	}
	if withCPUs > 0 && withCPUs < len(out) {
		var ids []string
		for _, r := range out {
			if r.CPUs != nil {
				continue
			}
			if len(ids) == MaxListed {
				ids = append(ids, fmt.Sprintf("and %d more", len(out)-withCPUs-MaxListed))
				break
			}
			ids = append(ids, fmt.Sprint(r.ID))
		}
		add("allocated CPUs missing for %d of %d records (jobs %s)", len(out)-withCPUs, len(out), strings.Join(ids, ", "))
	}
	if withCPUs > 0 && opt.Procs > 0 {
		cpuConflicts(out, cpus, evs, add)
	}
	if len(opt.Unavailable) > 0 {
		checkUnavailable(out, cpus, opt, add)
	}
	if len(probs) > 0 {
		return &Error{Problems: probs}
	}
	return nil
}

// event is the start or the finish of record rec at time t.
type event struct {
	t     float64
	start bool
	rec   int
}

// timeEvents returns the start and finish events of the records that take
// processor time (finite times, Finish > Start) in sweep order: by time,
// finishes before starts at equal times, then by record.
func timeEvents(out []Rec) []event {
	var evs []event
	for i, r := range out {
		if !finite(r.Start, r.Finish) || !(r.Finish > r.Start) {
			continue // zero-length (or broken, reported above) jobs take no processor time
		}
		evs = append(evs, event{r.Start, true, i}, event{r.Finish, false, i})
	}
	slices.SortFunc(evs, func(a, b event) int {
		switch {
		case a.t != b.t:
			if a.t < b.t {
				return -1
			}
			return 1
		case a.start != b.start:
			if !a.start { // finishes first
				return -1
			}
			return 1
		}
		return a.rec - b.rec
	})
	return evs
}

// capacity sweeps the events evs of out and describes the first time the
// running jobs need more than procs processors ("" if never).
func capacity(out []Rec, evs []event, procs int) string {
	used := 0
	var run []int // records running, in start order
	for _, e := range evs {
		r := out[e.rec]
		if !e.start {
			used -= r.Procs
			run = slices.DeleteFunc(run, func(k int) bool { return k == e.rec })
			continue
		}
		used += r.Procs
		run = append(run, e.rec)
		if used > procs {
			ids := make([]string, 0, len(run))
			for n, k := range run {
				if n == MaxListed {
					ids = append(ids, fmt.Sprintf("and %d more", len(run)-MaxListed))
					break
				}
				ids = append(ids, fmt.Sprint(out[k].ID))
			}
			return fmt.Sprintf("capacity exceeded at time %v: %d processors in use, machine has %d (jobs %s)",
				e.t, used, procs, strings.Join(ids, ", "))
		}
	}
	return ""
}

// outside returns the lowest CPU of cpus in none of the intervals of
// allowed, or -1.
func outside(cpus, allowed []Interval) int {
	first := -1
	for _, iv := range cpus {
		for c := iv.Lo; c <= iv.Hi; c++ {
			in := false
			for _, a := range allowed {
				if a.Lo <= c && c <= a.Hi {
					in = true
					break
				}
			}
			if !in && (first < 0 || c < first) {
				first = c
				break
			}
		}
	}
	return first
}

// intervalsText writes intervals in the allocated_resources syntax.
func intervalsText(ivs []Interval) string {
	parts := make([]string, len(ivs))
	for i, iv := range ivs {
		if iv.Lo == iv.Hi {
			parts[i] = fmt.Sprint(iv.Lo)
		} else {
			parts[i] = fmt.Sprintf("%d-%d", iv.Lo, iv.Hi)
		}
	}
	return strings.Join(parts, " ")
}
