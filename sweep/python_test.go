package sweep

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/scenario"
)

// pythonWithSchedlab returns an interpreter that imports the schedlab
// package from ../python ($SCHEDLAB_PYTHON, else python3), or skips.
func pythonWithSchedlab(t *testing.T) (python, pkg string) {
	t.Helper()
	python = os.Getenv("SCHEDLAB_PYTHON")
	if python == "" {
		python = "python3"
	}
	if _, err := exec.LookPath(python); err != nil {
		t.Skipf("no %s: %v", python, err)
	}
	pkg, err := filepath.Abs("../python")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "-c", "import schedlab.serve")
	cmd.Env = append(os.Environ(), "PYTHONPATH="+pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("%s cannot import the schedlab package from %s (pip install -r python/requirements-test.txt; or set SCHEDLAB_PYTHON): %v: %s", python, pkg, err, lastLine(out))
	}
	return python, pkg
}

func lastLine(b []byte) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return lines[len(lines)-1]
}

// A scenario sweeping a Python policy (examples/python/fcfs.py's strict
// FCFS, served by python -m schedlab.serve, found through option path)
// beside the built-in easy and fcfs, 3 replications of a Lublin
// workload: the Python policy's every replication equals the built-in
// fcfs's (the same schedule: strict FCFS both), so its paired
// differences against fcfs are exactly zero, and the sweep's comparisons
// pair it with the axis's first value, easy, with a 95% interval of 3
// replications, the same as fcfs's against easy. Two workers give the
// numbers of one.
func TestPythonPolicyInSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Python process per replication")
	}
	python, pkg := pythonWithSchedlab(t)
	src := fmt.Sprintf(`name: python-sweep
model: cluster
seed: 7
replications: 3
stop: {completed: 300}
platform: {procs: 64}
workload: {model: lublin, load: 0.8}
policy:
  queue: [easy, python, fcfs]
  class: ../examples/python/fcfs.py:FCFS
  python: %q
  path: %q
`, python, pkg)
	pts, err := scenario.Parse("python-sweep.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 3 {
		t.Fatalf("%d points, want 3", len(pts))
	}
	one, err := Sweep(pts, t.TempDir(), 1, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	two, err := Sweep(pts, t.TempDir(), 2, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	byName := func(rs []PointResult, i int) map[string]Metric {
		m := map[string]Metric{}
		for _, x := range rs[i].Metrics {
			m[x.Name] = x
		}
		return m
	}
	py, fcfs, easy := byName(one, 1), byName(one, 2), byName(one, 0)
	if len(py) == 0 || len(py) != len(fcfs) {
		t.Fatalf("python point has %d metrics, fcfs %d", len(py), len(fcfs))
	}
	for name, f := range fcfs {
		p := py[name]
		if p.N != 3 || !slices.Equal(p.Values, f.Values) {
			t.Errorf("%s: python %v (n=%d), built-in fcfs %v", name, p.Values, p.N, f.Values)
		}
		if p2 := byName(two, 1)[name]; !slices.Equal(p2.Values, p.Values) {
			t.Errorf("%s: two workers %v, one %v", name, p2.Values, p.Values)
		}
	}
	// the replications differ (other jobs), so the comparison is one
	if w := py["mean_wait"].Values; w[0] == w[1] && w[1] == w[2] {
		t.Errorf("mean_wait %v: the same in every replication", w)
	}
	if easy["mean_wait"].Mean >= py["mean_wait"].Mean {
		t.Errorf("mean wait: easy %g, python FCFS %g: want EASY's lower at load 0.8", easy["mean_wait"].Mean, py["mean_wait"].Mean)
	}
	cmp := Compare(pts, one)
	got := map[string]Comparison{}
	for _, c := range cmp {
		if c.Axis != "policy.queue" || c.Baseline != "easy" {
			t.Errorf("comparison %+v: want policy.queue against easy", c)
		}
		got[c.Value+" "+c.Metric] = c
	}
	for _, metric := range []string{"mean_wait", "mean_bounded_slowdown", "utilization"} {
		p, ok := got["python "+metric]
		f := got["fcfs "+metric]
		if !ok {
			t.Errorf("no paired comparison of python against easy on %s", metric)
			continue
		}
		if p.Diff.N != 3 || p.Diff != f.Diff {
			t.Errorf("%s: python-easy %+v, fcfs-easy %+v: want the same paired CI of 3 replications", metric, p.Diff, f.Diff)
		}
		if !(p.Diff.Low <= p.Diff.Mean && p.Diff.Mean <= p.Diff.High) || p.Diff.Low == p.Diff.High {
			t.Errorf("%s: python-easy interval %+v", metric, p.Diff)
		}
	}
	var b strings.Builder
	if err := WriteComparisonsCSV(&b, cmp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "\npolicy.queue,easy,python,,mean_wait,") {
		t.Errorf("comparisons.csv has no row python against easy on mean_wait:\n%s", b.String())
	}
}
