//go:build !unix

package cli

import "io"

// hasSize reports whether the terminal w reports a width: assumed where
// the size cannot be asked.
func hasSize(io.Writer) bool { return true }
