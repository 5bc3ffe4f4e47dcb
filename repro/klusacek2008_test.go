package repro

import (
	"bytes"
	"encoding/csv"
	"github.com/schedlab/schedlab/policy/plan"
	"os"
	"path/filepath"
	"testing"
)

// The quick reproduction runs every policy at every rate, writes the
// figures and claims.csv with every claim id the issue fixes, and the
// files are byte-identical from one run to the next (wall-clock times go
// to the console only) and whatever the number of workers.
func TestKlusacek2008QuickDeterministic(t *testing.T) {
	opt := KlusacekQuick()
	opt.Reps, opt.Jobs = 2, 400
	dirs := make([]string, 2)
	for i, workers := range []int{1, 2} {
		o := opt
		o.Workers = workers
		r, err := Klusacek2008(o, KlusacekDefaultReading())
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Console) < 2 {
			t.Fatalf("console lines %q", r.Console)
		}
		dirs[i] = t.TempDir()
		if err := r.WriteDir(dirs[i]); err != nil {
			t.Fatal(err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dirs[0], "*"))
	if len(files) < 12 {
		t.Fatalf("only %d files", len(files))
	}
	for _, f := range files {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(dirs[1], filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs between runs (%v)", filepath.Base(f), err)
		}
	}
	fh, err := os.Open(filepath.Join(dirs[0], "claims.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	rows, err := csv.NewReader(fh).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, row := range rows[1:] {
		ids[row[0]] = true
		// Every claim gets one of the verdicts; decision time is measured
		// (plan evaluations per event), not n/a.
		if !ValidVerdict(row[2]) || row[2] == string(NotApplicable) {
			t.Errorf("claim %s: verdict %q", row[0], row[2])
		}
	}
	for _, id := range []string{"delayed_falls_with_interarrival", "schedule_based_fewer_delayed", "tabu_outperforms_all",
		"tabu_close_to_egedf_at_lightest_load", "usage_schedule_based_higher", "usage_lower_at_lightest_load", "slowdown_tabu_best",
		"decision_time_stable"} {
		if !ids[id] {
			t.Errorf("claims.csv has no %s", id)
		}
	}
}

// Our numbers at the quick size (seed 2008, 3 replications of 1,000
// jobs, the default reading), pinned (see pin_test.go): per policy and
// inter-arrival time, the delayed jobs (Fig. 1a), the machine usage (Fig.
// 1b), the mean tardiness of the schedule-based policies (Fig. 2a), the
// mean wait of the queue-based ones (Fig. 2b) and the mean slowdown (Fig.
// 2c). The claims are not enough: a change that moves EG-EDF or tabu
// search by a few percent keeps them true. Under the default reading
// (suitable: any, gaps: finite, ties: end, pick: last) EG-EDF places
// jobs late in gaps and Tabu moves them, so the two series differ.
func TestKlusacek2008QuickPinned(t *testing.T) {
	r, err := Klusacek2008(KlusacekQuick(), KlusacekDefaultReading())
	if err != nil {
		t.Fatal(err)
	}
	checkSeries(t, r, map[string][]float64{
		"fig01a/easy":     {0.9333333333, 0.06666666667, 0, 0, 0},
		"fig01a/eg-edf":   {2.133333333, 1.233333333, 0.9, 0.2, 0.1666666667},
		"fig01a/fcfs":     {1.966666667, 0.2666666667, 0, 0, 0},
		"fig01a/flexible": {0.06666666667, 0.03333333333, 0, 0, 0},
		"fig01a/tabu":     {0.8333333333, 0, 0.1666666667, 0, 0},
		"fig01b/easy":     {0.984010784, 0.9798048579, 0.9767243044, 1, 1},
		"fig01b/eg-edf":   {0.8905865042, 0.843789775, 0.7746864522, 0.744002469, 0.7777858955},
		"fig01b/fcfs":     {0.9464506739, 0.9490450202, 0.9576932818, 0.9992304137, 1},
		"fig01b/flexible": {0.9837387655, 0.9799329346, 0.978101192, 1, 1},
		"fig01b/tabu":     {0.8926943935, 0.8505940236, 0.7798266921, 0.7477402882, 0.7802455436},
		"fig02a/eg-edf":   {121.1615, 92.02816667, 70.64266667, 55.40683333, 45.20883333},
		"fig02a/tabu":     {233.9131667, 114.7103333, 91.54616667, 56.24283333, 45.6665},
		"fig02b/easy":     {186.2055, 87.858, 16.164, 0.5, 0.5},
		"fig02b/fcfs":     {231.9241667, 139.033, 45.0745, 0.756, 0.5},
		"fig02b/flexible": {180.7726667, 84.55983333, 14.71133333, 0.5, 0.5},
		"fig02c/easy":     {1.912884579, 1.427534881, 1.07813022, 1, 1},
		"fig02c/eg-edf":   {2.347531039, 2.004396897, 1.75855982, 1.59888813, 1.456746041},
		"fig02c/fcfs":     {2.32856108, 1.772386436, 1.241242531, 1.001546848, 1},
		"fig02c/flexible": {1.794345475, 1.379280363, 1.0582507, 1, 1},
		"fig02c/tabu":     {2.285337642, 1.938865855, 1.727930928, 1.576544978, 1.448318979},
	})
}

// The rules suitable: deadline, gaps: tail, ties: end, pick: last-late
// (the default reading before the evidence was weighed again) put EG-EDF
// below Flexible in missed deadlines at the highest load, and the rules
// as first implemented (suitable: any, gaps: finite, ties: index, pick:
// last) put it above: the claim schedule_based_fewer_delayed turns on
// the suitability and gap rules. Pinned at
// the paper's seed on 4 replications of the paper's 3,000 jobs at 1 s
// (the full run, 20 replications: EG-EDF 1.75% and 9.61%, Flexible
// 3.31%; paired differences -1.56 [-1.89, -1.23] and +6.31 [+5.92,
// +6.69] points). The replications are the full run's first four; here
// -1.57 [-2.27, -0.88] and +6.35 [+5.07, +7.63]: both intervals stay
// clear of 0 by more than half their width.
func TestKlusacekSuitableDeadlineFewerDelayed(t *testing.T) {
	if testing.Short() {
		t.Skip("about 5 CPU-seconds")
	}
	opt := KlusacekDefaults()
	opt.Reps = 4
	opt.Progress = nopProgress{}
	def := kDefaultRules(KlusacekDefaultReading())
	byDeadline, first := def, def
	byDeadline.suit, byDeadline.gaps, byDeadline.ties, byDeadline.pick = plan.SuitDeadline, plan.GapTail, plan.TieEnd, plan.PickLastLate
	first.suit, first.gaps, first.ties, first.pick = plan.SuitAny, plan.GapFinite, plan.TieIndex, plan.PickLast
	for _, c := range []struct {
		rules kRules
		below bool // EG-EDF - Flexible < 0, CI below 0
	}{{byDeadline, true}, {first, false}} {
		k := newKlusacek(opt, c.rules)
		if err := k.eval([]kcfg{k.cfg("eg-edf", 1), k.cfg("flexible", 1)}); err != nil {
			t.Fatal(err)
		}
		d := k.diff("eg-edf", "flexible", 1, kMissed, Lower).CI
		if c.below && !(d.High < 0) || !c.below && !(d.Low > 0) {
			t.Errorf("suitable %v: EG-EDF - Flexible %+.2f [%+.2f, %+.2f] points", c.rules.suit, d.Mean, d.Low, d.High)
		}
		t.Logf("suitable %v: EG-EDF - Flexible %+.2f [%+.2f, %+.2f]", c.rules.suit, d.Mean, d.Low, d.High)
	}
}

// The rules as first implemented (the reading as-implemented: finite
// gaps, ties to the lowest index, any gap suits, Tabu moves the last job)
// at the quick size, pinned: the numbers the default reading gave before
// it moved. They guard the finite-gap and weight code of EG-EDF and Tabu
// search, which the default reading (tail gaps, ties to the earliest end)
// no longer runs: a planted bug in either moves them.
func TestKlusacek2008AsImplementedPinned(t *testing.T) {
	rd := KlusacekDefaultReading()
	rd.Readings = true
	r, err := Klusacek2008(KlusacekQuick(), rd)
	if err != nil {
		t.Fatal(err)
	}
	var as *Reading
	for i := range r.Readings {
		if r.Readings[i].Name == "as-implemented" {
			as = &r.Readings[i]
		}
	}
	if as == nil {
		t.Fatalf("no reading as-implemented among %d", len(r.Readings))
	}
	checkSeries(t, &Report{Figures: as.Figures}, map[string][]float64{
		"fig01a/eg-edf": {1.966666667, 1.033333333, 0.3, 0.3, 0.1},
		"fig01a/tabu":   {0.9333333333, 0.5, 0.1, 0, 0},
		"fig01b/eg-edf": {0.8943114648, 0.8691282154, 0.8029978678, 0.7506887619, 0.7770328508},
		"fig01b/tabu":   {0.8994289577, 0.8646435577, 0.803949871, 0.7519570389, 0.7760141118},
		"fig02a/eg-edf": {93.34166667, 71.779, 54.69416667, 43.40166667, 37.0015},
		"fig02a/tabu":   {166.7346667, 108.2493333, 61.86616667, 43.60283333, 36.91466667},
		"fig02c/eg-edf": {2.724916487, 2.323245093, 2.005266523, 1.779603703, 1.611785508},
		"fig02c/tabu":   {2.663469136, 2.312878417, 1.991047478, 1.766618004, 1.607390958},
	})
}
