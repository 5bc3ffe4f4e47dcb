package repro

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/workload"
)

// The reproduction is deterministic (same bytes twice), its ratios are
// the ratios of its own mean responses, and every run of every workload
// formed windows. These are consistency checks only; the numbers
// themselves are pinned by TestHafshejani2012Pinned.
func TestHafshejani2012(t *testing.T) {
	r1, err := Hafshejani2012(HafshejaniQuick(), false)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Hafshejani2012(HafshejaniQuick(), true)
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := r1.WriteComparison(&a); err != nil {
		t.Fatal(err)
	}
	r2.WriteComparison(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two runs differ (the readings must not change comparison.csv)")
	}
	ours := map[string]float64{}
	for _, it := range r1.Items {
		ours[it.Name] = it.Ours
	}
	n := 0
	for name, v := range ours {
		rest, ok := strings.CutPrefix(name, "ratio_new_fcfs/")
		if !ok {
			continue
		}
		n++
		want := ours["mean_response/"+rest+"/matrix"] / ours["mean_response/"+rest+"/fcfs"]
		if v != want || !(v > 0) {
			t.Errorf("%s = %g, want %g", name, v, want)
		}
		if ours["windows/"+rest] < 1 {
			t.Errorf("%s: no windows", rest)
		}
	}
	// KTH (embedded) and the synthetic workload at least, three sizes each.
	if n < 6 {
		t.Errorf("%d workload/size ratios, want at least 6", n)
	}
	for _, c := range r1.Checks {
		if c.ID == "" || c.Detail == "" {
			t.Errorf("claim %q without id or evidence", c.Claim)
		}
	}
}

// Our numbers (seed 2012; the embedded KTH-SP2 and the synthetic
// workload, which do not depend on which real traces are found), pinned
// (see pin_test.go): at 3,113 jobs the mean wait and the mean response of
// the first jobs ("head") under each policy and the number of matrix
// windows; at 1,292 jobs the mean wait. A change in FCFS, first-fit, EASY
// or the matrix scanning moves them.
func TestHafshejani2012Pinned(t *testing.T) {
	r, err := Hafshejani2012(HafshejaniQuick(), false)
	if err != nil {
		t.Fatal(err)
	}
	checkItems(t, r, map[string]float64{
		"mean_wait/KTH/1292/fcfs":               26587.89319,
		"mean_wait/KTH/1292/firstfit":           3686.889319,
		"mean_wait/KTH/1292/easy":               3682.781734,
		"mean_wait/KTH/1292/matrix":             3369.623065,
		"mean_wait/KTH/3113/fcfs":               75169.83167,
		"mean_wait/KTH/3113/firstfit":           6413.118535,
		"mean_wait/KTH/3113/easy":               7342.851911,
		"mean_wait/KTH/3113/matrix":             6438.08063,
		"head_response/KTH/3113/fcfs":           55376.82533,
		"head_response/KTH/3113/firstfit":       10835.06218,
		"head_response/KTH/3113/easy":           10198.36405,
		"head_response/KTH/3113/matrix":         8461.323347,
		"windows/KTH/3113":                      1769,
		"mean_wait/synthetic/1292/fcfs":         15622.15557,
		"mean_wait/synthetic/1292/firstfit":     2260.154025,
		"mean_wait/synthetic/1292/easy":         2302.565015,
		"mean_wait/synthetic/1292/matrix":       1412.74613,
		"mean_wait/synthetic/3113/fcfs":         24081.94218,
		"mean_wait/synthetic/3113/firstfit":     1330.475104,
		"mean_wait/synthetic/3113/easy":         1308.21876,
		"mean_wait/synthetic/3113/matrix":       755.8801799,
		"head_response/synthetic/3113/fcfs":     26713.44453,
		"head_response/synthetic/3113/firstfit": 1287.335094,
		"head_response/synthetic/3113/easy":     1172.073208,
		"head_response/synthetic/3113/matrix":   929.1267925,
		"windows/synthetic/3113":                1325,
	})
}

// --readings: the wide-jobs reading recovers the paper's ordering on the
// wide workload at every size (measured at seed 2012, 3113 jobs: wide
// FCFS/first-fit/matrix mean response 6,980/1,887/1,307 s; the margins
// are factors, far beyond any change of seed), and claims.csv
// carries a reading column.
func TestHafshejani2012Readings(t *testing.T) {
	r, err := Hafshejani2012(HafshejaniQuick(), true)
	if err != nil {
		t.Fatal(err)
	}
	var wide *Reading
	for i := range r.Readings {
		if r.Readings[i].Name == "wide-jobs" {
			wide = &r.Readings[i]
		}
	}
	if wide == nil || len(r.Readings) != 2 {
		t.Fatalf("readings %+v", r.Readings)
	}
	held := map[string]bool{}
	for _, c := range wide.Checks {
		held[c.ID] = c.Holds()
	}
	// On wide-half (every job wider than half the machine) no two jobs
	// run side by side, so first-fit is FCFS exactly and the claim's
	// "backfilling < FCFS" cannot hold; matrix scanning is still faster.
	ours := map[string]float64{}
	for _, it := range r.Items {
		ours[it.Name] = it.Ours
	}
	for _, n := range HafshejaniSizes() {
		id := "order_new_bf_fcfs/wide/" + strconv.Itoa(n)
		if h, ok := held[id]; !ok || !h {
			t.Errorf("%s: holds %v (present %v)", id, h, ok)
		}
		pre := "mean_response/wide-half/" + strconv.Itoa(n) + "/"
		if f, bf, m := ours[pre+"fcfs"], ours[pre+"firstfit"], ours[pre+"matrix"]; held["order_new_bf_fcfs/wide-half/"+strconv.Itoa(n)] || f != bf || !(m < bf) {
			t.Errorf("wide-half/%d: fcfs %g, first-fit %g, matrix %g", n, f, bf, m)
		}
	}
	var b bytes.Buffer
	if err := r.WriteClaims(&b); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if lines[0] != "reading,id,claim,verdict,evidence" || !strings.HasPrefix(lines[1], "default,") || !strings.Contains(b.String(), "\nwide-jobs,order_new_bf_fcfs/wide/3113,") {
		t.Errorf("claims.csv starts %q", lines[:2])
	}
}

// A batch submission, worked by hand: three jobs submitted at 0, 1 and 2
// on 4 CPUs become a batch at 0 (A 3 CPUs 10 s, B 2 CPUs 5 s, C 1 CPU
// 4 s; requests = runtimes). FCFS: A [0,10), B waits for 2 CPUs and C
// behind it: B [10,15), C [10,14); mean response (10+15+14)/3 = 13,
// makespan 15. First-fit: C fits beside A: C [0,4), B [10,15); mean
// (10+15+4)/3 = 9.667, makespan 15.
func TestHafshejaniBatchSubmission(t *testing.T) {
	// The jobs as an SWF trace: submitted at 0, 1, 2; requests = runtimes.
	trace := filepath.Join(t.TempDir(), "hand.swf")
	swf := "; MaxProcs: 4\n" +
		"1 0 0 10 3 -1 -1 3 10 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"2 1 0 5 2 -1 -1 2 5 -1 1 1 1 -1 -1 -1 -1 -1\n" +
		"3 2 0 4 1 -1 -1 1 4 -1 1 1 1 -1 -1 -1 -1 -1\n"
	if err := os.WriteFile(trace, []byte(swf), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := hTraceWorkload(1, trace)
	if err != nil {
		t.Fatal(err)
	}
	b := hBatch(w, "batch-hand")
	if w.base.Workload.Submit != scenario.SubmitAsIs || b.name != "batch-hand" {
		t.Fatal("hBatch changed its input or lost the name")
	}
	runs := hRuns{}
	if _, err := hEval(Options{Progress: nopProgress{}}, []*hWorkload{b}, []int{3}, runs); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		policy         string
		mean, makespan float64
	}{{"fcfs", 13, 15}, {"firstfit", 29.0 / 3, 15}} {
		res := runs[hKey("batch-hand", 3, c.policy)]
		if math.Abs(res.MeanResponse-c.mean) > 1e-9 || hMakespan(res) != c.makespan {
			t.Errorf("%s: mean response %g, makespan %g; want %g, %g", c.policy, res.MeanResponse, hMakespan(res), c.mean, c.makespan)
		}
	}
}

// A trace that is not found leaves its workload out, named in
// Report.Skipped (skipped.csv) and in a note that says how to add it; a
// trace found leaves nothing out.
func TestHafshejani2012Skipped(t *testing.T) {
	found := true
	for _, n := range hTraces() {
		if rd, err := workload.OpenTrace(n); err != nil {
			found = false
		} else {
			rd.Close()
		}
	}
	if found {
		r, err := Hafshejani2012(HafshejaniQuick(), false)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Skipped) != 0 {
			t.Errorf("every trace is visible, but skipped %v", r.Skipped)
		}
	} else {
		t.Logf("HPC2N or SDSC-BLUE not visible from here (set %s): only the case without them runs", workload.TraceDirsEnv)
	}

	t.Setenv(workload.TraceDirsEnv, "")
	t.Chdir(t.TempDir()) // out of reach of ./traces and ../shared/traces
	r, err := Hafshejani2012(HafshejaniQuick(), false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Skip{{"HPC2N", "HPC2N-2002-2.1-cln.swf.gz"}, {"SDSC", "SDSC-BLUE-2000-4.2-cln.swf.gz"}}
	if !reflect.DeepEqual(r.Skipped, want) {
		t.Errorf("skipped %v, want %v", r.Skipped, want)
	}
	notes := strings.Join(r.Notes, "\n")
	for _, w := range []string{
		"trace HPC2N-2002-2.1-cln.swf.gz not found: its workload (HPC2N) was skipped; set SCHEDLAB_TRACES to a folder that holds it",
		"trace SDSC-BLUE-2000-4.2-cln.swf.gz not found: its workload (SDSC) was skipped",
	} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes lack %q:\n%s", w, notes)
		}
	}
	for _, it := range r.Items {
		if strings.Contains(it.Name, "/HPC2N/") || strings.Contains(it.Name, "/SDSC/") {
			t.Errorf("item %s of a skipped workload", it.Name)
		}
	}
}
