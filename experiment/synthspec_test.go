package experiment

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/workload/synth"
)

// The orders of a synthetic run's generator stages and outputs decide
// results (the wrappers' nesting, the listeners' order), and which
// outputs a model's run opens is its metrics: both are pinned here.
func TestSynthStageOrder(t *testing.T) {
	var stages, outs, models []string
	for _, s := range genStages {
		stages = append(stages, s.name)
	}
	for _, o := range synthOutputs {
		outs = append(outs, o.name)
	}
	for _, m := range synthModels {
		models = append(models, m.name)
	}
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"genStages", stages, []string{"poisson", "workload model", "exact", "submit-zero"}},
		{"synthOutputs", outs, []string{"summary", "gang metrics", "responses", "occupancy", "deadlines", "queue at events", "listeners", "records", "user waits"}},
		{"synthModels", models, []string{"cluster", "grid", "gang", "hetero"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("%s = %q, want %q (docs/extending.md lists them)", c.what, c.got, c.want)
		}
	}
	var buf bytes.Buffer
	for _, c := range []struct {
		spec RunSpec
		w    bool // records
		want []string
	}{
		{RunSpec{Model: registry.ModelCluster, Outputs: OutputSpec{Responses: true, Metrics: []string{"user3_mean_wait"}, Listeners: []engine.Listener{engine.NopListener{}}}},
			true, []string{"summary", "responses", "listeners", "records", "user waits"}},
		{RunSpec{Model: registry.ModelCluster}, false, []string{"summary"}},
		{RunSpec{Model: registry.ModelGrid, Outputs: OutputSpec{Responses: true, Listeners: []engine.Listener{engine.NopListener{}}}},
			false, []string{"summary", "occupancy", "listeners"}},
		{RunSpec{Model: registry.ModelGang, Outputs: OutputSpec{Metrics: []string{"user3_mean_wait"}}}, false, []string{"gang metrics", "occupancy"}},
		{RunSpec{Model: registry.ModelHetero}, true, []string{"summary", "deadlines", "queue at events", "records"}},
	} {
		a := &synthAsm{s: c.spec}
		if c.w {
			a.w = &buf
		}
		var got []string
		for _, o := range synthOutputs {
			if o.applies(a) {
				got = append(got, o.name)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s outputs = %q, want %q", c.spec.Model, got, c.want)
		}
	}
}

// Check of a synthetic run reports every problem of its model, each
// named by its scenario setting, in the words the runs always used.
func TestSynthCheckEveryProblem(t *testing.T) {
	for _, c := range []struct {
		spec RunSpec
		want []string // setting: message
	}{
		{RunSpec{Model: registry.ModelCluster, Workload: WorkloadSpec{Synthetic: &SyntheticSpec{}}}, []string{
			"stop.completed: cluster model with a synthetic workload: give stop.completed",
			"platform.procs: cluster model with a synthetic workload: give platform.procs"}},
		{RunSpec{Model: registry.ModelCluster, Workload: WorkloadSpec{Synthetic: &SyntheticSpec{Stop: 5}}, Platform: PlatformSpec{Procs: 4}}, nil},
		{RunSpec{Model: registry.ModelGrid, Workload: WorkloadSpec{Synthetic: &SyntheticSpec{}}}, []string{"platform.sites: grid model: no sites"}},
		{RunSpec{Model: registry.ModelGang, Workload: WorkloadSpec{Synthetic: &SyntheticSpec{}}, Platform: PlatformSpec{Sites: []SiteSpec{{Procs: 2}, {Procs: 2, Speed: 1.5}}}},
			[]string{"platform.sites: gang model: site speeds other than 1 are not modelled (site 1 has 1.5)"}},
		{RunSpec{Model: registry.ModelHetero, Workload: WorkloadSpec{Synthetic: &SyntheticSpec{Warmup: 3}}}, []string{
			fmt.Sprintf("stop.completed: hetero model: stop.completed 0 (want 1..%d jobs)", synth.MaxHeteroJobs),
			"warmup.jobs: hetero model: warmup.jobs is not supported (the metrics cover every job)"}},
		{RunSpec{Model: "nosuch", Workload: WorkloadSpec{Synthetic: &SyntheticSpec{}}}, []string{"model: model nosuch: no runner in package experiment"}},
	} {
		var got []string
		for _, p := range Problems(c.spec.Check()) {
			got = append(got, p.Setting+": "+p.Error())
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: problems\n%q\nwant\n%q", c.spec.Model, got, c.want)
		}
	}
}

// SynthSpec binds a scenario's settings to typed values: the gang
// model's approach as its registry name, sizes and shared times as
// flags; the hetero model's BM_est range from the sites' speeds rounded
// outward, alea's factor fixed.
func TestSynthSpecFromScenario(t *testing.T) {
	g := scenario.Scenario{Model: registry.ModelGang, Seed: 4, Stop: scenario.Stop{Completed: 100}, Warmup: scenario.Warmup{Jobs: 10},
		Platform: scenario.Platform{Sites: []scenario.Site{{Procs: 16, Speed: 1}, {Procs: 8}}},
		Workload: scenario.Workload{MeanInterarrival: 0.5, GangMeanInterarrival: 2, MeanService: 1, GangSizes: "pow2", GangTimes: "shared", EstimateError: 0.2},
		Policy:   scenario.PolicySpec{Approach: 2}}
	spec, err := SynthSpec(g, 3, "r.csv", false, nil)
	if err != nil {
		t.Fatal(err)
	}
	y := spec.Workload.Synthetic
	if spec.Model != "gang" || spec.Policy.Name != "2" || !y.Pow2 || !y.SharedTimes || y.EstimateError != 0.2 || y.Stop != 100 || y.Warmup != 10 ||
		spec.Workload.Seed != 4 || spec.Workload.Rep != 3 || spec.Outputs.Records != "r.csv" ||
		!slices.Equal(spec.Platform.Sites, []SiteSpec{{16, 1}, {8, 0}}) {
		t.Errorf("gang spec %+v, synthetic %+v", spec, *y)
	}
	h := scenario.Scenario{Model: registry.ModelHetero, Seed: 1, Stop: scenario.Stop{Completed: 50},
		Platform: scenario.Platform{Sites: []scenario.Site{{Procs: 4, Speed: 200.5}, {Procs: 8, Speed: 499.2}}},
		Workload: scenario.Workload{MeanInterarrival: 3, CPUsMin: 1, CPUsMax: 4, EstimatedMin: 500, EstimatedMax: 3000,
			DeadlineFraction: 0.7, Deadline: "alea", DeadlineFactorMin: 5, DeadlineFactorMax: 9, BMEst: "random-machine"},
		Policy: scenario.PolicySpec{Queue: "eg-edf"}}
	if spec, err = SynthSpec(h, 0, "", false, nil); err != nil {
		t.Fatal(err)
	}
	o := spec.Workload.Synthetic.Hetero
	if o.BMMin != 200 || o.BMMax != 500 || o.SMin != 2 || o.SMax != 2 || o.Jobs != 50 || o.Deadline != synth.DeadlineAlea {
		t.Errorf("hetero jobs %+v: want BM 200..500, factor 2..2 (alea), 50 jobs", o)
	}
}

// The records a replication writes (the "records" output) are the
// jobs.csv a caller's own listener writes from the model's direct run
// (RunGrid), byte for byte, and both runs report the same result.
func TestSynthRecordsDifferential(t *testing.T) {
	s := scenario.Scenario{Model: registry.ModelGrid, Seed: 9, Stop: scenario.Stop{Completed: 300}, Warmup: scenario.Warmup{Jobs: 20},
		Platform: scenario.Platform{Sites: []scenario.Site{{Procs: 2}, {Procs: 4}}},
		Workload: scenario.Workload{MeanInterarrival: 0.4, MeanService: 1}, Policy: scenario.PolicySpec{Grid: "random", Local: "sq"}}
	rec := filepath.Join(t.TempDir(), "rep0.csv")
	m, err := RunReplication(s, 1, rec)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	jw := metrics.NewJobsCSVSites(&buf)
	r, err := RunGrid(GridRun{Platform: platform.MustSites([]int{2, 4}), Grid: "random", Local: "sq", MeanInterarrival: 0.4, MeanService: 1,
		Stop: 300, Warmup: 20, Seed: 9, Replication: 1}, jw)
	if err != nil {
		t.Fatal(err)
	}
	if err := jw.Flush(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, buf.Bytes()) {
		t.Errorf("records differ from the direct run's jobs.csv (%d vs %d bytes)", len(got), buf.Len())
	}
	if rows := bytes.Count(got, []byte("\n")) - 1; rows < 300 {
		t.Errorf("%d records, want at least the 300 completed jobs", rows)
	}
	d := m.Detail.(GridResult)
	if d.RT != r.RT || d.Jobs != r.Jobs || !slices.Equal(d.SiteLoad, r.SiteLoad) || d.RT <= 0 {
		t.Errorf("replication %+v, direct run %+v", d, r)
	}
}
