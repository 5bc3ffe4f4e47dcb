package scenario

import (
	"strings"
	"testing"
)

// platform.nodes reaches the point as written, and the key names it.
func TestNodesScenario(t *testing.T) {
	pts, err := Parse("p.yaml", []byte(traceScenario(`platform: {nodes: ["cpu[1-4]:cores=8:mem=64G", "gpu[01-02]:cores=16:gres=gpu:a100=4"]}`)))
	if err != nil {
		t.Fatal(err)
	}
	sc := pts[0].Scenario
	if got := strings.Join(sc.Platform.Nodes, "|"); got != "cpu[1-4]:cores=8:mem=64G|gpu[01-02]:cores=16:gres=gpu:a100=4" {
		t.Errorf("nodes %q", got)
	}
	if k := sc.Key(); !strings.Contains(k, "_nodes=2-") {
		t.Errorf("key %s, want the node groups in it (nodes=2-HASH)", k)
	}
	one, err := Parse("p.yaml", []byte(traceScenario(`platform: {nodes: "n[1-4]:cores=4"}`)))
	if err != nil {
		t.Fatal(err)
	}
	if got := one[0].Scenario.Platform.Nodes; len(got) != 1 || got[0] != "n[1-4]:cores=4" {
		t.Errorf("one group: %q", got)
	}
}

// A bad node group is an error at its line naming the column; nodes do
// not go with procs or a synthetic workload, nor with partitions of
// CPUs.
func TestNodesScenarioErrors(t *testing.T) {
	for _, c := range []struct{ file, want string }{
		{traceScenario("platform:\n  nodes:\n    - \"n[1-4]:cores=4:mem=4GB\""), `p.yaml:6:7: platform.nodes: "n[1-4]:cores=4:mem=4GB": column 21 (mem): unit "GB"`},
		{traceScenario(`platform: {nodes: ["n[1-2]:cores=4", "n2:cores=2"]}`), "node n2"},
		{traceScenario(`platform: {procs: 8, nodes: "n[1-2]:cores=4"}`), "does not go with platform.procs"},
		{traceScenario(`platform: {nodes: "n[1-2]:cores=4", partitions: "a:4"}`), `platform.partitions: "a:4": on a platform of nodes a partition is a set of nodes`},
		{traceScenario(`platform: {nodes: 12}`), "column"},
	} {
		_, err := Parse("p.yaml", []byte(c.file))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\ngot %v\nwant %q", c.file, err, c.want)
		}
	}
}

// platform.reservations on nodes: windows naming nodes reach the point
// as written; a node not on the platform, windows overlapping on a
// node, a window naming nodes without platform.nodes, and a CPU form on
// nodes are errors at the window's text.
func TestNodesScenarioReservations(t *testing.T) {
	pts, err := Parse("p.yaml", []byte(traceScenario(`platform: {nodes: "n[1-4]:cores=4", reservations: ["0:10:n[1-2]", "5:20:n3", "20:30:ALL"], failures: {mtbf: 100, mttr: 10, group: 2}}`)))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(pts[0].Scenario.Platform.Reservations, "|"); got != "0:10:n[1-2]|5:20:n3|20:30:ALL" {
		t.Errorf("reservations %q", got)
	}
	// with partitions of nodes, overlapping ones too
	if _, err := Parse("p.yaml", []byte(traceScenario(`platform: {nodes: "n[1-4]:cores=4", partitions: ["a:nodes=n[1-2]", "b:nodes=n[1-4]"], reservations: ["0:10:n1"]}`))); err != nil {
		t.Errorf("partitions with a reservation: %v", err)
	}
	for _, c := range []struct{ file, want string }{
		{traceScenario(`platform: {nodes: "n[1-4]:cores=4", reservations: ["0:10:n[4-5]"]}`), `platform.reservations: "0:10:n[4-5]": NODES: node "n5" is not on the platform`},
		{traceScenario(`platform: {nodes: "n[1-4]:cores=4", reservations: ["0:10:n[1-2]", "5:20:n2"]}`), `platform.reservations: "5:20:n2" overlaps "0:10:n[1-2]"`},
		{traceScenario(`platform: {reservations: ["0:10:n[1-2]"]}`), `"0:10:n[1-2]" names nodes: a window on nodes needs platform.nodes`},
		{traceScenario(`platform: {nodes: "n[1-4]:cores=4", reservations: ["0:10:4"]}`), `on a platform of nodes a reservation names nodes`},
	} {
		_, err := Parse("p.yaml", []byte(c.file))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\ngot %v\nwant %q", c.file, err, c.want)
		}
	}
}
