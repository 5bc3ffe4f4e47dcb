package validate

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A machine of 4 processors; Kill on. Job 3 overruns its request of 5 and
// is killed at 5; job 4 has an unknown request and runs its full runtime.
var goodIn = []Input{
	{ID: 1, Submit: 0, Runtime: 10, Request: 20, Procs: 2},
	{ID: 2, Submit: 1, Runtime: 4, Request: 4, Procs: 2},
	{ID: 3, Submit: 2, Runtime: 8, Request: 5, Procs: 4},
	{ID: 4, Submit: 3, Runtime: 7, Request: -1, Procs: 1},
	{ID: 5, Submit: 3, Runtime: 0, Request: 1, Procs: 4},
}

// goodOut: 1 [0,10) 2p, 2 [1,5) 2p, 3 [10,15) 4p (killed), 4 [15,22) 1p,
// 5 zero-length at 10 with 4 processors (takes no processor time).
func goodOut() []Rec {
	return []Rec{
		{ID: 1, Submit: 0, Start: 0, Finish: 10, Procs: 2, State: StateCompleted},
		{ID: 2, Submit: 1, Start: 1, Finish: 5, Procs: 2, State: StateCompleted},
		{ID: 3, Submit: 2, Start: 10, Finish: 15, Procs: 4, State: StateWalltime},
		{ID: 4, Submit: 3, Start: 15, Finish: 22, Procs: 1, State: StateCompleted},
		{ID: 5, Submit: 3, Start: 10, Finish: 10, Procs: 4, State: StateCompleted},
	}
}

var opt = Options{Procs: 4, Kill: true}

func TestCheckGood(t *testing.T) {
	if err := Check(goodIn, goodOut(), opt); err != nil {
		t.Fatal(err)
	}
	// Large timestamps: finish - start is off by rounding, within tolerance.
	in := []Input{{ID: 1, Submit: 1e9 + 0.3, Runtime: 5.1, Procs: 1}}
	out := []Rec{{ID: 1, Submit: 1e9 + 0.3, Start: 1e9 + 0.3, Finish: 1e9 + 0.3 + 5.1, Procs: 1, State: StateCompleted}}
	if err := Check(in, out, Options{Procs: 1}); err != nil {
		t.Fatal(err)
	}
	// Without Kill job 3 must run its whole runtime.
	o := goodOut()
	o[2].Finish, o[2].State = 18, StateCompleted
	o[3].Start, o[3].Finish = 18, 25
	if err := Check(goodIn, o, Options{Procs: 4}); err != nil {
		t.Fatal(err)
	}
}

func TestCheckViolations(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(out []Rec) []Rec
		opt    Options
		wants  []string // substrings of the error, in order of the problem list
		nprobs int
	}{
		{"missing", func(o []Rec) []Rec { return o[:4] }, opt,
			[]string{"job 5: missing from the schedule"}, 1},
		// A repeated record is also a second run on the machine.
		{"twice", func(o []Rec) []Rec { return append(o, o[1]) }, opt, []string{
			"job 2: appears 2 times",
			"capacity exceeded at time 1: 6 processors in use, machine has 4 (jobs 1, 2, 2)",
		}, 2},
		{"unknown id", func(o []Rec) []Rec {
			return append(o, Rec{ID: 99, Start: 30, Finish: 31, Procs: 1, State: StateCompleted})
		}, opt, []string{"job 99: unknown id (record 6)"}, 1},
		{"submit changed", func(o []Rec) []Rec { o[1].Submit = 0.5; return o }, opt,
			[]string{"job 2: submit time 0.5, trace says 1"}, 1},
		{"start before submit", func(o []Rec) []Rec { o[1].Start, o[1].Finish = 0.5, 4.5; return o }, opt,
			[]string{"job 2: starts at 0.5 before its submit time 1"}, 1},
		{"procs differ", func(o []Rec) []Rec { o[3].Procs = 2; return o }, opt,
			[]string{"job 4: 2 processors, trace says 1"}, 1},
		{"duration wrong", func(o []Rec) []Rec { o[3].Finish = 21.9; return o }, opt,
			[]string{"job 4: ran 6.899999999999999 (start 15, finish 21.9), want 7"}, 1},
		{"not killed", func(o []Rec) []Rec {
			o[2].Finish, o[2].State = 18, StateCompleted
			o[3].Start, o[3].Finish = 18, 25
			return o
		}, opt, []string{
			"job 3: ran 8 (start 10, finish 18), want 5",
			`job 3: final state "COMPLETED_SUCCESSFULLY", want "COMPLETED_WALLTIME_REACHED"`,
		}, 2},
		{"killed without Kill", func(o []Rec) []Rec { return o }, Options{Procs: 4}, []string{
			"job 3: ran 5 (start 10, finish 15), want 8",
			`job 3: final state "COMPLETED_WALLTIME_REACHED", want "COMPLETED_SUCCESSFULLY"`,
		}, 2},
		{"capacity", func(o []Rec) []Rec { o[3].Start, o[3].Finish = 14, 21; return o }, opt,
			[]string{"capacity exceeded at time 14: 5 processors in use, machine has 4 (jobs 3, 4)"}, 1},
		{"capacity, touching intervals are fine but overlap is not", func(o []Rec) []Rec {
			o[1].Start, o[1].Finish = 5, 9 // 2 [5,9) with 1 [0,10): 4 procs, fine
			o[0].Procs = 3                 // now 5 at time 5
			return o
		}, opt, []string{
			"job 1: 3 processors, trace says 2",
			"capacity exceeded at time 5: 5 processors in use, machine has 4 (jobs 1, 2)",
		}, 2},
		{"bad machine", func(o []Rec) []Rec { return o }, Options{Procs: 0, Kill: true},
			[]string{"options: machine size 0, want > 0"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(goodIn, tc.edit(goodOut()), tc.opt)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if len(e.Problems) != tc.nprobs {
				t.Errorf("%d problems, want %d:\n%v", len(e.Problems), tc.nprobs, err)
			}
			for i, w := range tc.wants {
				if i >= len(e.Problems) || !strings.Contains(e.Problems[i], w) {
					t.Errorf("problem %d: want %q in\n%v", i, w, err)
				}
			}
		})
	}
}

func TestErrorListsFirst20(t *testing.T) {
	var in []Input
	for i := range 25 {
		in = append(in, Input{ID: int64(i + 1), Runtime: 1, Procs: 1})
	}
	err := Check(in, nil, Options{Procs: 1})
	msg := err.Error()
	if !strings.HasPrefix(msg, "invalid schedule: 25 problems") ||
		!strings.Contains(msg, "job 20: missing") || strings.Contains(msg, "job 21: missing") ||
		!strings.HasSuffix(msg, "\tand 5 more") {
		t.Errorf("unexpected message:\n%s", msg)
	}
}

func TestCapacityListsRunningJobs(t *testing.T) {
	var in []Input
	var out []Rec
	for i := range 3 {
		in = append(in, Input{ID: int64(10 + i), Runtime: 5, Procs: 2})
		out = append(out, Rec{ID: int64(10 + i), Start: float64(i), Finish: float64(i) + 5, Procs: 2, State: StateCompleted})
	}
	err := Check(in, out, Options{Procs: 5})
	want := "capacity exceeded at time 2: 6 processors in use, machine has 5 (jobs 10, 11, 12)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
}

func ExampleCheck() {
	in := []Input{{ID: 1, Submit: 0, Runtime: 3, Procs: 1}}
	out := []Rec{{ID: 1, Submit: 0, Start: 2, Finish: 4, Procs: 1, State: StateCompleted}}
	fmt.Println(Check(in, out, Options{Procs: 1}))
	// Output:
	// invalid schedule: 1 problem
	// 	job 1: ran 2 (start 2, finish 4), want 3
}
