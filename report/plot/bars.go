package plot

import (
	"image/color"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// groupWidth is the share of a category slot covered by its group of bars.
const groupWidth = 0.8

// barSeries draws one series of a grouped bar chart: a bar per point,
// centred at X + offset (in category units), filled and hatched. It
// implements plot.Plotter, plot.DataRanger and plot.Thumbnailer.
type barSeries struct {
	x, y   []float64
	offset float64 // centre offset of this series within each group
	width  float64 // bar width in category units
	fill   color.Color
	hatch  hatch
	logY   bool
}

func newBarSeries(s *Series, index, count int, logY bool) *barSeries {
	w := groupWidth / float64(count)
	return &barSeries{
		x:      s.X,
		y:      s.Y,
		offset: (float64(index) - float64(count-1)/2) * w,
		width:  w,
		fill:   barFill(index),
		hatch:  seriesHatch(index),
		logY:   logY,
	}
}

// centre returns the x coordinate of bar i's centre.
func (b *barSeries) centre(i int) float64 { return b.x[i] + b.offset }

const hatchSpacing = vg.Length(4)

// Plot implements plot.Plotter. Bars rise from 0, or on a log axis from
// the bottom of the axis.
func (b *barSeries) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, trY := p.Transforms(&c)
	base := 0.0
	if b.logY {
		base = p.Y.Min
	}
	for i := range b.x {
		x0 := trX(b.centre(i) - b.width/2)
		x1 := trX(b.centre(i) + b.width/2)
		ya, yb := trY(base), trY(b.y[i])
		r := vg.Rectangle{Min: vg.Point{X: x0, Y: min(ya, yb)}, Max: vg.Point{X: x1, Y: max(ya, yb)}}
		b.drawBox(&c, r)
	}
}

// drawBox fills, hatches and outlines rectangle r.
func (b *barSeries) drawBox(c *draw.Canvas, r vg.Rectangle) {
	c.SetColor(b.fill)
	c.Fill(r.Path())
	if lines := hatchLines(b.hatch, r, hatchSpacing); len(lines) > 0 {
		c.StrokeLines(draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}, lines...)
	}
	c.SetLineStyle(draw.LineStyle{Color: color.Black, Width: vg.Points(0.7)})
	c.Stroke(r.Path())
}

// DataRange implements plot.DataRanger. The range includes the bar base.
func (b *barSeries) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	ymin, ymax = math.Inf(1), math.Inf(-1)
	if !b.logY {
		ymin, ymax = 0, 0
	}
	for i := range b.x {
		xmin = math.Min(xmin, b.centre(i)-b.width/2)
		xmax = math.Max(xmax, b.centre(i)+b.width/2)
		ymin = math.Min(ymin, b.y[i])
		ymax = math.Max(ymax, b.y[i])
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail implements plot.Thumbnailer: a small swatch of the bar.
func (b *barSeries) Thumbnail(c *draw.Canvas) {
	h := c.Max.Y - c.Min.Y
	r := vg.Rectangle{
		Min: vg.Point{X: c.Min.X + 1, Y: c.Min.Y + 0.05*h},
		Max: vg.Point{X: c.Max.X - 1, Y: c.Max.Y - 0.05*h},
	}
	b.drawBox(c, r)
}
