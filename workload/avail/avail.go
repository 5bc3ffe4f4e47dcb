package avail

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/rng"
)

// Window is an announced period [Start, End) during which CPUs are
// unavailable: an advance reservation or a maintenance window.
type Window struct {
	Start, End float64
	CPUs       platform.Runs // global CPU ids
}

// Change is a failure (Down) or a return at Time of CPUs.
type Change struct {
	Time float64
	CPUs platform.Runs
	Down bool
}

// ParseCPUs reads a CPU set in jobs.csv's allocated_resources syntax
// ("0-49", "0-3 8 10-11"; ids separated by spaces, in any order) for a
// platform of procs CPUs, and returns it as sorted, merged runs.
func ParseCPUs(s string, procs int) (platform.Runs, error) {
	type run struct{ lo, hi int32 }
	var rs []run
	for _, tok := range strings.Fields(s) {
		a, b, isRange := strings.Cut(tok, "-")
		lo, err := cpuID(a, procs)
		if err != nil {
			return nil, err
		}
		hi := lo
		if isRange {
			if hi, err = cpuID(b, procs); err != nil {
				return nil, err
			}
			if hi < lo {
				return nil, fmt.Errorf("CPU range %q runs backwards", tok)
			}
		}
		rs = append(rs, run{lo, hi})
	}
	if len(rs) == 0 {
		return nil, errors.New("no CPU ids")
	}
	slices.SortFunc(rs, func(a, b run) int { return int(a.lo) - int(b.lo) })
	var out platform.Runs
	for _, r := range rs {
		if n := len(out); n > 0 && r.lo <= out[n-1]+1 {
			out[n-1] = max(out[n-1], r.hi)
			continue
		}
		out = append(out, r.lo, r.hi)
	}
	return out, nil
}

func cpuID(s string, procs int) (int32, error) {
	n, err := strconv.Atoi(s)
	switch {
	case err != nil || n < 0:
		return 0, fmt.Errorf("%q is not a CPU id (a whole number >= 0)", s)
	case n >= procs:
		return 0, fmt.Errorf("CPU %d is not on the machine (%d CPUs: ids 0-%d)", n, procs, procs-1)
	}
	return int32(n), nil
}

// ParseReservation reads "START:END:CPUS" for a machine of procs CPUs:
// START and END in seconds of the trace's time (START < END, both
// finite), CPUS either a count N (the CPUs 0..N-1) or CPU ids in
// allocated_resources syntax with at least one range or space ("0-49",
// "0-3 8"; one CPU alone is "7-7"). It is ParseReservationAt with no
// dates.
func ParseReservation(s string, procs int) (Window, error) {
	return ParseReservationAt(s, procs, nil)
}

// reservationTimes splits the START:END of a reservation whose ends may
// be dates with colons of their own (1996-10-01T00:00:00): each end a
// date (YYYY-MM-DD, optionally THH:MM or THH:MM:SS, T or a space before
// the time) or any text without a colon (a number of seconds, checked
// after).
var reservationTimes = regexp.MustCompile(`^(` + dateRE + `|[^:]*):(` + dateRE + `|[^:]*)$`)

// dateRE is a date as ParseReservationAt takes it.
const dateRE = `\s*\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?)?\s*`

var isDate = regexp.MustCompile(`^` + dateRE + `$`)

// ParseReservationAt is ParseReservation with START and END also given as
// dates, which instant places in the trace's time (seconds since its
// start: workload.ParseInstant with the trace's header); a nil instant
// takes seconds only and says so when given a date.
func ParseReservationAt(s string, procs int, instant func(string) (float64, error)) (Window, error) {
	var w Window
	c, err := splitSpan(s, instant, &w.Start, &w.End, "CPUS", "a CPU count or ids such as 0-49")
	if err != nil {
		return Window{}, err
	}
	if n, err := strconv.Atoi(c); err == nil {
		if n < 1 || n > procs {
			return Window{}, fmt.Errorf("%q: CPUS: a count of %d, want 1..%d (the machine's CPUs)", s, n, procs)
		}
		w.CPUs = platform.Runs{0, int32(n - 1)}
		return w, nil
	}
	if w.CPUs, err = ParseCPUs(c, procs); err != nil {
		return Window{}, fmt.Errorf("%q: CPUS: %w", s, err)
	}
	return w, nil
}

// splitSpan reads the START:END of "START:END:WHAT" into start and end
// (seconds, or dates that instant places) and returns WHAT, trimmed;
// what and example name the last field in messages.
func splitSpan(s string, instant func(string) (float64, error), start, end *float64, what, example string) (string, error) {
	i := strings.LastIndex(s, ":")
	if i < 0 {
		return "", fmt.Errorf("%q: want START:END:%s (seconds or dates, then %s)", s, what, example)
	}
	m := reservationTimes.FindStringSubmatch(s[:i])
	if m == nil {
		return "", fmt.Errorf("%q: want START:END:%s (seconds or dates such as 1996-10-01T06:00:00, then %s)", s, what, example)
	}
	at := func(what, t string) (float64, error) {
		if !isDate.MatchString(t) {
			x, err := seconds(t)
			if err != nil {
				return 0, fmt.Errorf("%s: %w", what, err)
			}
			return x, nil
		}
		if instant == nil {
			return 0, fmt.Errorf("%s %q: a date needs the trace's start (its header's UnixStartTime): give seconds here", what, t)
		}
		x, err := instant(t)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", what, err)
		}
		return x, nil
	}
	var err error
	if *start, err = at("START", m[1]); err != nil {
		return "", fmt.Errorf("%q: %w", s, err)
	}
	if *end, err = at("END", m[2]); err != nil {
		return "", fmt.Errorf("%q: %w", s, err)
	}
	if !(*start < *end) {
		return "", fmt.Errorf("%q: END %g is not after START %g", s, *end, *start)
	}
	return strings.TrimSpace(s[i+1:]), nil
}

func seconds(s string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%q is not a finite number of seconds", s)
	}
	return x, nil
}

// CheckWindows checks that no CPU is in two windows that overlap in
// time, naming the windows by their place in ws (1-based) and what.
func CheckWindows(ws []Window, what string) error {
	if len(ws) > MaxWindows {
		return fmt.Errorf("%d %ss: at most %d", len(ws), what, MaxWindows)
	}
	for i := range ws {
		for j := i + 1; j < len(ws); j++ {
			if ws[i].Start < ws[j].End && ws[j].Start < ws[i].End {
				if c := common(ws[i].CPUs, ws[j].CPUs); c >= 0 {
					return fmt.Errorf("%s %d [%g, %g) and %s %d [%g, %g) overlap on CPU %d", what, i+1, ws[i].Start, ws[i].End, what, j+1, ws[j].Start, ws[j].End, c)
				}
			}
		}
	}
	return nil
}

// MaxWindows bounds the reservations of a run (the engine's bound,
// engine.MaxWindows).
const MaxWindows = 10_000

func common(a, b platform.Runs) int32 {
	for i, j := 0, 0; i+1 < len(a) && j+1 < len(b); {
		if lo, hi := max(a[i], b[j]), min(a[i+1], b[j+1]); lo <= hi {
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

// MaxLine bounds a line of an events file, in bytes.
const MaxLine = 1 << 20

// Event types of an events file (Batsim's external events).
const (
	TypeUnavailable = "machine_unavailable"
	TypeAvailable   = "machine_available"
)

// Events reads an events file: one JSON object a line,
// {"timestamp": T, "type": "machine_unavailable"|"machine_available",
// "resources": "0-49"}, timestamps non-decreasing (seconds, or dates as
// strings with Dates); blank lines are skipped. Create it with NewEvents; Next returns io.EOF at the end.
type Events struct {
	sc    *bufio.Scanner
	name  string
	procs int
	ns    *nodes.Nodes // set: resources are node names (NewNodeEvents)
	line  int
	last  float64
	// instant places a timestamp given as a date (nil: seconds only).
	instant func(string) (float64, error)
}

// NewEvents reads events from r (named name in errors) for a machine of
// procs CPUs.
func NewEvents(r io.Reader, name string, procs int) *Events {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	return &Events{sc: sc, name: name, procs: procs, last: math.Inf(-1)}
}

// NewNodeEvents reads events from r (named name in errors) for the
// platform of nodes ns: each line's resources are nodes (ParseNodeSet:
// a hostlist such as "n[1-4]", or ALL), and each Change's CPUs are the
// node ids.
func NewNodeEvents(r io.Reader, name string, ns *nodes.Nodes) *Events {
	e := NewEvents(r, name, 0)
	e.ns = ns
	return e
}

// Dates lets the events file give timestamps as dates too, strings as
// --reservation takes them ("1996-10-01T06:00:00"), which instant places
// in the trace's time (workload.ParseInstant with the trace's header);
// without it a date is refused, saying why. It returns e.
func (e *Events) Dates(instant func(string) (float64, error)) *Events {
	e.instant = instant
	return e
}

type eventLine struct {
	Timestamp json.RawMessage `json:"timestamp"`
	Type      *string         `json:"type"`
	Resources *string         `json:"resources"`
}

// Next returns the next change.
func (e *Events) Next() (Change, error) {
	for e.sc.Scan() {
		e.line++
		b := bytes.TrimSpace(e.sc.Bytes())
		if len(b) == 0 {
			continue
		}
		bad := func(format string, a ...any) (Change, error) {
			return Change{}, fmt.Errorf("%s:%d: %s", e.name, e.line, fmt.Sprintf(format, a...))
		}
		var ev eventLine
		d := json.NewDecoder(bytes.NewReader(b))
		if err := d.Decode(&ev); err != nil {
			return bad("not a JSON object: %v", err)
		}
		if d.More() {
			return bad("more than one JSON value on the line")
		}
		var ts float64
		if len(ev.Timestamp) == 0 || string(ev.Timestamp) == "null" {
			return bad("field timestamp: missing")
		}
		if ev.Timestamp[0] == '"' {
			var d string
			if err := json.Unmarshal(ev.Timestamp, &d); err != nil {
				return bad("field timestamp: %v", err)
			}
			switch {
			case !isDate.MatchString(d):
				return bad("field timestamp: %q: want seconds of the trace's time (a number) or a date YYYY-MM-DD[THH:MM[:SS]] in the trace's zone", d)
			case e.instant == nil:
				return bad("field timestamp: the date %q needs the trace's start (its header's UnixStartTime): give seconds here", d)
			}
			t, err := e.instant(strings.TrimSpace(d))
			if err != nil {
				return bad("field timestamp: %v", err)
			}
			ts = t
		} else if err := json.Unmarshal(ev.Timestamp, &ts); err != nil {
			return bad("field timestamp: %s: want a number of seconds or a date (a string)", ev.Timestamp)
		}
		switch {
		case math.IsNaN(ts) || math.IsInf(ts, 0):
			return bad("field timestamp: %g is not finite", ts)
		case ts < e.last:
			return bad("field timestamp: %s is before the previous event's %s (events must be sorted by time)", ftoa(ts), ftoa(e.last))
		case ev.Type == nil:
			return bad("field type: missing")
		case *ev.Type != TypeUnavailable && *ev.Type != TypeAvailable:
			return bad("field type: %q, want %s or %s", *ev.Type, TypeUnavailable, TypeAvailable)
		case ev.Resources == nil:
			return bad("field resources: missing")
		}
		var cpus platform.Runs
		var err error
		if e.ns != nil {
			cpus, err = ParseNodeSet(*ev.Resources, e.ns)
		} else {
			cpus, err = ParseCPUs(*ev.Resources, e.procs)
		}
		if err != nil {
			return bad("field resources: %v", err)
		}
		e.last = ts
		return Change{Time: ts, CPUs: cpus, Down: *ev.Type == TypeUnavailable}, nil
	}
	if err := e.sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return Change{}, fmt.Errorf("%s:%d: line longer than %d bytes", e.name, e.line+1, MaxLine)
		}
		return Change{}, fmt.Errorf("%s: %w", e.name, err)
	}
	return Change{}, io.EOF
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// Failures configures the failure generator: each group of CPUs
// alternates between up and down, the up times exponential of mean
// MTBF, the down times exponential of mean MTTR (seconds), starting up
// at time From; a whole group fails and returns at once. The groups are
// consecutive blocks of GroupSize CPUs of the CPU set CPUs (the last
// block may be smaller); GroupSize 0 makes CPUs one group.
type Failures struct {
	MTBF, MTTR float64
	Seed       uint64
	CPUs       platform.Runs // nil: the whole machine
	GroupSize  int
	From       float64
}

// MaxGroups bounds the failure groups (one pending change each).
const MaxGroups = 1 << 16

// Check checks f for a machine of procs CPUs.
func (f Failures) Check(procs int) error {
	switch {
	case !(f.MTBF > 0) || math.IsInf(f.MTBF, 0):
		return fmt.Errorf("mtbf %g: want a positive number of seconds", f.MTBF)
	case !(f.MTTR > 0) || math.IsInf(f.MTTR, 0):
		return fmt.Errorf("mttr %g: want a positive number of seconds", f.MTTR)
	case f.GroupSize < 0:
		return fmt.Errorf("group_size %d: want >= 0 (0: all the CPUs fail together)", f.GroupSize)
	}
	n := procs
	if f.CPUs != nil {
		n = f.CPUs.Count()
	}
	if f.GroupSize > 0 && (n+f.GroupSize-1)/f.GroupSize > MaxGroups {
		return fmt.Errorf("group_size %d makes %d groups: at most %d", f.GroupSize, (n+f.GroupSize-1)/f.GroupSize, MaxGroups)
	}
	return nil
}

// Generator yields the changes of Failures, in time order, endlessly.
type Generator struct {
	groups []platform.Runs
	next   []float64 // per group: the time of its next change
	down   []bool    // per group: down now
	r      []*rand.Rand
	mtbf   float64
	mttr   float64
	heap   []int32 // the groups, a binary min-heap by (next, group)
}

// NewGenerator returns the generator of f for a machine of procs CPUs
// and replication rep (each group draws from the stream (seed, rep,
// "failures/<group>")); f must pass Check.
func NewGenerator(f Failures, procs int, rep int) *Generator {
	set := f.CPUs
	if set == nil {
		set = platform.Runs{0, int32(procs - 1)}
	}
	var ids []int32
	for i := 0; i+1 < len(set); i += 2 {
		for c := set[i]; c <= set[i+1]; c++ {
			ids = append(ids, c)
		}
	}
	size := f.GroupSize
	if size == 0 {
		size = len(ids)
	}
	g := &Generator{mtbf: f.MTBF, mttr: f.MTTR}
	for k := 0; k*size < len(ids); k++ {
		var rs platform.Runs
		for _, c := range ids[k*size : min(len(ids), (k+1)*size)] {
			rs = rs.Add(c)
		}
		r := rng.New(f.Seed, rep, fmt.Sprintf("failures/%d", k))
		g.groups = append(g.groups, rs)
		g.r = append(g.r, r)
		g.next = append(g.next, f.From+r.ExpFloat64()*f.MTBF)
		g.down = append(g.down, false)
	}
	g.heap = make([]int32, len(g.groups))
	for k := range g.heap {
		g.heap[k] = int32(k)
	}
	for i := len(g.heap)/2 - 1; i >= 0; i-- {
		g.siftDown(i)
	}
	return g
}

// Next returns the earliest pending change (ties: the lowest group).
// The groups are kept in a heap: a change costs O(log groups), not a
// scan of every group (65,536 groups and the engine's 2,000,000 changes
// took minutes).
func (g *Generator) Next() (Change, error) {
	k := g.heap[0]
	ch := Change{Time: g.next[k], CPUs: g.groups[k], Down: !g.down[k]}
	g.down[k] = !g.down[k]
	mean := g.mtbf
	if g.down[k] {
		mean = g.mttr
	}
	g.next[k] += g.r[k].ExpFloat64() * mean
	g.siftDown(0)
	return ch, nil
}

// before orders the groups by the time of their next change, ties by
// group.
func (g *Generator) before(a, b int32) bool {
	return g.next[a] < g.next[b] || (g.next[a] == g.next[b] && a < b)
}

func (g *Generator) siftDown(i int) {
	h := g.heap
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && g.before(h[r], h[l]) {
			m = r
		}
		if !g.before(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
