package backfill

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy/option"
)

// limitJob is a job of the tests below with its user and group.
type limitJob struct {
	slurmJob
	user, group int32
}

// runLimits runs the slurm policy with p (order fcfs, or multifactor
// with mf) on one node of 4 cores and returns the starts (jobs numbered
// from 1).
func runLimits(t *testing.T, p SlurmParams, mf *Multifactor, js []limitJob) []float64 {
	t.Helper()
	ns := mustNodes(t, "n1:cores=4")
	c := NodeConfig{Name: "slurm", Nodes: ns, Order: OrderFCFS, Slurm: &p}
	if mf != nil {
		c.Order, c.MF = OrderMultifactor, mf
	}
	nb, err := NewNodePolicy(c)
	if err != nil {
		t.Fatal(err)
	}
	var specs []nodeJobSpec
	for i, j := range js {
		specs = append(specs, nodeJobSpec{id: job.ID(i + 1), submit: j.submit, dur: j.run, est: j.limit, procs: j.cpus,
			user: j.user, group: j.group, partition: -1, qo: -1})
	}
	got := engineNodes(t, ns, nb, specs)
	var s []float64
	for i := range js {
		g := got[job.ID(i+1)]
		if g == nil {
			t.Fatalf("job %d never started", i+1)
		}
		s = append(s, g.start)
	}
	return s
}

// bf_min_prio_reserve, by hand, on one node of 4 CPUs (bf_interval 1,
// bf_resolution 1). Jobs (submit, CPUs, limit, run): job 1 (0, 3, 100,
// 50), job 2 (1, 4, 100, 10), job 3 (2, 1, 200, 10).
//
//   - Without it: job 1 starts at 0; job 2 cannot start (1 CPU free),
//     stops the main scheduler and is reserved whole-node over
//     [100, 200) (job 1's limit); job 3's [2, 202) overlaps it: it
//     waits. Job 1 ends at 50: job 2 starts, ends at 60: job 3 starts.
//     Starts 0, 50, 60.
//   - priority/basic (order fcfs) gives the k-th job 4294901760 - k:
//     job 1 4294901759, job 2 4294901758, job 3 4294901757. With
//     bf_min_prio_reserve 4294901759 job 2 is below it: no reservation,
//     and the main scheduler goes on past it to job 3, which fits the
//     free CPU: starts at 2. Job 2 still starts when job 1 ends (50).
//     Starts 0, 50, 2. With 4294901758 job 2 is not below it (Slurm
//     tests priority < bf_min_prio_reserve): 0, 50, 60 again.
//   - multifactor with priority_weight_job_size 1000 on 4 CPUs: job 2
//     floor(1000 * 4/4) = 1000, job 3 floor(1000 * 1/4) = 250 (job 2
//     first in the queue). bf_min_prio_reserve 1001: job 2 below it,
//     job 3 starts at 2; 1000: job 2 reserved, job 3 waits for it (60).
func TestSlurmMinPrioReserve(t *testing.T) {
	js := []limitJob{{slurmJob{0, 3, 100, 50}, 1, 1}, {slurmJob{1, 4, 100, 10}, 2, 1}, {slurmJob{2, 1, 200, 10}, 3, 1}}
	checkStarts(t, "none", runLimits(t, fastSlurm(), nil, js), []float64{0, 50, 60})
	p := fastSlurm()
	p.MinPrioReserve = 4294901759
	checkStarts(t, "basic, 4294901759", runLimits(t, p, nil, js), []float64{0, 50, 2})
	p.MinPrioReserve = 4294901758
	checkStarts(t, "basic, 4294901758", runLimits(t, p, nil, js), []float64{0, 50, 60})

	mf := DefaultMultifactor()
	mf.WeightJobSize = 1000
	p.MinPrioReserve = 0
	checkStarts(t, "multifactor, none", runLimits(t, p, &mf, js), []float64{0, 50, 60})
	p.MinPrioReserve = 1001
	checkStarts(t, "multifactor, 1001", runLimits(t, p, &mf, js), []float64{0, 50, 2})
	p.MinPrioReserve = 1000
	checkStarts(t, "multifactor, 1000", runLimits(t, p, &mf, js), []float64{0, 50, 60})
}

// bf_max_job_part, bf_max_job_user_part and bf_max_job_assoc, by hand,
// on one node of 4 CPUs (bf_interval 1, bf_resolution 1; one partition,
// the policy's). Jobs (submit, CPUs, limit, run; user, group): job 1
// (0, 3, 100, 50; u1, g1), job 2 (1, 4, 100, 10; u2, g1), job 3 (2, 1,
// 30, 10; u2, g1), job 4 (3, 1, 30, 10; u3, g2).
//
//   - No limit: job 1 starts at 0; job 2 waits, reserved whole-node over
//     [100, 200); job 3 ([2, 32)) is backfilled at 2; at 3 the node is
//     full, job 4 waits until job 3 ends at 12 and is backfilled then
//     ([12, 42)). Job 2 starts at 50. Starts 0, 50, 2, 12.
//   - bf_max_job_part 1: every pass tests job 2 only and skips jobs 3
//     and 4; the main scheduler stops at job 2, so both wait for it:
//     job 2 at 50, jobs 3 and 4 at 60. Starts 0, 50, 60, 60.
//   - bf_max_job_user_part 1: job 3 is user 2's second job in the pass:
//     skipped in every pass, so the free CPU is still free at 3, when
//     job 4 (user 3) is backfilled on it ([3, 33) ends before 100). Job
//     3 waits for job 2 (60). Starts 0, 50, 60, 3.
//   - bf_max_job_user 1 with bf_max_job_part 2: job 3, skipped by the
//     user limit, does not count in the partition's (Slurm counts a job
//     only when no limit skips it): jobs 2 and 4 are the two tested,
//     job 4 backfilled at 3: 0, 50, 60, 3. With bf_max_job_test 2
//     instead, the same: job 3, skipped, does not count in it either
//     (Slurm counts the jobs it tries to place), job 4 is the second
//     job tested. With bf_max_job_test 1 the pass ends after job 2:
//     0, 50, 60, 60.
//   - bf_max_job_assoc 1: jobs 2 and 3 are one association (u2, g1):
//     job 3 skipped, 0, 50, 60, 3. With job 3 in group g2 (another
//     association of user 2) nothing is skipped: 0, 50, 2, 12.
func TestSlurmBackfillPartAndAssoc(t *testing.T) {
	js := []limitJob{{slurmJob{0, 3, 100, 50}, 1, 1}, {slurmJob{1, 4, 100, 10}, 2, 1},
		{slurmJob{2, 1, 30, 10}, 2, 1}, {slurmJob{3, 1, 30, 10}, 3, 2}}
	checkStarts(t, "no limit", runLimits(t, fastSlurm(), nil, js), []float64{0, 50, 2, 12})
	p := fastSlurm()
	p.MaxJobPart = 1
	checkStarts(t, "bf_max_job_part 1", runLimits(t, p, nil, js), []float64{0, 50, 60, 60})
	p = fastSlurm()
	p.MaxJobUserPart = 1
	checkStarts(t, "bf_max_job_user_part 1", runLimits(t, p, nil, js), []float64{0, 50, 60, 3})
	p = fastSlurm()
	p.MaxJobUser, p.MaxJobPart = 1, 2
	checkStarts(t, "bf_max_job_user 1, bf_max_job_part 2", runLimits(t, p, nil, js), []float64{0, 50, 60, 3})
	p = fastSlurm()
	p.MaxJobUser, p.MaxJobTest = 1, 2
	checkStarts(t, "bf_max_job_user 1, bf_max_job_test 2", runLimits(t, p, nil, js), []float64{0, 50, 60, 3})
	p.MaxJobUser, p.MaxJobTest = 1, 1
	checkStarts(t, "bf_max_job_user 1, bf_max_job_test 1", runLimits(t, p, nil, js), []float64{0, 50, 60, 60})
	p = fastSlurm()
	p.MaxJobAssoc = 1
	checkStarts(t, "bf_max_job_assoc 1", runLimits(t, p, nil, js), []float64{0, 50, 60, 3})
	js[2].group = 2
	checkStarts(t, "bf_max_job_assoc 1, job 3 in g2", runLimits(t, p, nil, js), []float64{0, 50, 2, 12})
}

// The options are checked, each error naming its option.
func TestSlurmLimitOptionsChecked(t *testing.T) {
	for _, c := range []struct {
		set  func(*SlurmParams)
		want string
	}{
		{func(p *SlurmParams) { p.MaxJobPart = 501 }, "bf_max_job_part: 501: want 0..bf_max_job_test (500)"},
		{func(p *SlurmParams) { p.MaxJobUserPart = -1 }, "bf_max_job_user_part: -1"},
		{func(p *SlurmParams) { p.MaxJobAssoc = 501 }, "bf_max_job_assoc: 501"},
		{func(p *SlurmParams) { p.MaxJobAssoc, p.MaxJobUser = 2, 3 }, "bf_max_job_assoc: 2 with bf_max_job_user 3: give one"},
		{func(p *SlurmParams) { p.MinPrioReserve = 1 << 32 }, "bf_min_prio_reserve: 4.294967296e+09: want a whole number in 0..4294967295"},
		{func(p *SlurmParams) { p.MinPrioReserve = 1.5 }, "bf_min_prio_reserve: 1.5"},
	} {
		p := fastSlurm()
		c.set(&p)
		if err := p.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("check: %v, want %q", err, c.want)
		}
	}
	d := slurmDecl()
	v, err := option.Check(d.Options, map[string]string{"bf_max_job_part": "3", "bf_max_job_user_part": "2", "bf_max_job_assoc": "1", "bf_min_prio_reserve": "4294967295"})
	if err != nil {
		t.Fatal(err)
	}
	if p := slurmFrom(v); p.MaxJobPart != 3 || p.MaxJobUserPart != 2 || p.MaxJobAssoc != 1 || p.MinPrioReserve != 4294967295 {
		t.Errorf("read %+v", p)
	}
	for name, bad := range map[string]string{"bf_max_job_part": "-1", "bf_max_job_user_part": "x", "bf_max_job_assoc": "1000001", "bf_min_prio_reserve": "4294967296"} {
		if _, err := option.Check(d.Options, map[string]string{name: bad}); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s=%s: %v", name, bad, err)
		}
	}
}

// bf_max_job_test and the QOS holds, by hand, on one node of 4 CPUs
// (bf_interval 1, bf_resolution 1, bf_max_job_test 2). Jobs (submit,
// CPUs, limit, run; user; QOS): job 1 (0, 3, 100, 50; u1, QOS 1), job 2
// (1, 4, 100, 10; u2, QOS 0), job 3 (2, 1, 30, 10; u1, QOS 1), job 4 (3,
// 1, 30, 10; u4, QOS 0). Job 1 starts at 0; job 2 waits (reserved over
// [100, 200)) and stops the main scheduler.
//
//   - QOS 1 MaxJobsPU 1: job 3 is held (user 1 runs job 1). Slurm skips
//     it before counting it (acct_policy_job_runnable_pre_select), so
//     job 4 is the pass's second job: backfilled at 3 on the free CPU.
//     Job 1 ends at 50: job 2 starts, ends at 60: job 3 starts. Starts
//     0, 50, 60, 3.
//   - QOS 1 MaxTRESPU cpu=3: job 3 is held (3 + 1 > 3), but Slurm tries
//     it before its CPU limit says no (post-select): it counts, and the
//     pass ends before job 4, which waits with job 3 for job 2: 0, 50,
//     60, 60.
func TestSlurmMaxJobTestQOS(t *testing.T) {
	js := []qosTestJob{{slurmJob{0, 3, 100, 50}, 1, 1}, {slurmJob{1, 4, 100, 10}, 2, 0},
		{slurmJob{2, 1, 30, 10}, 1, 1}, {slurmJob{3, 1, 30, 10}, 4, 0}}
	run := func(limits string) []float64 {
		t.Helper()
		p := fastSlurm()
		p.MaxJobTest = 2
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
		var s []float64
		for i := range js {
			s = append(s, got[job.ID(i+1)].start)
		}
		return s
	}
	checkStarts(t, "MaxJobsPU 1", run("1:maxjobspu=1"), []float64{0, 50, 60, 3})
	checkStarts(t, "MaxTRESPU cpu=3", run("1:maxcpuspu=3"), []float64{0, 50, 60, 60})
}
