package experiment

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
