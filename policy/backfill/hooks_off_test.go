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
