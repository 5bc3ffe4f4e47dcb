package lint

import "testing"

// policy/option, which every policy, the registry, the scenario schema
// and the command line read, imports nothing of the module.
func TestOptionIsALeaf(t *testing.T) {
	all := deps(t)
	ds, ok := all["policy/option"]
	if !ok {
		t.Fatal("go list does not list policy/option")
	}
	for _, d := range ds {
		t.Errorf("policy/option depends on %s", d)
	}
}
