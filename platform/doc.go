// Package platform describes the machines a simulation runs on: machines
// m = 0..M-1, each with a number of CPUs, a speed and optionally memory per
// CPU, and global CPU ids (machine m owns the contiguous range that starts
// after machine m-1's).
//
// A single cluster is one machine; a site of the grid models is a machine
// whose CPUs each have their own queue. A Platform is a typed value built
// from a trace header (Cluster), from site sizes (Sites), or from a
// machine list (New); it is never encoded as a string and parsed back.
//
// A job whose runtime p holds at speed BM_est takes p x BM_est / BM_m on
// machine m (Machine.Duration). Speeds default to the reference speed 1,
// under which durations are exactly the runtimes.
//
// A Platform is immutable once built and safe to share between
// simulations. Sizes are bounded (MaxCPUs) and checked before anything is
// allocated.
package platform
