package repro

import (
	"bytes"
	"strings"
	"testing"
)

// The reproduction is deterministic (same bytes twice), its ratios are
// the ratios of its own mean responses, and every run of every workload
// formed windows.
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
