//go:build !invariants

package backfill

import (
	"testing"
	"unsafe"
)

// The default build carries no test hooks: the field is zero-size.
func TestHooksCostNothing(t *testing.T) {
	if n := unsafe.Sizeof(hooks{}); n != 0 {
		t.Fatalf("hooks is %d bytes in the default build, want 0", n)
	}
}

// plainReference leaves the reference of TestEveryPlannerIsTheProfilePlanner
// as built: the default build has no switches (hooks_test.go: with the
// tag invariants, the fast paths inside the profile planner are off).
func plainReference(*Backfill) string { return "the profile planner" }
