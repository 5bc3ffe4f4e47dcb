package signal

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// The bounds of a signal file.
const (
	// MaxRows bounds the rows of a signal (a year of minutes is 525,600).
	MaxRows = 1_000_000
	// MaxLine bounds a line's length, in bytes.
	MaxLine = 256
	// MaxTime bounds a row's time and the period, in seconds (about
	// 31,700 years).
	MaxTime = 1e12
	// MaxValue bounds a value's magnitude.
	MaxValue = 1e9
)

// Signal is a step function of time: V[i] over [T[i], T[i+1]), the
// last value on after the last row; with Period > 0, the rows describe
// [0, Period) and repeat: the value at t is the value at t mod Period.
// T[0] is 0 and T strictly increases (below Period when it is set).
// Build one with Parse, ReadFile or New.
type Signal struct {
	T, V   []float64
	Period float64
	// cum[i] is the integral over [0, T[i]); cum[len(T)] over [0,
	// Period) with a period.
	cum []float64
}

// New checks the rows (T[0] = 0, T strictly increasing and below
// period when period > 0, finite values within MaxValue) and returns
// the signal.
func New(t, v []float64, period float64) (*Signal, error) {
	switch {
	case len(t) == 0 || len(t) != len(v):
		return nil, errors.New("signal: want one value a time, at least one row")
	case len(t) > MaxRows:
		return nil, fmt.Errorf("signal: %d rows, at most %d", len(t), MaxRows)
	case t[0] != 0:
		return nil, fmt.Errorf("signal: the first row is at %g, want 0 (the run's time 0)", t[0])
	case !(period >= 0 && period <= MaxTime):
		return nil, fmt.Errorf("signal: period %g: want 0 (none) or a time up to %g s", period, MaxTime)
	}
	for i := range t {
		if !(math.Abs(v[i]) <= MaxValue) {
			return nil, fmt.Errorf("signal: value %g at %g: want a number of magnitude at most %g", v[i], t[i], MaxValue)
		}
		if i > 0 && !(t[i] > t[i-1]) {
			return nil, fmt.Errorf("signal: time %g after %g: want strictly increasing times", t[i], t[i-1])
		}
		if !(t[i] <= MaxTime) {
			return nil, fmt.Errorf("signal: time %g: at most %g s", t[i], MaxTime)
		}
	}
	if period > 0 && !(t[len(t)-1] < period) {
		return nil, fmt.Errorf("signal: the last row's time %g is not below the period %g", t[len(t)-1], period)
	}
	s := &Signal{T: append([]float64(nil), t...), V: append([]float64(nil), v...), Period: period}
	s.cum = make([]float64, len(t)+1)
	for i := 1; i < len(t); i++ {
		s.cum[i] = s.cum[i-1] + s.V[i-1]*(s.T[i]-s.T[i-1])
	}
	if period > 0 {
		n := len(t)
		s.cum[n] = s.cum[n-1] + s.V[n-1]*(period-s.T[n-1])
	}
	return s, nil
}

// Constant is the signal of value v at all times.
func Constant(v float64) *Signal {
	s, _ := New([]float64{0}, []float64{v}, 0)
	return s
}

// seg is the row that holds at t >= 0 and the start of the period it
// is in (0 without a period).
func (s *Signal) seg(t float64) (base float64, i int) {
	if s.Period > 0 {
		k := math.Floor(t / s.Period)
		base = k * s.Period
		if t-base >= s.Period { // rounding at a period's end
			base += s.Period
		}
		t -= base
		if t < 0 {
			base -= s.Period
			t += s.Period
		}
	}
	i = sort.SearchFloat64s(s.T, t) // the first T >= t
	if i == len(s.T) || s.T[i] > t {
		i--
	}
	return base, max(i, 0)
}

// segEnd is the end of row i of the period starting at base.
func (s *Signal) segEnd(base float64, i int) float64 {
	switch {
	case i+1 < len(s.T):
		return base + s.T[i+1]
	case s.Period > 0:
		return base + s.Period
	}
	return math.Inf(1)
}

// At is the value at time t (t < 0: the first row's value).
func (s *Signal) At(t float64) float64 {
	if t < 0 {
		return s.V[0]
	}
	_, i := s.seg(t)
	return s.V[i]
}

// Next is the first time after t at which the value changes (a row's
// time whose value differs from the one before it), or +Inf when it
// never does.
func (s *Signal) Next(t float64) float64 {
	t = max(t, 0)
	base, i := s.seg(t)
	v := s.V[i]
	for range len(s.T) + 1 { // a period has at most len(T) rows; one more reaches the next period
		e := s.segEnd(base, i)
		if math.IsInf(e, 1) {
			return e
		}
		if i+1 < len(s.T) {
			i++
		} else {
			base, i = base+s.Period, 0
		}
		if s.V[i] != v {
			return e
		}
	}
	return math.Inf(1) // a periodic signal of one value
}

// Integral is the integral of the signal over [a, b] (0 when b <= a;
// times below 0 take the first row's value): exact sums of products
// over the rows the interval covers, whole periods from the period's
// own integral.
func (s *Signal) Integral(a, b float64) float64 {
	if !(b > a) {
		return 0
	}
	sum := 0.0
	if a < 0 {
		e := min(b, 0)
		sum += s.V[0] * (e - a)
		a = e
		if a >= b {
			return sum
		}
	}
	base, i := s.seg(a)
	for a < b {
		if i == 0 && s.Period > 0 && a == base && b-a >= s.Period {
			k := math.Floor((b - a) / s.Period)
			sum += k * s.cum[len(s.T)]
			a = base + k*s.Period
			base = a
			continue
		}
		e := min(s.segEnd(base, i), b)
		sum += s.V[i] * (e - a)
		a = e
		if i+1 < len(s.T) {
			i++
		} else {
			base, i = base+s.Period, 0
		}
	}
	return sum
}

// Lowest is the lowest value over [a, b] (a >= 0) and the first time
// in it the signal takes that value: a itself, or a change point in
// (a, b]. With a period, the change points of [a, a + Period) show
// every value, so no more are looked at.
func (s *Signal) Lowest(a, b float64) (low, at float64) {
	a = max(a, 0)
	low, at = s.At(a), a
	end := b
	if s.Period > 0 && a+s.Period <= b {
		end = math.Nextafter(a+s.Period, math.Inf(-1))
	}
	for t := s.Next(a); t <= end; t = s.Next(t) {
		if v := s.At(t); v < low {
			low, at = v, t
		}
	}
	return low, at
}

// Min is the lowest value the signal takes (any time).
func (s *Signal) Min() float64 {
	m := s.V[0]
	for _, v := range s.V {
		m = min(m, v)
	}
	return m
}

// Error is a problem of a signal file: the file, the line (0: the file
// as a whole) and the field.
type Error struct {
	File  string
	Line  int
	Field string
	Err   error
}

func (e *Error) Error() string {
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	case e.Field == "":
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: field %s: %v", e.File, e.Line, e.Field, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Parse reads a signal file (docs/energy.md, "Carbon and price
// signals"): an optional header line "time,value", then rows
// "TIME,VALUE" (TIME seconds from the run's time 0, the first 0,
// strictly increasing; VALUE a number), and optionally a last row
// "repeat,PERIOD": the rows describe [0, PERIOD) and repeat. Blank lines
// and lines starting with # are skipped. name names the file in
// errors; nonNegative refuses negative values (carbon intensity).
func Parse(r io.Reader, name string, nonNegative bool) (*Signal, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, MaxLine+2), MaxLine+2)
	var ts, vs []float64
	period := 0.0
	line, repeatAt := 0, 0
	fail := func(field string, format string, args ...any) error {
		return &Error{File: name, Line: line, Field: field, Err: fmt.Errorf(format, args...)}
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if len(text) > MaxLine {
			return nil, fail("", "line of %d bytes, at most %d", len(text), MaxLine)
		}
		text = strings.TrimSpace(strings.TrimSuffix(text, "\r"))
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		a, b, ok := strings.Cut(text, ",")
		a, b = strings.TrimSpace(a), strings.TrimSpace(b)
		if !ok || strings.Contains(b, ",") {
			return nil, fail("", "%q: want two fields, TIME,VALUE", text)
		}
		if len(ts) == 0 && repeatAt == 0 && strings.EqualFold(a, "time") {
			if !strings.EqualFold(b, "value") {
				return nil, fail("", "header %q: want time,value", text)
			}
			continue
		}
		if repeatAt > 0 {
			return nil, fail("", "a row after repeat (line %d): repeat,PERIOD is the last row", repeatAt)
		}
		if a == "repeat" {
			p, err := strconv.ParseFloat(b, 64)
			if err != nil || !(p > 0 && p <= MaxTime) {
				return nil, fail("period", "%q: want seconds in (0, %g]", b, float64(MaxTime))
			}
			if len(ts) > 0 && !(ts[len(ts)-1] < p) {
				return nil, fail("period", "%g is not after the last row's time %g", p, ts[len(ts)-1])
			}
			period, repeatAt = p, line
			continue
		}
		t, err := strconv.ParseFloat(a, 64)
		switch {
		case err != nil || math.IsNaN(t) || math.IsInf(t, 0):
			return nil, fail("time", "%q is not a number of seconds", a)
		case len(ts) == 0 && t != 0:
			return nil, fail("time", "%g: the first row must be at 0 (the run's time 0)", t)
		case len(ts) > 0 && !(t > ts[len(ts)-1]):
			return nil, fail("time", "%g is not after the previous row's %g", t, ts[len(ts)-1])
		case t > MaxTime:
			return nil, fail("time", "%g: at most %g s", t, float64(MaxTime))
		}
		v, err := strconv.ParseFloat(b, 64)
		switch {
		case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
			return nil, fail("value", "%q is not a number", b)
		case math.Abs(v) > MaxValue:
			return nil, fail("value", "%g: magnitude at most %g", v, float64(MaxValue))
		case nonNegative && v < 0:
			return nil, fail("value", "%g: want a value >= 0", v)
		}
		if len(ts) == MaxRows {
			return nil, fail("", "more than %d rows", MaxRows)
		}
		ts, vs = append(ts, t), append(vs, v)
	}
	if err := sc.Err(); err != nil {
		line++
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fail("", "line longer than %d bytes", MaxLine)
		}
		return nil, &Error{File: name, Err: err}
	}
	if len(ts) == 0 {
		return nil, &Error{File: name, Err: errors.New("no rows (want TIME,VALUE rows, the first at time 0)")}
	}
	s, err := New(ts, vs, period)
	if err != nil {
		return nil, &Error{File: name, Err: err}
	}
	return s, nil
}

// ReadFile parses the signal file at path (Parse).
func ReadFile(path string, nonNegative bool) (*Signal, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(f, path, nonNegative)
}
