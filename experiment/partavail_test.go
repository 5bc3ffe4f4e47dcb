package experiment

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload/avail"
)

// Disjoint partitions with unavailable CPUs (docs/partitions.md,
// docs/availability.md).

// One partition holding the whole machine and every job is the machine
// itself with unavailable CPUs too: on all of KTH, under FCFS, EASY and
// conservative, with a maintenance window, a window on half the CPUs
// and CPUs 0-49 down (an events file) requeuing, and with generated
// failures of 25-CPU groups killing, jobs.csv and unavailability.csv
// are the same byte for byte with and without the partition.
func TestOnePartitionAvailIsTheMachine(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-trace runs")
	}
	dir := t.TempDir()
	ev := halfDownEvents(t, dir)
	cases := map[string]AvailSpec{
		"windows-events-requeue": {Reservations: []string{"5000000:5086400:100", "1000000:1200000:50-99"}, Events: ev, OnFailure: "requeue"},
		"generated-kill":         {Reservations: []string{"3000000:3100000:0-9 90-99"}, Failures: &avail.Failures{MTBF: 2_000_000, MTTR: 50_000, GroupSize: 25}},
	}
	for _, pol := range []string{"fcfs", "easy", "conservative"} {
		for name, a := range cases {
			var outs [2]string
			for k, parts := range [][]string{nil, {"all:100:default"}} {
				outs[k] = filepath.Join(dir, fmt.Sprint(pol, "-", name, "-", k))
				res, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz"}, Platform: PlatformSpec{Partitions: parts, Avail: a}, Policy: PolicySpec{Name: pol}, Outputs: OutputSpec{Dir: outs[k]}}).Run()
				if err != nil {
					t.Fatalf("%s %s %v: %v", pol, name, parts, err)
				}
				if a := res.Run.Availability; a.Interrupted == 0 {
					t.Errorf("%s %s: no run was cut short (a weak test)", pol, name)
				}
			}
			if rows := readRows(t, filepath.Join(outs[1], "jobs.csv")); len(rows) != 27993 {
				t.Fatalf("%s %s: %d rows", pol, name, len(rows))
			}
			for _, f := range []string{"jobs.csv", "unavailability.csv"} {
				x, err := os.ReadFile(filepath.Join(outs[0], f))
				if err != nil {
					t.Fatal(err)
				}
				y, err := os.ReadFile(filepath.Join(outs[1], f))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(x, y) {
					t.Errorf("%s %s: %s differs with one partition of the whole machine", pol, name, f)
				}
			}
		}
	}
}

// Disjoint partitions with windows and failures through the independent
// checker: on random workloads over 2 to 4 partitions of random sizes
// (some CPUs in none), with random windows on random CPU ranges and
// generated failures of random groups, killing or requeuing, every run
// under fcfs, easy, conservative and backfill passes --check (no job on
// an unavailable CPU, every job inside its partition's CPUs, killed
// jobs ending where a span begins, ...), and every job of the trace is
// in jobs.csv.
func TestPartitionsAvailCheck(t *testing.T) {
	hit := 0
	for seed := range uint64(10) {
		r := rand.New(rand.NewPCG(seed, 29))
		procs := 8 + r.IntN(41)
		nparts := 2 + r.IntN(3)
		// nparts disjoint ranges, in order, with gaps of 0 or 1 CPU
		cuts := make([]int, 0, nparts+1)
		for k := range nparts + 1 {
			cuts = append(cuts, k*procs/nparts)
		}
		var parts []string
		los, his := make([]int, nparts), make([]int, nparts)
		for k := range nparts {
			los[k], his[k] = cuts[k], cuts[k+1]-1
			if his[k]-los[k] >= 2 && r.IntN(2) == 0 {
				his[k]-- // a CPU in no partition
			}
			parts = append(parts, fmt.Sprintf("%d:%d-%d", k+1, los[k], his[k]))
		}
		const n = 200
		tr, _ := randomPartitioned(t, r, procs, n, 30, 20, los, his)
		// windows one after another in time, each on a random range
		var resv []string
		at := 0.0
		for range 2 + r.IntN(6) {
			at += float64(50 + r.IntN(400))
			end := at + float64(20+r.IntN(200))
			lo := r.IntN(procs)
			hi := lo + r.IntN(procs-lo)
			resv = append(resv, fmt.Sprintf("%g:%g:%d-%d", at, end, lo, hi))
			at = end
		}
		onFail := []string{"kill", "requeue"}[seed%2]
		a := AvailSpec{Reservations: resv, OnFailure: onFail,
			Failures: &avail.Failures{MTBF: float64(1000 + r.IntN(3000)), MTTR: float64(20 + r.IntN(100)), GroupSize: 1 + r.IntN(procs)}}
		for _, pol := range []string{"fcfs", "easy", "conservative", "backfill"} {
			out := filepath.Join(t.TempDir(), pol)
			res, err := (RunSpec{Workload: WorkloadSpec{Trace: tr, Seed: seed}, Platform: PlatformSpec{Partitions: parts, Avail: a}, Policy: PolicySpec{Name: pol}, Outputs: OutputSpec{Dir: out, Check: true}}).Run()
			if err != nil {
				t.Fatalf("seed %d %s %v %v: %v", seed, pol, parts, resv, err)
			}
			if res.Engine.Jobs != n {
				t.Fatalf("seed %d %s: %d jobs simulated, want %d", seed, pol, res.Engine.Jobs, n)
			}
			if res.Run.Availability.Interrupted > 0 {
				hit++
			}
			rows := readRows(t, filepath.Join(out, "jobs.csv"))
			col := colIndex(rows[0])
			if len(rows)-1 != n {
				t.Fatalf("seed %d %s: %d rows in jobs.csv, want %d", seed, pol, len(rows)-1, n)
			}
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
				}
			}
		}
	}
	if hit < 20 {
		t.Errorf("failures cut runs short in only %d of 40 runs (a weak test)", hit)
	}
}

// A policy that does not plan around unavailable CPUs is refused with
// partitions as without them (an *AvailError), and overlapping
// partitions with unavailable CPUs are a *PartitionError.
func TestPartitionsAvailRefused(t *testing.T) {
	tr := fiveJobsParts(t)
	_, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: []string{"batch:0-2", "debug:3-4"}, Avail: AvailSpec{Reservations: []string{"0:10:1"}}}, Policy: PolicySpec{Name: "firstfit"}}).Run()
	var ae *AvailError
	if !errors.As(err, &ae) || !strings.Contains(err.Error(), "policy firstfit does not plan around unavailable CPUs") {
		t.Errorf("firstfit: %v", err)
	}
	_, err = (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: []string{"batch:0-2", "debug:2-4"}, Avail: AvailSpec{Failures: &avail.Failures{MTBF: 100, MTTR: 10}}}, Policy: PolicySpec{Name: "easy"}}).Run()
	var pe *PartitionError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "overlapping partitions do not go with unavailable CPUs") {
		t.Errorf("overlapping: %v", err)
	}
}
