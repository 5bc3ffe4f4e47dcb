package repro

import (
	"reflect"
	"testing"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/policy/rank"
	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/workload/synth"
)

// sameAsFile checks that a reproduction's scenario is the one a scenario
// file writes: the same key, and replication 0 gives the same metrics.
func sameAsFile(t *testing.T, name string, built scenario.Scenario, yaml string) {
	t.Helper()
	pts, err := scenario.Parse(name+".yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) != 1 {
		t.Fatalf("%s: %d points", name, len(pts))
	}
	file := pts[0].Scenario
	if built.Key() != file.Key() {
		t.Errorf("%s: key %s, the file's %s", name, built.Key(), file.Key())
	}
	a, err := experiment.RunReplication(built, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	b, err := experiment.RunReplication(file, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Names, b.Names) || !reflect.DeepEqual(a.Values, b.Values) {
		t.Errorf("%s: built %v, the file's %v", name, a, b)
	}
}

// The grid configurations of zikos2008 are scenario values a file gives.
func TestZikosScenarioIsAFile(t *testing.T) {
	z := &zikos{opt: Options{Seed: 2008, Reps: 3, Jobs: 2000}}
	sameAsFile(t, "hybrid", z.scenario(zc("2rsq", "hybrid", 0.033, 1.8, 0.4)), `
model: grid
seed: 2008
replications: 3
stop: {completed: 2000}
platform: {sites: 4, procs_per_site: 8}
workload: {mean_interarrival: 0.033}
policy: {grid: hybrid, local: 2rsq, allocation_interval: 1.8, random_fraction: 40%}
`)
	sameAsFile(t, "random", z.scenario(zc("sq", "random", 0.048, 0, 0)), `
model: grid
seed: 2008
replications: 3
stop: {completed: 2000}
platform: {sites: 4, procs_per_site: 8}
workload: {mean_interarrival: 0.048}
policy: {grid: random, local: sq}
`)
}

// The gang configurations of dimitriadou2010 are scenario values a file
// gives.
func TestDimitriadouScenarioIsAFile(t *testing.T) {
	d := &dimitriadou{opt: Options{Seed: 2010, Reps: 2, Jobs: 3000}}
	rds := GangReadings()
	sameAsFile(t, "uniform", d.scenario(dcfg{2, 0.1, 0.3, false, rds[0]}), `
model: gang
seed: 2010
replications: 2
stop: {completed: 3000}
platform: {sites: 2, procs_per_site: 16}
workload: {mean_interarrival: 0.1, gang_mean_interarrival: 2, estimate_error: 30%}
policy: {approach: 2, threshold: 0}
`)
	sameAsFile(t, "pow2-shared-idle", d.scenario(dcfg{1, 0.08, 0, true, rds[1]}), `
model: gang
seed: 2010
replications: 2
stop: {completed: 3000}
platform: {sites: 2, procs_per_site: 16}
workload: {mean_interarrival: 0.08, gang_mean_interarrival: 2, gang_sizes: pow2}
policy: {approach: 1, threshold: 0, empty_queue: idle}
`)
	sameAsFile(t, "shared-every", d.scenario(dcfg{2, 0.12, 0.1, false, GangReading{SharedTimes: true, ExamineEvery: true}}), `
model: gang
seed: 2010
replications: 2
stop: {completed: 3000}
platform: {sites: 2, procs_per_site: 16}
workload: {mean_interarrival: 0.12, gang_mean_interarrival: 2, gang_times: shared, estimate_error: 0.1}
policy: {approach: 2, threshold: 0, examine: every}
`)
}

// The hetero configurations of klusacek2008 are scenario values a file
// gives.
func TestKlusacekScenarioIsAFile(t *testing.T) {
	opt := Options{Seed: 2008, Reps: 2, Jobs: 300}
	def := kDefaultRules(KlusacekDefaultReading())
	k := newKlusacek(opt, def)
	head := `
model: hetero
seed: 2008
replications: 2
stop: {completed: 300}
platform: {machines: 150, cpus_min: 1, cpus_max: 16, speed_min: 200, speed_max: 600}
`
	sameAsFile(t, "eg-edf", k.scenario(k.cfg("eg-edf", 2)), head+`
workload: {mean_interarrival: 2, bm_est: min}
policy: {queue: eg-edf, gaps: finite, ties: end, suitable: any}
`)
	sameAsFile(t, "fcfs", k.scenario(k.cfg("fcfs", 5)), head+`
workload: {mean_interarrival: 5, bm_est: min}
policy: {queue: fcfs}
`)
	var asImpl kReading
	for _, r := range kReadings() {
		if r.name == "as-implemented" {
			asImpl = r
		}
	}
	as := newKlusacek(opt, asImpl.rules(def))
	c := as.cfg("tabu", 1)
	c.dl, c.bmEst = synth.DeadlineFastest, synth.BMEstUniform
	sameAsFile(t, "tabu", as.scenario(c), head+`
workload: {mean_interarrival: 1, bm_est: uniform, deadline: fastest}
policy: {queue: tabu, gaps: finite, ties: index, suitable: any, pick: last}
`)
}

// The JRB configurations of alnajjar2019 are scenario values a file
// gives (workload.model: jrb).
func TestAlNajjarScenarioIsAFile(t *testing.T) {
	a := &alnajjar{opt: Options{Seed: 2019, Reps: 2, Jobs: 500}}
	sameAsFile(t, "original", a.scenario(acfg{rank.FormOriginal, synth.PoissonTime, 200, 500, false, anRules{}}), `
model: cluster
seed: 2019
replications: 2
stop: {completed: 500}
platform: {procs: 200}
workload: {model: jrb}
policy: {queue: jrb}
`)
	sameAsFile(t, "log-strict-speed-kb", a.scenario(acfg{rank.FormLog, synth.UniformGaps, 300, 500, true, anRules{sel: rank.SelectStrict, speed: 3000, logBelow: true}}), `
model: cluster
seed: 2019
replications: 2
stop: {completed: 500}
platform: {procs: 300}
workload: {model: jrb, arrival: uniform-gaps, speed_max: 3000}
policy: {queue: jrb, rank: log, select: strict, log_below_one: log, memory_unit: kb}
`)
}
