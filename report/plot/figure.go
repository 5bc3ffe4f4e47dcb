package plot

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Series is one named curve (or one set of bars) of a Figure.
type Series struct {
	// Name labels the series in the legend and in the CSV, e.g. "EASY".
	// It must be non-empty and unique within the figure.
	Name string
	// X and Y are the points, in drawing order; they have equal, non-zero
	// length and finite values. For bar charts X holds category indices.
	X, Y []float64
	// Low and High are optional confidence bounds, both nil or both of
	// the length of Y, with Low[i] <= Y[i] <= High[i]. A point whose
	// bounds are both NaN has no error bar (for example a mean of a single
	// replica, whose interval is undefined).
	Low, High []float64
}

// Figure is one figure of a paper reproduction.
type Figure struct {
	// ID names the figure, e.g. "fig03"; it is required and appears in
	// every error about the figure.
	ID string
	// Title is drawn at the top; XLabel and YLabel label the axes and
	// should carry units, e.g. "mean response time RT (s)".
	Title, XLabel, YLabel string
	// Series are drawn in order, later ones on top; at least one.
	Series []Series
	// LogX and LogY select logarithmic axes; all values (and confidence
	// bounds) on such an axis must be positive.
	LogX, LogY bool
	// Bars draws a grouped bar chart: X values are category indices
	// 0..len(XTicks)-1, XTicks gives the category names, and each series
	// contributes one bar per category it has a point for. XTicks is
	// required with Bars and not allowed without it.
	Bars   bool
	XTicks []string
	// Note is one line under the title, e.g. the paper's parameters.
	Note string
}

// Validate reports the first problem that would make the figure wrong or
// unreadable: a missing ID, no series, unnamed or duplicate series,
// mismatched lengths, non-finite values, confidence bounds that do not
// bracket the value, non-positive values on a log axis, bar categories
// out of range, or text that cannot be shown (control characters, invalid
// UTF-8, a figure ID, series name or Note of several lines). Title, axis
// labels and category names may contain newlines to break lines by hand.
// The message names the figure and the series.
func (f *Figure) Validate() error {
	if f == nil {
		return errors.New("plot: nil figure")
	}
	if f.ID == "" {
		return errors.New("plot: figure has no ID")
	}
	if err := checkText(f.ID); err != nil {
		return fmt.Errorf("plot: figure ID %q: %v", f.ID, err)
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("plot: figure %q: "+format, append([]any{f.ID}, args...)...)
	}
	for _, t := range []struct{ what, s string }{
		{"title", f.Title}, {"x label", f.XLabel}, {"y label", f.YLabel}, {"note", f.Note},
	} {
		if err := checkText(t.s); err != nil {
			return fail("%s %q: %v", t.what, t.s, err)
		}
	}
	if strings.Contains(f.ID, "\n") {
		return fmt.Errorf("plot: figure ID %q must be a single line", f.ID)
	}
	if strings.Contains(f.Note, "\n") {
		return fail("note must be a single line")
	}
	if len(f.Series) == 0 {
		return fail("no series")
	}
	if f.Bars {
		if f.LogX {
			return fail("a bar chart cannot have a logarithmic x axis")
		}
		if len(f.XTicks) == 0 {
			return fail("a bar chart needs XTicks, the category names")
		}
		for i, t := range f.XTicks {
			if err := checkText(t); err != nil {
				return fail("XTicks[%d] %q: %v", i, t, err)
			}
		}
	} else if f.XTicks != nil {
		return fail("XTicks is only for bar charts (Bars is false)")
	}
	seen := make(map[string]int, len(f.Series))
	for si := range f.Series {
		s := &f.Series[si]
		if s.Name == "" {
			return fail("series %d has no name", si)
		}
		if err := checkText(s.Name); err != nil {
			return fail("series %d name %q: %v", si, s.Name, err)
		}
		if strings.Contains(s.Name, "\n") {
			return fail("series %d name %q must be a single line", si, s.Name)
		}
		if prev, dup := seen[s.Name]; dup {
			return fail("series %d and %d are both named %q", prev, si, s.Name)
		}
		seen[s.Name] = si
		if err := f.checkSeries(s); err != nil {
			return fail("series %q: %v", s.Name, err)
		}
	}
	return nil
}

// checkSeries validates the numbers of one series.
func (f *Figure) checkSeries(s *Series) error {
	n := len(s.X)
	switch {
	case n == 0 && len(s.Y) == 0:
		return errors.New("no points")
	case len(s.Y) != n:
		return fmt.Errorf("len(X) = %d but len(Y) = %d", n, len(s.Y))
	case (s.Low == nil) != (s.High == nil):
		return errors.New("Low and High must be both set or both nil")
	case s.Low != nil && len(s.Low) != n:
		return fmt.Errorf("len(Low) = %d but len(Y) = %d", len(s.Low), n)
	case s.High != nil && len(s.High) != n:
		return fmt.Errorf("len(High) = %d but len(Y) = %d", len(s.High), n)
	}
	var cats map[float64]bool
	if f.Bars {
		cats = make(map[float64]bool, n)
	}
	for i := 0; i < n; i++ {
		x, y := s.X[i], s.Y[i]
		if !finite(x) {
			return fmt.Errorf("X[%d] = %v is not a finite number", i, x)
		}
		if !finite(y) {
			return fmt.Errorf("Y[%d] = %v is not a finite number", i, y)
		}
		if f.LogX && x <= 0 {
			return fmt.Errorf("X[%d] = %v is not positive (LogX)", i, x)
		}
		if f.LogY && y <= 0 {
			return fmt.Errorf("Y[%d] = %v is not positive (LogY)", i, y)
		}
		if f.Bars {
			if x != math.Trunc(x) || x < 0 || x >= float64(len(f.XTicks)) {
				return fmt.Errorf("X[%d] = %v is not a category index in 0..%d", i, x, len(f.XTicks)-1)
			}
			if cats[x] {
				return fmt.Errorf("X[%d]: category %v (%q) appears twice", i, x, f.XTicks[int(x)])
			}
			cats[x] = true
		}
		if s.Low == nil {
			continue
		}
		lo, hi := s.Low[i], s.High[i]
		if math.IsNaN(lo) && math.IsNaN(hi) {
			continue
		}
		if !finite(lo) || !finite(hi) {
			return fmt.Errorf("point %d: bounds [%v, %v] must be both finite or both NaN", i, lo, hi)
		}
		if !(lo <= y && y <= hi) {
			return fmt.Errorf("point %d: bounds [%v, %v] do not contain Y = %v", i, lo, hi, y)
		}
		if f.LogY && lo <= 0 {
			return fmt.Errorf("point %d: Low = %v is not positive (LogY)", i, lo)
		}
	}
	return nil
}

// hasCI reports whether point i of s has a drawable confidence interval.
func (s *Series) hasCI(i int) bool {
	return s.Low != nil && !math.IsNaN(s.Low[i]) && !math.IsNaN(s.High[i])
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// checkText rejects strings that cannot appear in an SVG text element or a
// one-line label: invalid UTF-8 and control characters other than the
// newline (which the callers reject where it does not belong).
func checkText(s string) error {
	if !utf8.ValidString(s) {
		return errors.New("invalid UTF-8")
	}
	for _, r := range s {
		if r != '\n' && unicode.IsControl(r) {
			return fmt.Errorf("control character %U", r)
		}
	}
	return nil
}
