package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/scenario"
)

// The node planner of a run on nodes: auto plans by counts exactly when
// the policy is of the backfill family and every job asks for cores
// alone (an SWF trace; a job table whose rows ask for tasks of one CPU
// and nothing else, a row of 3 tasks for 5 processors too); counts
// forced where it cannot be is an error saying why; nodes forced is the
// node version. summary.json says which planned, and --check passes on
// a run planned by counts.
func TestNodePlannerChosen(t *testing.T) {
	dir := t.TempDir()
	table := func(name string, gpuRow string) string {
		p := filepath.Join(dir, name)
		text := "# schedlab job table v1\n# MaxProcs: 8\nid\tsubmit\truntime\tprocs\treq_time\ttasks\tgres_per_node\n" +
			"1\t0\t100\t4\t100\t0\t\n2\t1\t50\t5\t60\t3\t\n3\t2\t20\t2\t30\t0\t" + gpuRow + "\n4\t3\t10\t8\t10\t0\t\n"
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cpuTable, gpuTable := table("cpu.jobs", ""), table("gpu.jobs", "gpu:1")
	const swf = "testdata/explain.swf"
	for _, c := range []struct {
		trace, pol, planner, nodes string
		want                       string // the planner, or the error's text
	}{
		{swf, "easy", "", "n[1-2]:cores=4", PlannerCounts},
		{swf, "conservative", PlannerAuto, "n[1-4]:cores=1:threads=2", PlannerCounts},
		{swf, "easy", PlannerCounts, "n[1-2]:cores=4", PlannerCounts},
		{swf, "easy", PlannerNodes, "n[1-2]:cores=4", PlannerNodes},
		{swf, "slurm", "", "n[1-2]:cores=4", PlannerNodes},
		{swf, "slurm", PlannerCounts, "n[1-2]:cores=4", "--node-planner counts: policy slurm plans on nodes only"},
		{cpuTable, "easy", "", "n[1-2]:cores=4:gres=gpu=1", PlannerCounts},
		{gpuTable, "easy", "", "n[1-2]:cores=4:gres=gpu=1", PlannerNodes},
		{gpuTable, "fcfs", PlannerCounts, "n[1-2]:cores=4:gres=gpu=1", "--node-planner counts: some jobs of the workload ask for more than cores"},
	} {
		what := c.trace + " " + c.pol + " " + c.planner + " " + c.nodes
		spec := RunSpec{Workload: WorkloadSpec{Trace: c.trace}, Platform: PlatformSpec{Nodes: []string{c.nodes}},
			Policy: PolicySpec{Name: c.pol, NodePlanner: c.planner}, Outputs: OutputSpec{Dir: t.TempDir(), Check: true}}
		res, err := spec.Run()
		if c.want != PlannerCounts && c.want != PlannerNodes {
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: err = %v, want %q", what, err, c.want)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if res.Run.NodePlanner != c.want {
			t.Errorf("%s: planned by %q, want %q", what, res.Run.NodePlanner, c.want)
		}
		b, err := os.ReadFile(filepath.Join(spec.Outputs.Dir, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), `"node_planner": "`+c.want+`"`) {
			t.Errorf("%s: summary.json does not say node_planner %s", what, c.want)
		}
	}
	for _, bad := range []struct{ planner, msg string }{
		{"count", `--node-planner "count": want auto, counts or nodes`},
		{PlannerNodes, "--node-planner nodes: the node planner is for a platform of nodes (--nodes)"},
	} {
		err := (&RunSpec{Workload: WorkloadSpec{Trace: swf}, Policy: PolicySpec{Name: "easy", NodePlanner: bad.planner}}).Check()
		if err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("--node-planner %s on a pool: err = %v, want %q", bad.planner, err, bad.msg)
		}
	}
}

// mfOptions is a multifactor order in which age, fair-share and job
// size all count, so that the job size's scale changes the order.
var mfOptions = map[string]string{"order": "multifactor", "priority_weight_age": "1000", "priority_weight_fairshare": "1000",
	"priority_weight_job_size": "1000", "priority_max_age": "86400", "priority_decay_half_life": "86400"}

// By counts the multifactor order is the pool's too: its job size is a
// job's CPUs over the platform's CPUs, which on nodes of one thread are
// the pool's. EASY and conservative in the multifactor order start every
// one of KTH's first 3,000 jobs on 25 nodes of 4 cores as on the pool
// of 100 CPUs.
func TestByCountsMultifactorIsThePool(t *testing.T) {
	for _, pol := range []string{"easy", "conservative"} {
		run := func(p PlatformSpec) *startLog {
			t.Helper()
			l := &startLog{}
			if _, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", First: 3000}, Platform: p,
				Policy:  PolicySpec{Name: pol, Options: mfOptions},
				Outputs: OutputSpec{Listeners: []engine.Listener{l}}}).Run(); err != nil {
				t.Fatalf("%s: %v", pol, err)
			}
			return l
		}
		pool, onNodes := run(PlatformSpec{Procs: 100}), run(PlatformSpec{Nodes: []string{"n[1-25]:cores=4"}})
		if len(pool.order) != 3000 || len(onNodes.order) != 3000 {
			t.Fatalf("%s: %d jobs on the pool, %d on nodes", pol, len(pool.order), len(onNodes.order))
		}
		for _, k := range pool.order {
			if onNodes.starts[k] != pool.starts[k] {
				t.Fatalf("%s multifactor: job %d starts at %g on the pool, %g on nodes by counts", pol, k.id, pool.starts[k], onNodes.starts[k])
			}
		}
	}
}

// On nodes of two threads a core, the multifactor job size is over the
// platform's CPUs (200 here, for 100 cores) by counts as in the node
// version: EASY by counts and on nodes start every one of KTH's first
// 3,000 jobs at the same time (EASY's starts on nodes of cores alone are
// the pool's; only the order could tell the two apart: with the size
// over the cores, job 201 starts 35 s later by counts).
func TestByCountsMultifactorSizeIsOverCPUs(t *testing.T) {
	run := func(planner string) *startLog {
		t.Helper()
		l := &startLog{}
		if _, err := (RunSpec{Workload: WorkloadSpec{Trace: "KTH-SP2-1996-2.1-cln.swf.gz", First: 3000},
			Platform: PlatformSpec{Nodes: []string{"n[1-25]:cores=4:threads=2"}},
			Policy:   PolicySpec{Name: "easy", Options: mfOptions, NodePlanner: planner},
			Outputs:  OutputSpec{Listeners: []engine.Listener{l}}}).Run(); err != nil {
			t.Fatalf("%s: %v", planner, err)
		}
		return l
	}
	byCounts, onNodes := run(PlannerCounts), run(PlannerNodes)
	if len(byCounts.order) != 3000 || len(onNodes.order) != 3000 {
		t.Fatalf("%d jobs by counts, %d on nodes", len(byCounts.order), len(onNodes.order))
	}
	for _, k := range byCounts.order {
		if onNodes.starts[k] != byCounts.starts[k] {
			t.Fatalf("job %d starts at %g by counts, %g on nodes", k.id, byCounts.starts[k], onNodes.starts[k])
		}
	}
}

// A trace scenario's platform.node_planner reaches the run (TraceSpec),
// auto by default.
func TestScenarioNodePlanner(t *testing.T) {
	for _, c := range []struct{ line, want string }{{"", PlannerAuto}, {"  node_planner: nodes\n", PlannerNodes}, {"  node_planner: counts\n", PlannerCounts}} {
		src := "model: cluster\nstop: trace\nworkload: {trace: testdata/explain.swf}\nplatform:\n  nodes: [\"n[1-2]:cores=4\"]\n" + c.line + "policy: {queue: easy}\n"
		pts, err := scenario.Parse("p.yaml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		spec, err := TraceSpec(pts[0].Scenario, 0, "", false, nil)
		if err != nil {
			t.Fatal(err)
		}
		if spec.Policy.NodePlanner != c.want {
			t.Errorf("%q: node planner %q, want %q", c.line, spec.Policy.NodePlanner, c.want)
		}
	}
}
