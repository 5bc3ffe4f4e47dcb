package repro

import (
	"fmt"
	"math"
	"strings"

	"github.com/schedlab/schedlab/stats"
)

// Verdict is the category of a claim's outcome, as claims.csv's verdict
// column writes it. The one rule that assigns the comparison categories
// (Holds, DirectionOnly, No, Vacuous) is Judge; the others are stated by
// the check with its reason (docs/papers/README.md).
type Verdict string

const (
	// Holds: every comparison of the claim is significant in the
	// claimed direction (its paired 95% interval excludes 0, or 1 for a
	// ratio) and, where the paper gives a size, the estimate lies in the
	// stated range around it; an equivalence ("almost the same") holds
	// when the whole interval lies within its stated tolerance.
	Holds Verdict = "holds"
	// DirectionOnly: the direction is significant, the size the paper
	// gives is not met (the estimate is outside the stated range).
	DirectionOnly Verdict = "direction only"
	// No: some comparison is not significant in the claimed direction,
	// or a threshold check fails.
	No Verdict = "no"
	// NotReproduced: the paper's statement is measurable and our
	// measurement contradicts it (significantly the other way).
	NotReproduced Verdict = "not reproduced"
	// NotEstimable: the quantity the claim is about has no finite
	// expectation (or variance) under the model, so no interval means
	// anything; the evidence says why.
	NotEstimable Verdict = "not estimable"
	// Vacuous: both sides are 0 in every replication, or the claim only
	// restates another one; not counted as a pass.
	Vacuous Verdict = "vacuous"
	// NotApplicable: not measurable from the rules the paper gives.
	NotApplicable Verdict = "n/a"
)

// Verdicts lists the categories in the order summaries count them.
func Verdicts() []Verdict {
	return []Verdict{Holds, DirectionOnly, No, NotReproduced, NotEstimable, Vacuous, NotApplicable}
}

// ValidVerdict reports whether s is one of Verdicts.
func ValidVerdict(s string) bool {
	for _, v := range Verdicts() {
		if string(v) == s {
			return true
		}
	}
	return false
}

// Dir is the direction a comparison claims.
type Dir int

const (
	// Lower claims a < b (for a ratio a/b < 1).
	Lower Dir = iota
	// Higher claims a > b (for a ratio a/b > 1).
	Higher
	// Near claims |a - b| within the tolerance (for a ratio |a/b - 1|).
	Near
)

// Cmp is one comparison of a claim: the 95% interval of the paired
// differences a - b (or of the paired ratios a/b) over replications,
// the claimed direction, and, where the paper gives a size, the range
// the estimate must lie in.
type Cmp struct {
	Label string
	CI    stats.MeanCI
	Ratio bool // CI is of a/b (compared with 1), else of a - b (with 0)
	Dir   Dir
	// Lo, Hi is the range of the paper's magnitude on the scale of CI
	// (points, a ratio); for Near the tolerance band. HasRange is false
	// when the paper gives no size.
	Lo, Hi   float64
	HasRange bool
	// Zero: both sides are 0 in every replication.
	Zero bool
}

// Diff compares a and b pair by pair (replication i of a with
// replication i of b: common random numbers, or any pairing whose pairs
// are independent of each other): the claim is a dir b.
func Diff(label string, a, b []float64, dir Dir) Cmp {
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return Cmp{Label: label, CI: stats.CI95(d), Dir: dir, Zero: allZero(a) && allZero(b)}
}

// RatioCmp compares a and b by their paired ratios a[i]/b[i] (1 where
// both are equal, so 0/0 is 1): the claim is a/b dir 1.
func RatioCmp(label string, a, b []float64, dir Dir) Cmp {
	r := make([]float64, len(a))
	for i := range a {
		if a[i] == b[i] {
			r[i] = 1
		} else {
			r[i] = a[i] / b[i]
		}
	}
	return Cmp{Label: label, CI: stats.CI95(r), Ratio: true, Dir: dir, Zero: allZero(a) && allZero(b)}
}

// Within sets the range [lo, hi] the estimate must lie in (the paper's
// size; for Near, the tolerance band).
func (c Cmp) Within(lo, hi float64) Cmp {
	c.Lo, c.Hi, c.HasRange = lo, hi, true
	return c
}

// Around sets the range of a ratio comparison to the paper's ratio x
// with its gain x - 1 within a factor f either way: [1 + (x-1)/f,
// 1 + (x-1)*f] (x3.66 with f 1.5: x2.77..x4.99).
func (c Cmp) Around(x, f float64) Cmp {
	return c.Within(1+(x-1)/f, 1+(x-1)*f)
}

func allZero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return len(xs) > 0
}

// ref is the value of no difference: 1 for a ratio, else 0.
func (c Cmp) ref() float64 {
	if c.Ratio {
		return 1
	}
	return 0
}

// Verdict judges one comparison by the rule of Verdict's constants.
func (c Cmp) Verdict() Verdict {
	if c.Zero {
		return Vacuous
	}
	lo, hi, ref := c.CI.Low, c.CI.High, c.ref()
	if math.IsNaN(lo) || math.IsNaN(hi) {
		if c.CI.StdDev == 0 { // every replication the same value: an exact interval
			lo, hi = c.CI.Mean, c.CI.Mean
		} else {
			return No
		}
	}
	switch c.Dir {
	case Near:
		if c.HasRange && lo >= c.Lo && hi <= c.Hi {
			return Holds
		}
		return No
	case Lower:
		if !(hi < ref) {
			return No
		}
	case Higher:
		if !(lo > ref) {
			return No
		}
	}
	if c.HasRange && !(c.CI.Mean >= c.Lo && c.CI.Mean <= c.Hi) {
		return DirectionOnly
	}
	return Holds
}

// Against reports whether the comparison is significant against its
// claimed direction (the interval on the wrong side of no difference):
// a measurable statement contradicted, for NotReproduced.
func (c Cmp) Against() bool {
	ref := c.ref()
	switch c.Dir {
	case Lower:
		return c.CI.Low > ref
	case Higher:
		return c.CI.High < ref
	}
	return false
}

// String is the evidence of the comparison: label, estimate, interval,
// range and its verdict when not holds, e.g. "eg-edf - flexible -1.56
// [-1.89, -1.23]" or "x1.009 [0.987, 1.030]: interval includes 1".
func (c Cmp) String() string {
	var b strings.Builder
	b.WriteString(c.Label)
	b.WriteByte(' ')
	if c.Zero {
		b.WriteString("0 vs 0")
		return b.String()
	}
	if c.CI.N == 1 && c.CI.StdDev == 0 { // one exact value, with its tolerance if any
		if c.Ratio {
			fmt.Fprintf(&b, "x%s", Num(c.CI.Mean))
		} else {
			b.WriteString(signed(c.CI.Mean))
		}
		if c.CI.HalfWidth > 0 {
			fmt.Fprintf(&b, " +-%s", Num(c.CI.HalfWidth))
		}
	} else if c.Ratio {
		fmt.Fprintf(&b, "x%s [%s, %s]", Num(c.CI.Mean), Num(c.CI.Low), Num(c.CI.High))
	} else {
		fmt.Fprintf(&b, "%s [%s, %s]", signed(c.CI.Mean), signed(c.CI.Low), signed(c.CI.High))
	}
	if c.HasRange {
		fmt.Fprintf(&b, " (range %s..%s)", Num(c.Lo), Num(c.Hi))
	}
	switch v := c.Verdict(); {
	case v == DirectionOnly:
		b.WriteString(": outside the range")
	case v == No && c.Dir == Near:
		b.WriteString(": interval not within the range")
	case v == No && c.Against() && c.CI.N == 1:
		b.WriteString(": the other way, beyond the tolerance")
	case v == No && c.Against():
		b.WriteString(": significantly the other way")
	case v == No && c.CI.N == 1:
		b.WriteString(": within the tolerance, or not in the claimed direction")
	case v == No:
		fmt.Fprintf(&b, ": interval includes %s", Num(c.ref()))
	}
	return b.String()
}

func signed(v float64) string {
	s := Num(v)
	if v >= 0 && !math.IsNaN(v) {
		return "+" + s
	}
	return s
}

// Judge combines the comparisons of one claim: vacuous when every one
// is; otherwise, over the comparisons that are not vacuous, not
// reproduced when any is significant against the claimed direction, no
// when any is not significant (or an equivalence's interval leaves its
// band), direction only when any misses the paper's size, else holds.
func Judge(cs ...Cmp) Verdict {
	seen := map[Verdict]bool{}
	against := false
	for _, c := range cs {
		seen[c.Verdict()] = true
		against = against || (!c.Zero && c.Against())
	}
	switch {
	case len(cs) == 0:
		return NotApplicable
	case against:
		return NotReproduced
	case seen[No]:
		return No
	case seen[DirectionOnly]:
		return DirectionOnly
	case seen[Holds]:
		return Holds
	}
	return Vacuous
}

// Evidence joins the comparisons' evidence with "; ".
func Evidence(cs ...Cmp) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, "; ")
}

// judged is a claim judged by Judge over cs, with the comparisons as its
// evidence after detail (when detail is not empty).
func judged(id, claim, detail string, cs ...Cmp) Check {
	ev := Evidence(cs...)
	if detail != "" {
		ev = detail + ": " + ev
	}
	return Check{ID: id, Claim: claim, V: Judge(cs...), Detail: ev, Cmps: cs}
}

// threshold is a claim checked against a bound of the paper's numbers
// (a table within 3%, a value above 60%): holds or no.
func threshold(id, claim string, ok bool, detail string) Check {
	v := No
	if ok {
		v = Holds
	}
	return Check{ID: id, Claim: claim, V: v, Detail: detail}
}

// Tally counts the claims with an ID by verdict.
func Tally(cs []Check) map[Verdict]int {
	out := map[Verdict]int{}
	for _, c := range cs {
		if c.ID != "" {
			out[c.Verdict()]++
		}
	}
	return out
}

// TallyText is Tally as words in Verdicts' order, the categories with
// no claim left out: "5 hold, 1 direction only, 2 no, 1 not reproduced".
func TallyText(cs []Check) string {
	t := Tally(cs)
	var parts []string
	for _, v := range Verdicts() {
		if n := t[v]; n > 0 {
			w := string(v)
			if v == Holds && n == 1 {
				w = "holds"
			} else if v == Holds {
				w = "hold"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, w))
		}
	}
	if len(parts) == 0 {
		return "no claims"
	}
	return strings.Join(parts, ", ")
}
