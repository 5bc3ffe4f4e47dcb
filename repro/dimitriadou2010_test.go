package repro

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// The paper's experiment at full size (10 replications of 120,000 jobs,
// both approaches, three loads, three error levels, power-of-2 runs).
//
// What the Table II check can and cannot tell: the utilization is the
// work that arrives over the capacity, so it checks the workload
// generator and the load (the paper's arrival rates and sizes), not the
// scheduling: the two approaches' utilizations differ by 2e-5 at high
// load and less below (asserted: less than 1e-4), and the paper's 0.87999 at high load even lies outside our
// confidence interval [0.8937, 0.8995] while within the claim's 3%. What
// does tell the approaches apart is the response time of the gangs: at
// high load (1/lambda = 0.08) approach 2's paired WRT difference is
// pinned (the same seed gives both approaches the same jobs, so the
// difference is exactly reproducible), and so are our Table II values and
// the WRT of both approaches at every load (see pin_test.go).
//
// Every claim's verdict is pinned.
func TestDimitriadou2010Reproduces(t *testing.T) {
	if testing.Short() {
		t.Skip("the full reproduction takes about 15 s on 2 cores")
	}
	r, err := Dimitriadou2010(DimitriadouDefaults(), false)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	util := map[string]float64{}
	for _, it := range r.Items {
		if strings.HasPrefix(it.Name, "table2/") {
			n++
			util[it.Name] = it.Ours
			if math.Abs(it.RelErr()) > 0.03 {
				t.Errorf("%s: ours %.5f, paper %.5f: %.1f%% off", it.Name, it.Ours, it.Paper, 100*it.RelErr())
			}
		}
	}
	if n != 6 {
		t.Fatalf("%d Table II items, want 6", n)
	}
	for _, ia := range []string{"0.08", "0.1", "0.12"} {
		a1, a2 := util["table2/approach1/ia"+ia+"/utilization"], util["table2/approach2/ia"+ia+"/utilization"]
		if math.Abs(a1-a2) > 1e-4 {
			t.Errorf("1/lambda %s: utilizations %.7f and %.7f differ by more than 1e-4: the approaches now change the work done", ia, a1, a2)
		}
	}
	checkItems(t, r, map[string]float64{
		"table2/approach1/ia0.08/utilization": 0.8965997059,
		"table2/approach1/ia0.1/utilization":  0.7428897932,
		"table2/approach1/ia0.12/utilization": 0.6386443545,
		"table2/approach2/ia0.08/utilization": 0.8966199113,
		"table2/approach2/ia0.1/utilization":  0.7428902038,
		"table2/approach2/ia0.12/utilization": 0.6386443545,
	})
	// Fig. 4: gangs' WRT, loads low to high.
	wrt := map[string][]float64{
		"fig04/approach 1": {3.432117876, 4.083684438, 53.74181827},
		"fig04/approach 2": {3.432117876, 4.082847064, 53.39430201},
	}
	checkSeries(t, r, wrt)
	// The discriminating check: at high load approach 2 lowers the WRT by
	// 0.3475 (paired over the same jobs; not significant over 10
	// replications, docs/papers/dimitriadou2010.md); at low load both
	// make the same decisions.
	got := map[string][]float64{}
	for _, f := range r.Figures {
		for _, s := range f.Series {
			got[f.ID+"/"+s.Name] = s.Y
		}
	}
	a1, a2 := got["fig04/approach 1"], got["fig04/approach 2"]
	if len(a1) != 3 || len(a2) != 3 {
		t.Fatalf("fig04: %d and %d values, want 3", len(a1), len(a2))
	}
	if d := a1[2] - a2[2]; !near(d, 0.3475162610) {
		t.Errorf("high-load WRT, approach 1 - approach 2 = %.10g, pinned 0.3475162610", d)
	}
	if a1[0] != a2[0] {
		t.Errorf("low-load WRT: approach 1 %.10g, approach 2 %.10g, want identical", a1[0], a2[0])
	}
	// Every claim's verdict at the paper's size, pinned
	// (docs/papers/dimitriadou2010.md explains each).
	wantVerdicts(t, r.Checks, map[string]Verdict{
		"table2_within_3pct":                   Holds,
		"utilization_approach2_higher":         No,
		"finished_uniform_above_pow2":          No,
		"finished_uniform_almost_all":          Holds,
		"finished_pow2_approach2_more":         No,
		"finished_pow2_approach1_below_100":    Holds,
		"wrt_wsld_approach2_lower_high_load":   No,
		"wrt_same_low_medium_load":             Holds,
		"load_raises_all":                      Holds,
		"load_raises_sld":                      NotEstimable,
		"local_rt_approach2_higher":            No,
		"local_sld_approach2_higher":           NotEstimable,
		"estimate_errors_raise_wrt":            DirectionOnly,
		"estimate_errors_wrt_small_low_medium": No,
		"error_not_significant_overall":        No,
		"estimate_errors_local_rt_unchanged":   No,
	})
	if len(r.Figures) != 12 {
		t.Errorf("%d figures, want 12 (Figs 2-13)", len(r.Figures))
	}
}

// Our numbers at a small size (seed 2010, 3 replications of 3,000 jobs),
// pinned (see pin_test.go), for the runs with -short: per load, the
// finished gangs (Figs. 2-3), the gangs' WRT and WSLD (Figs. 4-5), the
// local jobs' RT and SLD (Figs. 6-7; approach 2 gives the same values at
// this size), and the WRT, WSLD and RT under estimate errors of 0, 10 and
// 30% (Figs. 8, 10, 12); and the 95% confidence intervals of Table II's
// utilizations (3 replications: Student t with 2 degrees of freedom).
func TestDimitriadou2010SmallPinned(t *testing.T) {
	opt := DimitriadouQuick()
	opt.Jobs = 3000
	r, err := Dimitriadou2010(opt, false)
	if err != nil {
		t.Fatal(err)
	}
	checkCIs(t, r, map[string][2]float64{
		"table2/approach1/ia0.08/utilization": {0.8632252249, 0.909196297},
		"table2/approach1/ia0.1/utilization":  {0.7255753413, 0.7575819114},
		"table2/approach1/ia0.12/utilization": {0.6216693558, 0.6514920385},
	})
	checkSeries(t, r, map[string][]float64{
		"fig02/approach 1": {98.48427435, 98.65510307, 90.2556195},
		"fig03/approach 1": {98.11797398, 96.96733935, 88.68923869},
		"fig04/approach 1": {3.286694257, 3.736689075, 10.48287463},
		"fig05/approach 1": {1.232072074, 1.423741676, 4.081143976},
		"fig06/approach 1": {1.127453801, 1.280684253, 1.86831338},
		"fig07/approach 1": {1.941804449, 12.23065266, 20.38648302},
		"fig08/E = 0%":     {3.286694257, 3.736689075, 10.48287463},
		"fig08/E = 10%":    {3.389706797, 3.983411105, 10.19145394},
		"fig08/E = 30%":    {3.450460733, 4.297087438, 11.45800525},
		"fig10/E = 0%":     {1.232072074, 1.423741676, 4.081143976},
		"fig10/E = 10%":    {1.272137848, 1.538102635, 3.969206026},
		"fig10/E = 30%":    {1.302957904, 1.662297235, 4.423047089},
		"fig12/E = 0%":     {1.127453801, 1.280684253, 1.86831338},
		"fig12/E = 10%":    {1.151104852, 1.290396282, 1.941934484},
		"fig12/E = 30%":    {1.150591154, 1.330071616, 1.983247194},
	})
}

// The alternative reading "empty queue = idle processor" is the one that
// produces the paper's Fig. 3 gap: approach 1 never finishes all
// power-of-2 gangs, approach 2 finishes clearly more (small runs suffice).
func TestDimitriadou2010ReadingsShowFig3Gap(t *testing.T) {
	opt := DimitriadouQuick()
	opt.Jobs = 20000
	r, err := Dimitriadou2010(opt, true)
	if err != nil {
		t.Fatal(err)
	}
	// The named reading idle-in-gs-queue (step 1 of the GS queue counts
	// idle processors) gives Fig. 3's direction and only Fig. 3: approach
	// 1 short of 100%, approach 2 significantly ahead at the low and
	// medium load, while approach 2's WRT advantage at high load is lost.
	// The paper's size ("almost 10%", 7..13 points on the mean over the
	// loads) is not reached (at full size +6.1, +9.6, +2.6 points, mean
	// 6.1), so the claim is not a pass.
	var rd *Reading
	for i := range r.Readings {
		if r.Readings[i].Name == "idle-in-gs-queue" {
			rd = &r.Readings[i]
		}
	}
	if rd == nil {
		t.Fatal("no reading idle-in-gs-queue")
	}
	for _, c := range rd.Checks {
		t.Logf("idle-in-gs-queue %s: %v: %s", c.ID, c.Verdict(), c.Detail)
		switch c.ID {
		case "finished_pow2_approach1_below_100", "table2_within_3pct":
			if !c.Holds() {
				t.Errorf("idle-in-gs-queue: %s does not hold: %s", c.ID, c.Detail)
			}
		case "finished_pow2_approach2_more":
			if len(c.Cmps) != 4 || c.Cmps[0].Verdict() != Holds || c.Cmps[1].Verdict() != Holds || c.Holds() {
				t.Errorf("idle-in-gs-queue: %s: %s: %s", c.ID, c.Verdict(), c.Detail)
			}
			if m := c.Cmps[3].CI.Mean; !(m > 3 && m < 7) {
				t.Errorf("idle-in-gs-queue: approach 2 ahead by %.2f points on average, want 3..7", m)
			}
		case "wrt_wsld_approach2_lower_high_load":
			if c.Holds() {
				t.Errorf("idle-in-gs-queue: %s holds: %s", c.ID, c.Detail)
			}
		}
	}
	for _, fig := range r.Figures {
		if fig.ID != "readings-fig03" {
			continue
		}
		var a1, a2 []float64
		for _, s := range fig.Series {
			switch s.Name {
			case "empty-is-idle, approach 1":
				a1 = s.Y
			case "empty-is-idle, approach 2":
				a2 = s.Y
			}
		}
		if a1 == nil || a2 == nil {
			t.Fatal("empty-is-idle series missing")
		}
		for i := range a1 {
			if a1[i] > 90 || a2[i]-a1[i] < 5 {
				t.Errorf("load %d: approach 1 finishes %.1f%%, approach 2 %.1f%%: want approach 1 well below 100 and approach 2 clearly above", i, a1[i], a2[i])
			}
		}
		return
	}
	t.Fatal("no readings-fig03")
}

// Results do not depend on the number of workers.
func TestDimitriadou2010DeterministicAcrossWorkers(t *testing.T) {
	var texts []string
	for _, w := range []int{1, 2} {
		opt := DimitriadouQuick()
		opt.Jobs, opt.Workers = 3000, w
		r, err := Dimitriadou2010(opt, false)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := r.WriteComparison(&b); err != nil {
			t.Fatal(err)
		}
		for i := range r.Figures {
			if err := r.Figures[i].WriteCSV(&b); err != nil {
				t.Fatal(err)
			}
		}
		texts = append(texts, b.String())
	}
	if texts[0] != texts[1] {
		t.Fatal("1 and 2 workers give different results")
	}
}

// --readings covers every combination of the open rules: three readings
// of "empty queue" x two of the gang's task times x two of when the GS
// queue is examined, each once, the default first.
func TestGangReadingsEveryCombination(t *testing.T) {
	rds := GangReadings()
	if len(rds) != 12 || rds[0].Name != "design" {
		t.Fatalf("%d readings, first %q", len(rds), rds[0].Name)
	}
	seen := map[string]string{}
	for _, rd := range rds {
		o := gangOptions(rd)
		key := fmt.Sprint(o["empty_queue"], o["examine"], rd.SharedTimes)
		if prev, ok := seen[key]; ok {
			t.Errorf("%s and %s are the same combination %s", prev, rd.Name, key)
		}
		seen[key] = rd.Name
		if rd.Name != "design" && rd.Why == "" {
			t.Errorf("%s: no Why", rd.Name)
		}
	}
}
