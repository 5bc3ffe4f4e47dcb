//go:build !invariants

package invariants

// Enabled is false: the default build, without the tag invariants.
const Enabled = false
