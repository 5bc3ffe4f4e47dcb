package scenario

import (
	"errors"
	"strings"
	"testing"
)

// grid is a valid grid scenario; the error cases below replace one of
// its lines, so positions are easy to check by eye.
const grid = `model: grid
stop: {completed: 100}
platform: {sites: 4, procs_per_site: 8}
workload: {mean_interarrival: 0.048}
policy: {grid: random, local: sq}
`

// withLine returns grid with line n (1-based) replaced by s.
func withLine(n int, s string) string {
	lines := strings.Split(grid, "\n")
	lines[n-1] = s
	return strings.Join(lines, "\n")
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // every line of the error
	}{
		// YAML itself
		{"syntax", withLine(4, "workload: {mean_interarrival: [0.048}"),
			"t.yaml:4:37: invalid YAML: ',' or ']' must be specified"},
		{"empty", "# nothing\n",
			"t.yaml:1:1: empty scenario: expected a mapping with at least the key model"},
		{"not a mapping", "- model: grid\n",
			"t.yaml:1:1: a scenario must be a mapping of keys (model, platform, workload, policy, ...), got a list"},
		{"two documents", grid + "---\nmodel: gang\n",
			"t.yaml:7:6: a scenario file holds one YAML document; another one starts here"},
		{"duplicate key", grid + "policy: {grid: deferred}\n",
			"t.yaml:6:1: policy: duplicate key (first at 5:1)"},
		{"tag", withLine(4, "workload: {mean_interarrival: !!float 1}"),
			"t.yaml:4:31: workload.mean_interarrival: YAML tags (!!float) are not supported"},
		{"unknown alias", withLine(4, "workload: {mean_interarrival: *rate}"),
			"t.yaml:4:31: workload.mean_interarrival: unknown alias *rate"},

		// keys
		{"unknown key, close to a known one", grid + "replicatons: 3\n",
			"t.yaml:6:1: replicatons: unknown key (did you mean replications?)"},
		{"unknown key", withLine(5, "policy: {grid: random, local: sq, colour: red}"),
			"t.yaml:5:35: policy.colour: unknown key (known: grid, allocation_interval, random_fraction, normalize_load, local)"},
		{"key of another model", withLine(5, "policy: {grid: random, local: sq, queue: easy}"),
			"t.yaml:5:35: policy.queue: not used by model grid (only by cluster, hetero)"},
		{"trace in a grid", withLine(4, "workload: {mean_interarrival: 0.048, trace: KTH.swf}"),
			"t.yaml:4:38: workload.trace: not used by model grid (only by cluster)"},
		{"missing model", strings.Replace(grid, "model: grid\n", "", 1),
			"t.yaml:1:1: model: required (one of cluster, grid, gang, hetero)"},
		{"missing setting", withLine(4, "workload: {mean_service: 1}"),
			"t.yaml:4:1: workload.mean_interarrival: required by model grid"},
		{"missing section", withLine(3, ""),
			"t.yaml:1:1: platform.sites: required by model grid"},
		{"missing allocation interval", withLine(5, "policy: {grid: [random, deferred], local: sq}"),
			"t.yaml:5:25: policy.allocation_interval: required with policy.grid deferred"},
		{"setting no policy value reads", withLine(5, "policy: {grid: random, local: sq, allocation_interval: 1}"),
			"t.yaml:5:35: policy.allocation_interval: only used with policy.grid deferred or hybrid (policy.grid is random)"},
		{"procs_per_site with a site list", withLine(3, "platform: {sites: [{procs: 4}], procs_per_site: 8}"),
			"t.yaml:3:33: platform.procs_per_site: only with sites: N (a number of identical sites); a site list gives each site's procs"},
		{"site without procs", withLine(3, "platform: {sites: [{speed: 2}]}"),
			"t.yaml:3:20: platform.sites[0].procs: required (every site needs its number of processors)"},
		{"site list of numbers", withLine(3, "platform: {sites: [4, 8]}"),
			"t.yaml:3:20: platform.sites[0]: must be a mapping such as {procs: 8}, got 4 (a list under sites is the site list, not a sweep; to sweep over site lists, write a list of lists)\n" +
				"t.yaml:3:23: platform.sites[1]: must be a mapping such as {procs: 8}, got 8 (a list under sites is the site list, not a sweep; to sweep over site lists, write a list of lists)"},
		{"stop trace in a grid", withLine(2, "stop: trace"),
			`t.yaml:2:7: stop: "trace" is only for a cluster running a trace; model grid runs until stop.completed jobs complete`},

		// types
		{"string for a number", withLine(4, "workload: {mean_interarrival: fast}"),
			`t.yaml:4:31: workload.mean_interarrival: must be a number, got string "fast"`},
		{"quoted number", withLine(4, `workload: {mean_interarrival: "0.048"}`),
			`t.yaml:4:31: workload.mean_interarrival: must be a number, got string "0.048"`},
		{"fraction for an integer", grid + "replications: 2.5\n",
			"t.yaml:6:15: replications: must be an integer, got 2.5"},
		{"bool", withLine(5, "policy: {grid: realtime, local: sq, normalize_load: yes}"),
			`t.yaml:5:53: policy.normalize_load: must be true or false, got string "yes"`},
		{"null", withLine(4, "workload: {mean_interarrival: }"),
			"t.yaml:4:30: workload.mean_interarrival: must be a number, got nothing (null)"},
		{"mapping for a number", withLine(4, "workload: {mean_interarrival: {a: 1}}"),
			"t.yaml:4:31: workload.mean_interarrival: must be a number, got a mapping"},
		{"section not a mapping", withLine(4, "workload: 0.048"),
			"t.yaml:4:11: workload: must be a mapping, got 0.048"},
		{"integer out of range", withLine(2, "stop: {completed: 99999999999999999999}"),
			"t.yaml:2:19: stop.completed: out of range, got 99999999999999999999"},
		{"infinity", withLine(4, "workload: {mean_interarrival: .inf}"),
			"t.yaml:4:31: workload.mean_interarrival: must be a finite number, got .inf"},

		// ranges and values
		{"unknown enum value", withLine(5, "policy: {grid: random, local: fastest}"),
			`t.yaml:5:31: policy.local: unknown value "fastest" (known: random, sq, 2rsq)`},
		{"negative rate", withLine(4, "workload: {mean_interarrival: -1}"),
			"t.yaml:4:31: workload.mean_interarrival: must be > 0, got -1"},
		{"zero service", withLine(4, "workload: {mean_interarrival: 1, mean_service: 0}"),
			"t.yaml:4:48: workload.mean_service: must be > 0, got 0"},
		{"allocation interval zero", withLine(5, "policy: {grid: deferred, local: sq, allocation_interval: 0}"),
			"t.yaml:5:58: policy.allocation_interval: must be > 0, got 0"},
		{"random fraction above 1", withLine(5, "policy: {grid: hybrid, local: sq, allocation_interval: 1, random_fraction: 1.5}"),
			"t.yaml:5:76: policy.random_fraction: must be in [0, 1], got 1.5"},
		{"random fraction percent", withLine(5, "policy: {grid: hybrid, local: sq, allocation_interval: 1, random_fraction: 150%}"),
			"t.yaml:5:76: policy.random_fraction: must be in [0, 1], got 150%"},
		{"bad percentage", withLine(5, "policy: {grid: hybrid, local: sq, allocation_interval: 1, random_fraction: lots%}"),
			`t.yaml:5:76: policy.random_fraction: must be a fraction like 0.1 or a percentage like "10%", got string "lots%"`},
		{"replications below 1", grid + "replications: 0\n",
			"t.yaml:6:15: replications: must be >= 1, got 0"},
		{"procs below 1", withLine(3, "platform: {sites: 4, procs_per_site: 0}"),
			"t.yaml:3:38: platform.procs_per_site: must be >= 1, got 0"},
		{"negative seed", grid + "seed: -1\n",
			"t.yaml:6:7: seed: must be >= 0, got -1"},
		{"warm-up not below stop", grid + "warmup: {jobs: 100}\n",
			"t.yaml:6:16: warmup.jobs: 100 must be less than stop.completed (100)"},

		// sweeps
		{"empty sweep", withLine(4, "workload: {mean_interarrival: []}"),
			"t.yaml:4:31: workload.mean_interarrival: empty list (a sweep needs at least one value)"},
		{"duplicate sweep value", withLine(4, "workload: {mean_interarrival: [0.1, 0.2, 0.10]}"),
			"t.yaml:4:42: workload.mean_interarrival: duplicate value 0.10 in the sweep (also at 4:32)"},
		{"nested list", withLine(4, "workload: {mean_interarrival: [0.1, [0.2]]}"),
			"t.yaml:4:37: workload.mean_interarrival: a sweep value must be a single value, got a list"},
		{"model cannot be swept", strings.Replace(grid, "model: grid", "model: [grid, gang]", 1),
			"t.yaml:1:8: model: cannot be swept: give one value"},
		{"workers cannot be swept", grid + "workers: [1, 2]\n",
			"t.yaml:6:10: workers: cannot be swept: give one value"},
		{"too many points", `model: grid
stop: {completed: [1,2,3,4,5,6,7,8,9,10]}
platform: {sites: 4, procs_per_site: [1,2,3,4,5,6,7,8,9,10]}
workload: {mean_interarrival: [1,2,3,4,5,6,7,8,9,10], mean_service: [1,2,3,4,5,6,7,8,9,10]}
policy: {grid: random, local: [sq, 2rsq]}
seed: [1,2,3,4,5,6,7,8,9,10]
`, "t.yaml:2:8: the sweep has 200000 points (stop.completed 10 x platform.procs_per_site 10 x " +
			"workload.mean_interarrival 10 x workload.mean_service 10 x policy.local 2 x seed 10); at most 100000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pts, err := Parse("t.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error; %d points", len(pts))
			}
			if pts != nil {
				t.Errorf("points returned with an error")
			}
			var es Errors
			if !errors.As(err, &es) {
				t.Fatalf("error %T is not Errors", err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// Errors of the cluster and gang models, and of files with several
// problems (all reported, sorted by position).
func TestErrorsOtherModels(t *testing.T) {
	tests := []struct {
		name, src string
		want      string
	}{
		{"cluster needs a workload", "model: cluster\npolicy: {queue: easy}\n",
			"t.yaml:1:1: workload.trace: required by model cluster (or workload.mean_interarrival, for synthetic one-CPU jobs, or workload.model: lublin)"},
		{"cluster needs a queue", "model: cluster\nworkload: {trace: x.swf}\n",
			"t.yaml:1:1: policy.queue: required by model cluster"},
		{"trace and synthetic", "model: cluster\nworkload: {trace: x.swf, mean_interarrival: 1}\npolicy: {queue: easy}\n",
			"t.yaml:2:26: workload.mean_interarrival: not with workload.trace: a cluster runs a trace or a synthetic workload, not both"},
		{"synthetic cluster", "model: cluster\nworkload: {mean_interarrival: 1, clamp: true}\npolicy: {queue: fcfs}\nstop: trace\n",
			"t.yaml:1:1: platform.procs: required for a synthetic workload (there is no trace header to take it from), or platform.nodes\n" +
				"t.yaml:2:34: workload.clamp: only with workload.trace\n" +
				`t.yaml:4:7: stop: "trace" needs workload.trace; a synthetic workload runs until stop.completed jobs complete`},
		{"sjf under fcfs", "model: cluster\nworkload: {trace: x.swf}\npolicy: {queue: [fcfs, easy], order: [fcfs, sjf]}\n",
			"t.yaml:3:45: policy.order: sjf is not allowed with policy.queue fcfs (strict FCFS serves jobs in submit order or by multifactor priority; use a backfilling queue)"},
		{"hetero queue names", "model: hetero\nstop: {completed: 10}\nplatform: {sites: [{procs: 8}]}\nworkload: {mean_interarrival: 5}\npolicy: {queue: conservative}\n",
			`t.yaml:5:17: policy.queue: unknown value "conservative" (known: fcfs, easy, flexible, eg-edf, tabu, external)`},
		{"gangs too large", `model: gang
stop: {completed: 10}
platform: {sites: 2, procs_per_site: 8}
workload: {mean_interarrival: 0.1, gang_mean_interarrival: 2}
policy: {approach: [1, 2]}
`, "t.yaml:4:1: workload.gang_max: gangs of 13 tasks could never start: the largest site has 8 processors (policy.approach 1 keeps a gang on one site)"},
		{"gang sizes", `model: gang
stop: {completed: 10}
platform: {sites: 2, procs_per_site: 16}
workload: {mean_interarrival: 0.1, gang_mean_interarrival: 2, gang_sizes: pow2, gang_min: 4}
`, "t.yaml:4:81: workload.gang_min: only used with workload.gang_sizes uniform (workload.gang_sizes is pow2)"},
		{"split overhead with approach 1", `model: gang
stop: {completed: 10}
platform: {sites: 2, procs_per_site: 16}
workload: {mean_interarrival: 0.1, gang_mean_interarrival: 2, split_overhead: 20%}
`, "t.yaml:4:63: workload.split_overhead: only used with policy.approach 2 (policy.approach is 1, the default)"},
		{"several problems", `model: grid
replications: 0
stop: {completed: 32000}
platform: {sites: 4, procs: 8}
workload: {mean_interarrival: [0.048, -0.033], trace: a.swf}
policy: {grid: deferred, local: fastest}
`, "t.yaml:2:15: replications: must be >= 1, got 0\n" +
			"t.yaml:4:12: platform.procs_per_site: required with sites: N\n" +
			"t.yaml:4:22: platform.procs: not used by model grid (only by cluster)\n" +
			"t.yaml:5:39: workload.mean_interarrival: must be > 0, got -0.033\n" +
			"t.yaml:5:48: workload.trace: not used by model grid (only by cluster)\n" +
			"t.yaml:6:16: policy.allocation_interval: required with policy.grid deferred\n" +
			`t.yaml:6:33: policy.local: unknown value "fastest" (known: random, sq, 2rsq)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error")
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// Every error carries its position in the Error fields too.
func TestErrorFields(t *testing.T) {
	_, err := Parse("dir/x.yaml", []byte(withLine(5, "policy: {grid: random, local: fastest}")))
	var es Errors
	if !errors.As(err, &es) || len(es) != 1 {
		t.Fatalf("got %v", err)
	}
	want := Error{File: "dir/x.yaml", Line: 5, Column: 31, Path: "policy.local", Msg: `unknown value "fastest" (known: random, sq, 2rsq)`}
	if *es[0] != want {
		t.Errorf("got %+v, want %+v", *es[0], want)
	}
}

func TestErrorsUnwrap(t *testing.T) {
	_, err := Parse("t.yaml", []byte(withLine(5, "policy: {grid: random, local: fastest}")))
	var e *Error
	if !errors.As(err, &e) || e.Path != "policy.local" {
		t.Errorf("errors.As(*Error) = %v", e)
	}
}

// Inputs that would make the YAML parser slow are refused up front.
func TestHostileInput(t *testing.T) {
	src := "model: grid\nseed: " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n"
	_, err := Parse("t.yaml", []byte(src))
	if want := "t.yaml:2:107: nesting too deep (more than 100 levels of [ ] and { })"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	// brackets in comments do not count
	pts := mustParse(t, "# "+strings.Repeat("[", 200)+"\n"+grid)
	if len(pts) != 1 {
		t.Errorf("%d points", len(pts))
	}
}

func TestMissingModelWithOtherProblems(t *testing.T) {
	_, err := Parse("t.yaml", []byte("seed: x\npolicy: {local: fastest}\n"))
	want := "t.yaml:1:1: model: required (one of cluster, grid, gang, hetero)\n" +
		"t.yaml:1:7: seed: must be a non-negative integer, got string \"x\"\n" +
		"t.yaml:2:17: policy.local: unknown value \"fastest\" (known: random, sq, 2rsq)"
	if err == nil || err.Error() != want {
		t.Errorf("got\n%v\nwant\n%s", err, want)
	}
}

// A metrics: name the model does not report is an error at its position;
// per-site metrics take any site index.
func TestUnknownMetric(t *testing.T) {
	const grid = "model: grid\nstop: {completed: 10}\nplatform: {sites: 2, procs_per_site: 4}\nworkload: {mean_interarrival: 1}\npolicy: {grid: realtime, local: sq}\n"
	if _, err := Parse("m.yaml", []byte(grid+"metrics: [rt, site1_load, site0_utilization]\n")); err != nil {
		t.Errorf("known metrics refused: %v", err)
	}
	for _, c := range []struct{ metrics, want string }{
		{"[rt, mean_wait]", `m.yaml:6:15: metrics: model grid reports no metric "mean_wait" (its metrics: rt, max_rt, sld, utilization, site<i>_utilization, site<i>_load)`},
		{"[site_load]", `no metric "site_load"`},
		{"[site01_load]", `no metric "site01_load"`},
		{"[site1_rt]", `no metric "site1_rt"`},
	} {
		_, err := Parse("m.yaml", []byte(grid+"metrics: "+c.metrics+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("metrics %s: err %v, want %q", c.metrics, err, c.want)
		}
	}
	const hetero = "model: hetero\nstop: {completed: 10}\nworkload: {mean_interarrival: 1}\npolicy: {queue: easy}\n"
	if _, err := Parse("h.yaml", []byte(hetero+"metrics: [missed_pct, usage]\n")); err != nil {
		t.Errorf("hetero metrics refused: %v", err)
	}
	if _, err := Parse("h.yaml", []byte(hetero+"metrics: [site0_load]\n")); err == nil {
		t.Error("a site metric accepted for the hetero model")
	}
}

// Block nesting is bounded too: 32,000 nested "- " on one line (60 KB)
// took 1.6 GB and more than a second in the YAML parser; deep nesting by
// indentation the same. Both are refused before parsing, where the depth
// passes 100; a file at the bound is parsed (and refused for what it
// holds, not for its depth).
func TestBlockNesting(t *testing.T) {
	for _, tt := range []struct{ name, src, want string }{
		{"dashes on one line", "model: grid\nseed:\n" + strings.Repeat("- ", 32000) + "1\n",
			"t.yaml:3:201: nesting too deep (more than 100 levels of indented blocks and - entries)"},
		{"indentation", "model: grid\nseed:\n" + indented(101), "t.yaml:103:101: nesting too deep (more than 100 levels of indented blocks and - entries)"},
		{"dashes then indentation", "seed:\n" + strings.Repeat("- ", 99) + "\n" + strings.Repeat(" ", 198) + "- 1\n",
			"t.yaml:3:201: nesting too deep"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("t.yaml", []byte(tt.src))
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got %v, want %s", err, tt.want)
			}
		})
	}
	for name, src := range map[string]string{
		"dashes at the bound":      "model: grid\nseed:\n" + strings.Repeat("- ", 99) + "1\n",
		"indentation at the bound": "model: grid\nseed:\n" + indented(99),
	} {
		_, err := Parse("t.yaml", []byte(src))
		if err == nil || strings.Contains(err.Error(), "nesting too deep") {
			t.Errorf("%s: %v, want an error about seed", name, err)
		}
	}
}

// indented writes n mappings, each nested in the one before by one more
// space of indentation.
func indented(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(strings.Repeat(" ", i) + "k:\n")
	}
	b.WriteString(strings.Repeat(" ", n) + "1\n")
	return b.String()
}

// The lublin model's load is a target that sets the arrival factor: the
// two are not given together.
func TestLublinLoadAndArrivalFactor(t *testing.T) {
	_, err := Parse("l.yaml", []byte("model: cluster\nstop: {completed: 100}\nplatform: {procs: 64}\nworkload: {model: lublin, load: 0.5, arrival_factor: 2}\npolicy: {queue: easy}\n"))
	if err == nil || err.Error() != "l.yaml:4:38: workload.arrival_factor: not with workload.load: a target load sets the arrival factor" {
		t.Fatalf("err = %v", err)
	}
}

// platform.power: a bad model names the key; an energy metric without a
// power model is refused with what it needs.
func TestPowerErrors(t *testing.T) {
	for text, want := range map[string]string{
		"model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\nplatform: {power: \"200:95\"}\npolicy: {queue: easy}\n": "platform.power",
		"model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\npolicy: {queue: easy}\nmetrics: [energy_kwh]\n":         "metric energy_kwh needs platform.power",
		// the signals: each needs the power model; their metrics need them
		"model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\nplatform: {carbon: c.csv}\npolicy: {queue: easy}\n":                                        "p.yaml:3:12: platform.carbon: needs platform.power",
		"model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\nplatform: {price: c.csv}\npolicy: {queue: easy}\n":                                         "platform.price: needs platform.power",
		"model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\nplatform: {sleep_after: \"600\"}\npolicy: {queue: easy}\n":                                 "p.yaml:3:12: platform.sleep_after: needs platform.power with power states",
		"model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\nplatform: {power: \"1:2\", sleep_after: [none, \"600\"]}\npolicy: {queue: easy}\n":         "platform.power: \"1:2\" has no power states, which platform.sleep_after needs",
		"model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\nplatform: {power: \"1:2:0:1:1:1:1\", sleep_after: \"10:keep=x\"}\npolicy: {queue: easy}\n": "platform.sleep_after: \"10:keep=x\": keep=x: want a whole number of CPUs",
		"model: cluster\nplatform: {procs: 4, power: \"1:2:0:1:1:1:1\", sleep_after: \"10\"}\npolicy: {queue: easy}\n":                                              "platform.sleep_after: needs a trace workload",
		"model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\nplatform: {power_cap: \"600\"}\npolicy: {queue: easy}\n":                                   "p.yaml:3:12: platform.power_cap: needs platform.power",
		"model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\nplatform: {power: \"1:2\", power_cap: [none, \"5@9-3\"]}\npolicy: {queue: easy}\n":         "platform.power_cap: \"5@9-3\": item 1 \"5@9-3\": field end: the window's start 9 is not before its end 3",
		"model: cluster\nplatform: {procs: 4, power: \"1:2\", power_cap: \"10\"}\npolicy: {queue: easy}\n":                                                          "platform.power_cap: needs a trace workload",
		"model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\nplatform: {power: \"1:2\"}\npolicy: {queue: easy}\nmetrics: [carbon_kg]\n":                 "metric carbon_kg needs platform.carbon",
		"model: cluster\nworkload: {trace: KTH-SP2-1996-2.1-cln.swf.gz}\nplatform: {power: \"1:2\", carbon: c.csv}\npolicy: {queue: easy}\nmetrics: [cost]\n":       "metric cost needs platform.price",
	} {
		_, err := Parse("p.yaml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want an error with %q", text, err, want)
		}
	}
}
