package plot

import (
	"math"
	"strconv"

	gplot "gonum.org/v1/plot"
)

// fineLogSpan is the largest span, in decades, of a log axis labelled at
// 1, 2 and 5 times powers of ten; wider axes are labelled at powers of ten.
const fineLogSpan = 2.5

// logTicks labels a logarithmic axis readably whatever its span: gonum's
// LogTicks labels only powers of ten, which leaves an axis spanning less
// than a decade without any label. Up to fineLogSpan decades it labels 1,
// 2 and 5 times powers of ten; up to six decades, every power of ten;
// beyond, every k-th power of ten so that about six labels remain. The
// other integer multiples of powers of ten are minor ticks when there are
// at most six decades.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []gplot.Tick {
	if !(lo > 0 && hi >= lo) {
		return nil
	}
	kLo := int(math.Floor(math.Log10(lo)))
	kHi := int(math.Ceil(math.Log10(hi)))
	decades := kHi - kLo
	fine := math.Log10(hi/lo) <= fineLogSpan
	step := 1
	if decades > 6 {
		step = (decades + 5) / 6
	}
	var ticks []gplot.Tick
	for k := kLo; k <= kHi; k++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow10(k)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			major := (m == 1 && k%step == 0) || (fine && (m == 2 || m == 5))
			switch {
			case major:
				ticks = append(ticks, gplot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64)})
			case decades <= 6:
				ticks = append(ticks, gplot.Tick{Value: v})
			}
		}
	}
	return ticks
}

// linTicks labels a linear axis at multiples of 1, 2 or 5 times a power of
// ten, choosing the smallest such step that gives at most about six
// labels; gonum's default often labels only three values. Minor ticks
// split each step in two (or five for steps of 5).
type linTicks struct{}

// Ticks implements plot.Ticker.
func (linTicks) Ticks(lo, hi float64) []gplot.Tick {
	if !(hi > lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	const target = 6
	raw := (hi - lo) / target
	mag := math.Pow10(int(math.Floor(math.Log10(raw))))
	step, minors := 10*mag, 2
	for _, m := range []struct {
		mult   float64
		minors int
	}{{1, 2}, {2, 2}, {5, 5}} {
		if m.mult*mag >= raw*(1-1e-9) {
			step, minors = m.mult*mag, m.minors
			break
		}
	}
	// Decimals enough to tell neighbouring labels apart.
	decimals := max(0, -int(math.Floor(math.Log10(step)+1e-9)))
	label := func(v float64) string {
		if a := math.Abs(v); a != 0 && (a >= 1e6 || a < 1e-4) {
			return strconv.FormatFloat(v, 'g', 6, 64)
		}
		return strconv.FormatFloat(v, 'f', decimals, 64)
	}
	minor := step / float64(minors)
	var ticks []gplot.Tick
	first := math.Ceil(lo/minor - 1e-9)
	for k := first; ; k++ {
		v := k * minor
		if v > hi+1e-9*(hi-lo) {
			break
		}
		if int64(k)%int64(minors) == 0 {
			if v == 0 {
				v = 0 // no "-0"
			}
			ticks = append(ticks, gplot.Tick{Value: v, Label: label(v)})
		} else {
			ticks = append(ticks, gplot.Tick{Value: v})
		}
	}
	return ticks
}
