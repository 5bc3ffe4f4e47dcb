package validate

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxCPU is the largest CPU id ParseResources accepts: ids fit in an int32.
// The bound keeps counts of CPUs within int64 and lets the checker store
// ids compactly; no code in this package allocates memory in proportion to
// an id read from a file (Check's per-CPU state is sized by the platform,
// Options.Procs).
const MaxCPU = math.MaxInt32

// Interval is the inclusive range of CPU ids Lo..Hi (Lo <= Hi).
type Interval struct {
	Lo, Hi int
}

// Len is the number of CPUs in iv.
func (iv Interval) Len() int { return iv.Hi - iv.Lo + 1 }

// String writes iv as one token of the interval syntax: "a" or "a-b".
func (iv Interval) String() string {
	if iv.Lo == iv.Hi {
		return strconv.Itoa(iv.Lo)
	}
	return strconv.Itoa(iv.Lo) + "-" + strconv.Itoa(iv.Hi)
}

// ParseResources parses a list of CPU ids in Batsim's interval syntax, as
// in jobs.csv's allocated_resources column: tokens separated by single
// spaces, each a CPU id "a" or an inclusive range "a-b" with a < b. Ids are
// decimal integers in [0, MaxCPU] without sign or leading zeros. Only the
// normal form is accepted: at least one token, tokens in ascending order,
// disjoint and not adjacent (maximal runs: "0-3 8", never "0-1 2-3",
// "8 0-3", "0-3 2" or "3-3"), no leading, trailing or repeated space. So
// FormatResources(ParseResources(s)) == s whenever ParseResources succeeds.
//
// The error names the first offending token (1-based) and why, for example
//
//	token 2 "2-3": adjacent to token 1 "0-1", not merged (want "0-3")
//
// The result has one Interval per token; its size is bounded by len(s).
func ParseResources(s string) ([]Interval, error) {
	if s == "" {
		return nil, fmt.Errorf("empty, want at least one CPU id")
	}
	ivs := make([]Interval, 0, strings.Count(s, " ")+1)
	prevTok := ""
	for n, rest := 1, s; ; n++ {
		tok, after, more := strings.Cut(rest, " ")
		if tok == "" {
			why := "double space"
			switch {
			case n == 1:
				why = "leading space"
			case !more:
				why = "trailing space"
			}
			return nil, fmt.Errorf("token %d: empty (%s)", n, why)
		}
		iv, err := parseToken(tok)
		if err != nil {
			return nil, fmt.Errorf("token %d %s: %v", n, quote(tok), err)
		}
		if len(ivs) > 0 {
			p := ivs[len(ivs)-1]
			switch {
			case iv.Lo < p.Lo:
				return nil, fmt.Errorf("token %d %s: not ascending (after token %d %s)", n, quote(tok), n-1, quote(prevTok))
			case iv.Lo <= p.Hi:
				return nil, fmt.Errorf("token %d %s: overlaps token %d %s", n, quote(tok), n-1, quote(prevTok))
			case iv.Lo == p.Hi+1:
				return nil, fmt.Errorf("token %d %s: adjacent to token %d %s, not merged (want %q)",
					n, quote(tok), n-1, quote(prevTok), Interval{p.Lo, iv.Hi}.String())
			}
		}
		ivs = append(ivs, iv)
		prevTok = tok
		if !more {
			return ivs, nil
		}
		rest = after
	}
}

// maxQuoted is the length beyond which error messages cut quoted input.
const maxQuoted = 64

// quote quotes s for an error message, cut after maxQuoted bytes ("..."
// marks the cut): a hostile file must not make messages huge.
func quote(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:maxQuoted]) + "..."
}

// parseToken parses "a" or "a-b" (a < b).
func parseToken(tok string) (Interval, error) {
	if tok[0] == '-' {
		return Interval{}, fmt.Errorf("negative id")
	}
	loS, hiS, isRange := strings.Cut(tok, "-")
	lo, err := parseID(loS)
	if err != nil {
		if isRange {
			return Interval{}, fmt.Errorf("lower bound: %v", err)
		}
		return Interval{}, err
	}
	if !isRange {
		return Interval{lo, lo}, nil
	}
	switch {
	case hiS == "":
		return Interval{}, fmt.Errorf("upper bound: missing")
	case hiS[0] == '-':
		return Interval{}, fmt.Errorf("upper bound: negative id")
	}
	hi, err := parseID(hiS)
	if err != nil {
		return Interval{}, fmt.Errorf("upper bound: %v", err)
	}
	switch {
	case lo == hi:
		return Interval{}, fmt.Errorf("range of one CPU (want %q)", loS)
	case lo > hi:
		return Interval{}, fmt.Errorf("reversed range (%d > %d)", lo, hi)
	}
	return Interval{lo, hi}, nil
}

// parseID parses a CPU id: decimal digits, no sign, no leading zero, at
// most MaxCPU.
func parseID(s string) (int, error) {
	if s == "" {
		return 0, fmt.Errorf("missing")
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			return 0, fmt.Errorf("not a number (unexpected %q)", rune(c))
		}
	}
	if len(s) > 1 && s[0] == '0' {
		return 0, fmt.Errorf("leading zero")
	}
	v := 0
	for i := 0; i < len(s); i++ {
		v = 10*v + int(s[i]-'0')
		if v > MaxCPU {
			return 0, fmt.Errorf("id exceeds %d", MaxCPU)
		}
	}
	return v, nil
}

// normalize returns the normal form of the union of ivs: ascending,
// disjoint, non-adjacent intervals. Intervals with Hi < Lo are empty. ivs
// is not modified; if it already is in normal form it is returned as is.
func normalize(ivs []Interval) []Interval {
	if isNormal(ivs) {
		return ivs
	}
	s := make([]Interval, 0, len(ivs))
	for _, iv := range ivs {
		if iv.Lo <= iv.Hi {
			s = append(s, iv)
		}
	}
	slices.SortFunc(s, func(a, b Interval) int { return cmp.Compare(a.Lo, b.Lo) })
	out := s[:0]
	for _, iv := range s {
		if n := len(out); n > 0 && touches(out[n-1], iv.Lo) {
			out[n-1].Hi = max(out[n-1].Hi, iv.Hi)
			continue
		}
		out = append(out, iv)
	}
	return out
}

func isNormal(ivs []Interval) bool {
	for i, iv := range ivs {
		if iv.Lo > iv.Hi || i > 0 && (iv.Lo < ivs[i-1].Lo || touches(ivs[i-1], iv.Lo)) {
			return false
		}
	}
	return true
}

// touches reports whether id lies in iv or right after it, for id >= iv.Lo
// (written to avoid overflow at the ends of int).
func touches(iv Interval, id int) bool {
	return id <= iv.Hi || id-1 == iv.Hi
}

// FormatResources writes the union of ivs in the normal form of the
// interval syntax (see ParseResources): ascending, maximal runs, single
// spaces. ivs may be in any order, overlap or touch; intervals with
// Hi < Lo are empty. An empty set gives "". For ids in [0, MaxCPU] the
// result parses back to the same set.
func FormatResources(ivs []Interval) string {
	ivs = normalize(ivs)
	b := make([]byte, 0, 8*len(ivs))
	for i, iv := range ivs {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendInt(b, int64(iv.Lo), 10)
		if iv.Hi != iv.Lo {
			b = append(b, '-')
			b = strconv.AppendInt(b, int64(iv.Hi), 10)
		}
	}
	return string(b)
}

// CPUIntervals returns the normal-form intervals of a set of CPU ids, given
// in any order (repeats are merged).
func CPUIntervals(ids []int) []Interval {
	s := slices.Clone(ids)
	slices.Sort(s)
	var out []Interval
	for _, id := range s {
		if n := len(out); n > 0 && touches(out[n-1], id) {
			out[n-1].Hi = id // id is Hi (a repeat) or Hi+1
			continue
		}
		out = append(out, Interval{id, id})
	}
	return out
}

// FormatCPUs writes a set of CPU ids, given in any order, in the normal
// form of the interval syntax: FormatResources(CPUIntervals(ids)).
func FormatCPUs(ids []int) string {
	return FormatResources(CPUIntervals(ids))
}
