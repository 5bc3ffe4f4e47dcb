package backfill

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
)

// slurmJob is a job of the tests below: submit, CPUs (tasks of one
// CPU), time limit (the estimate) and run time.
type slurmJob struct {
	submit float64
	cpus   int
	limit  float64
	run    float64
}

// runSlurm runs the slurm policy with p on one node of 4 cores and
// returns each job's start and start reason (jobs numbered from 1).
func runSlurm(t *testing.T, p SlurmParams, js []slurmJob) ([]float64, []job.StartReason) {
	t.Helper()
	ns := mustNodes(t, "n1:cores=4")
	nb, err := NewNodePolicy(NodeConfig{Name: "slurm", Nodes: ns, Order: OrderFCFS, Slurm: &p})
	if err != nil {
		t.Fatal(err)
	}
	var specs []nodeJobSpec
	for i, j := range js {
		specs = append(specs, nodeJobSpec{id: job.ID(i + 1), submit: j.submit, dur: j.run, est: j.limit, procs: j.cpus})
	}
	got := engineNodes(t, ns, nb, specs)
	starts := make([]float64, len(js))
	reasons := make([]job.StartReason, len(js))
	for i := range js {
		g := got[job.ID(i+1)]
		if g == nil {
			t.Fatalf("job %d never started", i+1)
		}
		starts[i], reasons[i] = g.start, g.reason
	}
	return starts, reasons
}

func fastSlurm() SlurmParams {
	p := DefaultSlurm()
	p.Interval, p.Resolution = 1, 1
	return p
}

func checkStarts(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s: starts %v, want %v", what, got, want)
	}
}

// The workload of docs/slurm.md ("Slurm's backfill against EASY"):
// eleven jobs on one node of 4 CPUs, bf_interval 1, bf_resolution 1.
// By hand (every event is at a whole second, so a backfill pass runs
// at every event):
//
//   - Round 1: job 1 (3 CPUs, limit 180) starts at 0; job 2 (4 CPUs)
//     waits, reserved whole-node over [180, 240); job 3 (1 CPU, limit
//     120) ends by 124: backfilled at 4. Job 1 ends at 40: job 2 starts.
//   - Round 2: job 4 (2 CPUs, limit 180) starts at 60; job 5 (3 CPUs)
//     reserved over [240, 300) (job 4's limit); job 6 (1 CPU, limit 240)
//     over [63, 303) overlaps the node's reservation: it waits (EASY and
//     conservative start it at 63). Job 4 ends at 80: the main scheduler
//     starts 5 and 6 (Slurm: 80 and 80).
//   - Round 3: jobs 7 (2 CPUs, limit 60) and 8 (1 CPU, limit 180) start
//     at 110 and 111; job 9 (4 CPUs) reserved over [291, 351); job 10
//     (3 CPUs) at 170 (job 7's limit) over [170, 230); job 11 (1 CPU,
//     limit 120) over [115, 235) overlaps it: waits. Job 7 ends at 137:
//     job 9 still reserved at 291 (job 8's limit), job 10 over
//     [137, 197) fits beside job 8: backfilled at 137. Job 8 ends at
//     141: job 9 reserved at 197, job 11 over [141, 261) overlaps it.
//     Job 10 ends at 147: job 9 starts; it ends at 157: job 11 starts
//     (conservative 157, EASY 115).
//
// Backfilled (started while an earlier job waited): 3 and 10, Slurm's
// set.
func TestSlurmDocsWorkload(t *testing.T) {
	js := []slurmJob{
		{0, 3, 180, 40}, {2, 4, 60, 10}, {4, 1, 120, 20},
		{60, 2, 180, 20}, {61, 3, 60, 10}, {63, 1, 240, 20},
		{110, 2, 60, 27}, {111, 1, 180, 30}, {112, 4, 60, 10}, {113, 3, 60, 10}, {115, 1, 120, 15},
	}
	starts, reasons := runSlurm(t, fastSlurm(), js)
	checkStarts(t, "slurm", starts, []float64{0, 40, 4, 60, 80, 80, 110, 111, 147, 137, 157})
	var bf []string
	for i, r := range reasons {
		if r == job.Backfilled {
			bf = append(bf, fmt.Sprint(i+1))
		}
	}
	if got := strings.Join(bf, ","); got != "3,10" {
		t.Errorf("backfilled %s, want 3,10", got)
	}

	// sched/builtin: the main scheduler alone stops at job 2 (it cannot
	// start before job 1 ends at 40), so job 3 waits until job 2 ends
	// at 50.
	p := fastSlurm()
	p.Backfill = false
	starts, _ = runSlurm(t, p, js[:3])
	checkStarts(t, "builtin", starts, []float64{0, 40, 50})
}

// bf_window: job 1 (2 CPUs, limit 7200 s, runs 3000 s) at 0; job 2 (4
// CPUs, limit 600, runs 10) at 1: its earliest start is 7200; job 3 (1
// CPU, limit 7200, runs 100) at 2. With bf_window 1440 minutes job 2
// is reserved over [7200, 7800), which job 3's [2, 7202) overlaps: job
// 3 waits; job 1 ends at 3000, job 2 starts, ends at 3010, job 3
// starts. With bf_window 60 minutes 7200 > 1 + 3600: no reservation,
// job 3 starts at 2 (ends at 102), and job 2 still starts when job 1
// ends, at 3000.
func TestSlurmWindow(t *testing.T) {
	js := []slurmJob{{0, 2, 7200, 3000}, {1, 4, 600, 10}, {2, 1, 7200, 100}}
	starts, _ := runSlurm(t, fastSlurm(), js)
	checkStarts(t, "bf_window 1440", starts, []float64{0, 3000, 3010})
	p := fastSlurm()
	p.Window = 60 * 60
	starts, _ = runSlurm(t, p, js)
	checkStarts(t, "bf_window 60", starts, []float64{0, 3000, 2})
}

// bf_max_job_test: job 1 (3 CPUs, limit 1000, runs 500) at 0; job 2 (4
// CPUs, limit 100, runs 10) at 1, reserved over [1000, 1100); job 3 (1
// CPU, limit 100, runs 50) at 2 would be backfilled ([2, 102)). With
// bf_max_job_test 1 the pass tests job 2 only: job 3 waits for the main
// scheduler, behind job 2 (starts at 500, ends at 510).
func TestSlurmMaxJobTest(t *testing.T) {
	js := []slurmJob{{0, 3, 1000, 500}, {1, 4, 100, 10}, {2, 1, 100, 50}}
	p := fastSlurm()
	p.MaxJobTest = 2
	starts, _ := runSlurm(t, p, js)
	checkStarts(t, "bf_max_job_test 2", starts, []float64{0, 500, 2})
	p.MaxJobTest = 1
	starts, _ = runSlurm(t, p, js)
	checkStarts(t, "bf_max_job_test 1", starts, []float64{0, 500, 510})
}

// bf_resolution: job 1 (2 CPUs, limit and run 150) at 0; job 2 (4
// CPUs, limit 60, runs 10) at 1, earliest start 150; job 3 (1 CPU,
// limit and run 130) at 2. At resolution 1 job 2 holds the node over
// [150, 210) and job 3's [2, 132) is backfilled at 2. At resolution 60
// the reservation is [120, 180) (150 and 210 rounded down): job 3
// overlaps it and waits; job 2 starts at 150, ends at 160, job 3 then.
func TestSlurmResolution(t *testing.T) {
	js := []slurmJob{{0, 2, 150, 150}, {1, 4, 60, 10}, {2, 1, 130, 130}}
	starts, _ := runSlurm(t, fastSlurm(), js)
	checkStarts(t, "bf_resolution 1", starts, []float64{0, 150, 2})
	p := fastSlurm()
	p.Resolution = 60
	starts, _ = runSlurm(t, p, js)
	checkStarts(t, "bf_resolution 60", starts, []float64{0, 150, 160})
}

// bf_interval 30 on round 1 of the docs workload: at 0 job 1 starts
// (nothing waits: no pass); at 2 the first pass reserves for job 2; at
// 4 job 3 arrives, but the last pass was 2 s ago: the next pass is at
// 32 (a wake-up), which backfills job 3 ([32, 152) ends before job 2's
// reservation at 180) and holds a CPU until 52: job 1 ends at 40, but
// job 2 (4 CPUs) starts only when job 3 ends, at 52.
func TestSlurmInterval(t *testing.T) {
	js := []slurmJob{{0, 3, 180, 40}, {2, 4, 60, 10}, {4, 1, 120, 20}}
	p := fastSlurm()
	p.Interval = 30
	starts, reasons := runSlurm(t, p, js)
	checkStarts(t, "bf_interval 30", starts, []float64{0, 52, 32})
	if reasons[2] != job.Backfilled {
		t.Errorf("job 3: %v, want backfilled", reasons[2])
	}
}

// The main scheduler stops at the first job that cannot start, and
// tests at most default_queue_depth jobs: jobs 1 (3 CPUs, runs 10), 2 (2
// CPUs, runs 10) and 3 (1 CPU, runs 5) at 0 under sched/builtin: job 2
// blocks, so job 3 waits although a CPU is free (starts at 10, with
// job 2). With default_queue_depth 1 and four jobs of 1 CPU at 0 (runs
// 10, 20, 30, 40), the main scheduler starts one job an event: at 0,
// 10 (job 1's end), 30 (job 2's), 60.
func TestSlurmMainScheduler(t *testing.T) {
	p := fastSlurm()
	p.Backfill = false
	starts, _ := runSlurm(t, p, []slurmJob{{0, 3, 100, 10}, {0, 2, 100, 10}, {0, 1, 100, 5}})
	checkStarts(t, "builtin", starts, []float64{0, 10, 10})
	p.QueueDepth = 1
	starts, _ = runSlurm(t, p, []slurmJob{{0, 1, 100, 10}, {0, 1, 100, 20}, {0, 1, 100, 30}, {0, 1, 100, 40}})
	checkStarts(t, "default_queue_depth 1", starts, []float64{0, 10, 30, 60})
}

// The declaration refuses a pool of CPUs, saying what to give, and
// reads its options under Slurm's names.
func TestSlurmDeclaration(t *testing.T) {
	d := slurmDecl()
	v, err := option.Check(d.Options, map[string]string{"bf_window": "60", "bf_interval": "1", "bf_resolution": "1", "scheduler_type": "builtin"})
	if err != nil {
		t.Fatal(err)
	}
	p := slurmFrom(v)
	want := SlurmParams{Backfill: false, Window: 3600, MaxJobTest: 500, Resolution: 1, Interval: 1, QueueDepth: 100}
	if !reflect.DeepEqual(p, want) {
		t.Errorf("got %+v, want %+v", p, want)
	}
	if _, err := d.New(policy.Env{}, v); err == nil || !strings.Contains(err.Error(), "--slurm-nodes") {
		t.Errorf("on a pool: %v", err)
	}
	if _, err := option.Check(d.Options, map[string]string{"bf_window": "0"}); err == nil {
		t.Error("bf_window 0 accepted")
	}
	// qos_limits: checked with the options; with limits the built policy
	// screens jobs at submission, without it does not.
	if _, err := option.Check(d.Options, map[string]string{"qos_limits": "1:maxjobs=2"}); err == nil || !strings.Contains(err.Error(), `unknown limit "maxjobs"`) {
		t.Errorf("bad qos_limits: %v", err)
	}
	env := policy.Env{Nodes: mustNodes(t, "n[1-2]:cores=4")}
	for limits, screens := range map[string]bool{"": false, "1:maxwall=60": true} {
		v, err := option.Check(d.Options, map[string]string{"qos_limits": limits})
		if err != nil {
			t.Fatal(err)
		}
		b, err := d.New(env, v)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := b.Nodes.(policy.Screener); ok != screens {
			t.Errorf("qos_limits %q: screens %v, want %v", limits, ok, screens)
		}
	}
}

// Slurm's grouped will-run test, worked by hand on one node of 4 cores
// (bf_interval 1, bf_resolution 1). Jobs (submit, CPUs, limit = run):
// A (0, 2, 40), B (0, 1, 80), D (1, 3, 100), E (2, 1, 50). At 0 A and
// B start (1 core free). At 1 D does not fit; the running jobs end at
// 40 and 80.
//
//   - grouped, the clock at 0: the first end, 40, rounds up to the mark
//     60; the first group is every end up to 60 + 30 = 90: A and B, so
//     D is planned at the group's last end, 80, on the node whole over
//     [80, 180). E (1 core, [2, 52)) ends before it: backfilled at 2.
//     A ends at 40: D finds 2 + 0 cores free (E holds the third) and
//     waits for E's end, 52.
//   - exact (will_run exact): D fits at A's end, 40, and is planned
//     there; E would overlap it and waits. D starts at 40, E at B's
//     end, 80.
//   - grouped, the clock at 15 (unix_start_time 15): 40 is 55 on the
//     clock, the mark 60 is 45, and the first group is the ends up to
//     75: A alone; D fits after it: planned at 40, as exact.
func TestSlurmWillRunGroups(t *testing.T) {
	js := []slurmJob{{0, 2, 40, 40}, {0, 1, 80, 80}, {1, 3, 100, 100}, {2, 1, 50, 50}}
	for _, c := range []struct {
		name   string
		set    func(p *SlurmParams)
		starts []float64
		bf     job.StartReason
	}{
		{"grouped", func(p *SlurmParams) {}, []float64{0, 0, 52, 2}, job.Backfilled},
		{"exact", func(p *SlurmParams) { p.ExactWillRun = true }, []float64{0, 0, 40, 80}, job.Reserved},
		{"grouped-clock-15", func(p *SlurmParams) { p.Origin = 15 }, []float64{0, 0, 40, 80}, job.Reserved},
	} {
		p := fastSlurm()
		c.set(&p)
		starts, reasons := runSlurm(t, p, js)
		if !reflect.DeepEqual(starts, c.starts) {
			t.Errorf("%s: starts %v, want %v", c.name, starts, c.starts)
		}
		if reasons[3] != c.bf {
			t.Errorf("%s: E started %v, want %v", c.name, reasons[3], c.bf)
		}
	}
}
