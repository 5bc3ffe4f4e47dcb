package validate

import (
	"strings"
	"testing"
)

// Two nodes of 4 cores; n1 in maintenance over [100, 200), n2 down over
// [50, 80).
func TestCheckNodesUnavailable(t *testing.T) {
	caps := []NodeCap{{Name: "n1", Cores: 4, ThreadsPerCore: 1}, {Name: "n2", Cores: 4, ThreadsPerCore: 1}}
	spans := []NodeSpan{{"reserved", 0, 100, 200}, {"down", 1, 50, 80}}
	on := func(id int64, node int, start, finish float64) NodeRec {
		return NodeRec{ID: id, Start: start, Finish: finish, Tasks: 1, CPUsPerTask: 1, Uses: []NodeUse{{Node: node, Tasks: 1, Cores: []int{0}}}}
	}
	good := []NodeRec{
		on(1, 0, 0, 100),   // ends exactly when n1's window begins
		on(2, 0, 200, 300), // starts exactly when it ends
		on(3, 1, 0, 50),    // killed by n2's failure at 50
		on(4, 1, 80, 230),  // n2 back at 80
		on(5, 0, 150, 150), // a job of length 0 holds nothing
	}
	if err := CheckNodesUnavailable(caps, good, spans); err != nil {
		t.Fatalf("a valid schedule refused: %v", err)
	}
	// Planted: job 6 on n1 across the window, job 7 on n2 while it is down.
	bad := append(good, on(6, 0, 0, 150), on(7, 1, 79, 90))
	err := CheckNodesUnavailable(caps, bad, spans)
	if err == nil {
		t.Fatal("violations not reported")
	}
	for _, want := range []string{
		"job 6 holds node n1 over [0, 150), inside its reserved span [100, 200)",
		"job 7 holds node n2 over [79, 90), inside its down span [50, 80)",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "job 1 ") || strings.Contains(err.Error(), "job 4 ") {
		t.Errorf("a valid job reported: %v", err)
	}
	if err := CheckNodesUnavailable(caps, nil, []NodeSpan{{"down", 2, 0, 1}}); err == nil || !strings.Contains(err.Error(), "node 2 is not on the platform") {
		t.Errorf("a span off the platform: %v", err)
	}
}
