package repro

import (
	"bytes"
	"encoding/csv"
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
		// Decision time is a property of an implementation: n/a, never
		// yes or no; every other claim is checked.
		if want := row[0] == "decision_time_stable"; (row[2] == "n/a") != want || row[2] != "n/a" && row[2] != "yes" && row[2] != "no" {
			t.Errorf("claim %s: holds %q", row[0], row[2])
		}
	}
	for _, id := range []string{"delayed_falls_with_interarrival", "schedule_based_fewer_delayed", "tabu_not_worse_than_egedf",
		"tabu_close_to_egedf_at_lightest_load", "usage_schedule_based_higher", "usage_lower_at_lightest_load", "slowdown_tabu_best",
		"decision_time_stable"} {
		if !ids[id] {
			t.Errorf("claims.csv has no %s", id)
		}
	}
}

// The default reading (suitable: deadline, gaps: tail, ties: end) puts
// EG-EDF below Flexible in missed deadlines at the highest load, and the
// rules as first implemented (as-implemented) put it above: the claim
// schedule_based_fewer_delayed turns on the suitability rule. Pinned at
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
	as := kReadings()[0]
	if as.name != "as-implemented" {
		t.Fatalf("first reading %q", as.name)
	}
	for _, c := range []struct {
		rules kRules
		below bool // EG-EDF - Flexible < 0, CI below 0
	}{{def, true}, {as.rules(def), false}} {
		k := newKlusacek(opt, c.rules)
		if err := k.eval([]kcfg{k.cfg("eg-edf", 1), k.cfg("flexible", 1)}); err != nil {
			t.Fatal(err)
		}
		d := k.paired("eg-edf", "flexible", 1, kMissed)
		if c.below && !(d.High < 0) || !c.below && !(d.Low > 0) {
			t.Errorf("suitable %v: EG-EDF - Flexible %+.2f [%+.2f, %+.2f] points", c.rules.suit, d.Mean, d.Low, d.High)
		}
		t.Logf("suitable %v: EG-EDF - Flexible %+.2f [%+.2f, %+.2f]", c.rules.suit, d.Mean, d.Low, d.High)
	}
}
