package nodeuse

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
)

// platform: n1, n2 (4 cores, 16G each), g1 (8 cores, 64G, two
// gpu:a100), g2 (8 cores, memory not modelled, two gpu:v100 and one
// nvme): 4 nodes, 24 cores, 98,304 MB; kinds gpu:a100, gpu:v100, nvme.
func platform(t *testing.T) *nodes.Nodes {
	t.Helper()
	return nodestest.Must(t, "n[1-2]:cores=4:mem=16G", "g1:cores=8:mem=64G:gres=gpu:a100=2", "g2:cores=8:gres=gpu:v100=2,nvme=1")
}

func usage(ns *nodes.Nodes, cores int, mem int64, busy int, gres []int, waiting int, wg []int) *engine.Usage {
	return &engine.Usage{Nodes: &engine.NodeUsage{Platform: ns, Cores: cores, MemMB: mem, NodesBusy: busy,
		Kinds: ns.Kinds(), GRES: gres, Waiting: waiting, WaitingGRES: wg}}
}

func record(j *actual.Job, start, end float64) *engine.Record {
	return &engine.Record{Job: j, Start: start, End: end, State: job.Completed}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(b)) }

// Four jobs, worked by hand:
//
//	job  asks                     submit start end  on
//	 1   4 CPUs, 8192 MB          0      0     20   n1
//	 2   gpu:a100:2 per node      0      0     20   g1 (8 cores, a100 x2)
//	 3   gpu:2 per node           10     20    30   g1 (2 cores, a100 x2)
//	 4   4 CPUs                   14     20    30   n2
//
// Held: [0, 20) 12 cores, 8192 MB, 2 nodes, a100 2; [20, 30) 6 cores,
// 0 MB, 2 nodes, a100 2. Job 3 waits over [10, 20) and could use a100
// (none free) or v100 (2 free): 2 x 10 = 20 idle gpu unit-seconds.
//
//	cores  (12 x 20 + 6 x 10) / (24 x 30) = 300 / 720 = 5/12
//	memory 8192 x 20 / (98304 x 30) = 1/18
//	nodes  (2 x 20 + 2 x 10) / (4 x 30) = 1/2
//	a100   2 x 30 / (2 x 30) = 1, 60 unit-s = 1/60 h; v100 and nvme 0
//	GPU-hours 1/60; idle GPU-hours while GPU jobs wait 20/3600 = 1/180
//	GPU jobs 2, mean wait (0 + 10) / 2 = 5; others 2, (0 + 6) / 2 = 3
func TestMeterHandWorked(t *testing.T) {
	ns := platform(t)
	m := NewMeter(ns)
	j1 := &actual.Job{ID: 1, Submit: 0, Procs: 4}
	j2 := &actual.Job{ID: 2, Submit: 0, Procs: 8, Req: &nodes.Request{Tasks: 8, CPUsPerTask: 1,
		GRESPerNode: []nodes.GRES{{Name: "gpu", Type: "a100", Count: 2}}}}
	j3 := &actual.Job{ID: 3, Submit: 10, Procs: 2, Req: &nodes.Request{Tasks: 2, CPUsPerTask: 1,
		GRESPerNode: []nodes.GRES{{Name: "gpu", Count: 2}}}}
	j4 := &actual.Job{ID: 4, Submit: 14, Procs: 4}

	m.TimeAdvanced(0, usage(ns, 0, 0, 0, []int{0, 0, 0}, 0, []int{0, 0, 0}))
	m.JobSubmitted(0, j1)
	m.JobSubmitted(0, j2)
	m.JobStarted(0, engine.Start{Job: j1})
	m.JobStarted(0, engine.Start{Job: j2})
	m.TimeAdvanced(10, usage(ns, 12, 8192, 2, []int{2, 0, 0}, 0, []int{0, 0, 0}))
	m.JobSubmitted(10, j3)
	m.TimeAdvanced(14, usage(ns, 12, 8192, 2, []int{2, 0, 0}, 1, []int{1, 1, 0}))
	m.JobSubmitted(14, j4)
	m.TimeAdvanced(20, usage(ns, 12, 8192, 2, []int{2, 0, 0}, 2, []int{1, 1, 0}))
	m.JobFinished(20, record(j1, 0, 20))
	m.JobFinished(20, record(j2, 0, 20))
	m.JobStarted(20, engine.Start{Job: j3})
	m.JobStarted(20, engine.Start{Job: j4})
	m.TimeAdvanced(30, usage(ns, 6, 0, 2, []int{2, 0, 0}, 0, []int{0, 0, 0}))
	m.JobFinished(30, record(j3, 20, 30))
	m.JobFinished(30, record(j4, 20, 30))

	r := m.Result()
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"span", r.SpanS, 30},
		{"core utilization", r.CoreUtilization, 5.0 / 12},
		{"busy-node fraction", r.BusyNodeFraction, 0.5},
		{"GPU-hours", r.GPUHours, 1.0 / 60},
		{"idle GPU-hours", r.IdleGPUHoursWhileWaiting, 1.0 / 180},
		{"GPU jobs' mean wait", r.GPUJobsMeanWait, 5},
		{"other jobs' mean wait", r.OtherJobsMeanWait, 3},
	} {
		if !near(c.got, c.want) {
			t.Errorf("%s %g, want %g", c.name, c.got, c.want)
		}
	}
	if r.MemUtilization == nil || !near(*r.MemUtilization, 1.0/18) {
		t.Errorf("memory utilization %v, want 1/18", r.MemUtilization)
	}
	if r.Hostlist != "g[1-2],n[1-2]" {
		t.Errorf("hostlist %q", r.Hostlist)
	}
	if r.GPUJobs != 2 || r.OtherJobs != 2 || r.Nodes != 4 || r.Cores != 24 || r.MemMB != 98304 {
		t.Errorf("counts %d GPU jobs, %d others, %d nodes, %d cores, %d MB", r.GPUJobs, r.OtherJobs, r.Nodes, r.Cores, r.MemMB)
	}
	want := []KindUse{{"gpu:a100", 2, 1, 1.0 / 60}, {"gpu:v100", 2, 0, 0}, {"nvme", 1, 0, 0}}
	if len(r.GRES) != len(want) {
		t.Fatalf("GRES %+v, want %+v", r.GRES, want)
	}
	for i, w := range want {
		g := r.GRES[i]
		if g.Kind != w.Kind || g.Units != w.Units || !near(g.Utilization, w.Utilization) || !near(g.UnitHours, w.UnitHours) {
			t.Errorf("GRES %d: %+v, want %+v", i, g, w)
		}
	}
}

// Without memory on any node there is no memory utilization; without a
// job, every value is 0 (no division by a zero span).
func TestMeterEmpty(t *testing.T) {
	ns := *nodestest.Must(t, "c[1-2]:cores=2")
	r := NewMeter(&ns).Result()
	if r.MemUtilization != nil || r.CoreUtilization != 0 || r.SpanS != 0 || len(r.GRES) != 0 || r.GRES == nil {
		t.Fatalf("%+v", r)
	}
}

// A usage on a pool of CPUs, and a second call at the same instant, add
// nothing.
func TestMeterNoNodesSameInstant(t *testing.T) {
	ns := platform(t)
	m := NewMeter(ns)
	m.JobSubmitted(0, &actual.Job{ID: 1})
	m.TimeAdvanced(5, &engine.Usage{Busy: []int{3}})
	m.TimeAdvanced(10, usage(ns, 24, 0, 4, []int{2, 2, 1}, 0, []int{0, 0, 0}))
	m.TimeAdvanced(10, usage(ns, 24, 0, 4, []int{2, 2, 1}, 0, []int{0, 0, 0}))
	m.JobFinished(10, record(&actual.Job{ID: 1}, 0, 10))
	r := m.Result()
	// [5, 10) full: 5 of the span's 10 seconds.
	if !near(r.CoreUtilization, 0.5) || !near(r.GPUHours, 4*5.0/3600) {
		t.Fatalf("core utilization %g, GPU-hours %g; want 0.5 and %g", r.CoreUtilization, r.GPUHours, 4*5.0/3600)
	}
}

// Random runs: jobs hold random amounts (within the platform) between
// random instants. Every utilization is in [0, 1], and the integrals
// agree with a sum over the intervals made independently.
func TestMeterInvariants(t *testing.T) {
	ns := platform(t)
	tot := ns.Totals()
	rng := rand.New(rand.NewPCG(7, 11))
	for run := range 200 {
		m := NewMeter(ns)
		m.JobSubmitted(0, &actual.Job{ID: 1})
		now, coreS, idle := 0.0, 0.0, 0.0
		var gpuS float64
		cores, gres, wg := 0, []int{0, 0, 0}, []int{0, 0, 0}
		for range 1 + rng.IntN(20) {
			next := now + float64(rng.IntN(100))
			m.TimeAdvanced(next, usage(ns, cores, int64(cores)*1000, min(cores, tot.Nodes), gres, wg[0]+wg[1], wg))
			coreS += float64(cores) * (next - now)
			gpuS += float64(gres[0]+gres[1]) * (next - now)
			for k := range 2 {
				if wg[k] > 0 {
					idle += float64(tot.GRES[k].Count-gres[k]) * (next - now)
				}
			}
			now = next
			cores = rng.IntN(tot.Cores + 1)
			for k := range gres {
				gres[k] = rng.IntN(tot.GRES[k].Count + 1)
				wg[k] = rng.IntN(2)
			}
		}
		m.TimeAdvanced(now+1, usage(ns, cores, int64(cores)*1000, min(cores, tot.Nodes), gres, wg[0]+wg[1], wg)) // what was set last is held 1 s
		coreS += float64(cores)
		gpuS += float64(gres[0] + gres[1])
		for k := range 2 {
			if wg[k] > 0 {
				idle += float64(tot.GRES[k].Count - gres[k])
			}
		}
		m.JobFinished(now+1, record(&actual.Job{ID: 1}, 0, now+1))
		r := m.Result()
		vals := []float64{r.CoreUtilization, *r.MemUtilization, r.BusyNodeFraction}
		for _, g := range r.GRES {
			vals = append(vals, g.Utilization)
		}
		for i, v := range vals {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("run %d: utilization %d is %g", run, i, v)
			}
		}
		if !near(r.CoreUtilization*float64(tot.Cores)*r.SpanS, coreS) || !near(r.GPUHours*3600, gpuS) || !near(r.IdleGPUHoursWhileWaiting*3600, idle) {
			t.Fatalf("run %d: core-s %g, GPU-s %g, idle %g; independently %g, %g, %g", run,
				r.CoreUtilization*float64(tot.Cores)*r.SpanS, r.GPUHours*3600, r.IdleGPUHoursWhileWaiting*3600, coreS, gpuS, idle)
		}
	}
}

func TestAsksGPU(t *testing.T) {
	for _, c := range []struct {
		r    *nodes.Request
		want bool
	}{
		{nil, false},
		{&nodes.Request{Tasks: 1, CPUsPerTask: 1}, false},
		{&nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []nodes.GRES{{Name: "nvme", Count: 1}}}, false},
		{&nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerJob: []nodes.GRES{{Name: "gpu", Count: 1}}}, true},
		{&nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []nodes.GRES{{Name: "nvme", Count: 1}, {Name: "gpu", Type: "v100", Count: 1}}}, true},
	} {
		if got := AsksGPU(c.r); got != c.want {
			t.Errorf("AsksGPU(%+v) = %v, want %v", c.r, got, c.want)
		}
	}
}
