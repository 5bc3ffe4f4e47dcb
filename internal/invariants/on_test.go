//go:build invariants

package invariants

import "testing"

// With the tag, the switch is on (./test runs this package with -tags
// invariants).
func TestEnabledWithTag(t *testing.T) {
	if !Enabled {
		t.Fatal("Enabled is false in a build with the tag invariants")
	}
}
