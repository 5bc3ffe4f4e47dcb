package repro

import (
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// TextWidth is the width, in characters, at which the text of a
// reproduction (the console and report.txt) wraps its sentences: claims,
// notes, the setup paragraph and figure headings. Tables are not wrapped.
const TextWidth = 100

// Wrap breaks text into lines of at most width characters (runes) at
// spaces: the first line starts with first, every further line with
// indent. A word longer than a line stays whole on a line of its own.
// Runs of spaces and line breaks in text count as one space; the
// result has no trailing newline.
func Wrap(text, first, indent string, width int) string {
	var b strings.Builder
	b.WriteString(first)
	col := utf8.RuneCountInString(first)
	start := col // the column where a line's first word goes
	for _, word := range strings.Fields(text) {
		n := utf8.RuneCountInString(word)
		if col > start && col+1+n > width {
			b.WriteByte('\n')
			b.WriteString(indent)
			col = utf8.RuneCountInString(indent)
			start = col
		}
		if col > start {
			b.WriteByte(' ')
			col++
		}
		b.WriteString(word)
		col += n
	}
	return b.String()
}

// writeWrapped writes Wrap(text, first, indent, TextWidth) and a newline.
func writeWrapped(w io.Writer, text, first, indent string) {
	io.WriteString(w, Wrap(text, first, indent, TextWidth)+"\n")
}

// Num formats a number for people: four significant digits (0.8952, not
// 0.8952005564572223; 3.142; 0.0001235), except that numbers from 1,000
// up to a million are written out whole, rounded to an integer (31929,
// not 3.193e+04). Beyond a million, or below 0.0001, the exponent form
// (1.235e+07). NaN is "".
func Num(v float64) string {
	switch a := math.Abs(v); {
	case math.IsNaN(v):
		return ""
	case a >= 1000 && a < 1e6:
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// paperNum formats a paper's number: as the paper prints it when that
// takes at most five significant digits (0.87999, 22.617, 4313), else
// as Num (a ratio of the paper's numbers, 0.8952005564572223, is
// 0.8952).
func paperNum(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	s := strconv.FormatFloat(v, 'g', -1, 64)
	digits := 0
	for _, r := range strings.TrimLeft(strings.Split(s, "e")[0], "-0.") {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	if digits <= 5 && !strings.Contains(s, "e") {
		return s
	}
	return Num(v)
}

// oneLine turns the line breaks of a label (a figure's tick such as
// "first-fit\n(paper's BF)") into spaces, so a table row stays one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}
