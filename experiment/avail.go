package experiment

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload/avail"
)

// AvailSpec makes CPUs of a trace run's machine unavailable
// (docs/availability.md): announced windows and failures. The zero
// value is none.
type AvailSpec struct {
	// Reservations are windows "START:END:CPUS" (avail.ParseReservationAt:
	// on a trace run START and END may be dates in the trace's zone).
	Reservations []string
	// Events is a file of Batsim-style external events (JSON lines);
	// "" for none.
	Events string
	// Failures, when set, generates failures (exponential up and down
	// times), from the stream of the run's replication.
	Failures *avail.Failures
	// OnFailure is "kill" (the default, "") or "requeue".
	OnFailure string
	// Name names the reservations in errors ("--reservation" when "").
	Name string
	// instant places a date of a reservation or of an events file in the trace's time (a
	// trace run: workload.ParseInstant with its header); nil: seconds
	// only.
	instant func(string) (float64, error)
}

// Used reports whether a makes anything unavailable.
func (a AvailSpec) Used() bool {
	return len(a.Reservations) > 0 || a.Events != "" || a.Failures != nil
}

// scenarioAvail is the AvailSpec of a cluster scenario's platform
// (platform.reservations, events, failures, on_failure): the failures
// are drawn from the scenario's seed, as run --failures from --seed.
func scenarioAvail(s scenario.Scenario) AvailSpec {
	p := s.Platform
	a := AvailSpec{Reservations: p.Reservations, Events: p.Events, OnFailure: p.OnFailure, Name: "platform.reservations"}
	if f := p.Failures; f.MTBF > 0 {
		a.Failures = &avail.Failures{MTBF: f.MTBF, MTTR: f.MTTR, Seed: s.Seed, GroupSize: f.Group}
	}
	return a
}

// AvailInfo is what summary.json says of unavailable CPUs.
type AvailInfo struct {
	Reservations int    `json:"reservations"`
	Events       string `json:"events_file,omitempty"`
	Failures     string `json:"failures,omitempty"`
	OnFailure    string `json:"on_failure"`
	metrics.UnavailCounts
}

// build checks a for a machine of procs CPUs and returns the engine's
// configuration; close ends the reading of the events file.
func (a AvailSpec) build(plat platform.Platform, rep int) (cfg *engine.Availability, closeFn func() error, err error) {
	name := a.Name
	if name == "" {
		name = "--reservation"
	}
	procs := plat.CPUs()
	of, err := engine.ParseOnFailure(orText(a.OnFailure, "kill"))
	if err != nil {
		return nil, nil, err
	}
	var ws []avail.Window
	for i, s := range a.Reservations {
		w, err := avail.ParseReservationAt(s, procs, a.instant)
		if err != nil {
			return nil, nil, &AvailError{fmt.Errorf("%s %d: %w", name, i+1, err)}
		}
		ws = append(ws, w)
	}
	if err := avail.CheckWindows(ws, name); err != nil {
		return nil, nil, &AvailError{err}
	}
	cfg = &engine.Availability{OnFailure: of}
	for _, w := range ws {
		cfg.Windows = append(cfg.Windows, policy.Window{Start: w.Start, End: w.End, CPUs: w.CPUs})
	}
	events := func(f io.Reader) *avail.Events { return avail.NewEvents(f, a.Events, procs).Dates(a.instant) }
	if cfg.Failures, closeFn, err = a.failureSource(events, procs, rep, "failures"); err != nil {
		return nil, nil, err
	}
	return cfg, closeFn, nil
}

// failureSource is the failures of a, one source: the events file
// (read by events: CPU or node ids) and the generated failures over
// units CPUs or nodes (what names them in an error), merged in time
// order when both are given; nil with neither. closeFn closes the file.
func (a AvailSpec) failureSource(events func(io.Reader) *avail.Events, units, rep int, what string) (src engine.ChangeSource, closeFn func() error, err error) {
	closeFn = func() error { return nil }
	var srcs []engine.ChangeSource
	if a.Events != "" {
		f, err := os.Open(a.Events)
		if err != nil {
			return nil, nil, fmt.Errorf("--events: %w", err)
		}
		closeFn = f.Close
		srcs = append(srcs, changes{events(f)})
	}
	if a.Failures != nil {
		if err := a.Failures.Check(units); err != nil {
			closeFn()
			return nil, nil, &AvailError{fmt.Errorf("%s: %w", what, err)}
		}
		srcs = append(srcs, changes{avail.NewGenerator(*a.Failures, units, rep)})
	}
	switch len(srcs) {
	case 1:
		src = srcs[0]
	case 2:
		src = &mergeChanges{src: srcs}
	}
	return src, closeFn, nil
}

// limitError names the settings of a behind a run's error when the
// error is a bound of failures (engine.ErrAvailLimit: MaxFailureChanges,
// MaxSpans, MaxRequeues): the flags of schedlab run, or a scenario's
// platform keys. Other errors are returned as they are.
func (a AvailSpec) limitError(err error) error {
	if !errors.Is(err, engine.ErrAvailLimit) {
		return err
	}
	scen := a.Name == "platform.reservations"
	var what []string
	if a.Events != "" {
		what = append(what, map[bool]string{false: "--events ", true: "platform.events "}[scen]+a.Events)
	}
	if f := a.Failures; f != nil {
		if scen {
			g := ""
			if f.GroupSize > 0 {
				g = fmt.Sprintf(", group: %d", f.GroupSize)
			}
			what = append(what, fmt.Sprintf("platform.failures {mtbf: %g, mttr: %g%s}", f.MTBF, f.MTTR, g))
		} else {
			g := ""
			if f.GroupSize > 0 {
				g = fmt.Sprintf(":%d", f.GroupSize)
			}
			what = append(what, fmt.Sprintf("--failures %g:%g%s", f.MTBF, f.MTTR, g))
		}
	}
	if a.OnFailure == "requeue" {
		what = append(what, map[bool]string{false: "--on-failure requeue", true: "platform.on_failure requeue"}[scen])
	}
	sep := " "
	if scen {
		sep = ", "
	}
	return fmt.Errorf("%s: %w", strings.Join(what, sep), err)
}

// AvailError is an AvailSpec that does not fit the machine (a
// reservation's CPUs, overlapping reservations): a mistake of the
// command line or scenario, not of the trace.
type AvailError struct{ Err error }

func (e *AvailError) Error() string { return e.Err.Error() }
func (e *AvailError) Unwrap() error { return e.Err }

// changes adapts an avail change stream to the engine's.
type changes struct {
	src interface{ Next() (avail.Change, error) }
}

func (c changes) Next() (engine.Change, error) {
	ch, err := c.src.Next()
	return engine.Change{Time: ch.Time, CPUs: ch.CPUs, Down: ch.Down}, err
}

// mergeChanges merges change streams by time (ties: the first stream).
type mergeChanges struct {
	src  []engine.ChangeSource
	head []engine.Change
	ok   []bool
	init bool
}

func (m *mergeChanges) Next() (engine.Change, error) {
	if !m.init {
		m.init = true
		m.head, m.ok = make([]engine.Change, len(m.src)), make([]bool, len(m.src))
		for i := range m.src {
			if err := m.pull(i); err != nil {
				return engine.Change{}, err
			}
		}
	}
	k := -1
	for i := range m.src {
		if m.ok[i] && (k < 0 || m.head[i].Time < m.head[k].Time) {
			k = i
		}
	}
	if k < 0 {
		return engine.Change{}, io.EOF
	}
	ch := m.head[k]
	ch.CPUs = append(platform.Runs(nil), ch.CPUs...)
	return ch, m.pull(k)
}

func (m *mergeChanges) pull(i int) error {
	ch, err := m.src[i].Next()
	if errors.Is(err, io.EOF) {
		m.ok[i] = false
		return nil
	}
	if err != nil {
		return err
	}
	m.head[i], m.ok[i] = ch, true
	return nil
}

// readSpans reads unavailability.csv for --check.
func readSpans(path string) ([]validate.Span, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return validate.ReadUnavailabilityCSV(f, "unavailability.csv")
}
