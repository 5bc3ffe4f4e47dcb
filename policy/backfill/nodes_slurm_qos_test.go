package backfill

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/rng"
)

// qosJob of the tests: a slurmJob with its user and QOS.
type qosTestJob struct {
	slurmJob
	user, qos int32
}

// runQOS runs the slurm policy (bf_interval 1, bf_resolution 1) with
// the qos_limits text on one node of 4 cores: each job's start (-1:
// never started) and start reason.
func runQOS(t *testing.T, limits string, js []qosTestJob) ([]float64, []job.StartReason) {
	t.Helper()
	p := fastSlurm()
	var err error
	if p.QOS, err = ParseQOSLimits(limits); err != nil {
		t.Fatal(err)
	}
	ns := mustNodes(t, "n1:cores=4")
	nb, err := NewNodePolicy(NodeConfig{Name: "slurm", Nodes: ns, Order: OrderFCFS, Slurm: &p})
	if err != nil {
		t.Fatal(err)
	}
	var specs []nodeJobSpec
	for i, j := range js {
		specs = append(specs, nodeJobSpec{id: job.ID(i + 1), submit: j.submit, dur: j.run, est: j.limit, procs: j.cpus, user: j.user, qo: j.qos, partition: -1, group: -1})
	}
	got := engineNodes(t, ns, SlurmQOS{nb}, specs)
	starts := make([]float64, len(js))
	reasons := make([]job.StartReason, len(js))
	for i := range js {
		if g := got[job.ID(i+1)]; g != nil {
			starts[i], reasons[i] = g.start, g.reason
		} else {
			starts[i] = -1
		}
	}
	return starts, reasons
}

// QOS limits on one node of 4 CPUs, worked by hand (jobs: submit,
// CPUs, limit, run; user; QOS):
//
//   - MaxJobsPU 1 (QOS 1): job 1 (user 1, 1 CPU, runs 50) starts at 0;
//     job 2 (user 1) is held at 1 with 3 CPUs free
//     (QOSMaxJobsPerUserLimit); the main scheduler passes over it and
//     starts job 3 (user 2, 2 CPUs) at 2, backfilled (job 2 waits ahead
//     of it). Job 1 ends at 50: job 2 starts.
//   - GrpTRES cpu=3 (QOS 2): job 1 (user 1, 2 CPUs, runs 30) at 0; job 2
//     (user 2, 2 CPUs) is held: 2 + 2 > 3 (QOSGrpCpuLimit); job 3 (QOS
//     0: no limits, 2 CPUs, runs 40) starts at 2 and fills the node; job
//     4 (user 4, QOS 2, 1 CPU) is within the limit (2 + 1) but finds no
//     CPU. Job 1 ends at 30: job 2 starts (0 + 2 <= 3); job 4 (2 + 1 <=
//     3) finds no CPU again and the main scheduler stops there. Job 2
//     ends at 40: job 4 starts.
//   - MaxTRESPU cpu=2 (QOS 4): job 1 (user 1, 2 CPUs, runs 10) at 0;
//     job 2 (user 1, 1 CPU) is held (2 + 1 > 2, QOSMaxCpuPerUserLimit)
//     while job 3 (user 2, QOS 4, 2 CPUs, runs 10) starts at 2; job 1
//     ends at 10: job 2 starts.
//   - MaxSubmitPU 1 (QOS 3): job 1 (user 1, 4 CPUs, runs 20) at 0; job 2
//     (user 1) submitted at 1 is rejected (the user has 1 job in the
//     QOS) and never starts; job 3 (user 1) submitted at 25, after job 1
//     ended at 20, is accepted and starts at once.
//   - MaxWall 60 (QOS 5): a job of limit 100 is rejected, one of 60
//     starts.
func TestSlurmQOSLimitsByHand(t *testing.T) {
	for _, c := range []struct {
		name, limits string
		js           []qosTestJob
		want         []float64
		backfilled   string
	}{
		{"maxjobspu", "1:maxjobspu=1", []qosTestJob{
			{slurmJob{0, 1, 100, 50}, 1, 1}, {slurmJob{1, 1, 100, 10}, 1, 1}, {slurmJob{2, 2, 100, 10}, 2, 1},
		}, []float64{0, 50, 2}, "3"},
		{"grpcpus", "2:grpcpus=3", []qosTestJob{
			{slurmJob{0, 2, 100, 30}, 1, 2}, {slurmJob{1, 2, 100, 10}, 2, 2}, {slurmJob{2, 2, 100, 40}, 3, 0}, {slurmJob{3, 1, 100, 5}, 4, 2},
		}, []float64{0, 30, 2, 40}, "3"},
		{"maxcpuspu", "4:maxcpuspu=2", []qosTestJob{
			{slurmJob{0, 2, 100, 10}, 1, 4}, {slurmJob{1, 1, 100, 10}, 1, 4}, {slurmJob{2, 2, 100, 10}, 2, 4},
		}, []float64{0, 10, 2}, "3"},
		{"maxsubmitpu", "3:maxsubmitpu=1", []qosTestJob{
			{slurmJob{0, 4, 100, 20}, 1, 3}, {slurmJob{1, 1, 100, 10}, 1, 3}, {slurmJob{25, 1, 100, 10}, 1, 3},
		}, []float64{0, -1, 25}, ""},
		// MaxWall 60 (QOS 5), the policy not screened before: job 1's
		// limit of 100 s is rejected at its pass; job 2's 60 s starts.
		{"maxwall", "5:maxwall=60", []qosTestJob{
			{slurmJob{0, 1, 100, 10}, 1, 5}, {slurmJob{1, 1, 60, 10}, 1, 5},
		}, []float64{-1, 1}, ""},
		// The same jobs without limits: nothing is held or rejected.
		{"none", "", []qosTestJob{
			{slurmJob{0, 1, 100, 50}, 1, 1}, {slurmJob{1, 1, 100, 10}, 1, 1}, {slurmJob{2, 2, 100, 10}, 2, 1},
		}, []float64{0, 1, 2}, ""},
	} {
		starts, reasons := runQOS(t, c.limits, c.js)
		checkStarts(t, c.name, starts, c.want)
		var bf []string
		for i, r := range reasons {
			if starts[i] >= 0 && r == job.Backfilled {
				bf = append(bf, fmt.Sprint(i+1))
			}
		}
		if got := strings.Join(bf, ","); got != c.backfilled {
			t.Errorf("%s: backfilled %q, want %q", c.name, got, c.backfilled)
		}
	}
}

// The limits no running job can lift are refused at submission
// (policy.Screener), naming Slurm's reason.
func TestSlurmQOSRefuse(t *testing.T) {
	limits, err := ParseQOSLimits("4:maxcpuspu=2,5:maxwall=60,6:grpcpus=3:maxjobspu=2")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		j    job.Info
		want string
	}{
		{job.Info{QOS: 4, Procs: 3, Estimate: 10}, "QOSMaxCpuPerUserLimit: 3 CPUs above the QOS 4's MaxTRESPU cpu=2"},
		{job.Info{QOS: 4, Procs: 2, Estimate: 10}, ""},
		{job.Info{QOS: 5, Procs: 1, Estimate: 61}, "QOSMaxWallDurationPerJobLimit: time limit 61 s above the QOS 5's MaxWall 60 s"},
		{job.Info{QOS: 5, Procs: 1, Estimate: 60}, ""},
		{job.Info{QOS: 6, Procs: 4, Estimate: 10}, "QOSGrpCpuLimit: 4 CPUs above the QOS 6's GrpTRES cpu=3"},
		{job.Info{QOS: 7, Procs: 400, Estimate: 1e9}, ""}, // a QOS without limits
	} {
		if got := refuseQOS(limits, &c.j); got != c.want {
			t.Errorf("%+v: %q, want %q", c.j, got, c.want)
		}
	}
}

func TestParseQOSLimits(t *testing.T) {
	l, err := ParseQOSLimits(" 2:grpcpus=16:maxjobspu=4, 1:MaxWall=3600:maxsubmitpu=10:maxcpuspu=8")
	if err != nil {
		t.Fatal(err)
	}
	if want := (QOSLimits{MaxSubmitPU: 10, MaxCPUsPU: 8, MaxWall: 3600}); l[1] != want {
		t.Errorf("QOS 1: %+v, want %+v", l[1], want)
	}
	if got, want := FormatQOSLimits(l), "1:maxsubmitpu=10:maxcpuspu=8:maxwall=3600,2:maxjobspu=4:grpcpus=16"; got != want {
		t.Errorf("format %q, want %q", got, want)
	}
	if l, err := ParseQOSLimits(FormatQOSLimits(l)); err != nil || len(l) != 2 {
		t.Errorf("round trip: %v %v", l, err)
	}
	for text, want := range map[string]string{
		"x:maxjobspu=1":             `the QOS "x" is not a QOS number`,
		"-1:maxjobspu=1":            `the QOS "-1" is not a QOS number`,
		"1":                         "no limit",
		"1:maxjobspu":               `"maxjobspu": want KEY=N`,
		"1:maxjobspu=0":             "want a whole number in 1..1073741824",
		"1:maxwall=1.5":             "want a whole number in 1..2147483648",
		"1:maxjobs=2":               `unknown limit "maxjobs"`,
		"1:maxjobspu=1:maxjobspu=2": "maxjobspu given twice",
		"1:grpcpus=1,1:grpcpus=2":   "QOS 1 given twice",
	} {
		if _, err := ParseQOSLimits(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
	if _, err := ParseQOSLimits(strings.Repeat("1:grpcpus=1,", MaxQOSEntries) + "2:grpcpus=1"); err == nil || !strings.Contains(err.Error(), "at most 4096") {
		t.Errorf("too many: %v", err)
	}
}

// bf_max_job_user and bf_min_age_reserve on one node of 4 CPUs
// (bf_interval 1, bf_resolution 1), worked by hand (jobs: submit, CPUs,
// limit, run; user):
//
//   - bf_max_job_user 1: job 1 (user 1, 3 CPUs, limit 100, runs 50)
//     starts at 0; job 2 (user 2, 4 CPUs) waits, reserved whole-node
//     over [100, 200) (job 1's limit). Job 3 (user 2, 1 CPU, limit 30)
//     at 2 would fit beside job 1 and end by 32: without the limit it is
//     backfilled at 2 (then job 4, user 3, finds the node full and is
//     backfilled when job 3 ends at 12); with it every pass skips job 3
//     (user 2 had job 2 tested), job 4 is backfilled at 3, job 2 starts
//     when job 1 ends at 50, job 3 when job 2 ends at 60.
//   - bf_min_age_reserve 60: job 1 as above; job 2 (4 CPUs), younger
//     than 60 s, gets no reservation and does not stop the main
//     scheduler, which starts job 3 (1 CPU, limit 200) at 2; without it
//     job 2 is reserved over [100, 200), job 3's [2, 202) overlaps it,
//     and job 3 waits for job 2 (50 to 60).
func TestSlurmBackfillUserAndAge(t *testing.T) {
	js := []qosTestJob{{slurmJob{0, 3, 100, 50}, 1, 0}, {slurmJob{1, 4, 100, 10}, 2, 0}, {slurmJob{2, 1, 30, 10}, 2, 0}, {slurmJob{3, 1, 30, 10}, 3, 0}}
	run := func(p SlurmParams, js []qosTestJob) []float64 {
		t.Helper()
		ns := mustNodes(t, "n1:cores=4")
		nb, err := NewNodePolicy(NodeConfig{Name: "slurm", Nodes: ns, Order: OrderFCFS, Slurm: &p})
		if err != nil {
			t.Fatal(err)
		}
		var specs []nodeJobSpec
		for i, j := range js {
			specs = append(specs, nodeJobSpec{id: job.ID(i + 1), submit: j.submit, dur: j.run, est: j.limit, procs: j.cpus, user: j.user, partition: -1, group: -1, qo: -1})
		}
		got := engineNodes(t, ns, nb, specs)
		var s []float64
		for i := range js {
			s = append(s, got[job.ID(i+1)].start)
		}
		return s
	}
	checkStarts(t, "no bf_max_job_user", run(fastSlurm(), js), []float64{0, 50, 2, 12})
	p := fastSlurm()
	p.MaxJobUser = 1
	checkStarts(t, "bf_max_job_user 1", run(p, js), []float64{0, 50, 60, 3})

	js = []qosTestJob{{slurmJob{0, 3, 100, 50}, 1, 0}, {slurmJob{1, 4, 100, 10}, 2, 0}, {slurmJob{2, 1, 200, 10}, 3, 0}}
	checkStarts(t, "no bf_min_age_reserve", run(fastSlurm(), js), []float64{0, 50, 60})
	p = fastSlurm()
	p.MinAgeReserve = 60
	checkStarts(t, "bf_min_age_reserve 60", run(p, js), []float64{0, 50, 2})

	p = fastSlurm()
	p.MaxJobUser = p.MaxJobTest + 1
	if err := p.Check(); err == nil || !strings.Contains(err.Error(), "bf_max_job_user: 501: want 0..bf_max_job_test (500)") {
		t.Errorf("check: %v", err)
	}
}

// sched_latency 2 s (seed 7, replication 0), on one node of 4 CPUs: job
// 1 (4 CPUs, runs 10) submitted at 0 starts after the first delay d1 of
// the stream; job 2 (4 CPUs) submitted at 5 is tested after d2 (the
// node is busy until d1 + 10); job 1's end calls a pass d3 later, and
// job 2 starts then: at d1 + 10 + d3. Each d in [0, 2]. Replication 1
// draws another d1; sched_latency 0 starts at 0 and 10.
func TestSlurmLatency(t *testing.T) {
	d := slurmDecl()
	ns := mustNodes(t, "n1:cores=4")
	starts := func(latency string, rep int) []float64 {
		v, err := option.Check(d.Options, map[string]string{"bf_interval": "1", "bf_resolution": "1", "sched_latency": latency})
		if err != nil {
			t.Fatal(err)
		}
		b, err := d.New(policy.Env{Nodes: ns, Seed: 7, Rep: rep}, v)
		if err != nil {
			t.Fatal(err)
		}
		got := engineNodes(t, ns, b.Nodes, []nodeJobSpec{{id: 1, submit: 0, dur: 10, est: 100, procs: 4}, {id: 2, submit: 5, dur: 10, est: 100, procs: 4}})
		return []float64{got[1].start, got[2].start}
	}
	r := rng.New(7, 0, "policy/backfill.slurm-latency")
	d1, _, d3 := 2*r.Float64(), 2*r.Float64(), 2*r.Float64()
	if d1 == 0 || d3 == 0 {
		t.Fatalf("draws %g %g: the test needs delays", d1, d3)
	}
	if got, want := starts("2", 0), []float64{d1, d1 + 10 + d3}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("latency 2: starts %v, want %v", got, want)
	}
	if got := starts("2", 1); got[0] == d1 || got[0] < 0 || got[0] > 2 {
		t.Errorf("replication 1: job 1 at %g (replication 0: %g)", got[0], d1)
	}
	if got := starts("0", 0); fmt.Sprint(got) != "[0 10]" {
		t.Errorf("latency 0: %v", got)
	}
	if _, err := option.Check(d.Options, map[string]string{"sched_latency": "61"}); err == nil {
		t.Error("sched_latency 61 accepted")
	}
}
