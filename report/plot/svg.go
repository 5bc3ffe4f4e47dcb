package plot

import (
	"bytes"
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"

	xfont "golang.org/x/image/font"
	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Size of the rendered figure.
const (
	Width  = 16 * vg.Centimeter
	Height = 10 * vg.Centimeter
)

// Layout constants, in points.
const (
	margin       = vg.Length(6)  // around the whole figure
	titleGap     = vg.Length(3)  // between title, note and plot
	legendGap    = vg.Length(10) // between plot and legend
	thumbWidth   = vg.Length(30) // legend sample width (shows dash patterns)
	thumbTextGap = vg.Length(5)
	entryGap     = vg.Length(3) // vertical gap between legend entries
	columnGap    = vg.Length(14)

	// maxRightLegend is the largest share of the width a legend right of
	// the plot may take; wider legends go below it.
	maxRightLegend = 0.4
)

// WriteSVG renders the figure as an SVG document of Width x Height. It
// writes nothing if Validate fails.
func (f *Figure) WriteSVG(w io.Writer) error {
	if err := f.Validate(); err != nil {
		return err
	}
	c := vgsvg.New(Width, Height)
	if err := f.render(draw.New(c)); err != nil {
		return err
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return fmt.Errorf("plot: figure %q: %v", f.ID, err)
	}
	// gonum names only the Liberation family; viewers without it should
	// fall back to the fonts it is metric-compatible with, not to a serif
	// default. Text content cannot contain the quote that starts the
	// attribute (it is escaped), so only style attributes match.
	out := bytes.ReplaceAll(buf.Bytes(),
		[]byte(`style="font-family:Liberation Sans;`),
		[]byte(`style="font-family:Liberation Sans,Arial,Helvetica,sans-serif;`))
	_, err := w.Write(out)
	return err
}

// sans returns a text style in Liberation Sans.
func sans(size vg.Length, bold bool) text.Style {
	fnt := font.Font{Typeface: "Liberation", Variant: "Sans"}
	if bold {
		fnt.Weight = xfont.WeightBold
	}
	return text.Style{
		Color:   color.Black,
		Font:    font.From(fnt, size),
		Handler: text.Plain{Fonts: font.DefaultCache},
	}
}

// fitted returns sty shrunk, down to minSize, until txt fits in width.
// titleFit is the share of the width a title or note is fitted to.
const titleFit = 0.75

func fitted(sty text.Style, txt string, width, minSize vg.Length) text.Style {
	for sty.Font.Size > minSize && sty.Width(txt) > width {
		sty.Font.Size -= 0.5
	}
	return sty
}

// legendEntry is one line of the legend.
type legendEntry struct {
	name   string
	thumbs []gplot.Thumbnailer
}

// render draws the whole figure on c. gonum/plot reports some problems by
// panicking; Validate rules those out, and any that remain are returned
// as errors rather than crashing the caller.
func (f *Figure) render(c draw.Canvas) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("plot: figure %q: rendering failed: %v", f.ID, r)
		}
	}()
	c.SetColor(color.White)
	c.Fill(c.Rectangle.Path())
	area := draw.Crop(c, margin, -margin, margin, -margin)
	width := area.Max.X - area.Min.X

	// Title and note, centred.
	for _, t := range []struct {
		txt string
		sty text.Style
		min vg.Length
	}{
		{f.Title, sans(13, true), 9},
		{f.Note, withColor(sans(9.5, false), color.Gray{0x40}), 7},
	} {
		if t.txt == "" {
			continue
		}
		// Widths are measured with Liberation Sans, and a centred text is
		// written from its measured start. A viewer without that font
		// falls back to a wider sans (DejaVu Sans Bold: about 17% wider),
		// which pushes the end of a long title past the right edge; a
		// title fitted to 75% of the width stays inside.
		sty := fitted(t.sty, t.txt, width*titleFit, t.min)
		sty.XAlign, sty.YAlign = draw.XCenter, draw.YTop
		area.FillText(sty, vg.Point{X: (area.Min.X + area.Max.X) / 2, Y: area.Max.Y}, t.txt)
		area.Max.Y -= sty.Height(t.txt) + titleGap
	}
	area.Max.Y -= titleGap

	p, entries, err := f.newPlot()
	if err != nil {
		return err
	}
	f.layout(p, entries, area)
	return nil
}

func withColor(s text.Style, c color.Color) text.Style {
	s.Color = c
	return s
}

// layout places the plot and its legend in area and draws both. The
// legend goes either right of the plot, top-aligned with the data area, in
// one column, or below the plot in as many columns as fit, whichever takes
// the smaller share of the area (right needs the entries to fit in the
// height and the names to be reasonably short).
func (f *Figure) layout(p *gplot.Plot, entries []legendEntry, area draw.Canvas) {
	sty := sans(10, false)
	sty.YAlign = draw.YCenter
	entryH := sty.Height("Mg") + entryGap
	entryW := vg.Length(0)
	for _, e := range entries {
		entryW = max(entryW, thumbWidth+thumbTextGap+sty.Width(e.name))
	}
	width, height := area.Max.X-area.Min.X, area.Max.Y-area.Min.Y
	n := len(entries)

	cols := min(n, max(1, int((width+columnGap)/(entryW+columnGap))))
	rows := (n + cols - 1) / cols
	belowH := vg.Length(rows) * entryH
	belowCost := (belowH + legendGap) / height
	rightCost := (entryW + legendGap) / width
	rightFits := entryW <= maxRightLegend*width && vg.Length(n)*entryH <= 0.85*height

	if rightFits && rightCost <= belowCost {
		data := f.drawPlot(p, draw.Crop(area, 0, -(entryW+legendGap), 0, 0))
		drawLegend(area, entries, sty, area.Max.X-entryW, data.Max.Y, entryH)
		return
	}
	data := f.drawPlot(p, draw.Crop(area, 0, 0, belowH+legendGap, 0))
	// Columns as wide as their widest entry, the block centred under the
	// data area unless that pushes it off the figure.
	colW := make([]vg.Length, cols)
	blockW := vg.Length(cols-1) * columnGap
	for col := range colW {
		for _, e := range entries[min(col*rows, n):min((col+1)*rows, n)] {
			colW[col] = max(colW[col], thumbWidth+thumbTextGap+sty.Width(e.name))
		}
		blockW += colW[col]
	}
	x := (data.Min.X+data.Max.X)/2 - blockW/2
	x = max(area.Min.X, min(x, area.Max.X-blockW))
	for col := range colW {
		lo, hi := min(col*rows, n), min((col+1)*rows, n)
		drawLegend(area, entries[lo:hi], sty, x, area.Min.Y+belowH, entryH)
		x += colW[col] + columnGap
	}
}

// drawLegend draws entries top-down from (x, top): each a thumbnail
// thumbWidth wide followed by the name.
func drawLegend(c draw.Canvas, entries []legendEntry, sty text.Style, x, top, entryH vg.Length) {
	y := top
	for _, e := range entries {
		thumb := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: y - entryH + entryGap/2},
			Max: vg.Point{X: x + thumbWidth, Y: y - entryGap/2},
		}}
		for _, t := range e.thumbs {
			t.Thumbnail(&thumb)
		}
		c.FillText(sty, vg.Point{X: x + thumbWidth + thumbTextGap, Y: y - entryH/2}, e.name)
		y -= entryH
	}
}

// newPlot builds the gonum plot of the figure (axes, grid and series) and
// the legend entries, without title or legend, which render draws itself.
func (f *Figure) newPlot() (*gplot.Plot, []legendEntry, error) {
	p := gplot.New()
	p.BackgroundColor = nil      // render has filled the background
	p.Legend = gplot.NewLegend() // stays empty: layout draws the legend
	for _, ax := range []*gplot.Axis{&p.X, &p.Y} {
		ax.Tick.Label = withAlign(sans(10, false), ax.Tick.Label)
		ax.Tick.Length = vg.Points(5)
	}
	// The axis labels are left empty here and drawn by drawPlot: gonum
	// sizes the data area around a label placed at the data midpoint,
	// (min+max)/2, which on a log axis lies near the end and makes gonum
	// shrink the plot for nothing.

	grid := plotter.NewGrid()
	grid.Horizontal = draw.LineStyle{Color: color.Gray{0xDD}, Width: vg.Points(0.5)}
	grid.Vertical = grid.Horizontal
	if f.Bars {
		grid.Vertical.Color = nil
	}
	p.Add(grid)

	p.X.Tick.Marker = linTicks{}
	p.Y.Tick.Marker = linTicks{}
	if f.LogX {
		p.X.Scale = gplot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	}
	if f.LogY {
		p.Y.Scale = gplot.LogScale{}
		p.Y.Tick.Marker = logTicks{}
	}

	var entries []legendEntry
	var err error
	if f.Bars {
		entries, err = f.addBars(p)
	} else {
		entries, err = f.addLines(p)
	}
	if err != nil {
		return nil, nil, err
	}

	if f.LogX {
		p.X.Min, p.X.Max = logBounds(p.X.Min, p.X.Max)
	}
	if f.LogY {
		p.Y.Min, p.Y.Max = logBounds(p.Y.Min, p.Y.Max)
	}
	if !f.Bars {
		// Room around the data, so that a marker (or an error bar's cap)
		// at an end of an axis is drawn whole inside the frame.
		p.X.Min, p.X.Max = padRange(p.X.Min, p.X.Max, f.LogX)
		p.Y.Min, p.Y.Max = padRange(p.Y.Min, p.Y.Max, f.LogY)
	}
	if f.Bars && !f.LogY {
		// Headroom above the tallest bar (and below the lowest negative one).
		span := p.Y.Max - p.Y.Min
		if p.Y.Max > 0 {
			p.Y.Max += 0.05 * span
		}
		if p.Y.Min < 0 {
			p.Y.Min -= 0.05 * span
		}
	}
	return p, entries, nil
}

// withAlign returns sty with the alignment and rotation of def, which
// gonum sets per axis orientation.
func withAlign(sty, def text.Style) text.Style {
	sty.XAlign, sty.YAlign, sty.Rotation = def.XAlign, def.YAlign, def.Rotation
	return sty
}

// addLines adds one line with markers, and error bars where the series has
// confidence bounds, per series.
func (f *Figure) addLines(p *gplot.Plot) ([]legendEntry, error) {
	var entries []legendEntry
	for i := range f.Series {
		s := &f.Series[i]
		clr := seriesColor(i)
		if bars := errorBars(s, func(j int) float64 { return s.X[j] }); bars != nil {
			eb, err := plotter.NewYErrorBars(bars)
			if err != nil {
				return nil, fmt.Errorf("plot: figure %q: series %q: %v", f.ID, s.Name, err)
			}
			eb.LineStyle = draw.LineStyle{Color: clr, Width: vg.Points(0.8)}
			eb.CapWidth = vg.Points(6)
			p.Add(eb)
		}
		xys := make(plotter.XYs, len(s.X))
		for j := range s.X {
			xys[j].X, xys[j].Y = s.X[j], s.Y[j]
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, fmt.Errorf("plot: figure %q: series %q: %v", f.ID, s.Name, err)
		}
		line.LineStyle = draw.LineStyle{Color: clr, Width: vg.Points(1.4), Dashes: seriesDashes(i)}
		points, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, fmt.Errorf("plot: figure %q: series %q: %v", f.ID, s.Name, err)
		}
		points.GlyphStyle = draw.GlyphStyle{Color: clr, Radius: vg.Points(3.2), Shape: seriesMarker(i)}
		p.Add(line, points)
		entries = append(entries, legendEntry{name: s.Name, thumbs: []gplot.Thumbnailer{line, points}})
	}
	return entries, nil
}

// addBars adds the grouped bars, black error bars on them where the series
// has confidence bounds, and the category axis.
func (f *Figure) addBars(p *gplot.Plot) ([]legendEntry, error) {
	var entries []legendEntry
	var errs []gplot.Plotter
	for i := range f.Series {
		s := &f.Series[i]
		b := newBarSeries(s, i, len(f.Series), f.LogY)
		p.Add(b)
		entries = append(entries, legendEntry{name: s.Name, thumbs: []gplot.Thumbnailer{b}})
		if bars := errorBars(s, b.centre); bars != nil {
			eb, err := plotter.NewYErrorBars(bars)
			if err != nil {
				return nil, fmt.Errorf("plot: figure %q: series %q: %v", f.ID, s.Name, err)
			}
			eb.LineStyle = draw.LineStyle{Color: color.Black, Width: vg.Points(0.9)}
			eb.CapWidth = vg.Points(5)
			errs = append(errs, eb)
		}
	}
	p.Add(errs...) // on top of every bar
	ticks := make([]gplot.Tick, len(f.XTicks))
	for i, name := range f.XTicks {
		ticks[i] = gplot.Tick{Value: float64(i), Label: name}
	}
	p.X.Tick.Marker = gplot.ConstantTicks(ticks)
	p.X.Tick.Length = 0
	p.X.Min, p.X.Max = -0.5, float64(len(f.XTicks))-0.5
	p.X.Padding = 0
	p.Y.Padding = 0
	return entries, nil
}

// Axis label style and its distance from the tick labels.
const (
	axisLabelSize = vg.Length(11)
	axisLabelPad  = vg.Length(7)
)

// labelRoom is the depth of the strip an axis label needs.
func labelRoom(label string, sty text.Style) vg.Length {
	if label == "" {
		return 0
	}
	return sty.Height(label) + axisLabelPad
}

// drawPlot draws the plot and its axis labels in plotArea and returns the
// data area. It first adapts the axes to the space: category names that
// would not fit side by side are wrapped (or, failing that, rotated), and
// axis labels longer than their axis are wrapped or shrunk (see fitLabel).
func (f *Figure) drawPlot(p *gplot.Plot, plotArea draw.Canvas) draw.Canvas {
	xl, yl := f.XLabel, f.YLabel
	xs, ys := sans(axisLabelSize, false), sans(axisLabelSize, false)
	inner := func() draw.Canvas {
		return draw.Crop(plotArea, labelRoom(yl, ys), 0, labelRoom(xl, xs), 0)
	}
	if f.Bars {
		plotArea = f.fitCategories(p, plotArea, inner())
	}
	data := p.DataCanvas(inner())
	yl, ys = fitLabel(f.YLabel, ys, data.Max.Y-data.Min.Y)
	xl, xs = fitLabel(f.XLabel, xs, data.Max.X-data.Min.X)
	in := inner()
	p.Draw(in)
	data = p.DataCanvas(in)
	if xl != "" {
		xs.XAlign, xs.YAlign = draw.XCenter, draw.YBottom
		plotArea.FillText(xs, vg.Point{X: (data.Min.X + data.Max.X) / 2, Y: plotArea.Min.Y}, xl)
	}
	if yl != "" {
		// Rotated a quarter turn: the text's top faces left.
		ys.Rotation = math.Pi / 2
		ys.XAlign, ys.YAlign = draw.XCenter, draw.YTop
		plotArea.FillText(ys, vg.Point{X: plotArea.Min.X, Y: (data.Min.Y + data.Max.Y) / 2}, yl)
	}
	return data
}

// fitCategories sets the category names of a bar chart under their
// groups, wrapped onto several lines where they would not fit side by
// side, or rotated if a single word is too wide. inner is the plot's
// area less the axis labels. It returns plotArea, narrowed if rotated
// names need room on the left.
func (f *Figure) fitCategories(p *gplot.Plot, plotArea, inner draw.Canvas) draw.Canvas {
	data := p.DataCanvas(inner)
	slot := (data.Max.X - data.Min.X) / vg.Length(len(f.XTicks))
	sty := p.X.Tick.Label
	ticks := make([]gplot.Tick, len(f.XTicks))
	rotate := false
	for i, name := range f.XTicks {
		lines, ok := wrap(name, 0.92*slot, sty)
		rotate = rotate || !ok
		ticks[i] = gplot.Tick{Value: float64(i), Label: strings.Join(lines, "\n")}
	}
	if rotate {
		// Rotated names hang down-left from their category; the first
		// one may need room left of the y axis.
		for i, name := range f.XTicks {
			ticks[i].Label = name
		}
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YTop
		reach := sty.Width(f.XTicks[0])*vg.Length(math.Cos(math.Pi/6)) + 4
		if over := reach - (data.Min.X - plotArea.Min.X) - slot/2; over > 0 {
			plotArea.Min.X += over
		}
	}
	p.X.Tick.Marker = gplot.ConstantTicks(ticks)
	return plotArea
}

// fitLabel makes an axis label fit the length of its axis: on one line
// at the style's size or down to 10 pt, else on two lines at the style's
// size down to 9 pt, else on one line shrunk to 8 pt.
func fitLabel(label string, sty text.Style, length vg.Length) (string, text.Style) {
	if s := fitted(sty, label, length, 10); s.Width(label) <= length {
		return label, s
	}
	for s := sty; s.Font.Size >= 9; s.Font.Size -= 0.5 {
		if lines, ok := wrap(label, length, s); ok && len(lines) == 2 {
			return strings.Join(lines, "\n"), s
		}
	}
	return label, fitted(sty, label, length, 8)
}

// wrap splits name into lines no wider than width in sty, breaking at
// spaces and after '-', '_' and '/'. ok is false if some piece is wider
// than width on its own.
func wrap(name string, width vg.Length, sty text.Style) (lines []string, ok bool) {
	if sty.Width(name) <= width {
		return []string{name}, true
	}
	var pieces []string
	start := 0
	for i, r := range name {
		switch r {
		case ' ':
			pieces = append(pieces, name[start:i])
			start = i + 1
		case '-', '_', '/':
			pieces = append(pieces, name[start:i+1])
			start = i + 1
		}
	}
	pieces = append(pieces, name[start:])
	ok = true
	line := ""
	for _, pc := range pieces {
		if pc == "" {
			continue
		}
		cand := pc
		if line != "" {
			sep := " "
			if strings.HasSuffix(line, "-") || strings.HasSuffix(line, "_") || strings.HasSuffix(line, "/") {
				sep = ""
			}
			cand = line + sep + pc
		}
		if line == "" || sty.Width(cand) <= width {
			line = cand
		} else {
			lines = append(lines, line)
			line = pc
		}
		if sty.Width(pc) > width {
			ok = false
		}
	}
	return append(lines, line), ok
}

// ciPoints are the points of a series that have confidence bounds, as
// plotter.YErrorBars wants them.
type ciPoints struct {
	xy       plotter.XYs
	low, upp []float64
}

func (c *ciPoints) Len() int                        { return len(c.xy) }
func (c *ciPoints) XY(i int) (float64, float64)     { return c.xy[i].X, c.xy[i].Y }
func (c *ciPoints) YError(i int) (float64, float64) { return c.low[i], c.upp[i] }

// errorBars returns the confidence intervals of s at x positions xAt(i),
// or nil if s has none.
func errorBars(s *Series, xAt func(int) float64) *ciPoints {
	var c ciPoints
	for i := range s.Y {
		if !s.hasCI(i) {
			continue
		}
		c.xy = append(c.xy, plotter.XY{X: xAt(i), Y: s.Y[i]})
		c.low = append(c.low, s.Y[i]-s.Low[i])
		c.upp = append(c.upp, s.High[i]-s.Y[i])
	}
	if len(c.xy) == 0 {
		return nil
	}
	return &c
}

// rangePad is the share of an axis's span added at each end of the axes
// of line charts (of the span of the logarithms on a log axis).
const rangePad = 0.04

// padRange widens [lo, hi] by rangePad of its span at each end (on a log
// axis, by rangePad of the span of the logarithms, so the ends stay
// positive). A range of one value (hi == lo) is widened by rangePad of
// that value's magnitude (1 for 0) instead.
func padRange(lo, hi float64, log bool) (float64, float64) {
	if log {
		if !(lo > 0 && hi >= lo) {
			return lo, hi
		}
		d := rangePad * math.Log10(hi/lo)
		if d == 0 {
			d = rangePad
		}
		f := math.Pow(10, d)
		return lo / f, hi * f
	}
	if !(hi >= lo) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return lo, hi
	}
	d := rangePad * (hi - lo)
	if d == 0 {
		d = rangePad * math.Max(math.Abs(lo), 1)
	}
	return lo - d, hi + d
}

// logBounds widens [lo, hi] on a log axis to tick values: 1-2-5 multiples
// of powers of ten when logTicks labels those (see fineLogSpan), whole
// powers of ten otherwise, so that both ends of the axis carry a label.
func logBounds(lo, hi float64) (float64, float64) {
	if !(lo > 0 && hi >= lo) {
		return lo, hi
	}
	kLo := math.Floor(math.Log10(lo))
	kHi := math.Ceil(math.Log10(hi))
	if math.Log10(hi/lo) > fineLogSpan {
		return math.Pow10(int(kLo)), math.Pow10(int(kHi))
	}
	nice := []float64{1, 2, 5, 10}
	down := math.Pow10(int(kLo))
	for _, m := range nice {
		if v := m * math.Pow10(int(kLo)); v <= lo*(1+1e-12) {
			down = v
		}
	}
	top := math.Pow10(int(math.Floor(math.Log10(hi))))
	up := 10 * top
	for i := len(nice) - 1; i >= 0; i-- {
		if v := nice[i] * top; v >= hi*(1-1e-12) {
			up = v
		}
	}
	return down, up
}
