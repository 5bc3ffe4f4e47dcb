//go:build !linux

package atomicfile

import "os"

// startWriteback does nothing where no such request exists.
var startWriteback = func(f *os.File, off, n int64) error { return nil }
