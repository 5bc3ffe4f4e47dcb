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
		if row[2] != "yes" && row[2] != "no" {
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
