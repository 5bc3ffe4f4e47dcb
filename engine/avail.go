package engine

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/schedlab/schedlab/internal/enum"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
)

// OnFailure is what happens to a job running on a CPU that becomes
// unavailable (docs/availability.md).
type OnFailure uint8

const (
	// FailKill ends the job at that instant with final state
	// job.Killed (COMPLETED_KILLED).
	FailKill OnFailure = iota
	// FailRequeue puts the job back in the queue, at its place (its
	// submit time and id), to run again from the start.
	FailRequeue
)

var onFailureNames = [...]string{"kill", "requeue"}

func (o OnFailure) String() string {
	if int(o) < len(onFailureNames) {
		return onFailureNames[o]
	}
	return fmt.Sprintf("OnFailure(%d)", o)
}

// OnFailures lists the rules, in documentation order.
func OnFailures() []OnFailure { return []OnFailure{FailKill, FailRequeue} }

// ParseOnFailure parses "kill" or "requeue".
func ParseOnFailure(s string) (OnFailure, error) {
	return enum.ParseNamed("failure rule", s, OnFailures()...)
}

// Change is a change of availability not announced in advance: at Time,
// the CPUs (global ids) go down (Down) or come back up. Going down is
// idempotent: a CPU already down stays down, one already up stays up.
type Change struct {
	Time float64
	CPUs platform.Runs
	Down bool
}

// ChangeSource yields changes in non-decreasing time order, io.EOF after
// the last; other errors stop the run. It is read one change ahead and
// may be endless (a generator): changes stop being applied once no job
// is present and none will arrive.
type ChangeSource interface {
	Next() (Change, error)
}

// Availability configures unavailable CPUs on a cluster: announced
// windows (reservations, maintenance; the policy is told of them before
// the run) and failures (a ChangeSource; the policy learns of them when
// they happen). See docs/availability.md.
type Availability struct {
	// Windows are the announced windows. Machine is set by the model
	// from the CPUs (which must all be on one machine); no CPU may be in
	// two windows that overlap in time.
	Windows   []policy.Window
	Failures  ChangeSource // nil: none
	OnFailure OnFailure
}

// ErrNoAvailabilityPlanner: windows or failures under a policy that does
// not plan around them (policy.AvailabilityPlanner).
var ErrNoAvailabilityPlanner = errors.New("does not plan around unavailable CPUs (reservations, failures)")

// MaxWindows bounds the announced windows of a run: each window's start
// scans the windows after it (O(windows x CPU runs) in all).
const MaxWindows = 10_000

// The bounds of what failures can make a run do (docs/limits.md). A
// failure model is an endless source of changes: without them, failures
// far more frequent than the jobs are long (inside the documented bounds
// of the mean times) make a run step through them without end, write
// unavailability.csv without end, or requeue a job for ever.
const (
	// MaxFailureChanges bounds the failure changes (a failure or a
	// return, read from an events file or generated) a run applies.
	MaxFailureChanges = 2_000_000
	// MaxFailureCPUs bounds the CPUs the failure changes of a run flip,
	// summed over the changes (a change costs a step per CPU: failures of
	// a whole large machine meet it long before MaxFailureChanges).
	MaxFailureCPUs = 500_000_000
	// MaxSpans bounds the spans of unavailable CPUs a run reports, the
	// rows of unavailability.csv (windows and failures together; the
	// readers of the file, validate.MaxSpans, have the same bound).
	MaxSpans = 2_000_000
	// MaxRequeues bounds the times one job is requeued (--on-failure
	// requeue): a job hit once more after that many requeues stops the
	// run. Failures more frequent than a job's runtime would requeue it
	// for ever; a run that ends in an error says so, where killing the
	// job after some attempts would give numbers of a rule nobody asked
	// for.
	MaxRequeues = 1000
)

// maxFailureCPUs is MaxFailureCPUs (lowered by a test).
var maxFailureCPUs int64 = MaxFailureCPUs

// ErrAvailLimit is the error of a run that reaches MaxFailureChanges,
// MaxFailureCPUs, MaxSpans or MaxRequeues (errors.Is).
var ErrAvailLimit = errors.New("a bound of unavailable CPUs reached")

type availLimitError struct{ msg string }

func (e *availLimitError) Error() string        { return e.msg }
func (e *availLimitError) Is(target error) bool { return target == ErrAvailLimit }

func availLimit(format string, a ...any) error {
	return &availLimitError{fmt.Sprintf(format, a...)}
}

// UnavailKind says why CPUs were unavailable.
type UnavailKind uint8

const (
	KindReserved UnavailKind = iota // an announced window
	KindDown                        // a failure
)

func (k UnavailKind) String() string {
	if k == KindReserved {
		return "reserved"
	}
	return "down"
}

// AvailListener is a Listener also told of unavailable CPUs: every
// window (when it begins, with its whole span) and every failure span
// (when the CPUs come back, or at the end of the run for CPUs still
// down, then ending at the run's last instant), and every run a change
// cut short (before the job's JobKilled for a kill; a requeued job's
// attempt has no other record).
type AvailListener interface {
	Listener
	Unavailable(kind UnavailKind, start, end float64, cpus platform.Runs)
	Interrupted(now float64, r *Record, requeued bool)
}

// avail is the state of a cluster whose CPUs can be unavailable.
type avail struct {
	onFail OnFailure
	failureFeed
	windows []policy.Window
	hasWin  bool
	inWin   []bool    // per CPU: inside a window that has begun
	failed  []bool    // per CPU: down
	since   []float64 // per CPU: down since
	next    []float64 // per CPU: start of its next window not begun (+Inf)
	owner   []int32   // per CPU: the slot running on it (-1)
	downOut []int     // per machine: failed CPUs not in a begun window
	lis     []AvailListener
	hits    []int32
	cands   []cand
	runs    platform.Runs
	changes int   // failure changes applied (MaxFailureChanges)
	flipped int64 // CPUs of the changes applied (MaxFailureCPUs)
	spans   int   // spans reported (MaxSpans)
}

type cand struct {
	next float64
	cpu  int32
}

// Timer refs: -1 is a wake-up (Plan.Wake); refFailure the change read
// ahead; refWindow-k (k >= 0) window k/2's start (k even) or end.
const (
	refFailure = -2
	refWindow  = -3
)

// initAvail checks a and sets up the state; c.kernel is initialised.
func (c *Cluster) initAvail(a *Availability) error {
	if c.parts != nil {
		for k, pt := range c.parts.list {
			if c.parts.caps[k].Avail == nil {
				return fmt.Errorf("policy %s %w: use fcfs, easy, conservative or backfill", pt.Policy.Name(), ErrNoAvailabilityPlanner)
			}
		}
	}
	if c.caps.Avail == nil {
		return fmt.Errorf("policy %s %w: use fcfs, easy, conservative or backfill", c.cfg.Policy.Name(), ErrNoAvailabilityPlanner)
	}
	if int(a.OnFailure) >= len(onFailureNames) {
		return fmt.Errorf("engine: unknown failure rule %d", a.OnFailure)
	}
	if len(a.Windows) > MaxWindows {
		return fmt.Errorf("%d reservation windows: at most %d (engine.MaxWindows)", len(a.Windows), MaxWindows)
	}
	n := c.plat.CPUs()
	v := &avail{onFail: a.OnFailure, failureFeed: newFailureFeed(a.Failures), inWin: make([]bool, n), failed: make([]bool, n),
		since: make([]float64, n), next: make([]float64, n), owner: make([]int32, n), downOut: make([]int, c.plat.Machines())}
	for i := range v.next {
		v.next[i], v.owner[i] = math.Inf(1), -1
	}
	ws := slices.Clone(a.Windows)
	for i := range ws {
		w := &ws[i]
		w.CPUs = slices.Clone(w.CPUs)
		switch {
		case math.IsNaN(w.Start) || math.IsInf(w.Start, 0) || math.IsNaN(w.End) || math.IsInf(w.End, 0) || !(w.Start < w.End):
			return fmt.Errorf("reservation %d: window [%g, %g) must be finite, start before end", i+1, w.Start, w.End)
		case len(w.CPUs) == 0:
			return fmt.Errorf("reservation %d: no CPUs", i+1)
		}
		if err := checkRuns(w.CPUs, n); err != nil {
			return fmt.Errorf("reservation %d: %w", i+1, err)
		}
		m := c.plat.MachineOf(int(w.CPUs[0]))
		if last := int(w.CPUs[len(w.CPUs)-1]); c.plat.MachineOf(last) != m {
			return fmt.Errorf("reservation %d: CPUs %s are on more than one machine", i+1, w.CPUs)
		}
		w.Machine = m
	}
	slices.SortStableFunc(ws, func(a, b policy.Window) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.Machine, b.Machine), cmp.Compare(a.CPUs[0], b.CPUs[0]))
	})
	for i := range ws {
		for j := i + 1; j < len(ws) && ws[j].Start < ws[i].End; j++ {
			if x := overlap(ws[i].CPUs, ws[j].CPUs); x >= 0 {
				return fmt.Errorf("reservations [%g, %g) and [%g, %g) both hold CPU %d", ws[i].Start, ws[i].End, ws[j].Start, ws[j].End, x)
			}
		}
	}
	v.windows, v.hasWin = ws, len(ws) > 0
	for k := len(ws) - 1; k >= 0; k-- {
		forRuns(ws[k].CPUs, func(cpu int32) { v.next[cpu] = ws[k].Start })
	}
	for _, l := range flatten(c.lis, nil) {
		if t, ok := l.(AvailListener); ok {
			v.lis = append(v.lis, t)
		}
	}
	c.av = v
	for k := range ws {
		c.pushBackground(ws[k].Start, refWindow-2*int32(k))
		c.pushBackground(ws[k].End, refWindow-2*int32(k)-1)
	}
	if err := c.readChange(); err != nil {
		return err
	}
	c.caps.Avail.PlanAvailability(ws)
	return nil
}

// checkRuns checks that r is ascending, disjoint, merged runs of ids
// below n.
func checkRuns(r platform.Runs, n int) error {
	if len(r)%2 != 0 {
		return fmt.Errorf("CPU list of odd length %d", len(r))
	}
	for k, prev := 0, int32(-2); k+1 < len(r); k += 2 {
		if r[k] > r[k+1] || r[k] <= prev+1 || r[k] < 0 {
			return fmt.Errorf("CPUs %v are not ascending, disjoint, merged runs", []int32(r))
		}
		prev = r[k+1]
	}
	if last := r[len(r)-1]; int(last) >= n {
		return fmt.Errorf("CPU %d is not on the platform (%d CPUs: ids 0-%d)", last, n, n-1)
	}
	return nil
}

// overlap returns a CPU in both a and b, or -1.
func overlap(a, b platform.Runs) int32 {
	for i, j := 0, 0; i+1 < len(a) && j+1 < len(b); {
		lo, hi := max(a[i], b[j]), min(a[i+1], b[j+1])
		if lo <= hi {
			return lo
		}
		if a[i+1] < b[j+1] {
			i += 2
		} else {
			j += 2
		}
	}
	return -1
}

func forRuns(r platform.Runs, f func(int32)) {
	for i := 0; i+1 < len(r); i += 2 {
		for c := r[i]; c <= r[i+1]; c++ {
			f(c)
		}
	}
}

// pushBackground pushes an availability event: it keeps the run going
// only while jobs are present or will arrive.
func (c *kernel) pushBackground(t float64, ref int32) {
	c.events.Push(t, ClassTimer, ref)
	c.background++
}

// failureFeed reads the failure changes of a source one ahead, in time
// order (the pool's and the nodes' availability alike).
type failureFeed struct {
	src      ChangeSource
	pend     Change // the change read ahead (pushed as timer refFailure)
	lastTime float64
}

func newFailureFeed(src ChangeSource) failureFeed {
	return failureFeed{src: src, lastTime: math.Inf(-1)}
}

// read reads the next change into f.pend (its ids copied): false at the
// source's end. A time not finite or before the previous one, or ids
// that check refuses, is an error.
func (f *failureFeed) read(check func(platform.Runs) error) (bool, error) {
	if f.src == nil {
		return false, nil
	}
	ch, err := f.src.Next()
	if err == io.EOF {
		f.src = nil
		return false, nil
	}
	if err != nil {
		return false, err
	}
	switch {
	case math.IsNaN(ch.Time) || math.IsInf(ch.Time, 0):
		return false, fmt.Errorf("failure event at time %g: want a finite time", ch.Time)
	case ch.Time < f.lastTime:
		return false, fmt.Errorf("failure event at time %g is before the previous one at %g (events not sorted)", ch.Time, f.lastTime)
	}
	if err := check(ch.CPUs); err != nil {
		return false, fmt.Errorf("failure event at time %g: %w", ch.Time, err)
	}
	f.lastTime = ch.Time
	f.pend = ch
	f.pend.CPUs = append(f.pend.CPUs[:0:0], ch.CPUs...)
	return true, nil
}

// readChange reads the next failure change and pushes it.
func (c *Cluster) readChange() error {
	ok, err := c.av.read(func(r platform.Runs) error { return checkRuns(r, c.plat.CPUs()) })
	if ok {
		c.pushBackground(max(c.av.pend.Time, c.now), refFailure)
	}
	return err
}

// report tells the listeners of a span of unavailable CPUs, counting it
// against MaxSpans.
func (c *Cluster) report(kind UnavailKind, start, end float64, cpus platform.Runs) error {
	v := c.av
	if v.spans++; v.spans > MaxSpans {
		return availLimit("more than %d spans of unavailable CPUs by t=%g (engine.MaxSpans: the rows of unavailability.csv): make the failures rarer, the groups larger, or the simulated span shorter", MaxSpans, c.now)
	}
	for _, l := range v.lis {
		l.Unavailable(kind, start, end, cpus)
	}
	return nil
}

// availTimer applies the availability event ref.
func (c *Cluster) availTimer(ref int32) error {
	c.background--
	c.jobEvent = true // the machine changed: a pass follows
	v := c.av
	v.hits = v.hits[:0]
	if ref == refFailure {
		if v.changes++; v.changes > MaxFailureChanges {
			return availLimit("more than %d changes of availability (failures and returns) by t=%g (engine.MaxFailureChanges): a run steps through every one; make the mean times between failures and to repair longer, the groups larger, or the simulated span shorter",
				MaxFailureChanges, c.now)
		}
		ch := v.pend
		if v.flipped += int64(ch.CPUs.Count()); v.flipped > maxFailureCPUs {
			return availLimit("the changes of availability (failures and returns) up to t=%g change more than %d CPUs in all (engine.MaxFailureCPUs: a change costs a step per CPU); make the mean times between failures and to repair longer, the groups smaller, or the simulated span shorter",
				c.now, maxFailureCPUs)
		}
		if c.parts != nil {
			c.parts.touch(ch.CPUs)
		}
		if ch.Down {
			forRuns(ch.CPUs, func(cpu int32) {
				if v.failed[cpu] {
					return
				}
				v.failed[cpu], v.since[cpu] = true, c.now
				if !v.inWin[cpu] {
					c.addDown(cpu, 1)
					c.lose(cpu)
				}
			})
		} else {
			v.runs = v.runs[:0]
			var from float64
			var err error
			flush := func() {
				if len(v.runs) > 0 {
					if e := c.report(KindDown, from, c.now, v.runs); e != nil && err == nil {
						err = e
					}
					v.runs = v.runs[:0]
				}
			}
			forRuns(ch.CPUs, func(cpu int32) {
				if !v.failed[cpu] {
					return
				}
				if len(v.runs) > 0 && (v.since[cpu] != from || v.runs[len(v.runs)-1] < cpu-1) {
					flush()
				}
				from = v.since[cpu]
				v.runs = v.runs.Add(cpu)
				v.failed[cpu] = false
				if !v.inWin[cpu] {
					c.addDown(cpu, -1)
					c.regain(cpu)
				}
			})
			flush()
			if err != nil {
				return err
			}
		}
		if err := c.hitJobs(); err != nil {
			return err
		}
		return c.readChange()
	}
	k := int(refWindow - ref)
	w := &v.windows[k/2]
	if c.parts != nil {
		c.parts.touch(w.CPUs)
	}
	if k%2 == 0 { // begins
		if err := c.report(KindReserved, w.Start, w.End, w.CPUs); err != nil {
			return err
		}
		forRuns(w.CPUs, func(cpu int32) {
			v.inWin[cpu] = true
			v.next[cpu] = math.Inf(1)
			if v.failed[cpu] {
				c.addDown(cpu, -1)
			} else {
				c.lose(cpu)
			}
		})
		// The next window of each of its CPUs (windows are sorted by start).
		left := w.CPUs.Count()
		for j := k/2 + 1; j < len(v.windows) && left > 0; j++ {
			o := &v.windows[j]
			if o.Machine != w.Machine {
				continue
			}
			forRuns(o.CPUs, func(cpu int32) {
				if v.inWin[cpu] && math.IsInf(v.next[cpu], 1) && inRuns(w.CPUs, cpu) {
					v.next[cpu] = o.Start
					left--
				}
			})
		}
		return c.hitJobs()
	}
	forRuns(w.CPUs, func(cpu int32) {
		v.inWin[cpu] = false
		if v.failed[cpu] {
			c.addDown(cpu, 1)
		} else {
			c.regain(cpu)
		}
	})
	return nil
}

func inRuns(r platform.Runs, cpu int32) bool {
	for i := 0; i+1 < len(r); i += 2 {
		if r[i] <= cpu && cpu <= r[i+1] {
			return true
		}
	}
	return false
}

// lose makes an available CPU unavailable: idle, it leaves the free
// CPUs; running a job, the job is hit.
func (c *Cluster) lose(cpu int32) {
	if o := c.av.owner[cpu]; o >= 0 {
		if !slices.Contains(c.av.hits, o) {
			c.av.hits = append(c.av.hits, o)
		}
		return
	}
	c.cpus.set(platform.Runs{cpu, cpu}, false)
	c.free[c.plat.MachineOf(int(cpu))]--
	if c.parts != nil {
		c.parts.addFree(cpu, -1)
	}
}

// regain makes an unavailable CPU available (and idle).
func (c *Cluster) regain(cpu int32) {
	c.cpus.set(platform.Runs{cpu, cpu}, true)
	c.free[c.plat.MachineOf(int(cpu))]++
	if c.parts != nil {
		c.parts.addFree(cpu, 1)
	}
}

// addDown counts d more failed CPUs outside begun windows at cpu: on its
// machine, and in its partition.
func (c *Cluster) addDown(cpu int32, d int) {
	c.av.downOut[c.plat.MachineOf(int(cpu))] += d
	if c.parts != nil {
		c.parts.addDown(cpu, d)
	}
}

// usable reports whether cpu is available (neither down nor in a window
// that has begun).
func (v *avail) usable(cpu int32) bool { return !v.failed[cpu] && !v.inWin[cpu] }

// hitJobs ends or requeues the jobs running on CPUs that became
// unavailable, in the order the CPUs were met.
func (c *Cluster) hitJobs() error {
	v := c.av
	for _, i := range v.hits {
		s := c.slots.at(i)
		m := int(s.machine)
		requeue := v.onFail == FailRequeue
		if requeue && s.attempts > MaxRequeues {
			return availLimit("job %d (%d CPUs, runtime %g s) hit by a failure at t=%g after %d requeues (engine.MaxRequeues): failures come more often than it can run to its end (use the failure rule kill, or rarer failures)",
				s.job.ID, s.job.Procs, s.job.Runtime, c.now, s.attempts-1)
		}
		// Its CPUs still available become free; the others stay out.
		forRuns(s.cpus, func(cpu int32) {
			v.owner[cpu] = -1
			if v.usable(cpu) {
				c.regain(cpu)
			}
		})
		c.usage.Busy[m] -= s.job.Procs
		c.jobEvent = true
		// Its completion event is void: it no longer keeps the run
		// going (a killed last job ends the run now).
		s.stale++
		c.background++
		rec := Record{Job: &s.job, Start: s.start, End: c.now, Reason: s.reason, State: job.Killed, Machine: m, CPUs: s.cpus, Attempts: int(s.attempts)}
		for _, l := range v.lis {
			l.Interrupted(c.now, &rec, requeue)
		}
		if requeue {
			c.stats.Requeued++
			s.machine, s.cpus, s.killed = -1, s.cpus[:0], false
			s.attempts++
			c.waiting++
			c.started--
			c.stats.MaxQueued = max(c.stats.MaxQueued, c.waiting)
			c.cfg.Policy.Finish(c.now, s.job.ID)
			c.cfg.Policy.Submit(c.now, s.job.Info())
			continue
		}
		c.stats.FailureKilled++
		s.failKilled = true
		c.end(i, nil)
		c.present.Delete(s.job.ID)
		c.cfg.Policy.Finish(c.now, s.job.ID)
		s.dead = true // released when its void completion event comes
	}
	v.hits = v.hits[:0]
	return nil
}

// voidCompletion reports whether the completion event of slot i at now
// is void (its run was cut short), and consumes it.
func (c *kernel) voidCompletion(i int32) bool {
	s := c.slots.at(i)
	if s.stale == 0 || (s.machine >= 0 && !s.dead && c.now == s.endAt) {
		return false
	}
	s.stale--
	c.background--
	if s.dead && s.stale == 0 {
		c.release(i)
	}
	return true
}

// availDone reports the failure spans still open at the end of the run,
// up to its last instant: a span that began at that instant has length
// 0 (the failure that killed the last job: the checker needs it).
func (c *Cluster) availDone() error {
	v := c.av
	if v == nil {
		return nil
	}
	v.runs = v.runs[:0]
	var from float64
	var err error
	flush := func() {
		if len(v.runs) > 0 {
			if e := c.report(KindDown, from, c.now, v.runs); e != nil && err == nil {
				err = e
			}
		}
		v.runs = v.runs[:0]
	}
	for cpu := range int32(len(v.failed)) {
		if !v.failed[cpu] {
			continue
		}
		if len(v.runs) > 0 && (v.since[cpu] != from || v.runs[len(v.runs)-1] < cpu-1) {
			flush()
		}
		from = v.since[cpu]
		v.runs = v.runs.Add(cpu)
	}
	flush()
	return err
}

// pickCPUs chooses the CPUs of slot i on machine m when windows are
// announced: among the idle available CPUs whose next window begins at
// or after end (the job's estimated end), the n whose next window begins
// soonest (ties: lowest id), keeping the CPUs free longest for longer
// jobs. It returns an error text when fewer than n qualify.
func (c *Cluster) pickCPUs(dst platform.Runs, m int, n int, end float64) (platform.Runs, string) {
	first := int32(c.plat.First(m))
	return c.pickFrom(dst, first, first+int32(c.machs[m].CPUs)-1, nil, n, end)
}

// pickFrom is pickCPUs over the CPUs lo..hi, or over the runs r when
// r is not nil (a partition's CPUs).
func (c *Cluster) pickFrom(dst platform.Runs, lo, hi int32, r platform.Runs, n int, end float64) (platform.Runs, string) {
	v := c.av
	v.cands = v.cands[:0]
	for i := 0; ; i += 2 {
		if r != nil {
			if i+1 >= len(r) {
				break
			}
			lo, hi = r[i], r[i+1]
		} else if i > 0 {
			break
		}
		for cpu := lo; cpu <= hi; cpu++ {
			if c.cpus.free(cpu) && v.next[cpu] >= end {
				v.cands = append(v.cands, cand{v.next[cpu], cpu})
			}
		}
	}
	if len(v.cands) < n {
		return dst, fmt.Sprintf("needs %d CPUs clear of reservations until its estimated end t=%g, %d are", n, end, len(v.cands))
	}
	slices.SortFunc(v.cands, func(a, b cand) int { return cmp.Or(cmp.Compare(a.next, b.next), cmp.Compare(a.cpu, b.cpu)) })
	v.cands = v.cands[:n]
	slices.SortFunc(v.cands, func(a, b cand) int { return cmp.Compare(a.cpu, b.cpu) })
	for _, x := range v.cands {
		dst = dst.Add(x.cpu)
	}
	c.cpus.set(dst, false)
	return dst, ""
}

// Down is the number of failed CPUs of machine m outside begun windows.
func (v machinesView) Down(m int) int {
	if v.c.av == nil {
		return 0
	}
	return v.c.av.downOut[m]
}

// Horizons appends the next-window start of every idle available CPU
// of machine m, ascending.
func (v machinesView) Horizons(m int, dst []float64) []float64 {
	c := v.c
	if c.av == nil || !c.av.hasWin {
		for range c.free[m] {
			dst = append(dst, math.Inf(1))
		}
		return dst
	}
	first := c.plat.First(m)
	n0 := len(dst)
	for cpu := int32(first); int(cpu) < first+c.machs[m].CPUs; cpu++ {
		if c.cpus.free(cpu) {
			dst = append(dst, c.av.next[cpu])
		}
	}
	slices.Sort(dst[n0:])
	return dst
}
