//go:build !invariants

package backfill

import "github.com/schedlab/schedlab/internal/invariants"

// The tag of this file is the shared switch's (internal/invariants):
// this does not compile unless invariants.Enabled is false.
func _() { _ = map[bool]int{true: 0, invariants.Enabled: 1} }

// hooks is empty in the default build: the test switches are off and the
// counters count nothing; every method is a no-op the compiler inlines
// away. The build with the tag invariants (hooks_on.go) has the real ones.
type hooks struct{}

func (*hooks) shortcutOff() bool { return false }
func (*hooks) fitMemoOff() bool  { return false }
func (*hooks) keptMemoOff() bool { return false }

func (*hooks) indexThresholds() (never bool, minLen, offLen int) {
	return false, ixMinLen, ixOffLen
}

func (*hooks) staleDropped(guarded bool) {}
func (*hooks) shortcutSkipped(n int)     {}
func (*hooks) indexSkipped(n int)        {}
func (*hooks) memoHit()                  {}
func (*hooks) overPass()                 {}
func (*hooks) reservationsHeld(n int)    {}
