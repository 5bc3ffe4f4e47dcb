package scenario

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func mustParse(t *testing.T, src string) []Point {
	t.Helper()
	pts, err := Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatalf("Parse:\n%v", err)
	}
	return pts
}

// Every example file parses, expands to the documented number of points,
// and its points have distinct keys.
func TestExamples(t *testing.T) {
	want := map[string]int{
		"cluster-kth-easy.yaml":  3,         // queue x3
		"cluster-mmc.yaml":       1,         // no sweep
		"lublin-policies.yaml":   2 * 3,     // estimate x queue
		"gpu-cluster.yaml":       2,         // queue
		"fairshare.yaml":         2 * 2,     // queue x order
		"maintenance.yaml":       2 * 2,     // on_failure x queue
		"klusacek2008.yaml":      3 * 5,     // mean_interarrival x queue
		"dimitriadou2010.yaml":   3 * 3 * 2, // mean_interarrival x estimate_error x approach
		"zikos2008-hetero.yaml":  2 * 3,     // mean_interarrival x grid
		"zikos2008-table4.yaml":  2 * 3,     // grid x local
		"kth-sleeper.yaml":       3,         // sleep_after
		"kth-sleeper-sweep.yaml": 6 * 3,     // sleep_after x queue
	}
	files, err := filepath.Glob("../examples/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		base := filepath.Base(f)
		t.Run(base, func(t *testing.T) {
			pts, err := Load(f)
			if err != nil {
				t.Fatalf("Load:\n%v", err)
			}
			n, ok := want[base]
			if !ok {
				t.Fatalf("example %s has no expected point count in this test", base)
			}
			if len(pts) != n {
				t.Fatalf("%d points, want %d", len(pts), n)
			}
			keys := map[string]int{}
			for i, p := range pts {
				if p.Index != i {
					t.Errorf("point %d has Index %d", i, p.Index)
				}
				k := p.Scenario.Key()
				if !keyRE.MatchString(k) {
					t.Errorf("key %q has characters outside [a-z0-9._=-]", k)
				}
				if j, dup := keys[k]; dup {
					t.Errorf("points %d and %d share key %s", j, i, k)
				}
				keys[k] = i
			}
		})
	}
	for base := range want {
		if _, err := os.Stat(filepath.Join("../examples", base)); err != nil {
			t.Errorf("expected example %s: %v", base, err)
		}
	}
}

// A 2x3 sweep: the first axis in file order varies slowest, labels keep
// the values as written, every point has one value per axis.
func TestSweepOrder(t *testing.T) {
	pts := mustParse(t, `
model: grid
stop: {completed: 1000}
platform: {sites: 4, procs_per_site: 8}
workload:
  mean_interarrival: [0.048, 0.033]
policy: {grid: random, local: [sq, 2rsq, random]}
`)
	type row struct {
		ia    float64
		local string
	}
	want := []row{{0.048, "sq"}, {0.048, "2rsq"}, {0.048, "random"}, {0.033, "sq"}, {0.033, "2rsq"}, {0.033, "random"}}
	if len(pts) != len(want) {
		t.Fatalf("%d points, want %d", len(pts), len(want))
	}
	for i, p := range pts {
		got := row{p.Scenario.Workload.MeanInterarrival, p.Scenario.Policy.Local}
		if got != want[i] {
			t.Errorf("point %d = %+v, want %+v", i, got, want[i])
		}
		wantLabels := []Label{
			{"workload.mean_interarrival", fmt.Sprint(want[i].ia)},
			{"policy.local", want[i].local},
		}
		if !reflect.DeepEqual(p.Labels, wantLabels) {
			t.Errorf("point %d labels %v, want %v", i, p.Labels, wantLabels)
		}
		if p.Index != i {
			t.Errorf("point %d has index %d", i, p.Index)
		}
	}
}

// Labels hold the value as written: percentages stay percentages,
// exponents stay exponents.
func TestLabelsAsWritten(t *testing.T) {
	pts := mustParse(t, `
model: gang
stop: {completed: 1.2e5}
platform: {sites: 2, procs_per_site: 16}
workload:
  mean_interarrival: 0.1
  gang_mean_interarrival: 2
  estimate_error: [0, "10%", 30%, 0.5]
`)
	var got []string
	var vals []float64
	for _, p := range pts {
		got = append(got, p.Labels[0].Value)
		vals = append(vals, p.Scenario.Workload.EstimateError)
	}
	if want := []string{"0", "10%", "30%", "0.5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
	if want := []float64{0, 0.1, 0.3, 0.5}; !reflect.DeepEqual(vals, want) {
		t.Errorf("values %v, want %v", vals, want)
	}
	if c := pts[0].Scenario.Stop.Completed; c != 120000 {
		t.Errorf("stop.completed 1.2e5 = %d", c)
	}
}

// Defaults, per model, from the smallest valid files.
func TestDefaults(t *testing.T) {
	tests := []struct {
		name, src string
		want      Scenario
	}{
		{"cluster trace", `
model: cluster
workload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}
policy: {queue: easy}
`, Scenario{
			Name: "t", Model: "cluster", Seed: 1, Replications: 1,
			Platform: Platform{NodePlanner: "auto"},
			Workload: Workload{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", Estimate: "request", OnOverrun: "kill", Resample: "none", Submit: SubmitAsIs},
			Policy:   PolicySpec{Queue: "easy", Options: map[string]string{"order": "fcfs"}},
		}},
		{"cluster synthetic", `
model: cluster
stop: {completed: 100}
platform: {procs: 8}
workload: {mean_interarrival: 0.2}
policy: {queue: backfill}
`, Scenario{
			Name: "t", Model: "cluster", Seed: 1, Replications: 1,
			Stop:     Stop{Completed: 100},
			Platform: Platform{Procs: 8, NodePlanner: "auto"},
			Workload: Workload{MeanInterarrival: 0.2, MeanService: 1, Estimate: "exact", OnOverrun: "kill", Model: "poisson", Submit: SubmitAsIs},
			Policy:   PolicySpec{Queue: "backfill", Options: map[string]string{"depth": "0", "order": "fcfs"}},
		}},
		{"grid", `
name: g
model: grid
stop: {completed: 32000}
platform: {sites: 2, procs_per_site: 3}
workload: {mean_interarrival: 0.048}
policy: {grid: deferred, allocation_interval: 0.3, local: sq}
`, Scenario{
			Name: "g", Model: "grid", Seed: 1, Replications: 1,
			Stop:     Stop{Completed: 32000},
			Platform: Platform{Sites: []Site{{3, 1}, {3, 1}}},
			Workload: Workload{MeanInterarrival: 0.048, MeanService: 1},
			Policy:   PolicySpec{Grid: "deferred", Local: "sq", Options: map[string]string{"allocation_interval": "0.3", "normalize_load": "false"}},
		}},
		{"gang", `
model: gang
stop: {completed: 120000}
platform: {sites: 2, procs_per_site: 16}
workload: {mean_interarrival: 0.1, gang_mean_interarrival: 2}
policy: {approach: 2}
`, Scenario{
			Name: "t", Model: "gang", Seed: 1, Replications: 1,
			Stop:     Stop{Completed: 120000},
			Platform: Platform{Sites: []Site{{16, 1}, {16, 1}}},
			Workload: Workload{MeanInterarrival: 0.1, MeanService: 1, GangMeanInterarrival: 2,
				GangSizes: "uniform", GangMin: 2, GangMax: 13, GangTimes: "independent", SplitOverhead: 0.1},
			Policy: PolicySpec{Approach: 2, Options: map[string]string{"threshold": "0", "empty_queue": "waiting", "examine": "emptied"}},
		}},
		{"gang pow2 approach 1", `
model: gang
stop: {completed: 10}
platform: {sites: [{procs: 16}, {procs: 16, speed: 2}]}
workload: {mean_interarrival: 0.1, gang_mean_interarrival: 2, gang_sizes: pow2, gang_times: shared}
`, Scenario{
			Name: "t", Model: "gang", Seed: 1, Replications: 1,
			Stop:     Stop{Completed: 10},
			Platform: Platform{Sites: []Site{{16, 1}, {16, 2}}},
			Workload: Workload{MeanInterarrival: 0.1, MeanService: 1, GangMeanInterarrival: 2,
				GangSizes: "pow2", GangTimes: "shared"},
			Policy: PolicySpec{Approach: 1, Options: map[string]string{"threshold": "0", "empty_queue": "waiting", "examine": "emptied"}},
		}},
		{"hetero", `
model: hetero
seed: 0
replications: 20
workers: 4
stop: {completed: 3000}
platform: {sites: [{procs: 16, speed: 1.5}]}
workload: {mean_interarrival: 5}
policy: {queue: eg-edf}
metrics: [missed_pct, slowdown]
`, Scenario{
			Name: "t", Model: "hetero", Seed: 0, Replications: 20, Workers: 4,
			Stop:     Stop{Completed: 3000},
			Platform: Platform{Sites: []Site{{16, 1.5}}},
			Workload: Workload{MeanInterarrival: 5, CPUsMin: 1, CPUsMax: 8, EstimatedMin: 500, EstimatedMax: 3000,
				DeadlineFraction: 0.7, Deadline: "factor", DeadlineFactorMin: 2, DeadlineFactorMax: 4, BMEst: "min"},
			Policy:  PolicySpec{Queue: "eg-edf", Options: map[string]string{"gaps": "finite", "ties": "index", "suitable": "any"}},
			Metrics: []string{"missed_pct", "slowdown"},
		}},
		{"hetero generated machines", `
model: hetero
stop: {completed: 3000}
workload: {mean_interarrival: 2}
policy: {queue: fcfs}
`, Scenario{
			Name: "t", Model: "hetero", Seed: 1, Replications: 1,
			Stop:     Stop{Completed: 3000},
			Platform: Platform{Machines: 150, CPUsMin: 1, CPUsMax: 16, SpeedMin: 200, SpeedMax: 600},
			Workload: Workload{MeanInterarrival: 2, CPUsMin: 1, CPUsMax: 8, EstimatedMin: 500, EstimatedMax: 3000,
				DeadlineFraction: 0.7, Deadline: "factor", DeadlineFactorMin: 2, DeadlineFactorMax: 4, BMEst: "min"},
			Policy: PolicySpec{Queue: "fcfs"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pts := mustParse(t, tt.src)
			if len(pts) != 1 {
				t.Fatalf("%d points", len(pts))
			}
			if pts[0].Labels != nil {
				t.Errorf("labels %v without a sweep", pts[0].Labels)
			}
			if got := pts[0].Scenario; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// Settings the point's policy does not read are zero in its Scenario,
// even when swept; the label keeps the axis value and the keys of such
// points agree.
func TestUnusedSettingsAreZero(t *testing.T) {
	pts := mustParse(t, `
model: grid
stop: {completed: 100}
platform: {sites: 4, procs_per_site: 8}
workload: {mean_interarrival: 0.048}
policy:
  grid: [random, hybrid]
  allocation_interval: [0.3, 1.2]
  random_fraction: 0.6
  local: sq
`)
	type row struct {
		grid   string
		ai, rf string
		label  string
	}
	want := []row{{"random", "", "", "0.3"}, {"random", "", "", "1.2"}, {"hybrid", "0.3", "0.6", "0.3"}, {"hybrid", "1.2", "0.6", "1.2"}}
	for i, p := range pts {
		pol := p.Scenario.Policy
		got := row{pol.Grid, pol.Options["allocation_interval"], pol.Options["random_fraction"], p.Labels[1].Value}
		if got != want[i] {
			t.Errorf("point %d = %+v, want %+v", i, got, want[i])
		}
	}
	if pts[0].Scenario.Key() != pts[1].Scenario.Key() {
		t.Errorf("random points differ only in an ignored setting but have keys %s and %s", pts[0].Scenario.Key(), pts[1].Scenario.Key())
	}
	if pts[2].Scenario.Key() == pts[3].Scenario.Key() {
		t.Errorf("hybrid points share key %s", pts[2].Scenario.Key())
	}

	// depth is read by backfill only
	pts = mustParse(t, `
model: cluster
workload: {trace: x.swf}
policy: {queue: [easy, backfill], depth: 4}
`)
	if d0, d1 := pts[0].Scenario.Policy.Options["depth"], pts[1].Scenario.Policy.Options["depth"]; d0 != "" || d1 != "4" {
		t.Errorf("depths %s, %s; want none (easy), 4 (backfill)", d0, d1)
	}
}

// The three forms of platform.sites.
func TestSites(t *testing.T) {
	head := "model: grid\nstop: {completed: 10}\nworkload: {mean_interarrival: 1}\npolicy: {grid: random, local: sq}\n"
	tests := []struct {
		name, platform string
		sites          [][]Site
		labels         [][]Label
	}{
		{"count", "platform: {sites: 2, procs_per_site: [4, 8]}",
			[][]Site{{{4, 1}, {4, 1}}, {{8, 1}, {8, 1}}},
			[][]Label{{{"platform.procs_per_site", "4"}}, {{"platform.procs_per_site", "8"}}}},
		{"list with a swept site", "platform:\n  sites:\n    - {procs: [4, 6]}\n    - {procs: 8, speed: 2}",
			[][]Site{{{4, 1}, {8, 2}}, {{6, 1}, {8, 2}}},
			[][]Label{{{"platform.sites[0].procs", "4"}}, {{"platform.sites[0].procs", "6"}}}},
		{"list of lists", "platform:\n  sites:\n    - [{procs: 32}]\n    - [{procs: 16}, {procs: 16, speed: 1.5}]",
			[][]Site{{{32, 1}}, {{16, 1}, {16, 1.5}}},
			[][]Label{{{"platform.sites", "[{procs: 32}]"}}, {{"platform.sites", "[{procs: 16}, {procs: 16, speed: 1.5}]"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pts := mustParse(t, head+tt.platform+"\n")
			if len(pts) != len(tt.sites) {
				t.Fatalf("%d points, want %d", len(pts), len(tt.sites))
			}
			for i, p := range pts {
				if !reflect.DeepEqual(p.Scenario.Platform.Sites, tt.sites[i]) {
					t.Errorf("point %d sites %v, want %v", i, p.Scenario.Platform.Sites, tt.sites[i])
				}
				if !reflect.DeepEqual(p.Labels, tt.labels[i]) {
					t.Errorf("point %d labels %v, want %v", i, p.Labels, tt.labels[i])
				}
			}
			// points do not share site slices
			pts[0].Scenario.Platform.Sites[0].Procs = -1
			if pts[1].Scenario.Platform.Sites[0].Procs == -1 {
				t.Errorf("points share their site slice")
			}
		})
	}
}

// YAML conveniences: anchors and aliases, flow and block style, quoted
// strings for strings.
func TestAnchorsAndStyles(t *testing.T) {
	pts := mustParse(t, `
model: gang
stop:
  completed: &n 1000
platform:
  sites: &s [{procs: 16}, {procs: 16}]
workload:
  mean_interarrival: &loads [0.08, 0.1]
  gang_mean_interarrival: 2
policy:
  threshold: *loads
`)
	if len(pts) != 4 {
		t.Fatalf("%d points, want 4", len(pts))
	}
	if th := pts[1].Scenario.Policy.Options["threshold"]; th != "0.1" {
		t.Errorf("threshold through an alias = %v", th)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load("no/such/file.yaml")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing file: %v", err)
	}
}

func TestTooLarge(t *testing.T) {
	_, err := Parse("big.yaml", []byte(strings.Repeat("#", MaxFileSize+1)))
	if err == nil || !strings.HasPrefix(err.Error(), "big.yaml: file too large") {
		t.Errorf("got %v", err)
	}
}
