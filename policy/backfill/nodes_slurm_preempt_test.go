package backfill

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/workload"
)

// preemptRecorder records every run of every job: its starts, its end
// and final state, and the preemptions.
type preemptRecorder struct {
	engine.NopListener
	starts map[job.ID][]float64
	ends   map[job.ID]string
	pre    []string
}

func (r *preemptRecorder) JobStarted(now float64, s engine.Start) {
	r.starts[s.Job.ID] = append(r.starts[s.Job.ID], now)
}
func (r *preemptRecorder) JobFinished(now float64, rec *engine.Record) {
	r.ends[rec.Job.ID] = fmt.Sprintf("%g %v", now, rec.State)
}
func (r *preemptRecorder) JobKilled(now float64, rec *engine.Record) {
	r.ends[rec.Job.ID] = fmt.Sprintf("%g %v", now, rec.State)
}
func (r *preemptRecorder) JobPreempted(now float64, rec *engine.Record, requeued bool) {
	r.pre = append(r.pre, fmt.Sprintf("job %d at %g (started %g, requeued %v)", rec.Job.ID, now, rec.Start, requeued))
}

// runPreempt runs the slurm policy (bf_interval 1, bf_resolution 1,
// order fcfs) with preempt_type qos on 2 nodes of 4 cores.
func runPreempt(t *testing.T, preempts string, requeue, youngest bool, credExpire float64, js []qosTestJob) (*preemptRecorder, engine.Stats) {
	t.Helper()
	p := fastSlurm()
	list, err := ParseQOSPreempt(preempts)
	if err != nil {
		t.Fatal(err)
	}
	p.Preempt = &SlurmPreempt{Preempts: list, Requeue: requeue, CredExpire: credExpire, YoungestFirst: youngest}
	ns := mustNodes(t, "n[1-2]:cores=4")
	nb, err := NewNodePolicy(NodeConfig{Name: "slurm", Nodes: ns, Order: OrderFCFS, Slurm: &p})
	if err != nil {
		t.Fatal(err)
	}
	jobs := make([]actual.Job, len(js))
	for i, j := range js {
		jobs[i] = actual.Job{ID: job.ID(i + 1), Submit: j.submit, Procs: j.cpus, Runtime: j.run, Request: -1, Estimate: j.limit,
			User: j.user, Group: -1, Partition: -1, QOS: j.qos}
	}
	rec := &preemptRecorder{starts: map[job.ID][]float64{}, ends: map[job.ID]string{}}
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: Slurm{nb}, Source: workload.FromSlice(jobs), Listener: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return rec, c.Stats()
}

// Preemption by QOS on 2 nodes of 4 cores, worked by hand. QOS 1 is
// low, QOS 2 high; qos_preempt 2:1 (high preempts low), cred_expire
// 100. Jobs (submit, CPUs, limit, run; user; QOS):
//
//	1: 0, 4, 1000, 500; QOS 1     2: 1, 4, 1000, 500; QOS 1
//	3: 10, 2, 100, 100; QOS 2     4: 20, 2, 50, 50; QOS 1
//
// Job 1 takes n1 whole at 0, job 2 n2 at 1. At 10 job 3 (high) fits
// nowhere; its candidates are jobs 1 and 2 (low), in Slurm's order: QOS
// priority 0 and 1 node each, tied, so in submission order: job 1.
// Removing job 1 frees n1, where job 3 fits: job 1 is preempted at 10,
// and job 3 starts at 10 on n1, at the pass that follows at the same
// instant.
//
//   - REQUEUE: job 1 waits again, startable at its BeginTime 10 + 100 +
//     1 = 111. At 20 job 4 (low, 2 CPUs) finds n1's other 2 cores free:
//     the main scheduler passes over job 1 (BeginTime, ahead of it in
//     FCFS order) and starts job 4 at 20; it ends at 70. Job 3 ends at
//     110; at 111 (the policy's wake-up) job 1 starts again on n1, and
//     ends at 111 + 500 = 611 (its second run, COMPLETED_SUCCESSFULLY).
//     Job 2 ends at 501.
//   - CANCEL: job 1 ends at 10, COMPLETED_PREEMPTED; jobs 3 and 4 as
//     above.
//   - preempt_youngest_first: the latest started goes first, job 2 (at
//     1): it is preempted, and everything above happens on n2 instead,
//     with jobs 1 and 2 swapped (job 1 ends at 500).
//   - No QOS preempts QOS 1 (qos_preempt 2:3): job 3 waits for an end;
//     job 1 ends at 500, where job 3 takes 2 cores of n1 and job 4 the
//     other 2.
func TestSlurmPreemptByHand(t *testing.T) {
	js := []qosTestJob{
		{slurmJob{0, 4, 1000, 500}, 1, 1}, {slurmJob{1, 4, 1000, 500}, 2, 1},
		{slurmJob{10, 2, 100, 100}, 3, 2}, {slurmJob{20, 2, 50, 50}, 4, 1},
	}
	for _, c := range []struct {
		name, preempts    string
		requeue, youngest bool
		starts            map[job.ID][]float64
		ends              map[job.ID]string
		pre               []string
		preempted, req    int64
	}{
		{"requeue", "2:1", true, false,
			map[job.ID][]float64{1: {0, 111}, 2: {1}, 3: {10}, 4: {20}},
			map[job.ID]string{1: "611 COMPLETED_SUCCESSFULLY", 2: "501 COMPLETED_SUCCESSFULLY", 3: "110 COMPLETED_SUCCESSFULLY", 4: "70 COMPLETED_SUCCESSFULLY"},
			[]string{"job 1 at 10 (started 0, requeued true)"}, 1, 1},
		{"cancel", "2:1", false, false,
			map[job.ID][]float64{1: {0}, 2: {1}, 3: {10}, 4: {20}},
			map[job.ID]string{1: "10 COMPLETED_PREEMPTED", 2: "501 COMPLETED_SUCCESSFULLY", 3: "110 COMPLETED_SUCCESSFULLY", 4: "70 COMPLETED_SUCCESSFULLY"},
			[]string{"job 1 at 10 (started 0, requeued false)"}, 1, 0},
		{"youngest-first", "2:1", true, true,
			map[job.ID][]float64{1: {0}, 2: {1, 111}, 3: {10}, 4: {20}},
			map[job.ID]string{1: "500 COMPLETED_SUCCESSFULLY", 2: "611 COMPLETED_SUCCESSFULLY", 3: "110 COMPLETED_SUCCESSFULLY", 4: "70 COMPLETED_SUCCESSFULLY"},
			[]string{"job 2 at 10 (started 1, requeued true)"}, 1, 1},
		{"other-qos", "2:3", true, false,
			map[job.ID][]float64{1: {0}, 2: {1}, 3: {500}, 4: {500}},
			map[job.ID]string{1: "500 COMPLETED_SUCCESSFULLY", 2: "501 COMPLETED_SUCCESSFULLY", 3: "600 COMPLETED_SUCCESSFULLY", 4: "550 COMPLETED_SUCCESSFULLY"},
			nil, 0, 0},
	} {
		rec, st := runPreempt(t, c.preempts, c.requeue, c.youngest, 100, js)
		for id, want := range c.starts {
			if got := rec.starts[id]; !slices.Equal(got, want) {
				t.Errorf("%s: job %d started at %v, want %v", c.name, id, got, want)
			}
		}
		for id, want := range c.ends {
			if got := rec.ends[id]; got != want {
				t.Errorf("%s: job %d ended %q, want %q", c.name, id, got, want)
			}
		}
		if !slices.Equal(rec.pre, c.pre) {
			t.Errorf("%s: preemptions %q, want %q", c.name, rec.pre, c.pre)
		}
		if st.Preempted != c.preempted || st.PreemptRequeued != c.req {
			t.Errorf("%s: stats preempted %d, requeued %d; want %d, %d", c.name, st.Preempted, st.PreemptRequeued, c.preempted, c.req)
		}
	}
}

// The preemption options are checked together, and qos_preempt's text
// entry by entry.
func TestSlurmPreemptOptions(t *testing.T) {
	d := slurmDecl()
	for _, c := range []struct {
		set  map[string]string
		want string
	}{
		{map[string]string{"preempt_type": "qos", "qos_preempt": "2:1"}, "preempt_mode off"},
		{map[string]string{"preempt_mode": "requeue"}, "with preempt_type none"},
		{map[string]string{"qos_preempt": "2:1"}, "qos_preempt with preempt_type none"},
		{map[string]string{"preempt_type": "qos", "preempt_mode": "cancel"}, "without qos_preempt"},
		{map[string]string{"preempt_type": "qos", "preempt_mode": "cancel", "qos_preempt": "2:2"}, "preempts itself"},
		{map[string]string{"preempt_type": "qos", "preempt_mode": "cancel", "qos_preempt": "2"}, "want QOS:QOS"},
		{map[string]string{"preempt_type": "qos", "preempt_mode": "cancel", "qos_preempt": "2:x"}, `"x" is not a QOS number`},
		{map[string]string{"preempt_type": "qos", "preempt_mode": "cancel", "qos_preempt": "2:1,2:3"}, "QOS 2 given twice"},
		{map[string]string{"cred_expire": "86401"}, "cred_expire"},
		{map[string]string{"cred_expire": "4"}, "cred_expire"},
	} {
		v, err := option.Check(d.Options, c.set)
		if err == nil && d.Check != nil {
			err = d.Check(v)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want one containing %q", c.set, err, c.want)
		}
	}
	if got, err := ParseQOSPreempt(" 3:1+2+1, 2:1 "); err != nil || !slices.Equal(got[3], []int32{1, 2}) || !slices.Equal(got[2], []int32{1}) {
		t.Errorf("ParseQOSPreempt: %v, %v", got, err)
	}
}
