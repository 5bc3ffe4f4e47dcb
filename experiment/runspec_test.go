package experiment

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/avail"
)

// Check reports every problem of a spec at once, in the order of the
// parts, each naming its setting by the flag a user knows; nothing runs.
func TestCheckEveryProblem(t *testing.T) {
	s := RunSpec{
		Workload: WorkloadSpec{Trace: "never-opened.swf", First: -1, Resample: "users", Rep: -1, Estimate: 9,
			Deadlines: workload.DeadlineRule{Base: workload.DeadlineEstimate, Min: 2, Max: 4, Fraction: 2}},
		Platform: PlatformSpec{Procs: -1, Avail: AvailSpec{OnFailure: "pause"}},
		Policy:   PolicySpec{Name: "easy", Options: map[string]string{"order": "random", "depth": "2"}},
		Outputs:  OutputSpec{Tau: -1, Metrics: []string{"nope"}, Check: true, Planned: true, Threads: true},
	}
	err := s.Check()
	var got []string
	for _, p := range Problems(err) {
		got = append(got, p.Setting)
	}
	want := []string{"--jobs", "--resample", "--replication", "--estimate", "--deadline-fraction", "--procs", "--on-failure",
		"--set", "--threads", "--tau", "--metric", "--check", "--planned", "--threads"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("settings %q, want %q\n%v", got, want, err)
	}
	for _, msg := range []string{
		"trace run: -1 jobs, want 1..",
		`unknown resampling "users" (want none, user-weeks)`,
		"--replication must be 0..",
		"trace run: unknown estimate model Estimate(9)",
		"--deadline-fraction 2: want a number in [0, 1]",
		"--procs -1: want 1..4194304 (or leave it out for the header's MaxProcs)",
		`--on-failure "pause": want kill or requeue`,
		"option order: ", "option depth: not an option of this policy",
		"--threads is only for --policy matrix (easy schedules whole jobs)",
		"--tau must be a positive number of seconds, got -1",
		`--metric: unknown metric "nope"`,
		"--check needs --out", "--planned needs an output folder", "per-thread records need an output folder",
	} {
		if !strings.Contains(err.Error(), msg) {
			t.Errorf("no %q in\n%v", msg, err)
		}
	}
	if s.Policy.Values.Has("order") {
		t.Error("a spec in error got option values")
	}
}

// A spec without problems passes and gets its policy's typed values:
// the given ones, every other option at its default; an unknown policy
// names the hetero model's too.
func TestCheckValues(t *testing.T) {
	s := RunSpec{Workload: WorkloadSpec{Trace: "t.swf"}, Policy: PolicySpec{Name: "backfill", Options: map[string]string{"depth": "3", "order": "SJF"}}}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if v := s.Policy.Values; v.Int("depth") != 3 || v.Text("order") != "sjf" {
		t.Errorf("values %v, want depth 3, order sjf", v.Texts())
	}
	s.Policy.Name = "nosuch"
	err := s.Check()
	if p := Problems(err); len(p) != 1 || p[0].Setting != "--policy" || !strings.Contains(err.Error(), "; or of the hetero model: flexible, eg-edf, tabu") {
		t.Errorf("unknown policy: %v", err)
	}
	if Problems(nil) != nil {
		t.Error("problems of no error")
	}
}

// A spec's JSON is readable (names, not numbers, for the estimate model
// and the deadline rule; the factor as the flag writes it) and decodes to
// the same spec; the JSON Python's _inproc.run_spec writes for
// schedlab.run(trace, deadline="runtime", deadline_factor="2-3",
// deadline_fraction=0.5, seed=9, estimate="exact", procs=64, order="sjf")
// is the spec the command line builds for the same flags.
func TestRunSpecJSON(t *testing.T) {
	s := RunSpec{
		Workload: WorkloadSpec{Trace: "t.swf", From: "10", To: "2000", First: 50, SubmitZero: true, Resample: "user-weeks", Seed: 9, Rep: 2,
			Estimate: workload.EstimateExact, Deadlines: workload.DeadlineRule{Base: workload.DeadlineRuntime, Min: 2, Max: 3, Fraction: 0.5, Seed: 9}},
		Platform: PlatformSpec{Procs: 64, Clamp: true, Continue: true, Partitions: []string{"a:32", "b:32"},
			Avail: AvailSpec{Reservations: []string{"0:10:4"}, Failures: &avail.Failures{MTBF: 100, MTTR: 10, Seed: 9, GroupSize: 8}, OnFailure: "requeue"}},
		Policy:  PolicySpec{Name: "easy", Options: map[string]string{"order": "sjf"}, Predictor: "avg:3", Correction: "request"},
		Outputs: OutputSpec{Dir: "out", SWF: true, Check: true, Threads: true, Planned: true, Metrics: []string{"p95_wait"}, Tau: 60},
	}
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{`"estimate":"exact"`, `"deadlines":{"rule":"runtime","factor":"2-3","fraction":0.5,"seed":9}`, `"replication":2`, `"first":50`} {
		if !strings.Contains(string(b), part) {
			t.Errorf("no %s in %s", part, b)
		}
	}
	var back RunSpec
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, s) {
		t.Errorf("decoded\n%+v\nwant\n%+v", back, s)
	}

	py := `{"workload": {"trace": "t.swf", "seed": 9, "replication": 0, "estimate": "exact",
		"deadlines": {"rule": "runtime", "seed": 9, "factor": "2-3", "fraction": 0.5}},
		"platform": {"procs": 64, "clamp": false, "continue": false},
		"policy": {"name": "easy", "options": {"order": "sjf"}},
		"outputs": {"dir": "out", "tau": 10.0, "check": false, "swf": false}}`
	var got RunSpec
	if err := json.Unmarshal([]byte(py), &got); err != nil {
		t.Fatal(err)
	}
	want := RunSpec{ // runCmd.runSpec for --trace t.swf --policy easy --order sjf --out out --estimate exact --procs 64 --deadline runtime --deadline-factor 2-3 --deadline-fraction 0.5 --seed 9
		Workload: WorkloadSpec{Trace: "t.swf", Seed: 9, Estimate: workload.EstimateExact,
			Deadlines: workload.DeadlineRule{Base: workload.DeadlineRuntime, Min: 2, Max: 3, Fraction: 0.5, Seed: 9}},
		Platform: PlatformSpec{Procs: 64},
		Policy:   PolicySpec{Name: "easy", Options: map[string]string{"order": "sjf"}},
		Outputs:  OutputSpec{Dir: "out", Tau: 10},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Python's spec decoded\n%+v\nwant\n%+v", got, want)
	}
	// no deadlines but a seed (the command's default 1 seeds the policy);
	// a deadline rule without factor or fraction takes the flags' defaults
	for text, want := range map[string]workload.DeadlineRule{
		`{"trace": "t.swf", "deadlines": {"rule": "none", "seed": 1}}`:     {Seed: 1},
		`{"trace": "t.swf", "deadlines": {"rule": "estimate", "seed": 1}}`: {Base: workload.DeadlineEstimate, Min: 2, Max: 4, Fraction: 1, Seed: 1},
	} {
		var w WorkloadSpec
		if err := json.Unmarshal([]byte(text), &w); err != nil || w.Deadlines != want {
			t.Errorf("%s: %+v, %v; want %+v", text, w.Deadlines, err, want)
		}
	}
	for text, msg := range map[string]string{
		`{"estimate": "guess"}`:                             "workload.estimate: ",
		`{"deadlines": {"rule": "soon"}}`:                   "workload.deadlines.rule: ",
		`{"deadlines": {"rule": "runtime", "factor": "x"}}`: "workload.deadlines.factor: ",
	} {
		var w WorkloadSpec
		if err := json.Unmarshal([]byte(text), &w); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: error %v, want %q", text, err, msg)
		}
	}
}
