package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// lineFigure is a paper-style line chart: response time over the
// allocation interval, one series per policy, with confidence intervals.
func lineFigure() *Figure {
	x := []float64{1, 2, 5, 10, 20, 50, 100, 200}
	mk := func(name string, base, slope float64, ci bool) Series {
		s := Series{Name: name, X: x, Y: make([]float64, len(x))}
		if ci {
			s.Low, s.High = make([]float64, len(x)), make([]float64, len(x))
		}
		for i, v := range x {
			s.Y[i] = base + slope*math.Log(v)
			if ci {
				hw := 0.04 * s.Y[i]
				s.Low[i], s.High[i] = s.Y[i]-hw, s.Y[i]+hw
			}
		}
		return s
	}
	return &Figure{
		ID:     "fig03",
		Title:  "Mean response time vs. allocation interval",
		XLabel: "allocation interval A_I (s)",
		YLabel: "mean response time RT (s)",
		Note:   "KTH-SP2 trace, 100 nodes, load 0.7, 10 replicas, 95% CI",
		LogX:   true,
		Series: []Series{
			mk("FCFS", 5200, 310, true),
			mk("EASY backfilling", 3100, 250, true),
			mk("Conservative backfilling", 3400, 260, true),
			mk("SJF", 2500, 180, false),
			mk("EASY + SJF queue order", 2300, 120, true),
		},
	}
}

// barFigure is a grouped bar chart of three policies on four traces.
func barFigure() *Figure {
	return &Figure{
		ID:     "fig07",
		Title:  "Bounded slowdown per trace",
		XLabel: "workload trace",
		YLabel: "mean bounded slowdown (τ = 10 s)",
		Note:   "Utilization 0.8; error bars: 95% confidence intervals over 10 replicas",
		Bars:   true,
		XTicks: []string{"KTH-SP2", "SDSC-SP2", "CTC-SP2", "LANL-CM5"},
		Series: []Series{
			{Name: "FCFS", X: []float64{0, 1, 2, 3}, Y: []float64{42, 61, 28, 75},
				Low: []float64{38, 55, 25, 70}, High: []float64{46, 67, 31, 80}},
			{Name: "EASY", X: []float64{0, 1, 2, 3}, Y: []float64{12, 19, 9, 23},
				Low: []float64{11, 17, 8, 21}, High: []float64{13, 21, 10, 25}},
			{Name: "Conservative", X: []float64{0, 1, 2, 3}, Y: []float64{15, 22, 11, 27},
				Low: []float64{14, 20, 10, 25}, High: []float64{16, 24, 12, 29}},
		},
	}
}

func TestWriteCSVGolden(t *testing.T) {
	f := &Figure{
		ID: "fig01",
		Series: []Series{
			{Name: "EASY", X: []float64{1, 2.5}, Y: []float64{0.1, 1e21},
				Low: []float64{0.05, math.NaN()}, High: []float64{0.15, math.NaN()}},
			{Name: "FCFS, strict", X: []float64{1e-7, 3}, Y: []float64{-2, 1.0 / 3}},
		},
	}
	var buf bytes.Buffer
	if err := f.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	const want = `series,x,y,ci_low,ci_high
EASY,1,0.1,0.05,0.15
EASY,2.5,1e+21,,
"FCFS, strict",1e-07,-2,,
"FCFS, strict",3,0.3333333333333333,,
`
	if got := buf.String(); got != want {
		t.Errorf("CSV:\n%s\nwant:\n%s", got, want)
	}
}

func TestWriteCSVInvalidWritesNothing(t *testing.T) {
	var buf bytes.Buffer
	if err := (&Figure{ID: "x"}).WriteCSV(&buf); err == nil || buf.Len() != 0 {
		t.Errorf("err = %v, %d bytes written; want error and nothing", err, buf.Len())
	}
	if err := (&Figure{ID: "x"}).WriteSVG(&buf); err == nil || buf.Len() != 0 {
		t.Errorf("err = %v, %d bytes written; want error and nothing", err, buf.Len())
	}
}

// render returns the SVG of f, failing the test on error.
func render(t *testing.T, f *Figure) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := f.WriteSVG(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// svgTexts parses doc as XML, failing the test if it is not well-formed,
// and returns the root element name, its width and height attributes and
// the contents of all text elements.
func svgTexts(t *testing.T, doc []byte) (root, width, height string, texts []string) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	inText := false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
		switch el := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = el.Name.Local
				for _, a := range el.Attr {
					switch a.Name.Local {
					case "width":
						width = a.Value
					case "height":
						height = a.Value
					}
				}
			}
			if el.Name.Local == "text" {
				inText = true
				texts = append(texts, "")
			}
		case xml.EndElement:
			if el.Name.Local == "text" {
				inText = false
			}
		case xml.CharData:
			if inText {
				texts[len(texts)-1] += string(el)
			}
		}
	}
	return root, width, height, texts
}

func TestWriteSVGContent(t *testing.T) {
	for _, f := range []*Figure{lineFigure(), barFigure()} {
		t.Run(f.ID, func(t *testing.T) {
			doc := render(t, f)
			root, w, h, texts := svgTexts(t, doc)
			if root != "svg" {
				t.Errorf("root element %q, want svg", root)
			}
			// 16 cm x 10 cm in points.
			if w != "453.54pt" || h != "283.46pt" {
				t.Errorf("size %s x %s, want 453.54pt x 283.46pt", w, h)
			}
			want := []string{f.Title, f.Note, f.XLabel, f.YLabel}
			for _, s := range f.Series {
				want = append(want, s.Name)
			}
			want = append(want, f.XTicks...)
			for _, s := range want {
				if !contains(texts, s) {
					t.Errorf("no text element %q in SVG; texts: %q", s, texts)
				}
			}
			if !bytes.Contains(doc, []byte("font-family:Liberation Sans,Arial,Helvetica,sans-serif;")) {
				t.Error("font fallback list missing")
			}
		})
	}
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func TestWriteSVGEscapesText(t *testing.T) {
	f := lineFigure()
	f.Title = `Policies <A & B> "quoted"`
	f.Series[0].Name = `FCFS <fifo> & "strict"`
	_, _, _, texts := svgTexts(t, render(t, f))
	for _, s := range []string{f.Title, f.Series[0].Name} {
		if !contains(texts, s) {
			t.Errorf("text %q lost in escaping; texts: %q", s, texts)
		}
	}
}

func TestWriteSVGDeterministic(t *testing.T) {
	for _, f := range []*Figure{lineFigure(), barFigure()} {
		a, b := render(t, f), render(t, f)
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two renders differ", f.ID)
		}
		// A fresh but equal figure renders identically too.
		var g *Figure
		if f.Bars {
			g = barFigure()
		} else {
			g = lineFigure()
		}
		if c := render(t, g); !bytes.Equal(a, c) {
			t.Errorf("%s: equal figures render differently", f.ID)
		}
	}
	// Nothing in the output may depend on the clock, the host or chance:
	// outside the figure's own text there are no dates, times, generated
	// ids or metadata, and the only comment is gonum's fixed banner.
	doc := string(render(t, lineFigure()))
	textElement := regexp.MustCompile(`(?s)<text[^>]*>.*?</text>`)
	markup := strings.ToLower(textElement.ReplaceAllString(doc, "<text/>"))
	for _, bad := range []string{"<metadata", "date", "time", "id=", "rand", "host", "user"} {
		if strings.Contains(markup, bad) {
			t.Errorf("SVG markup contains %q", bad)
		}
	}
	if n := strings.Count(doc, "<!--"); n != 1 || !strings.Contains(doc, "<!-- Generated by SVGo and Plotinum VG -->") {
		t.Errorf("unexpected comments (%d)", n)
	}
}

func TestWriteSVGLegendBelowForLongNames(t *testing.T) {
	f := lineFigure()
	f.Series[1].Name = "EASY backfilling with shortest-job-first queue ordering and reservation depth 4"
	_, _, _, texts := svgTexts(t, render(t, f))
	if !contains(texts, f.Series[1].Name) {
		t.Errorf("long legend entry missing")
	}
}

func TestWriteSVGVariants(t *testing.T) {
	// Figures exercising the other code paths must render valid SVG.
	logY := lineFigure()
	logY.ID, logY.LogX, logY.LogY = "logy", false, true
	single := &Figure{ID: "single", Series: []Series{{Name: "one", X: []float64{3}, Y: []float64{7}}}}
	flat := &Figure{ID: "flat", Series: []Series{{Name: "flat", X: []float64{1, 2, 3}, Y: []float64{0, 0, 0}}}}
	neg := barFigure()
	neg.ID = "neg"
	neg.Series[0].Y[1], neg.Series[0].Low, neg.Series[0].High = -20, nil, nil
	logBars := barFigure()
	logBars.ID, logBars.LogY = "logbars", true
	many := lineFigure()
	many.ID = "many"
	for i := 0; i < 12; i++ {
		s := lineFigure().Series[i%5]
		s.Name = strings.Repeat("p", i+1)
		many.Series = append(many.Series, s)
	}
	narrowBars := barFigure()
	narrowBars.ID = "narrow"
	narrowBars.XTicks = []string{"a long category name", "another long category name", "yet another long name", "and the last one"}
	rotated := barFigure()
	rotated.ID = "rotated"
	rotated.XTicks = []string{"SDSC-Paragon-1995-3.1-cln", "KTH-SP2-1996-2.1-cln", "CTC-SP2-1996-3.1-cln", "LANLCM5ThinkingMachines1994"}
	manual := lineFigure()
	manual.ID, manual.Title, manual.YLabel = "manual", "Two-line\ntitle", "response\ntime (s)"
	for _, f := range []*Figure{logY, single, flat, neg, logBars, many, narrowBars, rotated, manual} {
		t.Run(f.ID, func(t *testing.T) {
			svgTexts(t, render(t, f))
		})
	}
}

func TestValidate(t *testing.T) {
	ok := func() *Figure {
		return &Figure{ID: "fig09", Series: []Series{
			{Name: "A", X: []float64{1, 2}, Y: []float64{3, 4}, Low: []float64{2, 3}, High: []float64{4, 5}},
			{Name: "B", X: []float64{1, 2}, Y: []float64{5, 6}},
		}}
	}
	if err := ok().Validate(); err != nil {
		t.Fatalf("valid figure rejected: %v", err)
	}
	nan := math.NaN()
	for _, tc := range []struct {
		name   string
		mutate func(f *Figure)
		want   string
	}{
		{"no ID", func(f *Figure) { f.ID = "" }, "figure has no ID"},
		{"no series", func(f *Figure) { f.Series = nil }, `figure "fig09": no series`},
		{"unnamed", func(f *Figure) { f.Series[1].Name = "" }, "series 1 has no name"},
		{"duplicate", func(f *Figure) { f.Series[1].Name = "A" }, `series 0 and 1 are both named "A"`},
		{"empty", func(f *Figure) { f.Series[1].X, f.Series[1].Y = nil, nil }, `series "B": no points`},
		{"len Y", func(f *Figure) { f.Series[1].Y = []float64{1} }, `figure "fig09": series "B": len(X) = 2 but len(Y) = 1`},
		{"NaN X", func(f *Figure) { f.Series[0].X[1] = nan }, `series "A": X[1] = NaN is not a finite number`},
		{"Inf Y", func(f *Figure) { f.Series[0].Y[0] = math.Inf(1) }, `series "A": Y[0] = +Inf`},
		{"Low only", func(f *Figure) { f.Series[0].High = nil }, "Low and High must be both set or both nil"},
		{"len Low", func(f *Figure) { f.Series[0].Low = []float64{1} }, "len(Low) = 1 but len(Y) = 2"},
		{"len High", func(f *Figure) { f.Series[0].High = []float64{1, 2, 3} }, "len(High) = 3 but len(Y) = 2"},
		{"half NaN CI", func(f *Figure) { f.Series[0].Low[0] = nan }, "point 0: bounds [NaN, 4] must be both finite or both NaN"},
		{"CI not bracketing", func(f *Figure) { f.Series[0].Low[1] = 4.5 }, "point 1: bounds [4.5, 5] do not contain Y = 4"},
		{"LogX", func(f *Figure) { f.LogX = true; f.Series[1].X[0] = 0 }, `series "B": X[0] = 0 is not positive (LogX)`},
		{"LogY", func(f *Figure) { f.LogY = true; f.Series[1].Y[1] = -1 }, "Y[1] = -1 is not positive (LogY)"},
		{"LogY CI", func(f *Figure) { f.LogY = true; f.Series[0].Low[0] = 0 }, "Low = 0 is not positive (LogY)"},
		{"XTicks without bars", func(f *Figure) { f.XTicks = []string{"a"} }, "XTicks is only for bar charts"},
		{"bars without ticks", func(f *Figure) { f.Bars = true }, "a bar chart needs XTicks"},
		{"bars LogX", func(f *Figure) { f.Bars, f.LogX, f.XTicks = true, true, []string{"a", "b", "c"} }, "cannot have a logarithmic x axis"},
		{"bar index", func(f *Figure) { f.Bars, f.XTicks = true, []string{"a", "b"} }, `series "A": X[1] = 2 is not a category index in 0..1`},
		{"bar fraction", func(f *Figure) { f.Bars, f.XTicks = true, []string{"a", "b", "c"}; f.Series[0].X[0] = 0.5 }, "X[0] = 0.5 is not a category index"},
		{"bar twice", func(f *Figure) { f.Bars, f.XTicks = true, []string{"a", "b", "c"}; f.Series[1].X[0] = 2 }, `category 2 ("c") appears twice`},
		{"two-line note", func(f *Figure) { f.Note = "a\nb" }, "note must be a single line"},
		{"two-line name", func(f *Figure) { f.Series[1].Name = "B\nb" }, `series 1 name "B\nb" must be a single line`},
		{"two-line ID", func(f *Figure) { f.ID = "fig\n09" }, "must be a single line"},
		{"control char", func(f *Figure) { f.Series[0].Name = "A\x00" }, "control character U+0000"},
		{"bad UTF-8", func(f *Figure) { f.YLabel = "\xff" }, "y label"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := ok()
			tc.mutate(f)
			err := f.Validate()
			if err == nil {
				t.Fatalf("accepted; want error containing %q", tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q; want it to contain %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), "plot: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
	var nilFig *Figure
	if err := nilFig.Validate(); err == nil {
		t.Error("nil figure accepted")
	}
	// NaN bounds on both sides mean "no interval here" and are fine.
	f := ok()
	f.Series[0].Low[0], f.Series[0].High[0] = nan, nan
	if err := f.Validate(); err != nil {
		t.Errorf("NaN interval rejected: %v", err)
	}
}

func TestLogTicks(t *testing.T) {
	labels := func(lo, hi float64) []string {
		var out []string
		for _, tk := range (logTicks{}).Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return out
	}
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{1, 200, "1 2 5 10 20 50 100 200"},
		{0.1, 0.5, "0.1 0.2 0.5"},
		{1, 1e4, "1 10 100 1000 10000"},
		{1, 1e12, "1 100 10000 1e+06 1e+08 1e+10 1e+12"},
	} {
		if got := strings.Join(labels(tc.lo, tc.hi), " "); got != tc.want {
			t.Errorf("ticks(%v, %v) = %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
	if (logTicks{}).Ticks(0, 1) != nil {
		t.Error("non-positive range should give no ticks")
	}
}

func TestLinTicks(t *testing.T) {
	labels := func(lo, hi float64) string {
		var out []string
		for _, tk := range (linTicks{}).Ticks(lo, hi) {
			if tk.Label != "" {
				out = append(out, tk.Label)
			}
		}
		return strings.Join(out, " ")
	}
	for _, tc := range []struct {
		lo, hi float64
		want   string
	}{
		{0, 84, "0 20 40 60 80"},
		{2208, 7110, "3000 4000 5000 6000 7000"},
		{-1, 1, "-1.0 -0.5 0.0 0.5 1.0"},
		{0.1, 0.35, "0.10 0.15 0.20 0.25 0.30 0.35"},
		{0, 3e7, "0 5e+06 1e+07 1.5e+07 2e+07 2.5e+07 3e+07"},
	} {
		if got := labels(tc.lo, tc.hi); got != tc.want {
			t.Errorf("ticks(%v, %v) = %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
	if (linTicks{}).Ticks(1, 1) != nil {
		t.Error("empty range should give no ticks")
	}
}

func TestWrap(t *testing.T) {
	sty := sans(10, false)
	for _, tc := range []struct {
		name  string
		width vg.Length
		want  string
		ok    bool
	}{
		{"KTH-SP2", 100, "KTH-SP2", true},
		{"another long category name", 80, "another long|category name", true},
		{"SDSC-Paragon-1995", 75, "SDSC-Paragon-|1995", true},
		{"SDSC-Paragon-1995", 45, "SDSC-|Paragon-|1995", true},
		{"LANLCM5ThinkingMachines1994", 60, "LANLCM5ThinkingMachines1994", false},
	} {
		lines, ok := wrap(tc.name, tc.width, sty)
		if got := strings.Join(lines, "|"); got != tc.want || ok != tc.ok {
			t.Errorf("wrap(%q, %v) = %q, %v; want %q, %v", tc.name, tc.width, got, ok, tc.want, tc.ok)
		}
		for _, l := range lines {
			if tc.ok && sty.Width(l) > tc.width {
				t.Errorf("wrap(%q): line %q wider than %v", tc.name, l, tc.width)
			}
		}
	}
}

func TestWriteSVGConcurrent(t *testing.T) {
	// Figures share nothing but gonum's font cache; rendering in parallel
	// must give the same bytes as rendering alone.
	want := render(t, lineFigure())
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			var buf bytes.Buffer
			err := lineFigure().WriteSVG(&buf)
			if err == nil && !bytes.Equal(buf.Bytes(), want) {
				err = errors.New("concurrent render differs")
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

func TestLogBounds(t *testing.T) {
	for _, tc := range []struct{ lo, hi, wlo, whi float64 }{
		{1, 200, 1, 200},
		{3, 40, 2, 50},
		{0.13, 0.9, 0.1, 1},
		{7, 3e5, 1, 1e6},
	} {
		lo, hi := logBounds(tc.lo, tc.hi)
		if math.Abs(lo-tc.wlo) > 1e-12*tc.wlo || math.Abs(hi-tc.whi) > 1e-12*tc.whi {
			t.Errorf("logBounds(%v, %v) = %v, %v; want %v, %v", tc.lo, tc.hi, lo, hi, tc.wlo, tc.whi)
		}
	}
}

// TestExampleFiles renders the example figures; with SCHEDLAB_PLOT_DIR set
// it keeps them there (plot-line.svg, plot-bars.svg) for a person to look
// at.
func TestExampleFiles(t *testing.T) {
	dir := os.Getenv("SCHEDLAB_PLOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	for name, f := range map[string]*Figure{"plot-line": lineFigure(), "plot-bars": barFigure()} {
		for ext, write := range map[string]func(io.Writer) error{".svg": f.WriteSVG, ".csv": f.WriteCSV} {
			var buf bytes.Buffer
			if err := write(&buf); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name+ext), buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Line charts leave room around the data: a marker or an error bar's cap
// at an end of an axis is drawn whole. Hand-worked on dimitriadou2010's
// fig02 (x 8.33..12.5, y from 94.80 to 100.16 with the CIs): 4% of each
// span at each end.
func TestPaddedRanges(t *testing.T) {
	f := Figure{ID: "fig02", Title: "t", XLabel: "x", YLabel: "y", Series: []Series{{
		Name: "approach 1", X: []float64{8.33, 10, 12.5}, Y: []float64{99.77, 99.6, 97.03},
		Low: []float64{99.49, 99.03, 94.8}, High: []float64{100.05, 100.16, 99.26}}}}
	p, _, err := f.newPlot()
	if err != nil {
		t.Fatal(err)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	near("x min", p.X.Min, 8.33-0.04*4.17)
	near("x max", p.X.Max, 12.5+0.04*4.17)
	near("y min", p.Y.Min, 94.8-0.04*5.36)
	near("y max", p.Y.Max, 100.16+0.04*5.36)

	// A log axis: 4% of the decades at each end, after logBounds (1 to
	// 1000: 3 decades, so a factor 10^0.12).
	f.LogY = true
	f.Series[0].Y, f.Series[0].Low, f.Series[0].High = []float64{1, 10, 1000}, nil, nil
	if p, _, err = f.newPlot(); err != nil {
		t.Fatal(err)
	}
	near("log y min", p.Y.Min, 1/math.Pow(10, 0.12))
	near("log y max", p.Y.Max, 1000*math.Pow(10, 0.12))

	// One value: 4% of its magnitude; bars keep their own range.
	lo, hi := padRange(5, 5, false)
	near("single lo", lo, 4.8)
	near("single hi", hi, 5.2)
	lo, hi = padRange(0, 0, false)
	near("zero lo", lo, -0.04)
	near("zero hi", hi, 0.04)
	b := Figure{ID: "b", Bars: true, XTicks: []string{"a", "b"}, Series: []Series{{Name: "s", X: []float64{0, 1}, Y: []float64{1, 2}}}}
	if p, _, err = b.newPlot(); err != nil {
		t.Fatal(err)
	}
	near("bars x min", p.X.Min, -0.5)
	near("bars x max", p.X.Max, 1.5)
}
