package experiment

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/plan"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/scenario"
)

// Explicit machines (platform.sites) run; an unknown hetero policy is a
// typed error.
func TestHeteroRunner(t *testing.T) {
	s := scenario.Scenario{Model: registry.ModelHetero, Seed: 1, Replications: 1, Stop: scenario.Stop{Completed: 50},
		Platform: scenario.Platform{Sites: []scenario.Site{{Procs: 4, Speed: 200}, {Procs: 8, Speed: 500}}},
		Workload: scenario.Workload{MeanInterarrival: 3, CPUsMin: 1, CPUsMax: 4, EstimatedMin: 500, EstimatedMax: 3000,
			DeadlineFraction: 0.7, Deadline: "fastest", DeadlineFactorMin: 2, DeadlineFactorMax: 4, BMEst: "random-machine"},
		Policy: scenario.PolicySpec{Queue: "eg-edf"}}
	m, err := RunReplication(s, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	hm, _ := registry.LookupModel(registry.ModelHetero)
	if len(m.Values) != len(hm.Metrics) || m.Values[0] < 0 || m.Values[0] > 100 {
		t.Errorf("metrics %v %v", m.Names, m.Values)
	}
	s.Policy.Queue = "conservative"
	_, err = RunReplication(s, 0, "")
	var une *registry.UnknownNameError
	if !errors.As(err, &une) || une.Name != "conservative" {
		t.Errorf("unknown hetero policy: err %v, want an UnknownNameError", err)
	}
}

// heteroPoint parses a one-point hetero scenario.
func heteroPoint(t *testing.T, policyYAML string) scenario.Scenario {
	t.Helper()
	src := "model: hetero\nseed: 3\nreplications: 2\nstop: {completed: 400}\nplatform: {machines: 12, cpus_max: 8}\n" +
		"workload: {mean_interarrival: 2}\npolicy: " + policyYAML + "\n"
	pts, err := scenario.Parse("h.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 1 {
		t.Fatalf("%d points", len(pts))
	}
	return pts[0].Scenario
}

// runDirect runs replication 0 of s's workload with a policy built by
// hand instead of through the registry and the scenario's options.
func runDirect(t *testing.T, s scenario.Scenario, build func(platform.Platform) (policy.QueueScheduler, error)) HeteroResult {
	t.Helper()
	hr, err := heteroRun(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	hr.Policy = func(p platform.Platform, _ uint64, _ int) (policy.QueueScheduler, error) { return build(p) }
	r, err := RunHetero(hr)
	if err != nil {
		t.Fatal(err)
	}
	r.DecisionSeconds = 0
	return r
}

func runScenario(t *testing.T, s scenario.Scenario) HeteroResult {
	t.Helper()
	hr, err := heteroRun(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, err := RunHetero(hr)
	if err != nil {
		t.Fatal(err)
	}
	r.DecisionSeconds = 0
	return r
}

// Flexible's constants and Tabu's search options given in a scenario
// reach the policy: the run equals one with the policy built by hand with
// the same values, and differs from the defaults' run (so the options are
// not silently dropped).
func TestHeteroPolicyOptions(t *testing.T) {
	flex := heteroPoint(t, "{queue: flexible, agefactor: 5, deadline_min: 0, boostvalue: 0, pin_reservation: false}")
	want := runDirect(t, flex, func(p platform.Platform) (policy.QueueScheduler, error) {
		return backfill.NewBackfillMulti(backfill.MultiConfig{Name: "flexible", Platform: p, Depth: 1, Order: backfill.OrderPriority,
			Pick: backfill.PickFastest, Flex: &backfill.FlexParams{AgeFactor: 5, K: 2, Max: 20, Min: 0, Boost: 0, Pin: false}})
	})
	if got := runScenario(t, flex); got != want {
		t.Errorf("flexible with options:\n got %+v\nwant %+v", got, want)
	}
	if def := runScenario(t, heteroPoint(t, "{queue: flexible}")); def == want {
		t.Errorf("flexible options changed nothing: %+v", def)
	}

	tabu := heteroPoint(t, "{queue: tabu, ties: end, iterations: 3, tabu_length: 2, machine_order: random, trigger: every-n, every: 4}")
	want = runDirect(t, tabu, func(p platform.Platform) (policy.QueueScheduler, error) {
		return plan.NewTabu(p, plan.Options{Tabu: true, Iterations: 3, TabuLength: 2, Order: plan.OrderRandom,
			Trigger: plan.EveryN, Every: 4, Ties: plan.TieEnd}, rng.New(3, 0, "hetero-policy"))
	})
	if got := runScenario(t, tabu); got != want {
		t.Errorf("tabu with options:\n got %+v\nwant %+v", got, want)
	}
	if def := runScenario(t, heteroPoint(t, "{queue: tabu}")); def.Evaluations == want.Evaluations {
		t.Errorf("tabu options changed no plan evaluation count: %d", def.Evaluations)
	}
	eg := heteroPoint(t, "{queue: eg-edf, ties: end}")
	want = runDirect(t, eg, func(p platform.Platform) (policy.QueueScheduler, error) {
		return plan.NewEGEDF(p, plan.Options{Ties: plan.TieEnd}, nil)
	})
	if got := runScenario(t, eg); got != want {
		t.Errorf("eg-edf ties end:\n got %+v\nwant %+v", got, want)
	}
	if def := runScenario(t, heteroPoint(t, "{queue: eg-edf}")); def == want {
		t.Errorf("ties: end changed nothing: %+v", def)
	}
	iv := heteroPoint(t, "{queue: tabu, trigger: interval, interval: 600}")
	if o := iv.Policy.Options; o["interval"] != "600" || o["every"] != "" {
		t.Errorf("interval trigger: interval %q every %q", o["interval"], o["every"])
	}
}

// Policy options that are wrong for the point are refused with the
// file's line and column.
func TestHeteroPolicyOptionErrors(t *testing.T) {
	for _, tc := range []struct{ policy, want string }{
		{"{queue: flexible, agefactor: -1}", "h.yaml:6:"},
		{"{queue: eg-edf, iterations: 5}", "policy.iterations"},
		{"{queue: tabu, every: 5}", "policy.every"},
		{"{queue: tabu, trigger: sometimes}", "sometimes"},
		{"{queue: tabu, interval: 0, trigger: interval}", "policy.interval"},
	} {
		src := "model: hetero\nseed: 3\nreplications: 2\nstop: {completed: 400}\nworkload: {mean_interarrival: 2}\npolicy: " + tc.policy + "\n"
		_, err := scenario.Parse("h.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want one naming %q", tc.policy, err, tc.want)
		}
	}
	// deadline_max below deadline_min passes the per-key ranges and is
	// refused when the policy is built.
	s := heteroPoint(t, "{queue: flexible, deadline_max: 1, deadline_min: 2}")
	if _, err := heteroRun(s, 0); err == nil || !strings.Contains(err.Error(), "deadline_max 1 is below deadline_min 2") {
		t.Errorf("max < min: err %v", err)
	}
}
