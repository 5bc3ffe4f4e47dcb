//go:build invariants

package invariants

// Enabled is true: this build has the tag invariants.
const Enabled = true
