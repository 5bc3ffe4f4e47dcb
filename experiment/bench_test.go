package experiment

import (
	"os"
	"testing"
)

const hpc2n = "../../shared/traces/HPC2N-2002-2.1-cln.swf.gz"

func benchTrace(b *testing.B, trace, policy string) {
	if _, err := os.Stat(trace); err != nil {
		b.Skipf("trace %s not available", trace)
	}
	for i := 0; i < b.N; i++ {
		if _, err := RunTrace(TraceRun{Trace: trace, Policy: policy, Order: "fcfs", Estimate: "request"}); err != nil {
			b.Fatal(err)
		}
	}
}

// Whole simulations of real traces, in process (no output files).
func BenchmarkHPC2NFCFS(b *testing.B)         { benchTrace(b, hpc2n, "fcfs") }
func BenchmarkHPC2NEASY(b *testing.B)         { benchTrace(b, hpc2n, "easy") }
func BenchmarkHPC2NConservative(b *testing.B) { benchTrace(b, hpc2n, "conservative") }
func BenchmarkKTHEASY(b *testing.B)           { benchTrace(b, "KTH-SP2-1996-2.1-cln.swf.gz", "easy") }
