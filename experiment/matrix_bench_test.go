package experiment

import "testing"

// Matrix scanning splits HPC2N's 202,876 jobs into their threads (the
// issue's target: the whole run within 3x of EASY); first-fit scans the
// whole queue at every pass.
func BenchmarkHPC2NMatrix(b *testing.B)   { benchTrace(b, hpc2n, "matrix") }
func BenchmarkHPC2NFirstFit(b *testing.B) { benchTrace(b, hpc2n, "firstfit") }
