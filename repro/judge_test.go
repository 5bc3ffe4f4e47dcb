package repro

import (
	"strings"
	"testing"
)

// Hand-made comparisons, one per verdict. With three pairs the 95%
// Student-t quantile is t(0.975, 2) = 4.3027, so differences {2, 3, 4}
// (mean 3, SD 1) give 3 +- 4.3027/sqrt(3) = [0.516, 5.484], and {-1, 1,
// 3} (mean 1, SD 2) give [-3.97, 5.97].
func TestJudgeByHand(t *testing.T) {
	ones := []float64{1, 1, 1}
	zeros := []float64{0, 0, 0}
	sig := Diff("a - b", []float64{3, 4, 5}, ones, Higher)                   // [0.516, 5.484]
	wide := Diff("a - b", []float64{0, 2, 4}, ones, Higher)                  // [-3.97, 5.97]
	other := Diff("a - b", []float64{3, 4, 5}, ones, Lower)                  // significant the other way
	zero := Diff("a - b", zeros, zeros, Lower)                               // 0 vs 0
	ratio := RatioCmp("a / b", []float64{2.5, 3, 3.5}, ones, Higher)         // x3 +- 4.3027*0.5/sqrt(3): [1.758, 4.242]
	nearIn := Diff("a - b", []float64{1.1, 1, 0.9}, ones, Near)              // 0 +- 0.248
	nearOut := Diff("a - b", []float64{1.3, 1, 0.7}, ones, Near)             // 0 +- 0.745
	equal := RatioCmp("a / b", []float64{5, 5, 5}, []float64{5, 5, 5}, Near) // exact x1
	for _, c := range []struct {
		name string
		cmp  Cmp
		want Verdict
	}{
		{"significant, no size", sig, Holds},
		{"interval containing 0 is not holds", wide, No},
		{"size inside its range", sig.Within(2, 4), Holds},
		{"size outside its range", sig.Within(7, 13), DirectionOnly},
		{"wrong direction", other, No},
		{"0 vs 0", zero, Vacuous},
		{"ratio excludes 1", ratio, Holds},
		{"ratio's size outside", ratio.Around(3.66, 1.1), DirectionOnly},
		{"equivalence inside its band", nearIn.Within(-0.5, 0.5), Holds},
		{"equivalence leaving its band", nearOut.Within(-0.5, 0.5), No},
		{"identical runs are exactly equal", equal.Within(0.95, 1.05), Holds},
	} {
		if got := c.cmp.Verdict(); got != c.want {
			t.Errorf("%s: %v: verdict %q, want %q", c.name, c.cmp, got, c.want)
		}
	}
	if lo, hi := sig.CI.Low, sig.CI.High; !(lo > 0.515 && lo < 0.517 && hi > 5.483 && hi < 5.485) {
		t.Errorf("interval [%g, %g], want [0.516, 5.484]", lo, hi)
	}
	for _, c := range []struct {
		name string
		cs   []Cmp
		want Verdict
	}{
		{"all hold", []Cmp{sig, ratio}, Holds},
		{"vacuous parts do not count", []Cmp{sig, zero}, Holds},
		{"all vacuous", []Cmp{zero, zero}, Vacuous},
		{"one not significant", []Cmp{sig, wide}, No},
		{"one misses the size", []Cmp{sig, sig.Within(7, 13)}, DirectionOnly},
		{"one significantly the other way", []Cmp{sig, other, wide}, NotReproduced},
		{"nothing compared", nil, NotApplicable},
	} {
		if got := Judge(c.cs...); got != c.want {
			t.Errorf("%s: Judge = %q, want %q", c.name, got, c.want)
		}
	}
	if s := other.String(); !strings.HasSuffix(s, ": significantly the other way") {
		t.Errorf("evidence %q", s)
	}
	if s := wide.String(); !strings.HasSuffix(s, "[-3.968, +5.968]: interval includes 0") {
		t.Errorf("evidence %q", s)
	}
	if s := zero.String(); s != "a - b 0 vs 0" {
		t.Errorf("evidence %q", s)
	}
}

func TestTallyText(t *testing.T) {
	cs := []Check{{ID: "a", V: Holds}, {ID: "b", V: Holds}, {ID: "c", V: DirectionOnly}, {ID: "d", V: NotEstimable}, {ID: "e"}, {V: Holds}}
	if got, want := TallyText(cs), "2 hold, 1 direction only, 1 no, 1 not estimable"; got != want {
		t.Errorf("TallyText = %q, want %q", got, want)
	}
	if got := TallyText([]Check{{ID: "a", V: Holds}}); got != "1 holds" {
		t.Errorf("TallyText = %q", got)
	}
	for _, v := range Verdicts() {
		if !ValidVerdict(string(v)) {
			t.Errorf("%q not valid", v)
		}
	}
	if ValidVerdict("yes") {
		t.Error(`"yes" valid`)
	}
}

// holdsOnIntervals fails t for every claim of cs that reads holds while
// one of its comparisons does not: an interval including no difference,
// a size outside its range.
func holdsOnIntervals(t *testing.T, paper string, cs []Check) {
	t.Helper()
	for _, c := range cs {
		if c.Verdict() != Holds {
			continue
		}
		for _, m := range c.Cmps {
			if v := m.Verdict(); v != Holds && v != Vacuous {
				t.Errorf("%s %s holds, but %v is %s", paper, c.ID, m, v)
			}
		}
	}
}

// No claim of any reproduction reads holds on an interval that includes
// no difference (quick size, every paper, the readings of the papers
// whose readings are quick too).
func TestNoHoldsOnAnIntervalIncludingZero(t *testing.T) {
	if testing.Short() {
		t.Skip("every quick reproduction: about 5 CPU-seconds")
	}
	runs := []struct {
		name string
		run  func() (*Report, error)
	}{
		{"zikos2008", func() (*Report, error) { return Zikos2008(ZikosQuick()) }},
		{"dimitriadou2010", func() (*Report, error) { return Dimitriadou2010(DimitriadouQuick(), false) }},
		{"klusacek2008", func() (*Report, error) { return Klusacek2008(KlusacekQuick(), KlusacekDefaultReading()) }},
		{"hafshejani2012", func() (*Report, error) { return Hafshejani2012(HafshejaniQuick(), false) }},
		{"alnajjar2019", func() (*Report, error) { return AlNajjar2019(AlNajjarQuick(), AlNajjarDefaultReading()) }},
	}
	for _, r := range runs {
		rep, err := r.run()
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		holdsOnIntervals(t, r.name, rep.Checks)
		for _, rd := range rep.Readings {
			holdsOnIntervals(t, r.name+"/"+rd.Name, rd.Checks)
		}
		judgedSome := false
		for _, c := range rep.Checks {
			judgedSome = judgedSome || len(c.Cmps) > 0
		}
		if !judgedSome {
			t.Errorf("%s: no claim judged by comparisons", r.name)
		}
	}
}

// wantVerdicts fails t for every claim of cs whose verdict is not want's,
// and for every claim of want that cs lacks.
func wantVerdicts(t *testing.T, cs []Check, want map[string]Verdict) {
	t.Helper()
	seen := map[string]bool{}
	for _, c := range cs {
		if c.ID == "" {
			continue
		}
		seen[c.ID] = true
		if w, ok := want[c.ID]; !ok {
			t.Errorf("claim %s (%s) not pinned", c.ID, c.Verdict())
		} else if c.Verdict() != w {
			t.Errorf("claim %s: %s, want %s: %s", c.ID, c.Verdict(), w, c.Detail)
		}
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("no claim %s", id)
		}
	}
}

// A whole-run number of one deterministic run is compared with a
// tolerance standing in for the interval: 0.581 against 0.588 (1% of
// 0.588 is 0.00588) is the other way beyond it; 0.669 against 0.6691 a
// tie; 0.59 against 0.58 holds.
func TestExactWithinTolerance(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		want Verdict
	}{{0.581, 0.588, No}, {0.669, 0.6691, No}, {0.59, 0.58, Holds}} {
		cmp := exact("u", c.a, c.b, Higher)
		if got := cmp.Verdict(); got != c.want {
			t.Errorf("%g vs %g: %s, want %s (%v)", c.a, c.b, got, c.want, cmp)
		}
	}
	if !exact("u", 0.581, 0.588, Higher).Against() || exact("u", 0.669, 0.6691, Higher).Against() {
		t.Error("Against: want only the first beyond the tolerance")
	}
}
