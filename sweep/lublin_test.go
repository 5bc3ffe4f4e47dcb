package sweep

import (
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/scenario"
)

// examples/lublin-policies.yaml: on the Lublin workload, EASY and
// conservative backfilling wait significantly less than FCFS (paired 95%
// CIs below 0), EASY with predictions waits significantly less than EASY
// with requests, FCFS is told apart from nothing by its estimates (the
// identical-results note), and the results do not depend on the number
// of workers.
func TestLublinPoliciesExample(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a 60-run sweep")
	}
	pts, err := scenario.Load("../examples/lublin-policies.yaml")
	if err != nil {
		t.Fatal(err)
	}
	one, err := Sweep(pts, t.TempDir(), 1, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	two, err := Sweep(pts, t.TempDir(), 2, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, two) {
		t.Fatal("one worker and two workers give different results")
	}
	cmp := Compare(pts, one)
	sig := map[string]bool{}
	for _, c := range cmp {
		if c.Metric == "mean_wait" && c.Diff.High < 0 {
			sig[c.Axis+" "+c.Value+"-"+c.Baseline+" "+c.Context] = true
		}
	}
	for _, want := range []string{
		"policy.queue easy-fcfs workload.estimate=request",
		"policy.queue conservative-fcfs workload.estimate=request",
		"policy.queue easy-fcfs workload.estimate=predict",
		"workload.estimate predict-request policy.queue=easy",
	} {
		if !sig[want] {
			t.Errorf("%s: mean wait not significantly lower (95%% CI below 0)", want)
		}
	}
	notes := Notes(pts, one, cmp)
	if len(notes) != 1 || notes[0] != "identical results in every replication (the same schedule): workload.estimate predict = request (points 3 and 0)" {
		t.Errorf("notes %q: want FCFS's estimate models named identical", notes)
	}
}
