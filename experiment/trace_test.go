package experiment

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/internal/testref"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/swf"
)

const kth = "KTH-SP2-1996-2.1-cln.swf.gz" // embedded in the binary

// FCFS on KTH-SP2 (27,992 jobs, 100 processors): mean wait 218,980.6 s and
// makespan 29,381,344 s — the figures on which five independent simulators
// agree, start time by start time.
func TestKTHFCFSReference(t *testing.T) {
	res, err := (RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: "fcfs"}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	if res.Jobs != 27992 || res.Run.Procs != 100 || res.Run.Skipped != 0 {
		t.Fatalf("jobs %d procs %d skipped %d, want 27992, 100, 0", res.Jobs, res.Run.Procs, res.Run.Skipped)
	}
	if got := math.Round(res.MeanWait*10) / 10; got != 218980.6 {
		t.Errorf("mean wait %.4f, want 218980.6", res.MeanWait)
	}
	if res.Makespan != 29381344 {
		t.Errorf("makespan %v, want 29381344", res.Makespan)
	}
}

// kthJobs reads the embedded KTH trace as naive jobs (request estimates,
// killed at the limit: KTH has no job running past its request).
func kthJobs(t *testing.T) []testref.Job {
	rd, err := workload.OpenTrace(kth)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	src := workload.WithEstimates(swf.NewSource(rd, swf.Options{}), workload.EstimateRequest)
	var out []testref.Job
	for {
		j, err := src.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		d := j.Runtime
		if j.Request > 0 && d > j.Request {
			d = j.Request
		}
		out = append(out, testref.Job{ID: int64(j.ID), Submit: j.Submit, Duration: d, Estimate: j.Estimate, Procs: j.Procs})
	}
}

func startsFromCSV(t *testing.T, path string) map[int64]float64 {
	f, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(f)), "\n")
	out := map[int64]float64{}
	for _, l := range lines[1:] {
		c := strings.Split(l, ",")
		var id int64
		var s float64
		if _, err := fmt.Sscan(c[0], &id); err != nil {
			t.Fatal(err)
		}
		if _, err := fmt.Sscan(c[4], &s); err != nil {
			t.Fatal(err)
		}
		out[id] = s
	}
	return out
}

// The whole KTH run, every job's start time, agrees between the engine and
// the independent naive simulators, for FCFS, EASY and conservative.
func TestKTHAgreesWithNaive(t *testing.T) {
	if testing.Short() {
		t.Skip("naive simulators on a whole trace take a few seconds")
	}
	jobs := kthJobs(t)
	for _, c := range []struct {
		policy string
		ref    func([]testref.Job, int) []float64
	}{
		{"fcfs", testref.FCFS},
		{"easy", testref.EASY},
		{"conservative", testref.Conservative},
	} {
		t.Run(c.policy, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := (RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: c.policy}, Outputs: OutputSpec{Dir: dir}}).Run(); err != nil {
				t.Fatal(err)
			}
			got := startsFromCSV(t, filepath.Join(dir, "jobs.csv"))
			want := c.ref(jobs, 100)
			for i, j := range jobs {
				if got[j.ID] != want[i] {
					t.Fatalf("job %d starts at %v, naive %s says %v", j.ID, got[j.ID], c.policy, want[i])
				}
			}
		})
	}
}

// Same scenario, same output: byte-identical jobs.csv, summary.json and
// schedule.swf.
func TestDeterministicOutput(t *testing.T) {
	var dirs [2]string
	for i := range dirs {
		dirs[i] = t.TempDir()
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: "conservative", Options: map[string]string{"order": "sjf"}}, Outputs: OutputSpec{Dir: dirs[i], SWF: true, Check: true}}).Run(); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"jobs.csv", "summary.json", "schedule.swf"} {
		a, _ := os.ReadFile(filepath.Join(dirs[0], f))
		b, _ := os.ReadFile(filepath.Join(dirs[1], f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between two identical runs (%d and %d bytes)", f, len(a), len(b))
		}
	}
}

// The simulated schedule written as SWF reads back through our own reader,
// with the simulated wait times in field 3.
func TestScheduleSWFRoundTrip(t *testing.T) {
	dir := t.TempDir()
	res, err := (RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: dir, SWF: true}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	rd, err := swf.Open(filepath.Join(dir, "schedule.swf"))
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	var n int64
	var wait float64
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
		wait += rec.Wait
	}
	if n != res.Jobs || math.Abs(wait/float64(n)-res.MeanWait) > 1e-6 {
		t.Fatalf("schedule.swf: %d jobs, mean wait %v; run: %d jobs, mean wait %v", n, wait/float64(n), res.Jobs, res.MeanWait)
	}
}

func writeTrace(t *testing.T, dir, name, text string, gz bool) string {
	t.Helper()
	p := filepath.Join(dir, name)
	data := []byte(text)
	if gz {
		var b bytes.Buffer
		w := gzip.NewWriter(&b)
		w.Write(data)
		w.Close()
		data = b.Bytes()
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const goodLine = "1 0 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n"

// Bad input stops the run with a message naming file, line and field, and
// leaves no output behind (an earlier result in the folder stays intact).
func TestBadTraceLeavesNoOutput(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat(goodLine, 1)
	for i := 2; i <= 3000; i++ {
		long += strings.Replace(goodLine, "1 0 0", strconv.Itoa(i)+" "+strconv.Itoa(i)+" 0", 1)
	}
	cases := []struct {
		name, text string
		gz, cut    bool
		want       string
	}{
		{"fields.swf", goodLine + "2 1 0 10 2 -1 -1 2 20\n", false, false, "fields.swf:2: "},
		{"number.swf", goodLine + "2 1 0 abc 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n", false, false, "number.swf:2: field 4 (run time)"},
		{"negative.swf", goodLine + "2 1 0 10 -5 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n", false, false, "negative.swf:2: field 5"},
		{"unsorted.swf", "1 50 0 10 2 -1 -1 2 20 -1 1 1 1 -1 -1 -1 -1 -1\n" + strings.Replace(goodLine, "1 0 0", "2 10 0", 1), false, false, "unsorted.swf:2: field 2 (submit time)"},
		{"truncated.swf.gz", long, true, true, "truncated.swf.gz:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeTrace(t, dir, c.name, c.text, c.gz)
			if c.cut {
				b, _ := os.ReadFile(p)
				os.WriteFile(p, b[:len(b)/2], 0o644)
			}
			out := filepath.Join(dir, "out-"+c.name)
			_, err := (RunSpec{Workload: WorkloadSpec{Trace: p}, Platform: PlatformSpec{Procs: 4}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: out, SWF: true}}).Run()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
			var pe *swf.ParseError
			if !errors.As(err, &pe) {
				t.Errorf("error %v is not a *swf.ParseError", err)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("output folder %s left behind (stat: %v)", out, err)
			}
		})
	}
	// An existing result is not touched by a failed run.
	out := filepath.Join(dir, "keep")
	if _, err := (RunSpec{Workload: WorkloadSpec{Trace: writeTrace(t, dir, "ok.swf", goodLine, false)}, Platform: PlatformSpec{Procs: 4}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: out}}).Run(); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(out, "jobs.csv"))
	if _, err := (RunSpec{Workload: WorkloadSpec{Trace: filepath.Join(dir, "number.swf")}, Platform: PlatformSpec{Procs: 4}, Policy: PolicySpec{Name: "easy"}, Outputs: OutputSpec{Dir: out}}).Run(); err == nil {
		t.Fatal("bad trace accepted")
	}
	after, _ := os.ReadFile(filepath.Join(out, "jobs.csv"))
	ents, _ := os.ReadDir(out)
	if !bytes.Equal(before, after) || len(ents) != 2 {
		t.Fatalf("failed run changed the earlier result (%d files now)", len(ents))
	}
}

func TestImpossibleJob(t *testing.T) {
	dir := t.TempDir()
	p := writeTrace(t, dir, "big.swf", strings.Replace(goodLine, " 2 -1 -1 2 ", " 9 -1 -1 9 ", 1), false)
	// Rejected by default: with no other job, that is no run (an error
	// naming the count and the reason, as for an empty trace)...
	_, err := (RunSpec{Workload: WorkloadSpec{Trace: p}, Platform: PlatformSpec{Procs: 4}, Policy: PolicySpec{Name: "easy"}}).Run()
	want := "trace " + p + ": none of its 1 job record(s) can be simulated: 1 larger than the machine of 4 CPUs (rejected; clamping"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err %v: want %q", err, want)
	}
	// ...or clamped to the machine on request.
	res, err := (RunSpec{Workload: WorkloadSpec{Trace: p}, Platform: PlatformSpec{Procs: 4, Clamp: true}, Policy: PolicySpec{Name: "easy"}}).Run()
	if err != nil || res.Run.Clamped != 1 || res.Jobs != 1 {
		t.Fatalf("res %+v err %v: want the job clamped", res, err)
	}
}

func TestRunOptionErrors(t *testing.T) {
	for _, c := range []struct {
		run  RunSpec
		want string
	}{
		{RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: "nope"}}, `unknown policy "nope"`},
		{RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: "easy", Options: map[string]string{"order": "lifo"}}}, `policy easy: option order: "lifo" is not one of fcfs, sjf`},
		{RunSpec{Workload: WorkloadSpec{Trace: kth, Estimate: 9}, Policy: PolicySpec{Name: "easy"}}, `unknown estimate model Estimate(9)`},
		{RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: "fcfs", Options: map[string]string{"order": "sjf"}}}, `policy fcfs: option order: "sjf" is not one of fcfs, multifactor (strict FCFS serves jobs in submit order`},
		{RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: "easy", Options: map[string]string{"depth": "3"}}}, `policy easy: option depth: not an option of this policy`},
		{RunSpec{Workload: WorkloadSpec{Trace: "no-such-trace.swf"}, Policy: PolicySpec{Name: "easy"}}, "trace no-such-trace.swf: not found"},
		{RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: "fcfs"}, Outputs: OutputSpec{Check: true}}, "--check needs --out"},
	} {
		_, err := c.run.Run()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want %q", c.run, err, c.want)
		}
	}
	// An unknown policy is a typed error naming the known ones.
	_, err := (RunSpec{Workload: WorkloadSpec{Trace: kth}, Policy: PolicySpec{Name: "nope"}}).Run()
	var une *registry.UnknownNameError
	if !errors.As(err, &une) || une.Name != "nope" || !slices.Equal(une.Known, registry.Names(registry.ModelCluster, registry.KindQueue)) {
		t.Errorf("err = %#v, want an *registry.UnknownNameError for nope", err)
	}
}

// Every job of the real traces names its CPUs, and the independent
// validator finds them consistent: as many as requested, inside the
// machine, none held by two jobs at once (KTH embedded; HPC2N when the
// shared traces are present; its cases skip with the reason otherwise).
func TestAllocatedResourcesValid(t *testing.T) {
	for _, tr := range []string{kth, hpc2n} {
		for _, pol := range []string{"fcfs", "easy", "conservative"} {
			t.Run(filepath.Base(tr)+"/"+pol, func(t *testing.T) {
				if tr == hpc2n {
					if testing.Short() {
						t.Skip("HPC2N not checked in short mode")
					}
					if _, err := os.Stat(hpc2n); err != nil {
						t.Skipf("HPC2N not checked: trace not available (%v)", err)
					}
				}
				out := t.TempDir()
				if _, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Policy: PolicySpec{Name: pol}, Outputs: OutputSpec{Dir: out, Check: true}}).Run(); err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(filepath.Join(out, "jobs.csv"))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Contains(b, []byte(",allocated_resources,")) {
					t.Fatal("jobs.csv has no allocated_resources column")
				}
			})
		}
	}
}
