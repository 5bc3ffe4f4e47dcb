// Package addrspace reads the process's address-space limit (ulimit -v,
// RLIMIT_AS) and what the process already holds of it, so that schedlab
// can fit its work under the limit: the command sets the Go runtime's
// soft memory limit from it (SetMemoryLimit) and sweeps run fewer
// replications at once under a tight limit (Workers). Without an
// address-space limit, the usual case, neither changes anything.
//
// The Go runtime reserves about 1.2 GB of address space when it starts
// (almost none of it ever used): under ulimit -v 1500000 only about 210
// MB are left for the heap, and the heap itself is reserved in steps of
// 64 MB.
package addrspace
