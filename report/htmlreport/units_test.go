package htmlreport

import (
	"math"
	"testing"
)

// The display unit of a metric follows its declared unit and, for times
// in seconds, the largest magnitude: below 100 s in s, below 100 min in
// min, below 48 h in h, else in days; fractions as percentages.
func TestShowAs(t *testing.T) {
	for _, tc := range []struct {
		unit    string
		seconds bool
		mag     float64
		want    display
	}{
		{"time", true, 99, display{"s", 1}},
		{"time", true, 100, display{"min", 60}},
		{"time", true, 5999, display{"min", 60}},
		{"time", true, 6000, display{"h", 3600}},
		{"time", true, 1.28238e+06, display{"d", 86400}}, // the 1.28238e+06 s: 14.8 d
		{"time", true, math.NaN(), display{"s", 1}},
		{"time", false, 1e6, display{"time units", 1}},
		{"fraction", true, 0.63, display{"%", 0.01}},
		{"%", false, 40, display{"%", 1}},
		{"ratio", true, 3, display{"", 1}},
		{"count", true, 3, display{"", 1}},
		{"", true, 3, display{"", 1}},
		{"jobs", true, 3, display{"jobs", 1}},
	} {
		if got := showAs(tc.unit, tc.seconds, tc.mag); got != tc.want {
			t.Errorf("showAs(%q, %v, %v) = %+v, want %+v", tc.unit, tc.seconds, tc.mag, got, tc.want)
		}
	}
	// 1,282,380 s in days: 14.84 d, four digits
	if got := num4(showAs("time", true, 1282380).of(1282380)); got != "14.84" {
		t.Errorf("1282380 s shown as %s d, want 14.84", got)
	}
}

// Axis titles come from the declarations' docs (package registry's
// table): the first clause when it is a short phrase, else the name.
func TestMetricTitle(t *testing.T) {
	for _, tc := range []struct{ name, doc, want string }{
		{"mean_wait", "mean wait (start - submit) of the jobs after the warm-up", "mean wait"},
		{"mean_slowdown", "mean slowdown, response / runtime", "mean slowdown"},
		{"utilization", "busy CPU time / (CPUs x the span from the first submit to the last end)", "utilization"},
		{"makespan", "the last end minus the first submit", "makespan"}, // 35 characters: too long
		{"slowdown", "mean (wait + run) / run", "slowdown"},             // one word before the formula
		{"finished_gangs_pct", "gangs finished, % of the gangs that arrived", "gangs finished"},
		{"site0_load", "time-averaged jobs in the site (queued and in service)", "site 0 load"},
		{"user12_mean_wait", "mean wait of user u's jobs (synthetic workloads; docs/priority.md)", "user 12 mean wait"},
		{"p95_wait", "", "p95 wait"},
	} {
		if got := metricTitle(tc.name, tc.doc); got != tc.want {
			t.Errorf("metricTitle(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	// two metrics whose docs begin alike are told apart by their names
	decls := map[string]metricDecl{
		"missed_pct":             {Doc: "jobs that missed their deadline, % of all jobs"},
		"missed_of_deadline_pct": {Doc: "jobs that missed their deadline, % of the jobs with a deadline"},
		"mean_wait":              {Doc: "mean wait"},
	}
	got := metricTitles([]string{"missed_pct", "missed_of_deadline_pct", "mean_wait"}, decls)
	if want := []string{"missed pct", "missed of deadline pct", "mean wait"}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("titles %q, want %q", got, want)
	}
}

// Times are seconds unless a point's key says its workload is Poisson
// (svc=), or there are no keys.
func TestTimeInSeconds(t *testing.T) {
	for _, tc := range []struct {
		keys []string
		want bool
	}{
		{[]string{"cluster_queue=easy_order=fcfs_trace=kth-sp2-1996-2.1-cln.swf.gz-1a2b3c4d_estimate=request_procs=100_stop=trace_warmup=0_seed=1_reps=1"}, true},
		{[]string{"cluster_queue=fcfs_order=fcfs_estimate=request_overrun=kill_procs=32_wl=lublin_load=0.8_stop=300_warmup=0_seed=1_reps=2"}, true},
		{[]string{"grid_grid=random_local=sq_ia=0.2_svc=1_sites=2x4_stop=2000_warmup=0_seed=7_reps=3"}, false},
		{[]string{"cluster_queue=fcfs_order=fcfs_ia=0.17857142857142858_svc=1_procs=8_stop=200000_warmup=20000_seed=7_reps=10"}, false},
		{[]string{"cluster_queue=easy_wl=lublin", ""}, false},
		{nil, false},
	} {
		if got := timeInSeconds(tc.keys); got != tc.want {
			t.Errorf("timeInSeconds(%q) = %v", tc.keys, got)
		}
	}
}

func TestNum4(t *testing.T) {
	for v, want := range map[float64]string{
		1.3130042430785689: "1.313", 0.0013246: "0.001325", 128238.4: "128238", 1282380: "1.282e+06", 999.95: "1000",
		-1130.4: "-1130", 62.963943: "62.96", 0: "0", 1.5e7: "1.5e+07",
	} {
		if got := num4(v); got != want {
			t.Errorf("num4(%v) = %s, want %s", v, got, want)
		}
	}
	if num4(math.NaN()) != "" {
		t.Error("NaN not empty")
	}
	if m := magnitude(math.NaN(), -3, 2, math.Inf(1)); m != 3 {
		t.Errorf("magnitude %v, want 3", m)
	}
	if !math.IsNaN(magnitude(math.NaN())) {
		t.Error("magnitude of nothing is not NaN")
	}
}
