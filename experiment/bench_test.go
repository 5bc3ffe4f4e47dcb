package experiment

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/rank"
)

const hpc2n = "../../shared/traces/HPC2N-2002-2.1-cln.swf.gz"

func benchTrace(b *testing.B, trace, policy string) {
	if _, err := os.Stat(trace); err != nil && strings.ContainsRune(trace, '/') {
		b.Skipf("trace %s not available", trace)
	}
	for i := 0; i < b.N; i++ {
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: policy}}).Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// HPC2N's 240 CPUs as 120 nodes of 2 cores under EASY, in process (no
// output files): the node platform's cost beside BenchmarkHPC2NEASY.
func BenchmarkHPC2NEASYNodes(b *testing.B) {
	if _, err := os.Stat(hpc2n); err != nil {
		b.Skipf("trace %s not available", hpc2n)
	}
	for i := 0; i < b.N; i++ {
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: hpc2n}, Platform: PlatformSpec{Nodes: []string{"n[001-120]:cores=2"}}, Policy: PolicySpec{Name: "easy"}}).Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// Whole simulations of real traces, in process (no output files).
func BenchmarkHPC2NFCFS(b *testing.B)         { benchTrace(b, hpc2n, "fcfs") }
func BenchmarkHPC2NEASY(b *testing.B)         { benchTrace(b, hpc2n, "easy") }
func BenchmarkHPC2NConservative(b *testing.B) { benchTrace(b, hpc2n, "conservative") }
func BenchmarkKTHEASY(b *testing.B)           { benchTrace(b, "KTH-SP2-1996-2.1-cln.swf.gz", "easy") }

// The embedded KTH trace: always available.
func BenchmarkKTHFCFS(b *testing.B) { benchTrace(b, "KTH-SP2-1996-2.1-cln.swf.gz", "fcfs") }
func BenchmarkKTHConservative(b *testing.B) {
	benchTrace(b, "KTH-SP2-1996-2.1-cln.swf.gz", "conservative")
}

// One replication of the zikos2008 grid (32,000 jobs, SQ local, hybrid GS
// at high load) and of the dimitriadou2010 gang model (120,000 jobs).
func BenchmarkGridHybridSQ(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := RunGrid(GridRun{Platform: platform.MustSites([]int{8, 8, 8, 8}), Grid: "hybrid", Options: map[string]string{"allocation_interval": "1.2", "random_fraction": "0.8"}, Local: "sq",
			MeanInterarrival: 0.033, MeanService: 1, Stop: 32000, Seed: 1, Replication: i}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(32000*b.N)/b.Elapsed().Seconds(), "jobs/s")
}

func BenchmarkGangApproach2(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if _, err := RunGang(GangRun{Platform: platform.MustSites([]int{16, 16}), Approach: 2, MeanInterarrival: 0.08, GangMeanInterarrival: 2, MeanService: 1,
			SplitOverhead: 0.1, EstimateError: 0.1, Stop: 120000, Seed: 1, Replication: i}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(120000*b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// Job Ranking Backfilling on HPC2N (one machine of 240 CPUs, memory per
// processor in the rank), to set beside BenchmarkHPC2NEASY.
func benchJRB(b *testing.B, f rank.Form) {
	if _, err := os.Stat(hpc2n); err != nil {
		b.Skipf("trace %s not available", hpc2n)
	}
	for i := 0; i < b.N; i++ {
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: hpc2n}, Policy: PolicySpec{Name: "jrb", Options: map[string]string{"rank": f.String()}}}).Run(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHPC2NJRBOriginal(b *testing.B) { benchJRB(b, rank.FormOriginal) }
func BenchmarkHPC2NJRBLinear(b *testing.B)   { benchJRB(b, rank.FormLinear) }
func BenchmarkHPC2NJRBLog(b *testing.B)      { benchJRB(b, rank.FormLog) }

// The same with the output files written (jobs.csv, summary.json), as
// `schedlab run --out` does.
func BenchmarkHPC2NEASYOut(b *testing.B) { benchTraceOut(b, hpc2n, "easy") }
func BenchmarkHPC2NFCFSOut(b *testing.B) { benchTraceOut(b, hpc2n, "fcfs") }

func benchTraceOut(b *testing.B, trace, policy string) {
	if _, err := os.Stat(trace); err != nil {
		b.Skipf("trace %s not available", trace)
	}
	dir := b.TempDir()
	for i := 0; i < b.N; i++ {
		out := filepath.Join(dir, strconv.Itoa(i))
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: trace}, Policy: PolicySpec{Name: policy}, Outputs: OutputSpec{Dir: out}}).Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// RICC-2010 (447,794 jobs) on 8,192 processors: queues of up to about
// 23,000 jobs, where most passes follow arrivals only.
const ricc = "../../shared/traces/RICC-2010-2.swf.gz"

func BenchmarkRICCEASY(b *testing.B) {
	if _, err := os.Stat(ricc); err != nil {
		b.Skipf("trace %s not available", ricc)
	}
	for i := 0; i < b.N; i++ {
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: ricc}, Platform: PlatformSpec{Procs: 8192}, Policy: PolicySpec{Name: "easy"}}).Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// Conservative backfilling on RICC: every pass after an early end
// re-places up to some 23,000 reservations in a profile of as many
// breakpoints (the profile's block form).
func BenchmarkRICCConservative(b *testing.B) {
	if _, err := os.Stat(ricc); err != nil {
		b.Skipf("trace %s not available", ricc)
	}
	for i := 0; i < b.N; i++ {
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: ricc}, Platform: PlatformSpec{Procs: 8192}, Policy: PolicySpec{Name: "conservative"}}).Run(); err != nil {
			b.Fatal(err)
		}
	}
}
