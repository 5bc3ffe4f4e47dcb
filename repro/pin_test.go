package repro

import (
	"math"
	"sort"
	"testing"

	"github.com/schedlab/schedlab/report/plot"
)

// Pinned values. Every reproduction is deterministic at a fixed seed and
// size (the *Deterministic tests: byte-identical files from run to run and
// whatever the number of workers), so our numbers can be pinned: a planted
// bug in a policy, the engine or the statistics moves them (docs/testing.md
// lists such bugs and which tests catch them). The values were printed by
// the code of the commit that pins them (with %.10g) and are compared with
// a relative tolerance of pinTol, about 100 times below what one changed
// decision moves (one job of 3,000 started a second earlier moves a mean
// wait of 3,000 s by about 1e-7 of its value); it only absorbs the 10 printed digits and floating-point contraction (Go may fuse
// a multiply and an add on arm64, ppc64le, s390x). A deliberate change of
// results updates these values in the same commit as the goldens
// (internal/golden), with the reason.
const pinTol = 1e-9

// near reports whether got is want within pinTol (relative; absolute
// near 0).
func near(got, want float64) bool {
	return math.Abs(got-want) <= pinTol*math.Max(1, math.Abs(want))
}

// checkItems compares the items named in want (our values, Item.Ours).
func checkItems(t *testing.T, r *Report, want map[string]float64) {
	t.Helper()
	ours := map[string]float64{}
	for _, it := range r.Items {
		ours[it.Name] = it.Ours
	}
	for _, name := range sortedKeys(want) {
		got, ok := ours[name]
		if !ok {
			t.Errorf("%s: no such item", name)
		} else if !near(got, want[name]) {
			t.Errorf("%s = %.10g, pinned %.10g", name, got, want[name])
		}
	}
}

// checkCIs compares the 95% confidence intervals (Item.Low, Item.High)
// of the items named in want: the statistics (the Student t quantile, its
// degrees of freedom, the standard deviation) are pinned with the means.
func checkCIs(t *testing.T, r *Report, want map[string][2]float64) {
	t.Helper()
	ci := map[string][2]float64{}
	for _, it := range r.Items {
		ci[it.Name] = [2]float64{it.Low, it.High}
	}
	for _, name := range sortedKeys(want) {
		got, ok := ci[name]
		if !ok {
			t.Errorf("%s: no such item", name)
		} else if !near(got[0], want[name][0]) || !near(got[1], want[name][1]) {
			t.Errorf("%s: CI [%.10g, %.10g], pinned [%.10g, %.10g]", name, got[0], got[1], want[name][0], want[name][1])
		}
	}
}

// checkSeries compares the figure series named in want ("<figure
// ID>/<series name>": its y values).
func checkSeries(t *testing.T, r *Report, want map[string][]float64) {
	t.Helper()
	ys := map[string][]float64{}
	for _, f := range r.Figures {
		for _, s := range f.Series {
			ys[f.ID+"/"+s.Name] = s.Y
		}
	}
	for _, name := range sortedKeys(want) {
		got, ok := ys[name]
		if !ok {
			t.Errorf("%s: no such series", name)
			continue
		}
		w := want[name]
		if len(got) != len(w) {
			t.Errorf("%s: %d values, pinned %d", name, len(got), len(w))
			continue
		}
		for i := range w {
			if !near(got[i], w[i]) {
				t.Errorf("%s[%d] = %.10g, pinned %.10g", name, i, got[i], w[i])
			}
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// The helpers fail on a moved value and pass on an equal one: pinned
// values can fail.
func TestPinHelpers(t *testing.T) {
	r := &Report{Items: []Item{{Name: "a", Ours: 1.5}}, Figures: []plot.Figure{{ID: "f", Series: []plot.Series{{Name: "s", Y: []float64{2, 3}}}}}}
	if !near(1.5, 1.5) || !near(1.5+1e-12, 1.5) || near(1.5*(1+1e-6), 1.5) || near(1e-6, 0) || !near(1e-12, 0) {
		t.Error("near: wrong tolerance")
	}
	checkItems(t, r, map[string]float64{"a": 1.5})
	r.Items[0].Low, r.Items[0].High = 1, 2
	checkCIs(t, r, map[string][2]float64{"a": {1, 2}})
	checkSeries(t, r, map[string][]float64{"f/s": {2, 3}})
}
