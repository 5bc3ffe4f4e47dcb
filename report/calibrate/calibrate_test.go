package calibrate

import (
	"math"
	"strings"
	"testing"
)

const recCSV = `job_id,submission_time,starting_time,user,partition
1,0,10,alice,batch
2,5,5,bob,batch
3,10,100,alice,gpu
4,20,40,bob,gpu
`

// The simulated run starts job 1 at 10 (error 0), job 2 at 65 (+60), job
// 3 at 40 (-60), job 4 at 4000 (+3960); job 5 is in it only. Errors
// sorted: -60, 0, 60, 3960: mean 990, median 30, mean |e| 1020, within
// 60 s 3/4, within 600 s 3/4, within 3600 s 3/4. Recorded waits 10, 0,
// 90, 20: mean 30, median 15; simulated 10, 60, 30, 3980: mean 1020,
// median 45; relative +3300%. P10: rank 0.1 x 3 = 0.3, -60 + 0.3 x 60
// = -42.
const simCSV = `job_id,submission_time,starting_time,user,partition
1,0,10,alice,batch
2,5,65,bob,batch
3,10,40,alice,gpu
4,20,4000,bob,gpu
5,30,30,carol,batch
`

func TestCompareByHand(t *testing.T) {
	rec, err := ReadJobs(strings.NewReader(recCSV), "rec.csv")
	if err != nil {
		t.Fatal(err)
	}
	sim, err := ReadJobs(strings.NewReader(simCSV), "sim.csv")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Compare(rec, sim)
	if err != nil {
		t.Fatal(err)
	}
	a := r.All
	want := Stats{Jobs: 4, MeanErr: 990, MedianErr: 30, P10Err: -42, P90Err: 2790, MeanAbsErr: 1020,
		Within60: 0.75, Within600: 0.75, Within3600: 0.75,
		RecMeanWait: 30, SimMeanWait: 1020, RecMedianWait: 15, SimMedianWait: 45, RelMeanWait: 33}
	// P90: rank 0.9 x 3 = 2.7, 60 + 0.7 x 3900 = 2790 (to rounding).
	if math.Abs(a.P90Err-2790) > 1e-9 {
		t.Fatalf("P90 %v, want 2790", a.P90Err)
	}
	a.P90Err = want.P90Err
	if a != want {
		t.Fatalf("All = %+v\nwant %+v", a, want)
	}
	if r.OnlySimulated != 1 || r.OnlyRecorded != 0 || r.SubmitMismatch != 0 {
		t.Fatalf("only %d/%d, mismatch %d", r.OnlyRecorded, r.OnlySimulated, r.SubmitMismatch)
	}
	// batch: jobs 1, 2: errors 0, 60; recorded waits 10, 0 (mean 5);
	// simulated 10, 60 (mean 35): +600%.
	if len(r.Partitions) != 2 || r.Partitions[0].Name != "batch" || r.Partitions[0].RecMeanWait != 5 || r.Partitions[0].SimMeanWait != 35 || r.Partitions[0].RelMeanWait != 6 {
		t.Fatalf("partitions %+v", r.Partitions)
	}
	// users, most jobs first then by name: alice (1, 3), bob (2, 4).
	if len(r.Users) != 2 || r.Users[0].Name != "alice" || r.Users[1].Name != "bob" || r.Users[1].MeanAbsErr != 2010 {
		t.Fatalf("users %+v", r.Users)
	}
	var b strings.Builder
	if err := r.WriteText(&b, "recorded", "easy"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"jobs matched 4 (only recorded 0, only simulated 1)", "mean 990 s, median 30 s", "within 1 min 75.0%", "mean 30 s recorded, 1020 s simulated (+3300.0%)", "per partition:", "per user"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("text lacks %q:\n%s", s, b.String())
		}
	}
}

func TestErrors(t *testing.T) {
	for text, want := range map[string]string{
		"":                       "empty",
		"job_id,starting_time\n": "no column submission_time",
		"job_id,submission_time,starting_time\nx,1,2\n":   "f.csv:2: column job_id",
		"job_id,submission_time,starting_time\n1,1,NaN\n": "f.csv:2: column starting_time",
	} {
		_, err := ReadJobs(strings.NewReader(text), "f.csv")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
	j := []Job{{ID: 1}, {ID: 1}}
	if _, err := Compare(j, nil); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a duplicate: %v", err)
	}
	if _, err := Compare([]Job{{ID: 1}}, []Job{{ID: 2}}); err == nil || !strings.Contains(err.Error(), "no job in common") {
		t.Errorf("no common job: %v", err)
	}
	if !math.IsNaN(quantile(nil, 0.5)) || quantile([]float64{1, 2, 3, 4}, 0.5) != 2.5 {
		t.Error("quantile")
	}
}
