package validate

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// A platform of two machines of 4 CPUs: machine 0 is CPUs 0-3, machine 1
// is CPUs 4-7. No kill rule; each job runs its runtime.
//
//	job  CPUs    time      note
//	1    0-3     [0, 10)
//	2    4-5     [0, 5)
//	3    4-6     [5, 12)   takes CPUs 4-5 the moment job 2 leaves them
//	4    7       [2, 14)
//	5    0 2     [10, 16)  two separate CPUs, right after job 1
//	6    0-3     [4, 4)    zero-length, on job 1's CPUs: holds nothing
//	7    5-6     [12, 15)  right after job 3
//
// At most 8 CPUs are in use (over [5, 10): 4 + 3 + 1).
var cpuIn = []Input{
	{ID: 1, Submit: 0, Runtime: 10, Procs: 4},
	{ID: 2, Submit: 0, Runtime: 5, Procs: 2},
	{ID: 3, Submit: 1, Runtime: 7, Procs: 3},
	{ID: 4, Submit: 2, Runtime: 12, Procs: 1},
	{ID: 5, Submit: 3, Runtime: 6, Procs: 2},
	{ID: 6, Submit: 3, Runtime: 0, Procs: 4},
	{ID: 7, Submit: 4, Runtime: 3, Procs: 2},
}

func cpuOut() []Rec {
	rec := func(id int64, submit, start, finish float64, procs int, cpus string) Rec {
		ivs, err := ParseResources(cpus)
		if err != nil {
			panic(err)
		}
		return Rec{ID: id, Submit: submit, Start: start, Finish: finish, Procs: procs, State: StateCompleted, CPUs: ivs}
	}
	return []Rec{
		rec(1, 0, 0, 10, 4, "0-3"),
		rec(2, 0, 0, 5, 2, "4-5"),
		rec(3, 1, 5, 12, 3, "4-6"),
		rec(4, 2, 2, 14, 1, "7"),
		rec(5, 3, 10, 16, 2, "0 2"),
		rec(6, 3, 4, 4, 4, "0-3"),
		rec(7, 4, 12, 15, 2, "5-6"),
	}
}

var twoMachines = Options{Procs: 8, Machines: []int{4, 4}, OneMachine: true}

func TestCheckCPUsGood(t *testing.T) {
	for _, o := range []Options{
		{Procs: 8},
		twoMachines,
		{Procs: 8, Machines: []int{4, 4}}, // machines known, jobs may span them
		{Procs: 8, OneMachine: true},      // nil Machines: one machine of 8 CPUs
		{Procs: 8, Machines: []int{8}, OneMachine: true},
	} {
		if err := Check(cpuIn, cpuOut(), o); err != nil {
			t.Errorf("options %+v: %v", o, err)
		}
	}
	// Built in memory, a list may be in any order and its intervals may
	// touch: only listing a CPU twice is wrong.
	o := cpuOut()
	o[4].CPUs = []Interval{{2, 2}, {0, 0}}
	o[2].CPUs = []Interval{{6, 6}, {4, 5}}
	if err := Check(cpuIn, o, twoMachines); err != nil {
		t.Error(err)
	}
}

func TestCheckCPUsViolations(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(out []Rec) []Rec
		opt   Options
		wants []string // the problems, in order
	}{
		{"fewer CPUs than requested", func(o []Rec) []Rec { o[2].CPUs = []Interval{{4, 5}}; return o }, twoMachines,
			[]string{"job 3: 2 CPUs allocated (4-5), requested 3"}},
		{"more CPUs than requested", func(o []Rec) []Rec { o[3].CPUs = []Interval{{7, 7}, {3, 3}}; return o }, Options{Procs: 8},
			[]string{
				"job 4: 2 CPUs allocated (3 7), requested 1",
				// and CPU 3 is job 1's until 10
				"CPU conflict at time 2: CPU 3 held by job 1 over [0, 10) and by job 4 over [2, 14)",
			}},
		{"no CPU at all", func(o []Rec) []Rec { o[3].CPUs = []Interval{}; return o }, twoMachines,
			[]string{"job 4: 0 CPUs allocated (none), requested 1"}},
		{"CPU beyond the platform", func(o []Rec) []Rec { o[3].CPUs = []Interval{{8, 8}}; return o }, twoMachines,
			[]string{"job 4: CPU 8 out of range, platform has 8 CPUs (0-7)"}},
		// The part inside the platform is still checked: CPU 7 is job 4's.
		{"partly beyond the platform", func(o []Rec) []Rec { o[2].CPUs = []Interval{{6, 9}}; return o }, Options{Procs: 8},
			[]string{
				"job 3: 4 CPUs allocated (6-9), requested 3",
				"job 3: CPUs 8-9 out of range, platform has 8 CPUs (0-7)",
				"CPU conflict at time 5: CPU 7 held by job 4 over [2, 14) and by job 3 over [5, 12)",
			}},
		{"invalid interval", func(o []Rec) []Rec { o[2].CPUs = []Interval{{6, 4}}; return o }, twoMachines,
			[]string{"job 3: invalid CPU interval [6, 4], want 0 <= lo <= hi <= 2147483647"}},
		{"negative id", func(o []Rec) []Rec { o[2].CPUs = []Interval{{-1, 1}}; return o }, twoMachines,
			[]string{"job 3: invalid CPU interval [-1, 1], want 0 <= lo <= hi <= 2147483647"}},
		{"CPU listed twice", func(o []Rec) []Rec { o[2].CPUs = []Interval{{4, 5}, {5, 6}}; return o }, twoMachines,
			[]string{"job 3: CPU 5 listed more than once"}},
		// Job 4 keeps CPU 6 over [2, 14): job 3 starts on it at 5, and
		// after job 3 is gone job 7 starts on it at 12.
		{"conflicts", func(o []Rec) []Rec { o[3].CPUs = []Interval{{6, 6}}; return o }, twoMachines,
			[]string{
				"CPU conflict at time 5: CPU 6 held by job 4 over [2, 14) and by job 3 over [5, 12)",
				"CPU conflict at time 12: CPU 6 held by job 4 over [2, 14) and by job 7 over [12, 15)",
			}},
		{"job across machines", func(o []Rec) []Rec { o[6].CPUs = []Interval{{3, 4}}; return o }, twoMachines,
			[]string{"job 7: CPUs 3-4 span machines 0 (CPUs 0-3) to 1 (CPUs 4-7), want one machine"}},
		{"machines of different sizes", func(o []Rec) []Rec { o[6].CPUs = []Interval{{1, 1}, {5, 5}}; return o },
			Options{Procs: 8, Machines: []int{4, 3, 1}, OneMachine: true},
			[]string{"job 7: CPUs 1 5 span machines 0 (CPUs 0-3) to 1 (CPUs 4-6), want one machine"}},
		// A repeated record runs twice: twice the processors, on the same CPUs.
		{"repeated record", func(o []Rec) []Rec { return append(o, o[1]) }, twoMachines,
			[]string{
				"job 2: appears 2 times",
				"capacity exceeded at time 2: 9 processors in use, machine has 8 (jobs 1, 2, 2, 4)",
				"CPU conflict at time 0: CPUs 4-5 held by job 2 over [0, 5) and by job 2 over [0, 5)",
			}},
		{"records without CPUs among records with", func(o []Rec) []Rec {
			o[1].CPUs, o[5].CPUs = nil, nil
			return o
		}, twoMachines,
			[]string{"allocated CPUs missing for 2 of 7 records (jobs 2, 6)"}},
		{"machines do not add up", func(o []Rec) []Rec { return o }, Options{Procs: 8, Machines: []int{4, 3}, OneMachine: true},
			[]string{"options: machines [4 3] have 7 CPUs in all, machine size is 8"}},
		{"empty machine", func(o []Rec) []Rec { return o }, Options{Procs: 8, Machines: []int{4, 0, 4}, OneMachine: true},
			[]string{"options: machine 1 has 0 CPUs, want > 0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Check(cpuIn, tc.edit(cpuOut()), tc.opt)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if strings.Join(e.Problems, "\n") != strings.Join(tc.wants, "\n") {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(e.Problems, "\n\t"), strings.Join(tc.wants, "\n\t"))
			}
		})
	}
}

// checkJobs runs Check on jobs given as (start, finish, CPUs), each with as
// many processors as it lists, and returns the problems.
func checkJobs(t *testing.T, procs int, jobs []struct {
	start, finish float64
	cpus          string
}) []string {
	t.Helper()
	var in []Input
	var out []Rec
	for i, j := range jobs {
		ivs, err := ParseResources(j.cpus)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, iv := range ivs {
			n += iv.Len()
		}
		id := int64(i + 1)
		in = append(in, Input{ID: id, Submit: 0, Runtime: j.finish - j.start, Procs: n})
		out = append(out, Rec{ID: id, Start: j.start, Finish: j.finish, Procs: n, State: StateCompleted, CPUs: ivs})
	}
	err := Check(in, out, Options{Procs: procs})
	if err == nil {
		return nil
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want an *Error", err)
	}
	return e.Problems
}

type cpuJob = struct {
	start, finish float64
	cpus          string
}

func TestCPUConflictRules(t *testing.T) {
	for _, tc := range []struct {
		name  string
		procs int
		jobs  []cpuJob
		wants []string
	}{
		// A job holds its CPUs over [start, finish): one leaving at 5 and
		// one arriving at 5 do not meet; zero-length jobs hold nothing,
		// not even in the middle of another job.
		{"touching and zero-length jobs", 4, []cpuJob{
			{0, 5, "0-3"}, {5, 9, "0-3"}, {5, 5, "0-3"}, {2, 2, "1"}, {9, 9, "0-3"},
		}, nil},
		// The job that finishes later keeps a disputed CPU, so a third
		// job is caught against whoever still holds it: job 2 outlives
		// job 1 on CPU 0, and job 3 starts there while job 2 runs.
		{"the longer holder is remembered", 2, []cpuJob{
			{0, 10, "0"}, {5, 20, "0"}, {12, 13, "0"},
		}, []string{
			"CPU conflict at time 5: CPU 0 held by job 1 over [0, 10) and by job 2 over [5, 20)",
			"CPU conflict at time 12: CPU 0 held by job 2 over [5, 20) and by job 3 over [12, 13)",
		}},
		// The same when the first holder outlives the intruder.
		{"the first holder is remembered", 2, []cpuJob{
			{0, 20, "0"}, {5, 10, "0"}, {12, 13, "0"},
		}, []string{
			"CPU conflict at time 5: CPU 0 held by job 1 over [0, 20) and by job 2 over [5, 10)",
			"CPU conflict at time 12: CPU 0 held by job 1 over [0, 20) and by job 3 over [12, 13)",
		}},
		// One problem per holder, with all the CPUs they share, holders in
		// the order of their first shared CPU; job 3 also overfills the
		// machine. Job 4 then finds the CPUs job 3 took from jobs 1 and 2.
		{"a wide job over several holders", 8, []cpuJob{
			{0, 10, "2-3 6"}, {0, 10, "0-1"}, {5, 12, "0-7"}, {11, 12, "3"},
		}, []string{
			"capacity exceeded at time 5: 13 processors in use, machine has 8 (jobs 1, 2, 3)",
			"CPU conflict at time 5: CPUs 0-1 held by job 2 over [0, 10) and by job 3 over [5, 12)",
			"CPU conflict at time 5: CPUs 2-3 6 held by job 1 over [0, 10) and by job 3 over [5, 12)",
			"CPU conflict at time 11: CPU 3 held by job 3 over [5, 12) and by job 4 over [11, 12)",
		}},
		// Job 3 wins CPUs 1-2 from job 1 but not CPU 3 from job 2: after
		// job 1 leaves at 10, CPU 0 is free again and CPU 1 still job 3's.
		{"partial takeover splits the holder's CPUs", 8, []cpuJob{
			{0, 10, "0-2"}, {0, 30, "3"}, {5, 20, "1-3"}, {15, 16, "0-1"},
		}, []string{
			"CPU conflict at time 5: CPUs 1-2 held by job 1 over [0, 10) and by job 3 over [5, 20)",
			"CPU conflict at time 5: CPU 3 held by job 2 over [0, 30) and by job 3 over [5, 20)",
			"CPU conflict at time 15: CPU 1 held by job 3 over [5, 20) and by job 4 over [15, 16)",
		}},
		// Starts at the same time: the later record is the one reported
		// as starting on held CPUs.
		{"simultaneous starts", 4, []cpuJob{{0, 1, "0-1"}, {0, 1, "1-2"}}, []string{
			"CPU conflict at time 0: CPU 1 held by job 1 over [0, 1) and by job 2 over [0, 1)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := checkJobs(t, tc.procs, tc.jobs)
			if strings.Join(got, "\n") != strings.Join(tc.wants, "\n") {
				t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(tc.wants, "\n\t"))
			}
		})
	}
}

// Huge ids cost no memory of their size: a job on CPUs 0-2147483647 is
// reported as outside an 8-CPU platform without expanding the interval.
func TestCheckCPUsHugeInterval(t *testing.T) {
	got := checkJobs(t, 8, []cpuJob{{0, 1, "0-2147483647"}, {0, 1, "2147483647"}})
	// checkJobs gives each job as many processors as it lists: only the
	// range problems remain, and the capacity one.
	wants := []string{
		"job 1: CPUs 8-2147483647 out of range, platform has 8 CPUs (0-7)",
		"job 2: CPU 2147483647 out of range, platform has 8 CPUs (0-7)",
		"capacity exceeded at time 0: 2147483648 processors in use, machine has 8 (jobs 1)",
	}
	if strings.Join(got, "\n") != strings.Join(wants, "\n") {
		t.Errorf("got\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(wants, "\n\t"))
	}
}

// syntheticSchedule builds a valid schedule of n jobs on procs CPUs with
// CPU lists: mostly small jobs, some of thousands of CPUs, each in one to
// three blocks of CPUs, started as soon as all its CPUs are free.
func syntheticSchedule(n, procs int) ([]Input, []Rec) {
	r := rand.New(rand.NewPCG(42, 1))
	free := make([]float64, procs) // free[c]: when CPU c is next free
	in := make([]Input, n)
	out := make([]Rec, n)
	for i := range n {
		var size int
		switch x := r.IntN(100); {
		case x < 60:
			size = 1 + r.IntN(16)
		case x < 85:
			size = 17 + r.IntN(240)
		case x < 97:
			size = 257 + r.IntN(768)
		default:
			size = 1025 + r.IntN(3072)
		}
		k := 1 + r.IntN(3) // blocks
		if size < k {
			k = size
		}
		var ivs []Interval
		start := 0.0
		for b := range k {
			region := procs / k
			m := size / k
			if b == k-1 {
				m = size - m*(k-1)
			}
			lo := b*region + r.IntN(region-m+1)
			ivs = append(ivs, Interval{lo, lo + m - 1})
			for c := lo; c < lo+m; c++ {
				start = max(start, free[c])
			}
		}
		dur := float64(1 + r.IntN(1000))
		for _, iv := range ivs {
			for c := iv.Lo; c <= iv.Hi; c++ {
				free[c] = start + dur
			}
		}
		ivs = normalize(ivs)
		submit := max(0, start-float64(r.IntN(500)))
		id := int64(i + 1)
		in[i] = Input{ID: id, Submit: submit, Runtime: dur, Request: -1, Procs: size}
		out[i] = Rec{ID: id, Submit: submit, Start: start, Finish: start + dur, Procs: size, State: StateCompleted, CPUs: ivs}
	}
	return in, out
}

func TestSyntheticScheduleIsValid(t *testing.T) {
	in, out := syntheticSchedule(5000, 8192)
	if err := Check(in, out, Options{Procs: 8192}); err != nil {
		t.Fatal(err)
	}
	// Moving one job's start onto another's CPUs is caught.
	out[4000].Start -= 300
	out[4000].Finish -= 300
	err := Check(in, out, Options{Procs: 8192})
	if err == nil || !strings.Contains(err.Error(), "CPU conflict") {
		t.Fatalf("got %v, want a CPU conflict", err)
	}
}

// BenchmarkCheckResources checks a 200,000-job schedule on 8,192 CPUs
// (jobs of up to 4,096 CPUs in up to three blocks), with and without the
// CPU lists.
func BenchmarkCheckResources(b *testing.B) {
	in, out := syntheticSchedule(200_000, 8192)
	bare := make([]Rec, len(out))
	for i, r := range out {
		r.CPUs = nil
		bare[i] = r
	}
	for _, bc := range []struct {
		name string
		out  []Rec
	}{{"with-cpus", out}, {"without-cpus", bare}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if err := Check(in, bc.out, Options{Procs: 8192}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
