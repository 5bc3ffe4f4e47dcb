//go:build invariants

package backfill

import "github.com/schedlab/schedlab/internal/invariants"

// The tag of this file is the shared switch's (internal/invariants):
// this does not compile unless invariants.Enabled is true.
func _() { _ = map[bool]int{false: 0, invariants.Enabled: 1} }

// hooks holds the engine's test switches and counters. This file is the
// build with the tag invariants (go test -tags invariants), which the
// tests that need them require; the default build has the empty hooks of
// hooks_off.go, whose methods do nothing and cost nothing, so a
// production Backfill carries none of them.
type hooks struct {
	noShortcut bool // always the full loop (and step 0 every dirty pass)
	noFitMemo  bool // always ask the profile
	noKept     bool // always ask Replace (no keptMemo)

	// The queue index's thresholds (0: the defaults ixMinLen, ixOffLen);
	// ixNever keeps it off.
	ixMinLen, ixOffLen int
	ixNever            bool

	unguarded  int64 // stale reservations step 0 found while !mayStale
	staleDrops int64 // stale reservations step 0 dropped
	skipped    int64 // entries the arrivals-only shortcut skipped
	ixSkips    int64 // entries the queue index jumped over
	memoHits   int64 // profile walks the fit memo saved
	overPasses int   // fast path: passes with overrunning jobs
	peakResv   int   // fast path: the most reservations held at once
}

func (h *hooks) shortcutOff() bool { return h.noShortcut }
func (h *hooks) fitMemoOff() bool  { return h.noFitMemo }
func (h *hooks) keptMemoOff() bool { return h.noKept }

// indexThresholds returns whether the queue index is never kept, and the
// queue lengths from which it is kept and below which it is dropped.
func (h *hooks) indexThresholds() (never bool, minLen, offLen int) {
	minLen, offLen = ixMinLen, ixOffLen
	if h.ixMinLen != 0 {
		minLen = h.ixMinLen
	}
	if h.ixOffLen != 0 {
		offLen = h.ixOffLen
	}
	return h.ixNever, minLen, offLen
}

// staleDropped counts a stale reservation step 0 dropped; guarded: an
// overrun was seen since the last step 0.
func (h *hooks) staleDropped(guarded bool) {
	if !guarded {
		h.unguarded++
	}
	h.staleDrops++
}

func (h *hooks) shortcutSkipped(n int)  { h.skipped += int64(n) }
func (h *hooks) indexSkipped(n int)     { h.ixSkips += int64(n) }
func (h *hooks) memoHit()               { h.memoHits++ }
func (h *hooks) overPass()              { h.overPasses++ }
func (h *hooks) reservationsHeld(n int) { h.peakResv = max(h.peakResv, n) }
