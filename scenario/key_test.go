package scenario

import (
	"regexp"
	"strings"
	"testing"
)

var keyRE = regexp.MustCompile(`^[a-z0-9._=-]+$`)

func TestKey(t *testing.T) {
	tests := []struct {
		name string
		s    Scenario
		want string
	}{
		{"grid deferred", Scenario{Model: "grid", Seed: 42, Replications: 10,
			Stop:     Stop{Completed: 32000},
			Platform: Platform{Sites: []Site{{8, 1}, {8, 1}, {8, 1}, {8, 1}}},
			Workload: Workload{MeanInterarrival: 0.048, MeanService: 1},
			Policy:   PolicySpec{Grid: "deferred", Local: "sq", Options: map[string]string{"allocation_interval": "0.3"}}},
			"grid_grid=deferred_ai=0.3_local=sq_norm=false_ia=0.048_svc=1_sites=4x8_stop=32000_warmup=0_seed=42_reps=10"},
		{"grid random leaves out what it ignores", Scenario{Model: "grid", Seed: 1, Replications: 1,
			Stop:     Stop{Completed: 100},
			Platform: Platform{Sites: []Site{{4, 1}, {8, 1}, {8, 1}, {12, 1.5}}},
			Workload: Workload{MeanInterarrival: 1e-7, MeanService: 1},
			Policy:   PolicySpec{Grid: "random", Local: "2rsq"}},
			"grid_grid=random_local=2rsq_ia=1e-07_svc=1_sites=1x4-2x8-1x12s1.5_stop=100_warmup=0_seed=1_reps=1"},
		{"cluster trace", Scenario{Model: "cluster", Seed: 1, Replications: 1, Name: "ignored", Workers: 3, Metrics: []string{"x"},
			Workload: Workload{Trace: "kth.swf.gz", Estimate: "request", OnOverrun: "kill"},
			Policy:   PolicySpec{Queue: "backfill", Options: map[string]string{"depth": "4", "order": "sjf"}}},
			"cluster_queue=backfill_depth=4_order=sjf_trace=kth.swf.gz_estimate=request_overrun=kill_clamp=false_procs=0_stop=trace_warmup=0_seed=1_reps=1"},
		{"gang", Scenario{Model: "gang", Seed: 2010, Replications: 10,
			Stop:     Stop{Completed: 120000},
			Platform: Platform{Sites: []Site{{16, 1}, {16, 1}}},
			Workload: Workload{MeanInterarrival: 0.08, MeanService: 1, GangMeanInterarrival: 2, GangSizes: "uniform", GangMin: 2, GangMax: 13,
				GangTimes: "independent", EstimateError: 0.1, SplitOverhead: 0.1},
			Policy: PolicySpec{Approach: 2}},
			"gang_approach=2_t=0_ia=0.08_svc=1_gia=2_sizes=uniform2-13_times=independent_e=0.1_split=0.1_sites=2x16_stop=120000_warmup=0_seed=2010_reps=10"},
		{"hetero", Scenario{Model: "hetero", Seed: 1, Replications: 20,
			Stop:     Stop{Completed: 3000},
			Platform: Platform{Sites: []Site{{16, 2.5}}},
			Workload: Workload{MeanInterarrival: 5, DeadlineFraction: 0.7},
			Policy:   PolicySpec{Queue: "eg-edf"}},
			"hetero_queue=eg-edf_ia=5_sites=1x16s2.5_stop=3000_warmup=0_seed=1_reps=20"},
		// A zero that is not the default is written: no job with a
		// deadline (0) is not 70% of them (the default), and an unpinned
		// reservation is not a pinned one.
		{"hetero-zero", Scenario{Model: "hetero", Seed: 1, Replications: 20,
			Stop:     Stop{Completed: 3000},
			Platform: Platform{Sites: []Site{{16, 2.5}}},
			Workload: Workload{MeanInterarrival: 5},
			Policy:   PolicySpec{Queue: "flexible", Options: map[string]string{"agefactor": "0.01", "deadline_k": "2", "deadline_max": "20", "deadline_min": "0", "boostvalue": "2"}}},
			"hetero_queue=flexible_dmin=0_pin=false_ia=5_dlf=0_sites=1x16s2.5_stop=3000_warmup=0_seed=1_reps=20"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Key(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// Strings outside [a-z0-9.-] are cleaned, and a hash keeps distinct
// names distinct.
func TestKeyCleansStrings(t *testing.T) {
	a := Scenario{Model: "cluster", Workload: Workload{Trace: "traces/KTH_SP2.swf"}}.Key()
	b := Scenario{Model: "cluster", Workload: Workload{Trace: "traces/kth-sp2.swf"}}.Key()
	if !keyRE.MatchString(a) || !keyRE.MatchString(b) {
		t.Fatalf("bad characters: %s, %s", a, b)
	}
	if a == b {
		t.Errorf("distinct traces share key %s", a)
	}
	if !strings.Contains(a, "trace=traces-kth-sp2.swf-") {
		t.Errorf("key %s does not show the cleaned trace name", a)
	}
}

// Long keys are cut and end in a hash of the whole.
func TestKeyLength(t *testing.T) {
	var sites []Site
	for i := range 100 {
		sites = append(sites, Site{Procs: i + 1, Speed: 1})
	}
	s := Scenario{Model: "grid", Platform: Platform{Sites: sites}, Policy: PolicySpec{Grid: "random", Local: "sq"}}
	k := s.Key()
	if len(k) != maxKeyLen || !keyRE.MatchString(k) {
		t.Errorf("key of length %d: %s", len(k), k)
	}
	s.Platform.Sites[99].Procs = 1000
	if k2 := s.Key(); k2 == k {
		t.Errorf("a change past the cut does not change the key")
	}
}

// A declared workload model's options are in result keys under their
// KeyName, only away from their defaults; daily_cycle false (ZeroDistinct)
// is a setting of its own, not the default.
func TestWorkloadOptionKeys(t *testing.T) {
	pts, err := Parse("w.yaml", []byte("model: cluster\nstop: {completed: 100}\nplatform: {procs: 64}\n"+
		"workload: {model: lublin, daily_cycle: [true, false], users: [0, 64], load: 0.75}\npolicy: {queue: easy}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"cluster_queue=easy_order=fcfs_estimate=request_overrun=kill_procs=64_wl=lublin_load=0.75_stop=100_warmup=0_seed=1_reps=1",
		"cluster_queue=easy_order=fcfs_estimate=request_overrun=kill_procs=64_wl=lublin_load=0.75_users=64_stop=100_warmup=0_seed=1_reps=1",
		"cluster_queue=easy_order=fcfs_estimate=request_overrun=kill_procs=64_wl=lublin_load=0.75_cycle=false_stop=100_warmup=0_seed=1_reps=1",
		"cluster_queue=easy_order=fcfs_estimate=request_overrun=kill_procs=64_wl=lublin_load=0.75_cycle=false_users=64_stop=100_warmup=0_seed=1_reps=1",
	}
	if len(pts) != len(want) {
		t.Fatalf("%d points", len(pts))
	}
	for i, p := range pts {
		if got := p.Scenario.Key(); got != want[i] {
			t.Errorf("point %d: key\n%s\nwant\n%s", i, got, want[i])
		}
	}
	if o := pts[3].Scenario.Workload.Options; o["daily_cycle"] != "false" || o["users"] != "64" || o["arrival_factor"] != "1" {
		t.Errorf("options %v", o)
	}
}
