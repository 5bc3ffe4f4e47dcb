//go:build !invariants

package invariants

import "testing"

// Without the tag, the switch is off.
func TestEnabledWithoutTag(t *testing.T) {
	if Enabled {
		t.Fatal("Enabled is true in a build without the tag invariants")
	}
}
