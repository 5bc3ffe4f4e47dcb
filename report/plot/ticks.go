package plot

import (
	"math"
	"strconv"

	gplot "gonum.org/v1/plot"
)

// logTicks labels a logarithmic axis readably whatever its span: gonum's
// LogTicks labels only powers of ten, which leaves an axis spanning less
// than a decade without any label. Up to two decades it labels 1, 2 and 5
// times powers of ten; up to six decades, every power of ten; beyond, every
// k-th power of ten so that about six labels remain. The other integer
// multiples of powers of ten are minor ticks when there are at most six
// decades.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(lo, hi float64) []gplot.Tick {
	if !(lo > 0 && hi >= lo) {
		return nil
	}
	kLo := int(math.Floor(math.Log10(lo)))
	kHi := int(math.Ceil(math.Log10(hi)))
	decades := kHi - kLo
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
			major := (m == 1 && k%step == 0) || (decades <= 2 && (m == 2 || m == 5))
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
