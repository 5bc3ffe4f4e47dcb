package scenario

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/platform"
)

// Every size that allocates is refused above its limit when the file is
// parsed, with the setting and the limit in the message (so `sweep
// --list` already says it, before any run).
func TestLimits(t *testing.T) {
	grid := "model: grid\nstop: {completed: 10}\nworkload: {mean_interarrival: 1}\npolicy: {grid: realtime, local: sq}\n"
	hetero := "model: hetero\nstop: {completed: 10}\nworkload: {mean_interarrival: 5}\npolicy: {queue: fcfs}\n"
	tests := []struct{ name, src, want string }{
		{"replications", grid + "platform: {sites: 2, procs_per_site: 4}\nreplications: 2147483647\n",
			"t.yaml:6:15: replications: must be at most 10000 (the limit of this setting; see docs/limits.md), got 2147483647"},
		{"procs per site", grid + "platform: {sites: 4, procs_per_site: 2147483647}\n",
			"t.yaml:5:38: platform.procs_per_site: must be at most 4194304"},
		{"sites x procs", grid + "platform: {sites: 2, procs_per_site: 4194304}\n",
			"t.yaml:5:38: platform.procs_per_site: the sites have 8388608 processors in all; at most 4194304 (platform.MaxCPUs)"},
		{"a site's procs", grid + "platform: {sites: [{procs: 5000000}]}\n",
			"platform.sites[0].procs: must be at most 4194304"},
		{"site list total", grid + "platform: {sites: [{procs: 4194304}, {procs: 1}]}\n",
			"platform.sites: the sites have 4194305 processors in all; at most 4194304"},
		{"cluster procs", "model: cluster\nstop: {completed: 10}\nplatform: {procs: 2147483647}\nworkload: {mean_interarrival: 1}\npolicy: {queue: easy}\n",
			"t.yaml:3:19: platform.procs: must be at most 4194304"},
		{"machines", hetero + "platform: {machines: 100000}\n",
			"t.yaml:5:22: platform.machines: must be at most 65536"},
		{"machines x cpus", hetero + "platform: {machines: 65536, cpus_max: 1000}\n",
			"platform.cpus_max: 65536 machines of up to 1000 CPUs may exceed 4194304 CPUs in all"},
		{"runs", grid + "platform: {sites: 2, procs_per_site: 4}\nreplications: 10000\nseed: [" + seeds(101) + "]\n",
			"t.yaml:6:1: replications: the sweep has more than 1000000 runs (points x replications); at most 1000000"},
	}
	tests = append(tests, struct{ name, src, want string }{"lublin users",
		"model: cluster\nplatform: {procs: 64}\nworkload: {model: lublin, users: 1000001}\npolicy: {queue: fcfs}\nstop: {completed: 100}\n",
		"t.yaml:3:34: workload.users: must be in [0, 1000000], got 1000001"})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pts, err := Parse("t.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("accepted (%d points)", len(pts))
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got\n%v\nwant it to contain\n%s", err, tt.want)
			}
		})
	}
}

func seeds(n int) string {
	var s []string
	for i := range n {
		s = append(s, fmt.Sprint(i+1))
	}
	return strings.Join(s, ", ")
}

// TestExtremeNumbers drives every numeric setting of every model to the
// extremes: each file is either refused with an error naming the file,
// or gives points whose sizes are within the documented limits. (The
// fuzz test FuzzParse covers arbitrary bytes; this one makes sure the
// numbers that allocate are tried at their worst.)
func TestExtremeNumbers(t *testing.T) {
	bases := map[string]string{
		"cluster": "model: cluster\nstop: {completed: 10}\nplatform: {procs: 8}\nworkload: {mean_interarrival: 1}\npolicy: {queue: backfill, depth: 2}\n",
		"grid":    "model: grid\nstop: {completed: 10}\nplatform: {sites: 2, procs_per_site: 4}\nworkload: {mean_interarrival: 1}\npolicy: {grid: realtime, local: sq}\n",
		"gang":    "model: gang\nstop: {completed: 10}\nplatform: {sites: 2, procs_per_site: 16}\nworkload: {mean_interarrival: 0.1, gang_mean_interarrival: 2}\npolicy: {approach: 1}\n",
		"hetero":  "model: hetero\nstop: {completed: 10}\nworkload: {mean_interarrival: 5}\npolicy: {queue: fcfs}\n",
	}
	extremes := []string{"-1", "0", "1", "2147483647", "2147483648", "9223372036854775807", "1e300", "-1e300", ".nan", ".inf"}
	for model, base := range bases {
		if _, err := Parse("t.yaml", []byte(base)); err != nil {
			t.Fatalf("%s base: %v", model, err)
		}
		for _, f := range schemaFields() {
			if f.kind != kInt && f.kind != kFloat && f.kind != kUint && f.kind != kFrac || !has(f.models, model) {
				continue
			}
			for _, x := range extremes {
				src := override(base, f.path, x)
				pts, err := Parse("t.yaml", []byte(src))
				if err != nil {
					if !strings.HasPrefix(err.Error(), "t.yaml") {
						t.Errorf("%s %s=%s: error %q does not name the file", model, f.path, x, err)
					}
					continue
				}
				for _, p := range pts {
					checkSizes(t, fmt.Sprintf("%s %s=%s", model, f.path, x), p.Scenario)
				}
			}
		}
	}
}

// override sets path to x in a base file: as a new top-level mapping
// entry for the section (YAML refuses duplicate keys, so a section the
// base already has is rewritten in flow style).
func override(base, path, x string) string {
	sec, key, ok := strings.Cut(path, ".")
	if !ok {
		return base + path + ": " + x + "\n"
	}
	var out []string
	found := false
	for _, line := range strings.Split(strings.TrimSuffix(base, "\n"), "\n") {
		if strings.HasPrefix(line, sec+": {") {
			found = true
			body := strings.TrimSuffix(strings.TrimPrefix(line, sec+": {"), "}")
			var kept []string
			for _, kv := range strings.Split(body, ", ") {
				if !strings.HasPrefix(kv, key+":") {
					kept = append(kept, kv)
				}
			}
			kept = append(kept, key+": "+x)
			line = sec + ": {" + strings.Join(kept, ", ") + "}"
		}
		out = append(out, line)
	}
	if !found {
		out = append(out, sec+": {"+key+": "+x+"}")
	}
	return strings.Join(out, "\n") + "\n"
}

func checkSizes(t *testing.T, what string, sc Scenario) {
	t.Helper()
	total := totalProcs(&sc)
	switch {
	case sc.Replications < 1 || sc.Replications > MaxReplications:
		t.Errorf("%s: accepted %d replications", what, sc.Replications)
	case sc.Platform.Procs > platform.MaxCPUs || total > platform.MaxCPUs:
		t.Errorf("%s: accepted %d procs, %d in sites", what, sc.Platform.Procs, total)
	case sc.Platform.Machines > platform.MaxMachines || len(sc.Platform.Sites) > MaxSites:
		t.Errorf("%s: accepted %d machines, %d sites", what, sc.Platform.Machines, len(sc.Platform.Sites))
	case len(sc.Platform.Sites) == 0 && int64(sc.Platform.Machines)*int64(sc.Platform.CPUsMax) > platform.MaxCPUs:
		t.Errorf("%s: accepted %d machines of up to %d CPUs", what, sc.Platform.Machines, sc.Platform.CPUsMax)
	}
}

// A grid run with a periodic grid scheduler (deferred, hybrid) makes one
// pass per allocation_interval over the whole run: a configuration of
// more than MaxGridPasses passes, or whose clock could not advance by one
// interval, is refused when the file is parsed, at allocation_interval;
// one at the bound is accepted.
func TestGridPasses(t *testing.T) {
	file := func(grid, ia, ai string) string {
		return "model: grid\nstop: {completed: 1000}\nplatform: {sites: 2, procs_per_site: 4}\n" +
			"workload: {mean_interarrival: " + ia + "}\npolicy: {grid: " + grid + ", local: sq, allocation_interval: " + ai + "}\n"
	}
	for _, tt := range []struct{ name, src, want string }{
		{"deferred", file("deferred", "1e12", "0.3"),
			"t.yaml:5:58: policy.allocation_interval: 0.3: a run of stop.completed 1000 jobs at workload.mean_interarrival 1e+12 lasts about 1e+15 time units, 3.333e+15 passes of the grid scheduler (one per interval); at most 1000000000 (scenario.MaxGridPasses)"},
		{"hybrid", file("hybrid", "1e6", "0.001, random_fraction: 0.5"),
			"t.yaml:5:56: policy.allocation_interval: 0.001: a run of stop.completed 1000 jobs at workload.mean_interarrival 1e+06 lasts about 1e+09 time units, 1e+12 passes"},
		{"at the bound", file("deferred", "1e6", "1"), ""},
		{"a sweep axis", "model: grid\nstop: {completed: 1000}\nplatform: {sites: 2, procs_per_site: 4}\n" +
			"workload: {mean_interarrival: [1, 1e9]}\npolicy: {grid: deferred, local: sq, allocation_interval: 0.3}\n",
			"t.yaml:5:58: policy.allocation_interval: 0.3: a run of stop.completed 1000 jobs at workload.mean_interarrival 1e+09 lasts about 1e+12 time units"},
	} {
		t.Run(tt.name, func(t *testing.T) { checkParse(t, tt.src, tt.want) })
	}
}

// Mean times and site speeds beyond MinMean..MaxMean, and deadline
// factors above workload.MaxDeadlineFactor, overflow the run's times
// (they ended in "json: unsupported value: NaN" after the whole run); they
// are refused when the file is parsed, naming the file, line and key.
func TestMeansAtExtremes(t *testing.T) {
	cluster := "model: cluster\nstop: {completed: 10}\nplatform: {procs: 8}\npolicy: {queue: easy}\n"
	gang := "model: gang\nstop: {completed: 10}\nplatform: {sites: 2, procs_per_site: 16}\npolicy: {approach: 1}\n"
	hetero := "model: hetero\nstop: {completed: 10}\npolicy: {queue: fcfs}\n"
	bound := "must be between 1e-06 and 1e+12 (scenario.MinMean, scenario.MaxMean"
	for _, tt := range []struct{ name, src, want string }{
		{"mean_interarrival 1e300", cluster + "workload: {mean_interarrival: 1e300}\n", "t.yaml:5:31: workload.mean_interarrival: " + bound},
		{"mean_service 1e300", cluster + "workload: {mean_interarrival: 1, mean_service: 1e300}\n", "t.yaml:5:48: workload.mean_service: " + bound},
		{"mean_service 1e-300", cluster + "workload: {mean_interarrival: 1, mean_service: 1e-300}\n", "t.yaml:5:48: workload.mean_service: " + bound},
		{"gang_mean_interarrival", gang + "workload: {mean_interarrival: 1, gang_mean_interarrival: 1e13}\n", "t.yaml:5:58: workload.gang_mean_interarrival: " + bound},
		{"site speed", hetero + "workload: {mean_interarrival: 5}\nplatform: {sites: [{procs: 8, speed: 1e-300}]}\n", "t.yaml:5:38: platform.sites[0].speed: " + bound},
		{"deadline factor", hetero + "workload: {mean_interarrival: 5, deadline_factor_max: 1e300}\n", "t.yaml:4:55: workload.deadline_factor_max: must be at most 1e+06"},
		{"at the bounds", cluster + "workload: {mean_interarrival: 1e12, mean_service: 1e-6}\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) { checkParse(t, tt.src, tt.want) })
	}
}

// checkParse parses src as t.yaml: want "" means it must be accepted,
// otherwise refused with an error containing want.
func checkParse(t *testing.T, src, want string) {
	t.Helper()
	_, err := Parse("t.yaml", []byte(src))
	switch {
	case want == "" && err != nil:
		t.Errorf("refused: %v", err)
	case want != "" && err == nil:
		t.Errorf("accepted")
	case want != "" && !strings.Contains(err.Error(), want):
		t.Errorf("got\n%v\nwant it to contain\n%s", err, want)
	}
}
