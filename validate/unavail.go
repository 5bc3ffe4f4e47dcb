package validate

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// StateKilled is the final state of a job killed because a CPU it ran on
// became unavailable (Batsim's COMPLETED_KILLED).
const StateKilled = "COMPLETED_KILLED"

// Span is a period [Start, End) during which CPUs could hold no job: an
// announced window (Kind "reserved") or a failure ("down").
type Span struct {
	Kind       string
	Start, End float64
	CPUs       []Interval
}

// MaxSpans bounds the rows of an unavailability.csv that
// ReadUnavailabilityCSV reads (it holds every span: about 150 bytes
// each, and the checker a copy). schedlab writes at most as many
// (engine.MaxSpans, the same number).
const MaxSpans = 2_000_000

// ReadUnavailabilityCSV reads unavailability.csv (columns kind,
// resources, start, end, located by name; docs/availability.md), at
// most MaxSpans rows. name is used in error messages, "name:line:
// column col: problem".
func ReadUnavailabilityCSV(r io.Reader, name string) ([]Span, error) {
	return ReadUnavailabilityCSVLimit(r, name, MaxSpans, "validate.MaxSpans")
}

// ReadUnavailabilityCSVLimit is ReadUnavailabilityCSV reading at most
// limit rows (<= MaxSpans): a row beyond is an error naming its line
// and the limit's constant, limitName.
func ReadUnavailabilityCSVLimit(r io.Reader, name string, limit int, limitName string) ([]Span, error) {
	if limit > MaxSpans {
		limit, limitName = MaxSpans, "validate.MaxSpans"
	}
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	at, err := readHeader(cr, name, []string{"kind", "resources", "start", "end"})
	if err != nil {
		return nil, err
	}
	var out []Span
	for {
		row, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		if len(out) == limit {
			line, _ := cr.FieldPos(0)
			return nil, fmt.Errorf("%s:%d: more than %d spans (%s)", name, line, limit, limitName)
		}
		bad := func(col, what string) error {
			line, _ := cr.FieldPos(at[col])
			return fmt.Errorf("%s:%d: column %s: %s %q", name, line, col, what, row[at[col]])
		}
		var s Span
		// The kinds' own strings: a substring of the row would keep
		// the whole row in memory.
		switch row[at["kind"]] {
		case "reserved":
			s.Kind = "reserved"
		case "down":
			s.Kind = "down"
		default:
			return nil, bad("kind", "want reserved or down, got")
		}
		for _, f := range []struct {
			col string
			dst *float64
		}{{"start", &s.Start}, {"end", &s.End}} {
			v, err := strconv.ParseFloat(strings.TrimSpace(row[at[f.col]]), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, bad(f.col, "invalid number")
			}
			*f.dst = v
		}
		if !(s.Start <= s.End) {
			return nil, bad("end", "before the start:")
		}
		if s.CPUs, err = ParseResources(row[at["resources"]]); err != nil || len(s.CPUs) == 0 {
			return nil, bad("resources", "invalid CPU list")
		}
		out = append(out, s)
	}
}

// touchesAny reports whether a and b share a CPU.
func touchesAny(a, b []Interval) (int, bool) {
	for _, x := range a {
		for _, y := range b {
			if lo, hi := max(x.Lo, y.Lo), min(x.Hi, y.Hi); lo <= hi {
				return lo, true
			}
		}
	}
	return 0, false
}

// spanIndex answers "which spans overlap [a, b)" without a scan of them
// all: the spans sorted by start, with the running maximum of their ends.
type spanIndex struct {
	s      []Span
	maxEnd []float64
}

func newSpanIndex(spans []Span) spanIndex {
	s := slices.Clone(spans)
	slices.SortStableFunc(s, func(a, b Span) int {
		switch {
		case a.Start < b.Start:
			return -1
		case a.Start > b.Start:
			return 1
		}
		return 0
	})
	ix := spanIndex{s: s, maxEnd: make([]float64, len(s))}
	m := math.Inf(-1)
	for i := range s {
		m = max(m, s[i].End)
		ix.maxEnd[i] = m
	}
	return ix
}

// each calls f for every span that may overlap [a, b) (start < b, end > a).
func (ix spanIndex) each(a, b float64, f func(*Span)) {
	k, _ := slices.BinarySearchFunc(ix.s, b, func(s Span, t float64) int {
		if s.Start < t {
			return -1
		}
		return 1
	})
	for i := k - 1; i >= 0 && ix.maxEnd[i] > a; i-- {
		if ix.s[i].End > a {
			f(&ix.s[i])
		}
	}
}

// checkUnavailable reports records that hold a CPU of a span during it,
// and killed records that did not end where a span began on their CPUs.
func checkUnavailable(out []Rec, cpus [][]Interval, opt Options, add func(string, ...any)) {
	ix := newSpanIndex(opt.Unavailable)
	for n, r := range out {
		if cpus == nil || cpus[n] == nil || !finite(r.Start, r.Finish) {
			continue
		}
		if r.Finish > r.Start {
			ix.each(r.Start, r.Finish, func(s *Span) {
				lo, hi := max(r.Start, s.Start), min(r.Finish, s.End)
				if hi-lo <= Tolerance*absMax(r.Start, r.Finish, s.Start, s.End) {
					return
				}
				if c, ok := touchesAny(cpus[n], s.CPUs); ok {
					add("job %d: holds CPU %d over [%v, %v), inside the %s span [%v, %v) of CPUs %s",
						r.ID, c, lo, hi, s.Kind, s.Start, s.End, FormatResources(s.CPUs))
				}
			})
		}
	}
}

// killedOK reports whether record r, with final state StateKilled, ended
// where a span began on one of its CPUs, before its expected end.
func killedOK(r Rec, cpus []Interval, dur float64, ix spanIndex) bool {
	if r.Finish-r.Start > dur+Tolerance*absMax(r.Start, r.Finish, dur) {
		return false
	}
	ok := false
	// From just before the end: a span of length 0 at the end (the
	// failure that killed a run's last job, written up to the run's
	// last instant) is met too.
	ix.each(math.Nextafter(r.Finish, math.Inf(-1)), math.Nextafter(r.Finish, math.Inf(1)), func(s *Span) {
		if near(s.Start, r.Finish, absMax(s.Start, r.Finish)) {
			if _, t := touchesAny(cpus, s.CPUs); t {
				ok = true
			}
		}
	})
	return ok
}
