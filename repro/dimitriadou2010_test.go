package repro

import (
	"math"
	"strings"
	"testing"
)

// The paper's experiment at full size (10 replications of 120,000 jobs,
// both approaches, three loads, three error levels, power-of-2 runs):
// Table II utilizations within 3% of the paper, and the claims that
// our default reading reproduces hold. (Claims it does not reproduce —
// the power-of-2 gap of Fig. 3 — are reported, not asserted; see
// docs/papers/dimitriadou2010.md.)
func TestDimitriadou2010Reproduces(t *testing.T) {
	if testing.Short() {
		t.Skip("the full reproduction takes about 15 s on 2 cores")
	}
	r, err := Dimitriadou2010(DimitriadouDefaults(), false)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, it := range r.Items {
		if strings.HasPrefix(it.Name, "table2/") {
			n++
			if math.Abs(it.RelErr()) > 0.03 {
				t.Errorf("%s: ours %.5f, paper %.5f: %.1f%% off", it.Name, it.Ours, it.Paper, 100*it.RelErr())
			}
		}
	}
	if n != 6 {
		t.Fatalf("%d Table II items, want 6", n)
	}
	for _, prefix := range []string{
		"Table II utilizations within 3%",
		"more gangs finish with uniform sizes than with powers of two",
		"higher load gives higher WRT, WSLD, RT and SLD",
		"runtime-estimate errors raise WRT at high load",
		"at low and medium load the approaches give almost the same WRT",
	} {
		if c := findCheck(t, r, prefix); !c.Holds {
			t.Errorf("claim %q does not hold: %s", c.Claim, c.Detail)
		}
	}
	if len(r.Figures) != 12 {
		t.Errorf("%d figures, want 12 (Figs 2-13)", len(r.Figures))
	}
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
	// idle processors) gives Fig. 3 and only Fig. 3: approach 1 short of
	// 100% at every load, approach 2 ahead (at full size +6.1, +9.6, +2.6
	// points), while approach 2's WRT advantage at high load is lost.
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
		t.Logf("idle-in-gs-queue %s: %v: %s", c.ID, c.Holds, c.Detail)
		switch c.ID {
		case "finished_pow2_approach2_more", "finished_pow2_approach1_below_100", "table2_within_3pct":
			if !c.Holds {
				t.Errorf("idle-in-gs-queue: %s does not hold: %s", c.ID, c.Detail)
			}
		case "wrt_wsld_approach2_lower_high_load":
			if c.Holds {
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
