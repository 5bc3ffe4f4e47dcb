package experiment

import (
	"bytes"
	"encoding/csv"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/plan"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/rng"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/validate"
)

type noProgress struct{}

func (noProgress) Add(int) {}

const heteroScenario = `
model: hetero
seed: 7
replications: 2
stop: {completed: 300}
platform: {machines: 20, cpus_max: 8}
workload:
  mean_interarrival: [2, 5]
  deadline: [factor, alea]
policy:
  queue: [fcfs, easy, flexible, eg-edf, tabu]
`

func heteroSummary(t *testing.T, workers int) []byte {
	t.Helper()
	pts, err := scenario.Parse("h.yaml", []byte(heteroScenario))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Sweep(pts, "", workers, noProgress{}, false)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteSummaryCSV(&b, pts, res); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A hetero sweep gives the same summary.csv every time, whatever the
// number of workers, and reports the model's metrics (no timings).
func TestHeteroSweepDeterministic(t *testing.T) {
	a, b := heteroSummary(t, 1), heteroSummary(t, 4)
	if !bytes.Equal(a, b) {
		t.Fatalf("two runs differ:\n%s\n---\n%s", a, b)
	}
	text := string(a)
	for _, m := range heteroMetrics {
		if !strings.Contains(text, ","+m+",") {
			t.Errorf("summary.csv lacks metric %s", m)
		}
	}
	if strings.Contains(text, "decision") {
		t.Error("summary.csv holds a decision time (wall clock)")
	}
	if !strings.Contains(text, "hetero_queue=tabu_ia=5_dl=alea_machines=20_cpus=1-8_speed=200-600_stop=300_warmup=0_seed=7_reps=2") {
		t.Errorf("no expected key in:\n%s", text)
	}
}

// Explicit machines (platform.sites) run; an unknown hetero policy is a
// typed error.
func TestHeteroRunner(t *testing.T) {
	s := scenario.Scenario{Model: registry.ModelHetero, Seed: 1, Replications: 1, Stop: scenario.Stop{Completed: 50},
		Platform: scenario.Platform{Sites: []scenario.Site{{Procs: 4, Speed: 200}, {Procs: 8, Speed: 500}}},
		Workload: scenario.Workload{MeanInterarrival: 3, CPUsMin: 1, CPUsMax: 4, EstimatedMin: 500, EstimatedMax: 3000,
			DeadlineFraction: 0.7, Deadline: "fastest", DeadlineFactorMin: 2, DeadlineFactorMax: 4, BMEst: "random-machine"},
		Policy: scenario.PolicySpec{Queue: "eg-edf"}}
	m, err := runRep(s, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.values) != len(heteroMetrics) || m.values[0] < 0 || m.values[0] > 100 {
		t.Errorf("metrics %v %v", m.names, m.values)
	}
	s.Policy.Queue = "conservative"
	_, err = runRep(s, 0, "")
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
		return backfill.NewMulti("flexible", backfill.Options{Platform: p,
			Flex: &backfill.FlexParams{AgeFactor: 5, K: 2, Max: 20, Min: 0, Boost: 0, Pin: false}})
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

// sweep --records on the hetero model: every record names its machine,
// whose speed is the platform file's, and its CPUs lie in that machine's
// range of global ids; the execution time is the job's Estimated scaled by
// BM_est / speed (the generator's jobs run exactly their Estimated).
func TestHeteroRecords(t *testing.T) {
	src := "model: hetero\nseed: 5\nreplications: 2\nstop: {completed: 150}\nplatform: {machines: 6, cpus_min: 8, cpus_max: 16}\n" +
		"workload: {mean_interarrival: 3}\npolicy: {queue: [easy, tabu]}\n"
	pts, err := scenario.Parse("h.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := Sweep(pts, dir, 2, noProgress{}, true); err != nil {
		t.Fatal(err)
	}
	recs, _ := filepath.Glob(filepath.Join(dir, "records", "*-r?.csv"))
	if len(recs) != 4 {
		t.Fatalf("%d record files: %v", len(recs), recs)
	}
	for _, path := range recs {
		jobs := readCSV(t, path)
		plat := readCSV(t, strings.TrimSuffix(path, ".csv")+".platform.csv")
		if got := strings.Join(plat[0], ","); got+"\n" != metrics.PlatformHeader {
			t.Fatalf("platform header %q", got)
		}
		col := map[string]int{}
		for i, c := range jobs[0] {
			col[c] = i
		}
		if len(jobs) != 151 {
			t.Errorf("%s: %d rows, want 150 jobs", path, len(jobs)-1)
		}
		for _, row := range jobs[1:] {
			m, _ := strconv.Atoi(row[col["machine"]])
			if m < 0 || m+1 >= len(plat) {
				t.Fatalf("%s: job %s on machine %d of %d", path, row[0], m, len(plat)-1)
			}
			first, _ := strconv.Atoi(plat[m+1][1])
			cpus, _ := strconv.Atoi(plat[m+1][2])
			if row[col["speed"]] != plat[m+1][3] {
				t.Errorf("%s: job %s speed %s, machine %d has %s", path, row[0], row[col["speed"]], m, plat[m+1][3])
			}
			ivs, err := validate.ParseResources(row[col["allocated_resources"]])
			if err != nil {
				t.Fatal(err)
			}
			n, _ := strconv.Atoi(row[col["requested_number_of_resources"]])
			count := 0
			for _, iv := range ivs {
				count += iv.Len()
				if iv.Lo < first || iv.Hi >= first+cpus {
					t.Errorf("%s: job %s CPUs %s outside machine %d [%d,%d)", path, row[0], row[col["allocated_resources"]], m, first, first+cpus)
				}
			}
			if count != n {
				t.Errorf("%s: job %s holds %d CPUs, asked for %d", path, row[0], count, n)
			}
			// Estimated (an integer in 500..3000 s at BM_est) = execution
			// time x speed / BM_est.
			ex, _ := strconv.ParseFloat(row[col["execution_time"]], 64)
			sp, _ := strconv.ParseFloat(row[col["speed"]], 64)
			bm, _ := strconv.ParseFloat(row[col["bm_est"]], 64)
			if est := ex * sp / bm; math.Abs(est-math.Round(est)) > 1e-6 || est < 499.5 || est > 3000.5 {
				t.Errorf("%s: job %s: execution %g x speed %g / BM_est %g = %g, not an Estimated of the generator", path, row[0], ex, sp, bm, est)
			}
		}
	}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}
