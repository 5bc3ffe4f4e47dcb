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

// tier=N: partitions of nodes only, 0..65535, written by Canonical.
func TestParseTier(t *testing.T) {
	s, err := Parse("gpu:nodes=g[1-2]:tier=3:default", 0)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Tiered || s.Tier != 3 || s.Canonical() != "gpu:nodes=g[1-2]:tier=3:default" {
		t.Errorf("%+v: %s", s, s.Canonical())
	}
	if s, err := Parse("a:nodes=n1:tier=0", 0); err != nil || !s.Tiered || s.Tier != 0 || s.Canonical() != "a:nodes=n1:tier=0" {
		t.Errorf("tier 0: %+v, %v", s, err)
	}
	if s, _ := Parse("a:nodes=n1", 0); s.Tiered || s.Canonical() != "a:nodes=n1" {
		t.Errorf("no tier: %+v", s)
	}
	for text, want := range map[string]string{
		"a:0-3:tier=1":          "tier: for partitions of nodes only",
		"a:nodes=n1:tier=-1":    `tier "-1": want 0..65535`,
		"a:nodes=n1:tier=65536": `tier "65536": want 0..65535`,
		"a:nodes=n1:tier=x":     `tier "x"`,
	} {
		if _, err := Parse(text, 8); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", text, err, want)
		}
	}
}
