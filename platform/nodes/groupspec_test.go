package nodes

import (
	"slices"
	"testing"
)

// Spec is read back by ParseGroup as the same group (names in canonical
// order), and writes what the syntax's defaults leave out only when set.
func TestGroupSpecRoundTrip(t *testing.T) {
	for _, c := range []struct{ in, spec string }{
		{"gpu[01-32]:cores=32:sockets=2:threads=2:mem=512G:gres=gpu:a100=4,nvme=1:features=a100,ib:weight=10",
			"gpu[01-32]:cores=32:sockets=2:threads=2:mem=524288:gres=gpu:a100=4,nvme=1:features=a100,ib:weight=10"},
		{"n[1-4]:cores=8", "n[1-4]:cores=8"},
		{"b2,a1,a3:cores=1:weight=0", "a[1,3],b2:cores=1:weight=0"},
	} {
		g, err := ParseGroup(c.in)
		if err != nil {
			t.Fatal(err)
		}
		s, ok := g.Spec()
		if !ok || s != c.spec {
			t.Errorf("%s: Spec %q, want %q", c.in, s, c.spec)
		}
		h, err := ParseGroup(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		sorted, _ := Sort(g.Names)
		if !slices.Equal(h.Names, sorted) || h.Cores() != g.Cores() || h.ThreadsPerCore != g.ThreadsPerCore || h.MemMB != g.MemMB ||
			!slices.Equal(h.GRES, g.GRES) || !slices.Equal(h.Features, g.Features) || h.Weight != g.Weight {
			t.Errorf("%s: read back as %+v, want %+v", s, h, g)
		}
	}
	if _, ok := (NodeGroup{}).Spec(); ok {
		t.Error("an empty group has a spec")
	}
}
