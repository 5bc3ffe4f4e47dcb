package scenario

import (
	"strings"
	"testing"
)

// platform.partitions of nodes beside platform.nodes reach the point as
// written, and the key has them in canonical form (the nodes as one
// sorted hostlist: "gpu1,gpu2" and "gpu[1-2]" are one partition).
func TestNodePartitionsScenario(t *testing.T) {
	key := func(parts string) string {
		t.Helper()
		pts, err := Parse("p.yaml", []byte(traceScenario(`platform: {nodes: ["cpu[1-2]:cores=4", "gpu[1-2]:cores=4:gres=gpu=2"], partitions: `+parts+`}`)))
		if err != nil {
			t.Fatal(err)
		}
		return pts[0].Scenario.Key()
	}
	a, b := key(`["cpu:nodes=cpu[1-2]", "gpu:nodes=gpu[1-2]:maxtime=60"]`), key(`["cpu:nodes=cpu2,cpu1", "gpu:nodes=gpu1,gpu2:maxtime=60"]`)
	if a != b || !strings.Contains(a, "parts=2-") {
		t.Errorf("keys %s and %s: want one key with parts=2-HASH", a, b)
	}
	if c := key(`["cpu:nodes=cpu[1-2]", "gpu:nodes=gpu[1-2]"]`); c == a {
		t.Errorf("maxtime left out of the key %s", c)
	}
}

// Each mistake of a partition on nodes is said at its line and column,
// naming the key and the text.
func TestNodePartitionsScenarioErrors(t *testing.T) {
	plat := func(parts string) string {
		return traceScenario("platform:\n  nodes: [\"cpu[1-2]:cores=4\", \"gpu[1-2]:cores=4\"]\n  partitions:\n    - " + parts)
	}
	for _, c := range []struct{ file, want string }{
		{plat(`"cpu:nodes=cpu[1-3]"`), `p.yaml:7:7: platform.partitions: "cpu:nodes=cpu[1-3]": node cpu3 is not on the platform (platform.nodes)`},
		{plat(`"cpu:nodes="`), `p.yaml:7:7: platform.partitions: "cpu:nodes=": nodes: an empty set of nodes`},
		{plat(`"cpu:nodes=cpu[1-2"`), `p.yaml:7:7: platform.partitions: "cpu:nodes=cpu[1-2": nodes: "cpu[1-2":`},
		{plat(`"cpu:0-3"`), `p.yaml:7:7: platform.partitions: "cpu:0-3": on a platform of nodes a partition is a set of nodes`},
		{plat("\"a:nodes=cpu[1-2]\"\n    - \"a:nodes=gpu[1-2]\""), `p.yaml:8:7: platform.partitions: partition a is given twice`},
		{traceScenario(`platform: {partitions: "a:nodes=n[1-2]"}`), `platform.partitions: "a:nodes=n[1-2]": a partition of nodes (nodes=HOSTLIST) needs a platform of nodes (platform.nodes)`},
	} {
		_, err := Parse("p.yaml", []byte(c.file))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\ngot %v\nwant %q", c.file, err, c.want)
		}
	}
}
