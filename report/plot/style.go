package plot

import (
	"image/color"
	"math"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The styles below are functions of the series index, not package
// variables, so that no caller can change them and every render of a
// figure looks the same.

// seriesColor is the Okabe-Ito colour-blind-safe palette without its
// yellow (too light on white), ordered so that neighbours also differ in
// lightness, plus a dark grey.
func seriesColor(i int) color.RGBA {
	pal := [...]color.RGBA{
		{0x00, 0x72, 0xB2, 0xFF}, // blue
		{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
		{0x00, 0x9E, 0x73, 0xFF}, // bluish green
		{0x00, 0x00, 0x00, 0xFF}, // black
		{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
		{0xE6, 0x9F, 0x00, 0xFF}, // orange
		{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
		{0x66, 0x66, 0x66, 0xFF}, // grey
	}
	return pal[i%len(pal)]
}

// seriesDashes is the dash pattern of series i: solid, dashed, dotted,
// dash-dot, long dash. Five patterns against eight colours and seven
// markers give 280 distinct combinations.
func seriesDashes(i int) []vg.Length {
	switch i % 5 {
	case 1:
		return []vg.Length{vg.Points(6), vg.Points(3)}
	case 2:
		return []vg.Length{vg.Points(1.5), vg.Points(2)}
	case 3:
		return []vg.Length{vg.Points(7), vg.Points(2.5), vg.Points(1.5), vg.Points(2.5)}
	case 4:
		return []vg.Length{vg.Points(12), vg.Points(3)}
	}
	return nil
}

// markerShape enumerates the marker outlines.
type markerShape int

const (
	shapeCircle markerShape = iota
	shapeSquare
	shapeTriangleUp
	shapeDiamond
	shapeTriangleDown
	shapeCross
	shapePlus
)

// marker is a draw.GlyphDrawer with a heavier outline than gonum's glyphs
// (whose 0.5 pt outlines vanish in print) and, for hollow markers, a white
// interior so that the line under the marker does not show through.
type marker struct {
	shape  markerShape
	hollow bool
}

// seriesMarker alternates filled and hollow shapes so that neighbouring
// series differ in both.
func seriesMarker(i int) marker {
	ms := [...]marker{
		{shapeCircle, false},
		{shapeSquare, true},
		{shapeTriangleUp, false},
		{shapeDiamond, true},
		{shapeCross, false},
		{shapeTriangleDown, true},
		{shapePlus, false},
	}
	return ms[i%len(ms)]
}

// DrawGlyph implements draw.GlyphDrawer.
func (m marker) DrawGlyph(c *draw.Canvas, sty draw.GlyphStyle, pt vg.Point) {
	r := sty.Radius
	var path vg.Path
	poly := func(pts ...vg.Point) {
		path.Move(pts[0])
		for _, p := range pts[1:] {
			path.Line(p)
		}
		path.Close()
	}
	at := func(dx, dy vg.Length) vg.Point { return vg.Point{X: pt.X + dx, Y: pt.Y + dy} }
	switch m.shape {
	case shapeCircle:
		path.Move(at(r, 0))
		path.Arc(pt, r, 0, 2*math.Pi)
		path.Close()
	case shapeSquare:
		s := r * 0.85
		poly(at(-s, -s), at(s, -s), at(s, s), at(-s, s))
	case shapeTriangleUp:
		s := r * 1.15
		poly(at(0, s), at(-s*0.866, -s*0.5), at(s*0.866, -s*0.5))
	case shapeTriangleDown:
		s := r * 1.15
		poly(at(0, -s), at(s*0.866, s*0.5), at(-s*0.866, s*0.5))
	case shapeDiamond:
		s := r * 1.15
		poly(at(0, s), at(s, 0), at(0, -s), at(-s, 0))
	case shapeCross, shapePlus:
		s := r
		if m.shape == shapeCross {
			s = r * 0.8
			path.Move(at(-s, -s))
			path.Line(at(s, s))
			path.Move(at(-s, s))
			path.Line(at(s, -s))
		} else {
			path.Move(at(-s, 0))
			path.Line(at(s, 0))
			path.Move(at(0, -s))
			path.Line(at(0, s))
		}
		c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.5)})
		c.Stroke(path)
		return
	}
	if m.hollow {
		c.SetColor(color.White)
		c.Fill(path)
		c.SetLineStyle(draw.LineStyle{Color: sty.Color, Width: vg.Points(1.2)})
		c.Stroke(path)
		return
	}
	c.SetColor(sty.Color)
	c.Fill(path)
}

// hatch is a fill pattern of thin lines for bars.
type hatch int

const (
	hatchNone hatch = iota
	hatchForward
	hatchBack
	hatchHorizontal
	hatchCross
	hatchVertical
	hatchDiagonalCross
)

// seriesHatch gives bar series 0 a plain fill and the others line patterns.
func seriesHatch(i int) hatch {
	return hatch(i % 7)
}

// barFill is the fill colour of bar series i: the series colour lightened
// towards white so that the black hatching stays visible on it.
func barFill(i int) color.RGBA {
	c := seriesColor(i)
	mix := func(v uint8) uint8 { return uint8(float64(v) + 0.45*(255-float64(v))) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xFF}
}

// hatchLines returns the line segments of pattern h inside rectangle r,
// spaced d apart. The lines lie on a grid anchored at the canvas origin,
// not at the rectangle, so neighbouring bars' patterns line up.
func hatchLines(h hatch, r vg.Rectangle, d vg.Length) [][]vg.Point {
	var out [][]vg.Point
	x0, y0, x1, y1 := r.Min.X, r.Min.Y, r.Max.X, r.Max.Y
	first := func(lo vg.Length) vg.Length { return vg.Length(math.Ceil(float64(lo/d))) * d }
	horizontal := func() {
		for y := first(y0); y <= y1; y += d {
			out = append(out, []vg.Point{{X: x0, Y: y}, {X: x1, Y: y}})
		}
	}
	vertical := func() {
		for x := first(x0); x <= x1; x += d {
			out = append(out, []vg.Point{{X: x, Y: y0}, {X: x, Y: y1}})
		}
	}
	// Lines y = x + k, clipped to the rectangle.
	forward := func() {
		for k := first(y0 - x1); k <= y1-x0; k += d {
			a, b := max(x0, y0-k), min(x1, y1-k)
			if a < b {
				out = append(out, []vg.Point{{X: a, Y: a + k}, {X: b, Y: b + k}})
			}
		}
	}
	// Lines y = -x + k, clipped to the rectangle.
	back := func() {
		for k := first(x0 + y0); k <= x1+y1; k += d {
			a, b := max(x0, k-y1), min(x1, k-y0)
			if a < b {
				out = append(out, []vg.Point{{X: a, Y: k - a}, {X: b, Y: k - b}})
			}
		}
	}
	switch h {
	case hatchForward:
		forward()
	case hatchBack:
		back()
	case hatchHorizontal:
		horizontal()
	case hatchCross:
		horizontal()
		vertical()
	case hatchVertical:
		vertical()
	case hatchDiagonalCross:
		forward()
		back()
	}
	return out
}
