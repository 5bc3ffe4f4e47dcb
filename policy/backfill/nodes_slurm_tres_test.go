package backfill

import (
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
)

// tresJob is a job of the tests below: submit, request, limit, run;
// user; QOS.
type tresJob struct {
	submit     float64
	req        *nodes.Request
	limit, run float64
	user, qos  int32
}

// runTRES runs the slurm policy (bf_interval 1, bf_resolution 1) with
// the qos_limits text on platform spec and returns the starts.
func runTRES(t *testing.T, spec, limits string, js []tresJob) []float64 {
	t.Helper()
	p := fastSlurm()
	var err error
	if p.QOS, err = ParseQOSLimits(limits); err != nil {
		t.Fatal(err)
	}
	ns := mustNodes(t, spec)
	nb, err := NewNodePolicy(NodeConfig{Name: "slurm", Nodes: ns, Order: OrderFCFS, Slurm: &p})
	if err != nil {
		t.Fatal(err)
	}
	var specs []nodeJobSpec
	for i, j := range js {
		specs = append(specs, nodeJobSpec{id: job.ID(i + 1), submit: j.submit, dur: j.run, est: j.limit, req: j.req, procs: j.req.CPUs(),
			user: j.user, qo: j.qos, partition: -1, group: -1})
	}
	got := engineNodes(t, ns, SlurmQOS{nb}, specs)
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

// QOS limits on GPUs (gres/gpu), worked by hand on n1 and n2, each 4
// cores and 2 GPUs. Jobs (submit, request, limit, run; user; all in QOS
// 1): job 1 (0, 1 task and 2 GPUs, 100, 50; u1), job 2 (1, 1 task and 1
// GPU, 100, 10; u1), job 3 (2, 1 task and 2 GPUs, 100, 10; u2).
// Without limits job 2 starts at 1 on n2, and job 3, which needs both
// GPUs of one node, when job 2 ends: 0, 1, 11.
//
//   - MaxTRESPU gres/gpu=2: job 1 starts at 0 on n1 (its 2 GPUs); job 2
//     is held, 2 + 1 > 2 (QOSMaxGRESPerUser), though n2's 2 GPUs are
//     free; job 3 (user 2: 0 + 2) starts at 2 on n2. Job 1 ends at 50:
//     job 2 starts. Starts 0, 50, 2.
//   - GrpTRES gres/gpu=3: job 2 starts at 1 (2 + 1 <= 3, on n2); job 3
//     is held (3 + 2 > 3, QOSGrpGRES) after job 2 ends at 11 too (2 + 2
//     > 3), until job 1 ends at 50. Starts 0, 1, 50.
func TestSlurmQOSGPULimits(t *testing.T) {
	js := []tresJob{{0, gpuReq(1, 2), 100, 50, 1, 1}, {1, gpuReq(1, 1), 100, 10, 1, 1}, {2, gpuReq(1, 2), 100, 10, 2, 1}}
	spec := "n[1-2]:cores=4:gres=gpu=2"
	checkStarts(t, "no limit", runTRES(t, spec, "", js), []float64{0, 1, 11})
	checkStarts(t, "maxgpuspu 2", runTRES(t, spec, "1:maxgpuspu=2", js), []float64{0, 50, 2})
	checkStarts(t, "grpgpus 3", runTRES(t, spec, "1:grpgpus=3", js), []float64{0, 1, 50})
}

// QOS limits on memory (mem, MB), worked by hand on n1 and n2, each 4
// cores and 8000 MB. Jobs (all in QOS 1): job 1 (0, 1 task and 4000 MB a
// node, limit 100, runs 50; u1), job 2 (1, 1 task of 3000 MB a CPU, 100,
// 10; u1), job 3 (2, 2 tasks of 3000 MB a CPU, 100, 10; u2).
// Without limits: 0, 1 (n1, beside job 1), 2 (n2).
//
//   - MaxTRESPU mem=6000M: job 1 at 0 (n1, 4000 MB); job 2 held, 4000 +
//     3000 > 6000 (QOSMaxMemoryPerUser); job 3 (user 2, 6000 <= 6000)
//     starts at 2. Job 1 ends at 50: job 2 starts. Starts 0, 50, 2.
//   - GrpTRES mem=10000M: job 2 starts at 1 (7000 <= 10000, on n1 beside
//     job 1: 7000 of its 8000 MB); job 3 held (7000 + 6000 > 10000,
//     QOSGrpMemLimit) until job 2 ends at 11 (4000 + 6000 = 10000), then
//     on n2. Starts 0, 1, 11.
func TestSlurmQOSMemLimits(t *testing.T) {
	mem := func(tasks int, perNode, perCPU int64) *nodes.Request {
		return &nodes.Request{Tasks: tasks, CPUsPerTask: 1, MemPerNodeMB: perNode, MemPerCPUMB: perCPU}
	}
	js := []tresJob{{0, mem(1, 4000, 0), 100, 50, 1, 1}, {1, mem(1, 0, 3000), 100, 10, 1, 1}, {2, mem(2, 0, 3000), 100, 10, 2, 1}}
	spec := "n[1-2]:cores=4:mem=8000"
	checkStarts(t, "no limit", runTRES(t, spec, "", js), []float64{0, 1, 2})
	checkStarts(t, "maxmempu 6000", runTRES(t, spec, "1:maxmempu=6000", js), []float64{0, 50, 2})
	checkStarts(t, "grpmem 10000", runTRES(t, spec, "1:grpmem=10000", js), []float64{0, 1, 11})
}

// A job asking more GPUs or memory than its QOS allows a user or the
// QOS is refused at submission, naming the limit; the option's text
// round-trips.
func TestSlurmQOSTRESRefuse(t *testing.T) {
	limits, err := ParseQOSLimits("1:maxgpuspu=2:grpmem=5000,2:grpgpus=1:maxmempu=100")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := FormatQOSLimits(limits), "1:grpmem=5000:maxgpuspu=2,2:maxmempu=100:grpgpus=1"; got != want {
		t.Errorf("format %q, want %q", got, want)
	}
	for _, c := range []struct {
		j    job.Info
		want string
	}{
		{job.Info{QOS: 1, Req: &nodes.Request{Nodes: 2, Tasks: 2, CPUsPerTask: 1, GRESPerNode: []nodes.GRES{{Name: "gpu", Count: 2}}}}, "QOSMaxGRESPerUser: 4 GPUs above the QOS 1's MaxTRESPU gres/gpu=2"},
		{job.Info{QOS: 1, Req: &nodes.Request{Tasks: 2, CPUsPerTask: 1, MemPerCPUMB: 3000}}, "QOSGrpMemLimit: 6000 MB above the QOS 1's GrpTRES mem=5000M"},
		{job.Info{QOS: 2, Req: &nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerJob: []nodes.GRES{{Name: "gpu", Type: "a100", Count: 2}}}}, "QOSGrpGRES: 2 GPUs above the QOS 2's GrpTRES gres/gpu=1"},
		{job.Info{QOS: 2, Req: &nodes.Request{Nodes: 2, Tasks: 2, CPUsPerTask: 1, MemPerNodeMB: 60}}, "QOSMaxMemoryPerUser: 120 MB above the QOS 2's MaxTRESPU mem=100M"},
		{job.Info{QOS: 2, Req: &nodes.Request{Tasks: 1, CPUsPerTask: 1, MemPerNodeMB: 100}}, ""},
	} {
		if got := refuseQOS(limits, &c.j); got != c.want {
			t.Errorf("refuse %+v: %q, want %q", c.j.Req, got, c.want)
		}
	}
	if _, err := ParseQOSLimits("1:grpmem=0"); err == nil || !strings.Contains(err.Error(), "grpmem") {
		t.Errorf("grpmem=0: %v", err)
	}
	if _, err := ParseQOSLimits("1:maxgpus=1"); err == nil || !strings.Contains(err.Error(), `unknown limit "maxgpus"`) {
		t.Errorf("maxgpus: %v", err)
	}
}
