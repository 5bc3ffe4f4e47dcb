package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/registry"
)

// metricsTable is docs/scenarios.md's table of the metrics, derived from
// the declarations (registry.Metrics), one row per declaration.
func metricsTable() string {
	var b strings.Builder
	b.WriteString("| metric | models | unit | better | reported | meaning |\n|---|---|---|---|---|---|\n")
	for _, d := range registry.Metrics() {
		name := d.Name
		switch d.Scope {
		case registry.PerSite:
			name = "site<i>_" + name
		case registry.PerUser:
			name = "user<u>_" + name
		}
		better := d.Better
		if better == "" {
			better = "—"
		}
		on := "by default"
		if !d.Default {
			on = "when asked for"
		}
		b.WriteString("| `" + name + "` | " + strings.Join(d.Models, ", ") + " | " + d.Unit + " | " + better + " | " + on + " | " + d.Doc + " |\n")
	}
	return b.String()
}

// The table of metrics in docs/scenarios.md is the declarations'; after
// adding or changing a metric, paste the table this test prints.
func TestDocsMetricsTable(t *testing.T) {
	b, err := os.ReadFile("../../../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- metrics table: begin (TestDocsMetricsTable) -->\n", "<!-- metrics table: end -->"
	s := string(b)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("docs/scenarios.md has no %q ... %q", begin, end)
	}
	if got, want := s[i+len(begin):j], metricsTable(); got != want {
		t.Errorf("docs/scenarios.md's metrics table is not the declarations'; it should read:\n%s", want)
	}
}
