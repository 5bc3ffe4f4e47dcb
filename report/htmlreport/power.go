package htmlreport

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// MaxPowerRows bounds the rows of an energy.csv the report reads (a run
// writes a row at every change of the power: about two a job).
const MaxPowerRows = 20_000_000

// maxCapWindows bounds the windows of summary.json's energy.cap the
// report reads (a run has at most 1,000, powercap.MaxWindows).
const maxCapWindows = 1000

// powerRow is a row of energy.csv: the machine's power from T on.
type powerRow struct{ T, W float64 }

// readPower reads a run's energy.csv (time_s,power_w; docs/energy.md):
// nil without the file. An error names the file, the line and the
// column.
func readPower(path string) ([]powerRow, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 64*1024)
	var rows []powerRow
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			if text != "time_s,power_w" {
				return nil, fmt.Errorf("%s:1: header %q, want time_s,power_w", path, text)
			}
			continue
		}
		if len(rows) == MaxPowerRows {
			return nil, fmt.Errorf("%s:%d: more than %d rows (MaxPowerRows)", path, line, MaxPowerRows)
		}
		a, b, ok := strings.Cut(text, ",")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want time_s,power_w", path, line)
		}
		t, err := strconv.ParseFloat(a, 64)
		if err != nil || math.IsInf(t, 0) || math.IsNaN(t) || (len(rows) > 0 && t < rows[len(rows)-1].T) {
			return nil, fmt.Errorf("%s:%d: column 1 (time_s): %q is not a finite time at or after the row before", path, line, a)
		}
		w, err := strconv.ParseFloat(b, 64)
		if err != nil || !(w >= 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("%s:%d: column 2 (power_w): %q is not a finite number of watts >= 0", path, line, b)
		}
		rows = append(rows, powerRow{t, w})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %v", path, line+1, err)
	}
	return rows, nil
}

// capSpec is summary.json's energy.cap (docs/energy.md, "Power caps"):
// the cap outside the windows (nil: none) and the windows.
type capSpec struct {
	Spec     string   `json:"spec"`
	DefaultW *float64 `json:"default_w"`
	Windows  []struct {
		Start float64 `json:"start_s"`
		End   float64 `json:"end_s"`
		W     float64 `json:"cap_w"`
	} `json:"windows"`
}

// readCap reads summary.json's energy.cap (nil: none).
func readCap(path string) (*capSpec, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s struct {
		Energy *struct {
			Cap *capSpec `json:"cap"`
		} `json:"energy"`
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: energy.cap: %v", path, err)
	}
	if s.Energy == nil || s.Energy.Cap == nil {
		return nil, nil
	}
	c := s.Energy.Cap
	if len(c.Windows) > maxCapWindows {
		return nil, fmt.Errorf("%s: energy.cap: %d windows, at most %d", path, len(c.Windows), maxCapWindows)
	}
	for i, w := range c.Windows {
		if !(w.Start < w.End) || !(w.W >= 0) || math.IsInf(w.W, 0) {
			return nil, fmt.Errorf("%s: energy.cap.windows[%d]: [%g, %g) at %g W is not a window", path, i, w.Start, w.End, w.W)
		}
	}
	sort.SliceStable(c.Windows, func(a, b int) bool { return c.Windows[a].Start < c.Windows[b].Start })
	return c, nil
}

// at is the cap at time t (+Inf: none).
func (c *capSpec) at(t float64) float64 {
	for _, w := range c.Windows {
		if t >= w.Start && t < w.End {
			return w.W
		}
	}
	if c.DefaultW != nil {
		return *c.DefaultW
	}
	return math.Inf(1)
}

// least is the least cap over [a, b): at a and at every window boundary
// inside.
func (c *capSpec) least(a, b float64) float64 {
	m := c.at(a)
	for _, w := range c.Windows {
		for _, x := range [2]float64{w.Start, w.End} {
			if x > a && x < b {
				m = math.Min(m, c.at(x))
			}
		}
	}
	return m
}

// powerView is the power chart's data: per bin of the utilization's
// (t0, w), the mean and the peak of the machine's watts; with a cap, the
// least cap over each bin (-1: none) and the cap's steps over the
// chart's span, exactly ([t, watts] pairs, each watts from t until the
// next pair's t; -1: none).
type powerView struct {
	T0    float64      `json:"t0"`
	W     float64      `json:"w"`
	Mean  []float64    `json:"mean"`
	Peak  []float64    `json:"peak"`
	Cap   []float64    `json:"cap,omitempty"`
	Steps [][2]float64 `json:"steps,omitempty"`
	Spec  string       `json:"spec,omitempty"`
}

// powerOverTime bins the power step function rows (each row's watts
// from its time until the next row's, the last's until t1) over
// timeBins bins of [t0, t1], as overTimeIn bins the utilization: the
// mean over each bin (the time outside the rows counts as 0 W) and the
// peak. O(rows + bins).
func powerOverTime(rows []powerRow, c *capSpec, t0, t1 float64) *powerView {
	w := (t1 - t0) / timeBins
	if w <= 0 {
		w = 1
	}
	v := &powerView{T0: t0, W: w, Mean: make([]float64, timeBins), Peak: make([]float64, timeBins)}
	end := t0 + timeBins*w
	bin := func(t float64) int { return min(max(int(math.Floor((t-t0)/w)), 0), timeBins-1) }
	full := make([]float64, timeBins+1)
	for i, r := range rows {
		a, b := r.T, end
		if i+1 < len(rows) {
			b = rows[i+1].T
		}
		a, b = math.Max(a, t0), math.Min(b, end)
		if !(b > a) {
			continue
		}
		lo, hi := bin(a), bin(b)
		if b == t0+float64(hi)*w && hi > lo { // b on a bin's edge: that bin is not reached
			hi--
		}
		for k := lo; k <= hi; k++ {
			v.Peak[k] = math.Max(v.Peak[k], r.W)
		}
		if lo == hi {
			v.Mean[lo] += r.W * (b - a)
			continue
		}
		v.Mean[lo] += r.W * (t0 + float64(lo+1)*w - a)
		v.Mean[hi] += r.W * (b - (t0 + float64(hi)*w))
		full[lo+1] += r.W
		full[hi] -= r.W
	}
	run := 0.0
	for k := range v.Mean {
		run += full[k]
		v.Mean[k] = (v.Mean[k] + run*w) / w
	}
	if c != nil {
		v.Spec = c.Spec
		none := func(x float64) float64 {
			if math.IsInf(x, 1) {
				return -1
			}
			return x
		}
		var bs []float64
		for _, cw := range c.Windows {
			for _, x := range [2]float64{cw.Start, cw.End} {
				if x > t0 && x < end {
					bs = append(bs, x)
				}
			}
		}
		sort.Float64s(bs)
		v.Steps = append(v.Steps, [2]float64{t0, none(c.at(t0))})
		for _, x := range bs {
			if x > v.Steps[len(v.Steps)-1][0] {
				v.Steps = append(v.Steps, [2]float64{x, none(c.at(x))})
			}
		}
		v.Cap = make([]float64, timeBins)
		for k := range v.Cap {
			x := c.least(t0+float64(k)*w, t0+float64(k+1)*w)
			if math.IsInf(x, 1) {
				x = -1
			}
			v.Cap[k] = x
		}
	}
	return v
}
