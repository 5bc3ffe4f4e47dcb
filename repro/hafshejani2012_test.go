package repro

import (
	"bytes"
	"strings"
	"testing"
)

// The reproduction is deterministic (same bytes twice), its ratios are
// the ratios of its own mean responses, and every run of every workload
// formed windows. These are consistency checks only; the numbers
// themselves are pinned by TestHafshejani2012Pinned.
func TestHafshejani2012(t *testing.T) {
	r1, err := Hafshejani2012(HafshejaniQuick())
	if err != nil {
		t.Fatal(err)
	}
	r2, err := Hafshejani2012(HafshejaniQuick())
	if err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := r1.WriteComparison(&a); err != nil {
		t.Fatal(err)
	}
	r2.WriteComparison(&b)
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("two runs differ")
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
	r, err := Hafshejani2012(HafshejaniQuick())
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
