package experiment

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/testref"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

// writeSplitKTH writes KTH with its jobs split into two partitions by
// user: trace partition 1 ("even") for even user numbers, 2 ("odd") for
// odd ones, named in the header; keep, when set, chooses the records
// written. It returns the path.
func writeSplitKTH(t *testing.T, path string, keep func(part int) bool) string {
	t.Helper()
	rd, err := workload.OpenTrace("KTH-SP2-1996-2.1-cln.swf.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := swf.NewWriter(f)
	h := rd.Header()
	h.Lines = append(append([]string(nil), h.Lines...), " Partition: 1 even", " Partition: 2 odd")
	if err := w.WriteHeader(h); err != nil {
		t.Fatal(err)
	}
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		rec.Partition = 1 + rec.User&1
		if keep == nil || keep(rec.Partition) {
			if err := w.Write(rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return path
}

// On KTH (100 CPUs) split by user into two partitions named in the
// header, even on CPUs 0-59 and odd on 60-99 (so odd jobs above 40 CPUs
// are refused): under FCFS, EASY and conservative the checker passes
// with every job held to its partition's CPUs; re-read from jobs.csv,
// every job of partition 1 ran on 0-59 and every job of 2 on 60-99;
// every record is a job simulated or refused; and the even partition's
// jobs start exactly when they start on a machine of 60 CPUs that runs
// them alone (a partition is a cluster of its own sharing the clock).
func TestKTHPartitions(t *testing.T) {
	if testing.Short() {
		t.Skip("whole-trace runs")
	}
	dir := t.TempDir()
	tr := writeSplitKTH(t, filepath.Join(dir, "kth-split.swf"), nil)
	even := writeSplitKTH(t, filepath.Join(dir, "kth-even.swf"), func(p int) bool { return p == 1 })
	for _, pol := range []string{"fcfs", "easy", "conservative"} {
		out := filepath.Join(dir, pol)
		res, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: []string{"even:0-59", "odd:60-99"}}, Policy: PolicySpec{Name: pol}, Outputs: OutputSpec{Dir: out, Check: true}}).Run()
		if err != nil {
			t.Fatalf("%s: %v", pol, err)
		}
		pt := res.Run.Partitions
		if pt == nil || len(pt.List) != 2 || pt.List[0].Numbers[0] != 1 || pt.List[1].Numbers[0] != 2 {
			t.Fatalf("%s: partitions %+v", pol, pt)
		}
		if pt.RejectedMaxCPUs == 0 || pt.Rejected != pt.RejectedMaxCPUs {
			t.Errorf("%s: refused %+v, want only jobs too large for odd's 40 CPUs", pol, pt)
		}
		if got := pt.List[0].Jobs + pt.List[1].Jobs + pt.Rejected; got != 27992 || pt.List[0].Jobs != res.Engine.Jobs-pt.List[1].Jobs {
			t.Errorf("%s: %d + %d jobs + %d refused, want 27992 records; engine ran %d", pol, pt.List[0].Jobs, pt.List[1].Jobs, pt.Rejected, res.Engine.Jobs)
		}
		rows := readRows(t, filepath.Join(out, "jobs.csv"))
		col := colIndex(rows[0])
		starts := map[string]string{}
		for _, r := range rows[1:] {
			cpus, err := validate.ParseResources(r[col["allocated_resources"]])
			if err != nil {
				t.Fatal(err)
			}
			lo, hi := 0, 59
			if r[col["partition"]] == "2" {
				lo, hi = 60, 99
			}
			for _, iv := range cpus {
				if iv.Lo < lo || iv.Hi > hi {
					t.Fatalf("%s: job %s of partition %s on CPUs %s", pol, r[0], r[col["partition"]], r[col["allocated_resources"]])
				}
			}
			if r[col["partition"]] == "1" {
				starts[r[0]] = r[col["starting_time"]]
			}
		}
		alone, err := (RunSpec{Workload: WorkloadSpec{Trace: even}, Platform: PlatformSpec{Procs: 60}, Policy: PolicySpec{Name: pol}, Outputs: OutputSpec{Dir: filepath.Join(dir, pol+"-alone")}}).Run()
		if err != nil {
			t.Fatal(err)
		}
		rows = readRows(t, filepath.Join(dir, pol+"-alone", "jobs.csv"))
		if int64(len(rows)-1) != pt.List[0].Jobs || alone.Engine.Jobs != pt.List[0].Jobs {
			t.Fatalf("%s: %d jobs alone, %d in the partition", pol, len(rows)-1, pt.List[0].Jobs)
		}
		for _, r := range rows[1:] {
			if s := starts[r[0]]; s != r[col["starting_time"]] {
				t.Fatalf("%s: job %s starts at %s in the partition, at %s alone", pol, r[0], s, r[col["starting_time"]])
			}
		}
	}
}

// writeSWF writes text as a trace file in a fresh folder and returns
// its path.
func writeSWF(t *testing.T, text string) string {
	t.Helper()
	tr := filepath.Join(t.TempDir(), "t.swf")
	if err := os.WriteFile(tr, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return tr
}

// randomPartitioned writes a trace of n jobs of a machine of procs
// CPUs, each in a random partition k+1 of CPUs los[k]..his[k]: submit
// gaps of 0 to gap-1 seconds (a third of them 0), sizes up to the
// partition (half of them up to 4 CPUs), requests 10 to 300 s and
// runtimes from 1 s to the request plus slack (slack > 0: some are
// killed at their request). It returns the trace's path and each
// partition's jobs for the naive simulators.
func randomPartitioned(t *testing.T, r *rand.Rand, procs, n, gap, slack int, los, his []int) (string, [][]testref.Job) {
	t.Helper()
	var sb strings.Builder
	fmt.Fprintf(&sb, "; MaxProcs: %d\n", procs)
	jobs := make([][]testref.Job, len(los))
	submit := 0.0
	for id := 1; id <= n; id++ {
		if r.IntN(3) > 0 {
			submit += float64(r.IntN(gap))
		}
		k := r.IntN(len(los))
		size := his[k] - los[k] + 1
		cpus := 1 + r.IntN(size)
		if r.IntN(2) == 0 {
			cpus = 1 + r.IntN(min(size, 4))
		}
		req := float64(10 * (1 + r.IntN(30)))
		run := float64(1 + r.IntN(int(req)+slack))
		fmt.Fprintf(&sb, "%d %g -1 %g %d -1 -1 %d %g -1 1 1 1 -1 -1 %d -1 -1\n", id, submit, run, cpus, cpus, req, k+1)
		jobs[k] = append(jobs[k], testref.Job{ID: int64(id), Submit: submit, Duration: run, Estimate: req, Procs: cpus})
	}
	return writeSWF(t, sb.String()), jobs
}

// startTimes is each job's starting_time in the jobs.csv of run folder
// out, by job id, as written.
func startTimes(t *testing.T, out string) map[string]string {
	t.Helper()
	rows := readRows(t, filepath.Join(out, "jobs.csv"))
	col := colIndex(rows[0])
	got := map[string]string{}
	for _, r := range rows[1:] {
		got[r[0]] = r[col["starting_time"]]
	}
	return got
}

func readRows(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func colIndex(header []string) map[string]int {
	m := map[string]int{}
	for i, h := range header {
		m[h] = i
	}
	return m
}

// fiveJobsParts writes examples/teaching/five-jobs.swf with jobs 1 and 2
// in trace partition 1 ("batch") and jobs 3 to 5 in 2 ("debug").
func fiveJobsParts(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "five-p.swf")
	text := "; MaxProcs: 5\n; Partition: 1 batch\n; Partition: 2 debug\n" +
		"1 0 -1 100 3 -1 -1 3 100 -1 1 1 1 -1 -1 1 -1 -1\n" +
		"2 1 -1 50 4 -1 -1 4 50 -1 1 1 1 -1 -1 1 -1 -1\n" +
		"3 2 -1 20 1 -1 -1 1 50 -1 1 2 1 -1 -1 2 -1 -1\n" +
		"4 3 -1 30 1 -1 -1 1 500 -1 1 1 1 -1 -1 2 -1 -1\n" +
		"5 4 -1 10 1 -1 -1 1 200 -1 1 3 1 -1 -1 2 -1 -1\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The five jobs of docs/scheduling.md's example, jobs 1-2 in batch (CPUs
// 0-3) and 3-5 in debug (CPU 4, maxtime 300), under EASY. Job 4 requests
// 500 s > 300: refused at submission. In batch, J1 (3 CPUs) runs [0,
// 100) on 0-2 and J2 (4 CPUs) must wait for all of batch: [100, 150) on
// 0-3; CPU 4 is not batch's, so J2 cannot use it. In debug, J3 runs [2,
// 22) on CPU 4 and J5, submitted at 4, waits for it: [22, 32).
func TestPartitionFiveJobs(t *testing.T) {
	tr := fiveJobsParts(t)
	out := filepath.Join(t.TempDir(), "out")
	res, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: []string{"batch:0-3", "debug:4-4:maxtime=300"}}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: out, Check: true}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	pt := res.Run.Partitions
	if pt.Rejected != 1 || pt.RejectedMaxTime != 1 || pt.List[0].Jobs != 2 || pt.List[1].Jobs != 2 {
		t.Errorf("partitions %+v", pt)
	}
	rows := readRows(t, filepath.Join(out, "jobs.csv"))
	col := colIndex(rows[0])
	got := map[string]string{}
	for _, r := range rows[1:] {
		got[r[0]] = r[col["starting_time"]] + " " + r[col["finish_time"]] + " " + r[col["allocated_resources"]]
	}
	want := map[string]string{"1": "0 100 0-2", "2": "100 150 0-3", "3": "2 22 4", "5": "22 32 4"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	// users=1 on debug refuses jobs 3 (user 2) and 5 (user 3), maxcpus=2
	// on batch jobs 1 and 2; a partition by number takes the same jobs
	// as by name.
	res, err = (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: []string{"1:0-3:maxcpus=3", "2:4-4:users=1,7"}}, Policy: PolicySpec{Name: "easy"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	if pt := res.Run.Partitions; pt.RejectedAccess != 2 || pt.RejectedMaxCPUs != 1 || pt.Rejected != 3 || res.Engine.Jobs != 2 {
		t.Errorf("limits: %+v, %d jobs", pt, res.Engine.Jobs)
	}
	// Jobs of a partition no --partition names are refused.
	res, err = (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: []string{"batch:5"}}, Policy: PolicySpec{Name: "fcfs"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	if pt := res.Run.Partitions; pt.RejectedUnknown != 3 || res.Engine.Jobs != 2 {
		t.Errorf("unknown: %+v", pt)
	}
}

// Every mistake is a *PartitionError naming the --partition text and
// what is wrong; nothing runs.
func TestPartitionErrors(t *testing.T) {
	tr := fiveJobsParts(t)
	for _, c := range []struct {
		parts []string
		run   RunSpec
		want  string
	}{
		{[]string{"batch"}, RunSpec{}, `--partition "batch": want NAME:CPUS`},
		{[]string{"batch:9"}, RunSpec{}, `--partition "batch:9": CPUS: a count of 9, want 1..5`},
		{[]string{"batch:0-7"}, RunSpec{}, `--partition "batch:0-7": CPUS:`},
		{[]string{"batch:2:maxcpus=x"}, RunSpec{}, `maxcpus "x": want a positive integer`},
		{[]string{"batch:2:users=a"}, RunSpec{}, `users: "a" is not a number >= 0 (the trace's user numbers)`},
		{[]string{"batch:2:color=red"}, RunSpec{}, `unknown limit "color"`},
		{[]string{"batch:2:default=1"}, RunSpec{}, `default takes no value`},
		{[]string{"batch:2:maxtime=5:maxtime=6"}, RunSpec{}, `maxtime given twice`},
		{[]string{"gpu:2"}, RunSpec{}, `the trace's header names no partition gpu (its Partition lines: 1 batch, 2 debug)`},
		{[]string{"batch:2", "batch:2-3"}, RunSpec{}, `partition batch is given twice`},
		{[]string{"batch:0-1", "1:2-3"}, RunSpec{}, `partitions batch and 1 both take the trace's partition 1`},
		{[]string{"batch:0-2", "debug:2-4"}, RunSpec{Platform: PlatformSpec{Avail: AvailSpec{Reservations: []string{"0:10:1"}}}},
			`overlapping partitions do not go with unavailable CPUs (reservations, failures) yet: partitions batch and debug share CPU 2`},
		{[]string{"batch:2"}, RunSpec{Policy: PolicySpec{Name: "matrix"}}, `partitions do not go with policy matrix (jobs as threads)`},
		{[]string{"batch:2"}, RunSpec{Policy: PolicySpec{Name: "jrb"}}, `partitions do not go with policy jrb yet (it refuses jobs at submission)`},
		{[]string{"batch:2"}, RunSpec{Policy: PolicySpec{Name: "eg-edf"}}, `partitions do not go with policy eg-edf (several machines)`},
	} {
		cfg := c.run
		cfg.Workload.Trace, cfg.Platform.Partitions = tr, c.parts
		if cfg.Policy.Name == "" {
			cfg.Policy.Name = "easy"
		}
		_, err := cfg.Run()
		var pe *PartitionError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &pe) {
			t.Errorf("%q: got %v, want a PartitionError with %q", c.parts, err, c.want)
		}
	}
	// Every job refused: the run says why.
	_, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Partitions: []string{"batch:5:maxtime=1"}}, Policy: PolicySpec{Name: "easy"}}).Run()
	if err == nil || !strings.Contains(err.Error(), "every job was refused by the partitions: 3 of no partition given, 2 above maxtime") {
		t.Errorf("got %v", err)
	}
}
