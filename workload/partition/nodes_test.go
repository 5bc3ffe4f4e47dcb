package partition

import (
	"slices"
	"strings"
	"testing"
)

func TestParseNodes(t *testing.T) {
	s, err := Parse("gpu:nodes=g[2,1],g03:maxtime=60:default", 0)
	if err != nil {
		t.Fatal(err)
	}
	// g2, g1, g03 sorted as Compress orders them: g1, g2 unpadded, then
	// the class of width 2.
	if want := []string{"g1", "g2", "g03"}; !slices.Equal(s.Nodes, want) || s.CPUs != nil {
		t.Errorf("nodes %q cpus %v, want %q and no CPUs", s.Nodes, s.CPUs, want)
	}
	if got, want := s.Canonical(), "gpu:nodes=g[1-2,03]:maxtime=60:default"; got != want {
		t.Errorf("canonical %q, want %q", got, want)
	}
	for text, want := range map[string]string{
		"a:nodes=":            "nodes: an empty set of nodes",
		"a:nodes=n[1-":        `nodes: "n[1-":`,
		"a:nodes=n[1-2],n2":   `nodes: "n[1-2],n2": node n2 is given twice`,
		"a:nodes=n1:maxcpus=": `maxcpus "": want a positive integer`,
		"a:nodes=n 1":         `nodes: "n 1"`,
	} {
		if _, err := Parse(text, 8); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", text, err, want)
		}
	}
}
