package addrspace

import "runtime/debug"

// debugLimit reads the Go memory limit without changing it.
func debugLimit() int64 { return debug.SetMemoryLimit(-1) }
