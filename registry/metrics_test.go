package registry

import (
	"slices"
	"testing"
)

// The models' metric lists are derived from the declarations, in the
// order every existing output has them.
func TestModelMetricsFromDeclarations(t *testing.T) {
	want := map[string][3][]string{ // default, per site, per user
		ModelCluster: {{"mean_wait", "max_wait", "mean_response", "mean_slowdown", "mean_bounded_slowdown", "utilization", "makespan"}, nil, {"mean_wait"}},
		ModelGrid:    {{"rt", "max_rt", "sld", "utilization"}, {"utilization", "load"}, nil},
		ModelGang:    {{"rt", "sld", "wrt", "wsld", "utilization", "finished_gangs_pct", "split_gangs_pct"}, nil, nil},
		ModelHetero:  {{"missed_pct", "missed_of_deadline_pct", "usage", "slowdown", "mean_wait", "offered_load", "plan_evaluations_per_event", "queue_at_events"}, nil, nil},
	}
	for name, w := range want {
		m, err := LookupModel(name)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.Metrics, w[0]) || !slices.Equal(m.SiteMetrics, w[1]) || !slices.Equal(m.UserMetrics, w[2]) {
			t.Errorf("%s: metrics %v, site %v, user %v; want %v", name, m.Metrics, m.SiteMetrics, m.UserMetrics, w)
		}
	}
	c, _ := LookupModel(ModelCluster)
	if !slices.Contains(c.Requestable, "p95_wait") || slices.Contains(c.Metrics, "p95_wait") || !c.HasMetric("p95_wait") {
		t.Errorf("cluster: p95_wait is off by default and asked for by name: requestable %v", c.Requestable)
	}
}

// Reported names resolve to their declarations: per run, per site, per
// user; an unknown name or another model's metric does not.
func TestLookupMetric(t *testing.T) {
	for _, c := range []struct {
		model, name string
		ok          bool
		better      string
	}{
		{ModelCluster, "mean_wait", true, Lower},
		{ModelCluster, "utilization", true, Higher},
		{ModelCluster, "user7_mean_wait", true, Lower},
		{ModelCluster, "p95_wait", true, Lower},
		{ModelGrid, "site3_load", true, Lower},
		{ModelGrid, "site0_utilization", true, Higher},
		{ModelHetero, "offered_load", true, ""},
		{ModelGrid, "mean_wait", false, ""},
		{ModelCluster, "site0_load", false, ""},
		{ModelCluster, "nope", false, ""},
	} {
		d, ok := LookupMetric(c.model, c.name)
		if ok != c.ok || ok && d.Better != c.better {
			t.Errorf("LookupMetric(%s, %s) = %v %q, want %v %q", c.model, c.name, ok, d.Better, c.ok, c.better)
		}
	}
}

// checkMetrics refuses what a declaration may not say.
func TestCheckMetrics(t *testing.T) {
	ok := Metric{Name: "x", Models: []string{ModelCluster}}
	if err := checkMetrics([]Metric{ok}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Metric{
		{Name: "X", Models: []string{ModelCluster}},
		{Name: "x", Models: []string{"nomodel"}},
		{Name: "x"},
		{Name: "x", Models: []string{ModelCluster}, Better: "up"},
		{Name: "x", Models: []string{ModelCluster}, Scope: PerUser, Default: true},
	} {
		if err := checkMetrics([]Metric{bad}); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if err := checkMetrics([]Metric{ok, ok}); err == nil {
		t.Error("a metric declared twice for a model accepted")
	}
}
