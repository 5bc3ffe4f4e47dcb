package sweep

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/scenario"
)

// Notes explains a sweep's comparisons when they say nothing: no
// paired comparison could be made (one point, no policy setting swept, or
// a single replication per point), or compared points gave exactly the
// same results as their baseline in every replication (the policies made
// the same schedule on that workload). It returns one sentence per
// finding, for the console and the HTML page; nil when the comparisons
// stand on their own.
func Notes(points []scenario.Point, results []PointResult, cmp []Comparison) []string {
	if len(points) == 0 || len(results) != len(points) {
		return nil
	}
	var notes []string
	policyAxis := false
	for _, l := range points[0].Labels {
		policyAxis = policyAxis || compared(l.Key)
	}
	maxReps := 0
	for _, r := range results {
		maxReps = max(maxReps, r.Reps)
	}
	switch {
	case len(points) == 1:
		notes = append(notes, "no paired comparisons: the sweep has one point (comparisons pair points that differ in one policy setting)")
	case !policyAxis:
		notes = append(notes, "no paired comparisons: no policy setting is swept (comparisons pair points that differ in one policy.* setting or in workload.estimate, all else equal)")
	case maxReps < 2:
		notes = append(notes, "no paired comparisons: every point has 1 replication, and a confidence interval needs at least 2 (set replications; a trace scenario gets distinct replications with workload.resample or platform.failures)")
	}
	if same := identicalPairs(points, results); len(same) > 0 {
		all := len(cmp) > 0 && len(same) == pairCount(points)
		if all {
			n := "every compared point gave exactly the same results as its baseline in every replication: the policies made the same schedule on this workload"
			if sc := points[0].Scenario; sc.Model == "cluster" && sc.Workload.Trace == "" && sc.Workload.Model == "" {
				n += " (the synthetic cluster workload's one-CPU jobs with exact estimates leave a queue policy nothing to choose; try workload.model: lublin)"
			}
			notes = append(notes, n)
		} else {
			notes = append(notes, "identical results in every replication (the same schedule): "+strings.Join(same, "; "))
		}
	}
	return notes
}

// compared reports whether points along the sweep axis key are paired:
// a policy setting, or a setting of what the scheduler is told about the
// same jobs (the estimate model and its options) or of the idle sleeper
// or the power cap around the policy (platform.sleep_after,
// platform.power_cap), which leave every random
// draw of the workload as it is (common random numbers).
func compared(key string) bool {
	switch key {
	case "workload.estimate", "workload.predictor", "workload.correction", "platform.sleep_after", "platform.power_cap":
		return true
	}
	return strings.HasPrefix(key, "policy.")
}

// pairs calls f for every pair the comparisons are made of: the point
// at index i against its baseline b along the axis ai (compared).
func pairs(points []scenario.Point, f func(ai, b, i int)) {
	for ai, axis := range points[0].Labels {
		if !compared(axis.Key) {
			continue
		}
		groups := map[string][]int{}
		var order []string
		for i, p := range points {
			c := pairContext(p, ai)
			if _, ok := groups[c]; !ok {
				order = append(order, c)
			}
			groups[c] = append(groups[c], i)
		}
		for _, c := range order {
			g := groups[c]
			for _, i := range g[1:] {
				f(ai, g[0], i)
			}
		}
	}
}

// pairContext is the other labels of p than the one of axis ai: the
// settings a comparison along that axis holds equal.
func pairContext(p scenario.Point, ai int) string {
	var ctx []string
	for k, l := range p.Labels {
		if k != ai {
			ctx = append(ctx, l.Key+"="+l.Value)
		}
	}
	return strings.Join(ctx, " ")
}

func pairCount(points []scenario.Point) int {
	n := 0
	pairs(points, func(int, int, int) { n++ })
	return n
}

// identicalPairs names the compared pairs whose every metric took the
// same value as the baseline's in every replication.
// sameValues reports whether a and b hold the same numbers (NaN equal
// to NaN: a metric undefined in both runs).
func sameValues(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return x == y || (x != x && y != y) })
}

func identicalPairs(points []scenario.Point, results []PointResult) []string {
	var out []string
	pairs(points, func(ai, b, i int) {
		rb, ri := results[b], results[i]
		if len(rb.Metrics) == 0 || len(rb.Metrics) != len(ri.Metrics) {
			return
		}
		for k, m := range ri.Metrics {
			if rb.Metrics[k].Name != m.Name || len(m.Values) == 0 || !sameValues(m.Values, rb.Metrics[k].Values) {
				return
			}
		}
		out = append(out, fmt.Sprintf("%s %s = %s (points %d and %d)", points[i].Labels[ai].Key, ri.Labels[ai].Value, rb.Labels[ai].Value, i, b))
	})
	return out
}
