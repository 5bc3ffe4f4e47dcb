package registry

import "testing"

// Per-user metrics: "user<u>_<metric>" for a declared per-user metric,
// u a user id without leading zeros that fits 31 bits.
func TestUserMetrics(t *testing.T) {
	m, err := LookupModel(ModelCluster)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{
		"user1_mean_wait": true, "user0_mean_wait": true, "user2147483647_mean_wait": true,
		"user2147483648_mean_wait": false, "user01_mean_wait": false, "user_mean_wait": false,
		"user1_max_wait": false, "user1mean_wait": false, "users1_mean_wait": false, "mean_wait": true,
	} {
		if got := m.HasMetric(name); got != want {
			t.Errorf("HasMetric(%q) = %v, want %v", name, got, want)
		}
	}
	if u, metric, ok := UserMetric("user42_mean_wait"); !ok || u != 42 || metric != "mean_wait" {
		t.Errorf("UserMetric: %d %q %v", u, metric, ok)
	}
	g, _ := LookupModel(ModelGrid)
	if g.HasMetric("user1_mean_wait") {
		t.Error("the grid model declares no per-user metric")
	}
}
