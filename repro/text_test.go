package repro

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schedlab/schedlab/report/plot"
)

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		text, first, indent string
		width               int
		want                string
	}{
		// 10 columns: "  [holds] aa" is 10, so "bb" goes on, indented.
		{"aa bb cc", "  [holds] ", "        ", 10, "  [holds] aa\n        bb\n        cc"},
		{"aa bb cc", "", "  ", 5, "aa bb\n  cc"},
		// Runs of spaces and line breaks are one space.
		{"a  b\nc", "", "", 80, "a b c"},
		// A word longer than the width stays whole, alone on its line.
		{"a verylongword b", "", "  ", 6, "a\n  verylongword\n  b"},
		// Width counts characters, not bytes: "λλλλ λ" is 6.
		{"λλλλ λ λ", "", "", 6, "λλλλ λ\nλ"},
		{"", "Note: ", "", 80, "Note: "},
	} {
		if got := Wrap(c.text, c.first, c.indent, c.width); got != c.want {
			t.Errorf("Wrap(%q, %q, %q, %d) = %q, want %q", c.text, c.first, c.indent, c.width, got, c.want)
		}
	}
}

func TestNum(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0.8952005564572223, "0.8952"},
		{0.9199428162973553, "0.9199"},
		{3.194, "3.194"},
		{22.617, "22.62"},
		{999.94, "999.9"},
		{999.96, "1000"},
		{31929.4, "31929"},
		{-352541.441353, "-352541"},
		{1e6, "1e+06"},
		{29400000, "2.94e+07"},
		{0.00012345, "0.0001234"}, // 4 digits, round half to even in binary
		{0, "0"},
		{1, "1"},
		{math.NaN(), ""},
	} {
		if got := Num(c.v); got != c.want {
			t.Errorf("Num(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestPaperNum(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0.87999, "0.87999"}, // as published
		{22.617, "22.617"},
		{4313, "4313"},
		{0.033, "0.033"},
		{100.5, "100.5"},
		{0.8952005564572223, "0.8952"}, // a ratio of published numbers
		{123456, "123456"},
		{1234567, "1.235e+06"},
		{math.NaN(), ""},
	} {
		if got := paperNum(c.v); got != c.want {
			t.Errorf("paperNum(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// The text report: sentences wrapped at TextWidth, labels on one line,
// numbers at four digits, a claim made on several workloads named by its
// scope; report.txt's first line and setup paragraph as the HTML page
// reads them.
func TestWriteTextReadable(t *testing.T) {
	long := strings.Repeat("evidence word ", 30)
	r := &Report{
		Paper: "p", Title: "A title",
		Setup: strings.Repeat("setup words here ", 12),
		Items: []Item{{Name: "ratio/KTH/3113", Paper: 0.8952005564572223, Ours: 0.19354321, Low: math.NaN(), High: math.NaN()}},
		Figures: []plot.Figure{{ID: "fig05", Title: "Mean response", XLabel: "policy", YLabel: "ratio", Bars: true,
			XTicks: []string{"FCFS", "first-fit\n(paper's BF)"},
			Series: []plot.Series{{Name: "KTH", X: []float64{0, 1}, Y: []float64{1, 0.28271234}}}}},
		Checks: []Check{
			{ID: "order/KTH/1292", Scope: "KTH, first 1292 jobs", Claim: "new < old", V: No, Detail: "matrix 1 s"},
			{ID: "order/synthetic/1292", Scope: "synthetic, first 1292 jobs", Claim: "new < old", V: Holds, Detail: "matrix 2 s"},
			{ID: "dup/a", Claim: "same words", V: Holds, Detail: "x"},
			{ID: "dup/b", Claim: "same words", V: Holds, Detail: "y"},
			{ID: "long", Claim: "a long claim", V: Holds, Detail: long},
		},
		Notes: []string{strings.Repeat("note words ", 20)},
	}
	var b bytes.Buffer
	if err := r.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	s := b.String()
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if n := utf8.RuneCountInString(l); n > TextWidth {
			t.Errorf("line %d has %d characters, more than %d: %q", i+1, n, TextWidth, l)
		}
	}
	if lines[0] != "== p: A title" {
		t.Errorf("first line %q", lines[0])
	}
	// The setup paragraph, rejoined as the HTML page does, is the setup.
	var setup []string
	for _, l := range lines[1:] {
		if l == "" {
			break
		}
		setup = append(setup, l)
	}
	if len(setup) < 2 || strings.Join(setup, " ") != strings.TrimSpace(r.Setup) {
		t.Errorf("setup lines %q", setup)
	}
	for _, want := range []string{
		"ratio/KTH/3113  0.8952  0.1935",
		"first-fit (paper's BF)  0.2827",
		"  [NO] KTH, first 1292 jobs: new < old: matrix 1 s\n",
		"  [holds] synthetic, first 1292 jobs: new < old: matrix 2 s\n",
		// Without a scope, a repeated claim is named by its ID's tail.
		"  [holds] a: same words: x\n",
		"  [holds] b: same words: y\n",
		"  [holds] a long claim: evidence word evidence word",
		"\n        evidence word",
		"\nClaims of the paper, checked on our runs (4 hold, 1 no):\n",
		"\nNote: note words note words",
		"\n      note words",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "0.8952005564572223") || strings.Contains(s, "first-fit\n") {
		t.Errorf("unrounded number or a label's line break:\n%s", s)
	}
	// The machine-readable files keep every digit.
	var c bytes.Buffer
	r.WriteComparison(&c)
	if !strings.Contains(c.String(), "ratio/KTH/3113,0.8952005564572223,0.19354321,,\n") {
		t.Errorf("comparison.csv:\n%s", c.String())
	}
	var cl bytes.Buffer
	r.WriteClaims(&cl)
	if !strings.Contains(cl.String(), "order/KTH/1292,new < old,no,matrix 1 s\n") {
		t.Errorf("claims.csv:\n%s", cl.String())
	}
}

// skipped.csv: written when a workload was left out, removed when a
// later run into the same folder left none out.
func TestWriteDirSkipped(t *testing.T) {
	dir := t.TempDir()
	r := &Report{Paper: "p", Title: "t", Setup: "s",
		Skipped: []Skip{{"HPC2N", "HPC2N-2002-2.1-cln.swf.gz"}, {"SDSC", "SDSC-BLUE-2000-4.2-cln.swf.gz"}}}
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, SkippedFile))
	if err != nil {
		t.Fatal(err)
	}
	if want := "workload,trace\nHPC2N,HPC2N-2002-2.1-cln.swf.gz\nSDSC,SDSC-BLUE-2000-4.2-cln.swf.gz\n"; string(b) != want {
		t.Errorf("skipped.csv = %q, want %q", b, want)
	}
	r.Skipped = nil
	if err := r.WriteDir(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, SkippedFile)); !os.IsNotExist(err) {
		t.Errorf("skipped.csv left from the earlier run: %v", err)
	}
}
