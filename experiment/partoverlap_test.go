package experiment

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedlab/schedlab/validate"
)

// Overlapping partitions through the independent checker: on random
// workloads over 2 to 4 partitions of random CPU ranges that overlap
// (one may hold another, as a debug partition inside batch), every run
// under fcfs, firstfit, easy and conservative passes --check (no CPU
// used twice, every job inside its partition's CPUs, starts after
// submission, ...), every job of the trace is simulated, and every
// partition gets jobs on CPUs it shares (re-read from jobs.csv).
func TestOverlappingPartitionsCheck(t *testing.T) {
	overlapping := 0
	for seed := range uint64(12) {
		r := rand.New(rand.NewPCG(seed, 11))
		procs := 8 + r.IntN(41)
		nparts := 2 + r.IntN(3)
		var parts []string
		los, his := make([]int, nparts), make([]int, nparts)
		for k := range nparts {
			// at least a third of the machine each, so that they overlap
			size := procs/3 + r.IntN(procs-procs/3+1)
			los[k] = r.IntN(procs - size + 1)
			his[k] = los[k] + size - 1
			parts = append(parts, fmt.Sprintf("%d:%d-%d", k+1, los[k], his[k]))
		}
		holders := make([]int, procs)
		for k := range nparts {
			for c := los[k]; c <= his[k]; c++ {
				holders[c]++
			}
		}
		sharedCPUs := 0
		for _, h := range holders {
			if h > 1 {
				sharedCPUs++
			}
		}
		if sharedCPUs > 0 {
			overlapping++
		}
		const n = 250
		tr, _ := randomPartitioned(t, r, procs, n, 30, 20, los, his) // some killed at their request
		for _, pol := range []string{"fcfs", "firstfit", "easy", "conservative"} {
			out := filepath.Join(t.TempDir(), pol)
			res, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: parts}, Policy: PolicySpec{Name: pol}, Outputs: OutputSpec{Dir: out, Check: true}}).Run()
			if err != nil {
				t.Fatalf("seed %d %s %v: %v", seed, pol, parts, err)
			}
			if res.Engine.Jobs != n {
				t.Fatalf("seed %d %s: %d jobs simulated, want %d", seed, pol, res.Engine.Jobs, n)
			}
			rows := readRows(t, filepath.Join(out, "jobs.csv"))
			col := colIndex(rows[0])
			onShared := 0
			for _, row := range rows[1:] {
				var k int
				fmt.Sscan(row[col["partition"]], &k)
				ivs, err := validate.ParseResources(row[col["allocated_resources"]])
				if err != nil {
					t.Fatal(err)
				}
				for _, iv := range ivs {
					if iv.Lo < los[k-1] || iv.Hi > his[k-1] {
						t.Fatalf("seed %d %s: job %s of partition %d (%v) on CPUs %s", seed, pol, row[0], k, parts[k-1], row[col["allocated_resources"]])
					}
					for c := iv.Lo; c <= iv.Hi; c++ {
						if holders[c] > 1 {
							onShared++
							break
						}
					}
				}
			}
			if sharedCPUs > 0 && onShared == 0 {
				t.Errorf("seed %d %s %v: no job ran on a shared CPU (a weak test)", seed, pol, parts)
			}
		}
	}
	if overlapping < 8 {
		t.Errorf("only %d of 12 workloads have overlapping partitions (a weak test)", overlapping)
	}
}

// On KTH (100 CPUs) split by user, even on CPUs 0-79 and odd on 40-99
// (sharing 40-79; odd jobs above 60 CPUs are refused): under FCFS,
// EASY and conservative the checker passes with every job held to its
// partition's CPUs, and both partitions run jobs on the shared CPUs.
// And the degenerate case at the scale of a trace: KTH's jobs (of no
// partition) all in a default partition of the whole machine, beside
// an empty partition of the same CPUs, give the jobs.csv of the run
// without partitions, byte for byte.
func TestKTHOverlappingPartitions(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-trace runs")
	}
	dir := t.TempDir()
	tr := writeSplitKTH(t, filepath.Join(dir, "kth-split.swf"), nil)
	for _, pol := range []string{"fcfs", "easy", "conservative"} {
		out := filepath.Join(dir, pol)
		res, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: []string{"even:0-79", "odd:40-99"}}, Policy: PolicySpec{Name: pol}, Outputs: OutputSpec{Dir: out, Check: true}}).Run()
		if err != nil {
			t.Fatalf("%s: %v", pol, err)
		}
		if pt := res.Run.Partitions; pt.Rejected != pt.RejectedMaxCPUs || pt.List[0].Jobs+pt.List[1].Jobs+pt.Rejected != 27992 {
			t.Errorf("%s: partitions %+v", pol, pt)
		}
		rows := readRows(t, filepath.Join(out, "jobs.csv"))
		col := colIndex(rows[0])
		onShared := map[string]int{}
		for _, r := range rows[1:] {
			ivs, err := validate.ParseResources(r[col["allocated_resources"]])
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := 0, 79
			if r[col["partition"]] == "2" {
				lo, hi = 40, 99
			}
			for _, iv := range ivs {
				if iv.Lo < lo || iv.Hi > hi {
					t.Fatalf("%s: job %s of partition %s on CPUs %s", pol, r[0], r[col["partition"]], r[col["allocated_resources"]])
				}
				if iv.Hi >= 40 && iv.Lo <= 79 {
					onShared[r[col["partition"]]]++
				}
			}
		}
		if onShared["1"] == 0 || onShared["2"] == 0 {
			t.Errorf("%s: jobs on the shared CPUs by partition: %v", pol, onShared)
		}
	}
	const kth = "KTH-SP2-1996-2.1-cln.swf.gz"
	for _, pol := range []string{"easy", "conservative"} {
		plain, parted := filepath.Join(dir, pol+"-plain"), filepath.Join(dir, pol+"-parted")
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: pol}, Outputs: OutputSpec{Dir: plain}}).Run(); err != nil {
			t.Fatal(err)
		}
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: kth}, Platform: PlatformSpec{Partitions: []string{"7:0-99", "all:0-99:default"}}, Policy: PolicySpec{Name: pol}, Outputs: OutputSpec{Dir: parted, Check: true}}).Run(); err != nil {
			t.Fatal(err)
		}
		a, err := os.ReadFile(filepath.Join(plain, "jobs.csv"))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(parted, "jobs.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: jobs.csv with two partitions of the whole machine differs from the plain run's", pol)
		}
	}
}
