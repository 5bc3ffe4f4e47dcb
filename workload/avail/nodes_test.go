package avail

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
)

// twoByFour is the platform n1, n2 of 4 cores each, then n[001-004] of
// 2 cores: node ids n1 0, n2 1, n001 2, ..., n004 5.
func twoByFour(t *testing.T) *nodes.Nodes {
	t.Helper()
	return nodestest.Must(t, "n[1-2]:cores=4", "n[001-004]:cores=2")
}

func TestParseNodeReservation(t *testing.T) {
	ns := twoByFour(t)
	for _, c := range []struct {
		in         string
		start, end float64
		want       platform.Runs
	}{
		{"100:200:n1", 100, 200, platform.Runs{0, 0}},
		{"100:200:n2", 100, 200, platform.Runs{1, 1}},
		{"0:1.5:n[001-004]", 0, 1.5, platform.Runs{2, 5}},
		{"10:20:n[002,004],n1", 10, 20, platform.Runs{0, 0, 3, 3, 5, 5}},
		{"10:20:n[1-2],n001", 10, 20, platform.Runs{0, 2}}, // runs merged
		{"10:20:n1,n1", 10, 20, platform.Runs{0, 0}},       // a name twice counts once
		{"10:20:ALL", 10, 20, platform.Runs{0, 5}},         // every node
		{" 10 : 20 : n2 ", 10, 20, platform.Runs{1, 1}},    // spaces around the fields
	} {
		w, err := ParseNodeReservationAt(c.in, ns, nil)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if w.Start != c.start || w.End != c.end || w.Nodes.String() != c.want.String() {
			t.Errorf("%q: [%g, %g) nodes %v, want [%g, %g) %v", c.in, w.Start, w.End, w.Nodes, c.start, c.end, c.want)
		}
	}
	// Dates, placed by instant as on a trace run.
	inst := func(s string) (float64, error) {
		return map[string]float64{"1996-10-01": 0, "1996-10-02": 86400}[strings.TrimSpace(s)], nil
	}
	if w, err := ParseNodeReservationAt("1996-10-01:1996-10-02:n1", ns, inst); err != nil || w.Start != 0 || w.End != 86400 {
		t.Errorf("dates: %+v %v", w, err)
	}
}

func TestParseNodeReservationErrors(t *testing.T) {
	ns := twoByFour(t)
	for _, c := range []struct{ in, want string }{
		{"100:200:n3", `"100:200:n3": NODES: node "n3" is not on the platform`},
		{"200:100:n1", `"200:100:n1": END 100 is not after START 200`},
		{"100:100:n1", `END 100 is not after START 100`},
		{"100:200:", `NODES: no node names`},
		{"100:200:4", `NODES: "4" is a CPU count or CPU ids; on a platform of nodes a reservation names nodes`},
		{"100:200:0-3", `"0-3" is a CPU count or CPU ids`},
		{"100:200:n[1-", `NODES: hostlist "n[1-"`},
		{"n1", `want START:END:NODES`},
		{"x:200:n1", `START: "x" is not a finite number of seconds`},
		{"1996-10-01:200:n1", `START "1996-10-01": a date needs the trace's start`},
		{"all:100:n1", `START`},
		{"0:100:all", `node "all" is not on the platform`}, // ALL is upper case, as Slurm's
	} {
		_, err := ParseNodeReservationAt(c.in, ns, nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want it to contain %q", c.in, err, c.want)
		}
	}
}

func TestCheckNodeWindows(t *testing.T) {
	ns := twoByFour(t)
	w := func(s string) NodeWindow {
		x, err := ParseNodeReservationAt(s, ns, nil)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	// n1 over [100, 200) and n1 over [200, 300): they touch, not overlap.
	if err := CheckNodeWindows([]NodeWindow{w("100:200:n1"), w("200:300:n1"), w("150:250:n2")}, ns, "--reservation"); err != nil {
		t.Error(err)
	}
	err := CheckNodeWindows([]NodeWindow{w("100:200:n[1-2]"), w("0:50:ALL"), w("199:300:n[002,2]")}, ns, "--reservation")
	if want := "--reservation 1 [100, 200) and --reservation 3 [199, 300) overlap on node n2"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestNodeEvents(t *testing.T) {
	ns := twoByFour(t)
	in := `{"timestamp": 50, "type": "machine_unavailable", "resources": "n2"}

{"timestamp": 80, "type": "machine_available", "resources": "n[2,001]"}
{"timestamp": 90, "type": "machine_unavailable", "resources": "ALL"}
`
	e := NewNodeEvents(strings.NewReader(in), "f.jsonl", ns)
	want := []Change{{50, platform.Runs{1, 1}, true}, {80, platform.Runs{1, 2}, false}, {90, platform.Runs{0, 5}, true}}
	for i, w := range want {
		ch, err := e.Next()
		if err != nil || ch.Time != w.Time || ch.Down != w.Down || ch.CPUs.String() != w.CPUs.String() {
			t.Errorf("change %d: %+v %v, want %+v", i, ch, err, w)
		}
	}
	if _, err := e.Next(); err == nil || err.Error() != "EOF" {
		t.Errorf("after the last: %v, want EOF", err)
	}
	bad := NewNodeEvents(strings.NewReader(`{"timestamp": 1, "type": "machine_unavailable", "resources": "n9"}`), "f.jsonl", ns)
	if _, err := bad.Next(); err == nil || !strings.HasPrefix(err.Error(), `f.jsonl:1: field resources: node "n9" is not on the platform`) {
		t.Errorf("unknown node: %v", err)
	}
	cpus := NewNodeEvents(strings.NewReader(`{"timestamp": 1, "type": "machine_unavailable", "resources": "0-3"}`), "f.jsonl", ns)
	if _, err := cpus.Next(); err == nil || !strings.HasPrefix(err.Error(), `f.jsonl:1: field resources: node "0-3" is not on the platform`) {
		t.Errorf("CPU ids on nodes: %v", err)
	}
}
