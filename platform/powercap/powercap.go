// Package powercap is a cluster power cap over time and the arithmetic
// of a pool's power under it (docs/energy.md, "Power caps"): the text
// of 'run --power-cap' and platform.power_cap, the cap as a step
// function of time, and the machine's watts for counts of CPUs busy, off
// and switching, the one formula the kernel (which refuses what breaks
// the cap) and the capping layer (which plans within it) share. A leaf:
// the standard library only.
package powercap

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// The bounds of a cap.
const (
	// MaxWindows bounds the windows of a cap: the kernel and the
	// capping layer step through them (engine.MaxCapSteps, 2 x
	// MaxWindows + 1 steps).
	MaxWindows = 1000
	// MaxTime bounds a window's end, in seconds (as signal files').
	MaxTime = 1e12
	// MaxWatts bounds a cap's watts.
	MaxWatts = 1e12
	// maxText bounds the text of a cap (a window is at most ~70 bytes).
	maxText = 100 * MaxWindows
)

// Window is a cap of W watts over [Start, End).
type Window struct {
	Start, End, W float64
}

// Cap is a power budget over time: W watts over each window, Default
// outside them (+Inf: no cap). Build one with Parse.
type Cap struct {
	Default float64
	Windows []Window // sorted by Start, disjoint
	text    string
}

// Parse reads a cap: a comma-separated list of items, each either W
// (the cap outside the windows, at most once; without it there is no
// cap outside them) or W@A-B (W watts over [A, B), 0 <= A < B <=
// MaxTime, windows disjoint). "15000" is a constant cap of 15 kW;
// "15000@0-86400,12000@86400-172800" a cap over the first two days and
// none after; "20000,12000@3600-7200" 20 kW except over [3600, 7200).
// An error names the item and the field.
func Parse(s string) (*Cap, error) {
	if len(s) > maxText {
		return nil, fmt.Errorf("%d bytes: at most %d", len(s), maxText)
	}
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("empty (want W or W@A-B items, comma-separated)")
	}
	if n := strings.Count(s, ",") + 1; n > MaxWindows+1 {
		return nil, fmt.Errorf("%d items: at most %d windows and a default (powercap.MaxWindows)", n, MaxWindows)
	}
	c := &Cap{Default: math.Inf(1), text: strings.TrimSpace(s)}
	haveDefault := false
	for i, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		bad := func(format string, a ...any) error {
			return fmt.Errorf("item %d %q: %s", i+1, item, fmt.Sprintf(format, a...))
		}
		ws, span, win := strings.Cut(item, "@")
		w, err := strconv.ParseFloat(strings.TrimSpace(ws), 64)
		if err != nil || !(w >= 0 && w <= MaxWatts) {
			return nil, bad("field watts: %q: want a number of watts, 0 to %g", ws, float64(MaxWatts))
		}
		if !win {
			if haveDefault {
				return nil, bad("a second default cap (at most one item without @A-B)")
			}
			c.Default, haveDefault = w, true
			continue
		}
		as, bs, ok := strings.Cut(span, "-")
		if !ok {
			return nil, bad("field window: %q: want A-B (seconds from the trace's time 0)", span)
		}
		a, errA := strconv.ParseFloat(strings.TrimSpace(as), 64)
		b, errB := strconv.ParseFloat(strings.TrimSpace(bs), 64)
		switch {
		case errA != nil || !(a >= 0 && a <= MaxTime):
			return nil, bad("field start: %q: want a time in seconds, 0 to %g", as, float64(MaxTime))
		case errB != nil || !(b >= 0 && b <= MaxTime):
			return nil, bad("field end: %q: want a time in seconds, 0 to %g", bs, float64(MaxTime))
		case !(a < b):
			return nil, bad("field end: the window's start %g is not before its end %g", a, b)
		}
		c.Windows = append(c.Windows, Window{a, b, w})
	}
	slices.SortStableFunc(c.Windows, func(x, y Window) int {
		switch {
		case x.Start < y.Start:
			return -1
		case x.Start > y.Start:
			return 1
		}
		return 0
	})
	for k := 1; k < len(c.Windows); k++ {
		if p, q := c.Windows[k-1], c.Windows[k]; q.Start < p.End {
			return nil, fmt.Errorf("windows %g@%g-%g and %g@%g-%g overlap", p.W, p.Start, p.End, q.W, q.Start, q.End)
		}
	}
	return c, nil
}

// String is the cap's text as given.
func (c *Cap) String() string { return c.text }

// Steps is the cap as a step function of time: watts[k] from times[k]
// until times[k+1] (the last for ever); times[0] = 0, ascending;
// +Inf where there is no cap; neighbours of equal watts merged. At
// most 2 x MaxWindows + 1 steps.
func (c *Cap) Steps() (times, watts []float64) {
	add := func(t, w float64) {
		if n := len(times); n > 0 && times[n-1] == t {
			watts[n-1] = w
			if n > 1 && watts[n-2] == w {
				times, watts = times[:n-1], watts[:n-1]
			}
			return
		}
		if n := len(watts); n > 0 && watts[n-1] == w {
			return
		}
		times, watts = append(times, t), append(watts, w)
	}
	add(0, c.Default)
	for _, w := range c.Windows {
		add(w.Start, w.W)
		add(w.End, c.Default)
	}
	return times, watts
}

// Max is the highest cap over all time (+Inf when some time has none).
func (c *Cap) Max() float64 {
	_, ws := c.Steps()
	return slices.Max(ws)
}

// Model is a pool's power model in watts a CPU: idle, computing, off,
// switching on and switching off (the last three 0 without power
// states, docs/energy.md).
type Model struct {
	IdleW, ComputeW, OffW, SwOnW, SwOffW float64
}

// Power is the machine's watts with n CPUs, busy of them running jobs,
// and off, swOn and swOff CPUs off, switching on and switching off (the
// rest on and idle): IdleW x n + (ComputeW - IdleW) x busy + (OffW -
// IdleW) x off + (SwOnW - IdleW) x swOn + (SwOffW - IdleW) x swOff, the
// accounting's formula (metrics/energy). A term whose count is 0 is
// left out, so that the two-number model's power is always the same
// two products.
func (m Model) Power(n, busy, off, swOn, swOff int) float64 {
	p := m.IdleW*float64(n) + (m.ComputeW-m.IdleW)*float64(busy)
	if off > 0 {
		p += (m.OffW - m.IdleW) * float64(off)
	}
	if swOn > 0 {
		p += (m.SwOnW - m.IdleW) * float64(swOn)
	}
	if swOff > 0 {
		p += (m.SwOffW - m.IdleW) * float64(swOff)
	}
	return p
}

// MaxBusy is the most CPUs of n that may run jobs, every other CPU on
// and idle, with Power at most w: n for w = +Inf, -1 when even the idle
// machine draws more than w.
func (m Model) MaxBusy(n int, w float64) int {
	if math.IsInf(w, 1) {
		return n
	}
	if m.Power(n, 0, 0, 0, 0) > w {
		return -1
	}
	lo, hi := 0, n // Power(n, lo) <= w; the answer is in [lo, hi]
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		if m.Power(n, mid, 0, 0, 0) <= w {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}
