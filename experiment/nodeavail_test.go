package experiment

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/scenario"
)

// threeJobs is the trace of policy/backfill's TestNodeAvailEASYMaintenance:
// job 1 at 0 of 8 CPUs for 15 s, jobs 2 and 3 at 1 of 4 CPUs for 8 and
// 10 s (requests equal to the runtimes).
const threeJobs = "; MaxProcs: 8\n" +
	"1 0 -1 15 8 -1 -1 8 15 -1 1 1 1 -1 1 -1 -1 -1\n" +
	"2 1 -1 8 4 -1 -1 4 8 -1 1 1 1 -1 1 -1 -1 -1\n" +
	"3 1 -1 10 4 -1 -1 4 10 -1 1 1 1 -1 1 -1 -1 -1\n"

// readNodeJobs reads a run's jobs.csv: per job id, its start, finish and
// nodes.
func readNodeJobs(t *testing.T, dir string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "jobs.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	out := map[string]string{}
	for _, r := range rows[1:] {
		out[r[col["job_id"]]] = r[col["starting_time"]] + "-" + r[col["finish_time"]] + " " + r[col["allocated_nodes"]] + " " + r[col["final_state"]]
	}
	return out
}

// schedlab run --nodes with --reservation START:END:NODES and --check:
// the schedule worked out by hand in policy/backfill
// (TestNodeAvailEASYMaintenance: n2 in maintenance over [10, 20), job 1
// waits for the window's end, jobs 2 and 3 backfill on n1), written to
// jobs.csv, the window to unavailability.csv (n2's cores 4-7), and the
// checker's unavailability check passes.
func TestRunNodesWithReservation(t *testing.T) {
	tr := writeSWF(t, threeJobs)
	dir := filepath.Join(t.TempDir(), "out")
	res, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Nodes: []string{"n[1-2]:cores=4"},
		Avail: AvailSpec{Reservations: []string{"10:20:n2"}}}, Policy: PolicySpec{Name: "easy"},
		Outputs: OutputSpec{Dir: dir, Check: true}}).Run()
	if err != nil {
		t.Fatal(err)
	}
	got := readNodeJobs(t, dir)
	want := map[string]string{
		"1": "20-35 n[1-2] COMPLETED_SUCCESSFULLY",
		"2": "1-9 n1 COMPLETED_SUCCESSFULLY",
		"3": "9-19 n1 COMPLETED_SUCCESSFULLY",
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("job %s: %q, want %q", id, got[id], w)
		}
	}
	spans, err := os.ReadFile(filepath.Join(dir, "unavailability.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(spans); !strings.Contains(s, "reserved,4-7,10,20") {
		t.Errorf("unavailability.csv:\n%s\nwant the row reserved,4-7,10,20", s)
	}
	if res.Run.Availability == nil || res.Run.Availability.Reservations != 1 {
		t.Errorf("summary's availability: %+v", res.Run.Availability)
	}
	// Unavailable nodes keep the node version (an SWF trace is otherwise
	// planned by counts), and counts asked for is refused, saying why.
	if res.Run.NodePlanner != PlannerNodes {
		t.Errorf("node planner %q, want nodes", res.Run.NodePlanner)
	}
	_, err = (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Nodes: []string{"n[1-2]:cores=4"},
		Avail: AvailSpec{Reservations: []string{"10:20:n2"}}}, Policy: PolicySpec{Name: "easy", NodePlanner: PlannerCounts}}).Run()
	if err == nil || !strings.Contains(err.Error(), "--node-planner counts: some nodes are unavailable") {
		t.Errorf("counts with a reservation: %v", err)
	}
}

// A failure from --events on nodes (resources a hostlist) kills the job
// on the node (on failure kill), at the event's time: job 1 runs on n1
// from 0 (8 CPUs on 2 nodes: n1 and n2) and n2 goes down at 5.
func TestRunNodesWithEvents(t *testing.T) {
	tr := writeSWF(t, threeJobs)
	ev := filepath.Join(t.TempDir(), "ev.jsonl")
	if err := os.WriteFile(ev, []byte(`{"timestamp": 5, "type": "machine_unavailable", "resources": "n2"}
{"timestamp": 6, "type": "machine_available", "resources": "n2"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Nodes: []string{"n[1-2]:cores=4"},
		Avail: AvailSpec{Events: ev}}, Policy: PolicySpec{Name: "easy"},
		Outputs: OutputSpec{Dir: dir, Check: true}}).Run(); err != nil {
		t.Fatal(err)
	}
	// job 1 is killed at 5; jobs 2 and 3 (at 1, waiting behind job 1's
	// 8 CPUs) take n1 at 5 and n2 at 6 (back up): 5-13 on n1, 6-16 on n2.
	got := readNodeJobs(t, dir)
	want := map[string]string{
		"1": "0-5 n[1-2] COMPLETED_KILLED",
		"2": "5-13 n1 COMPLETED_SUCCESSFULLY",
		"3": "6-16 n2 COMPLETED_SUCCESSFULLY",
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("job %s: %q, want %q", id, got[id], w)
		}
	}
}

// Bad input on nodes is refused naming the flag (or the events file and
// line) and the node.
func TestRunNodesAvailBadInput(t *testing.T) {
	tr := writeSWF(t, threeJobs)
	ev := filepath.Join(t.TempDir(), "ev.jsonl")
	if err := os.WriteFile(ev, []byte(`{"timestamp": 5, "type": "machine_unavailable", "resources": "n2"}
{"timestamp": 6, "type": "machine_available", "resources": "n9"}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		av   AvailSpec
		want string
	}{
		{AvailSpec{Reservations: []string{"0:5:n1", "10:20:n[2-3]"}}, `--reservation 2: "10:20:n[2-3]": NODES: node "n3" is not on the platform`},
		{AvailSpec{Reservations: []string{"10:20:0-3"}}, `on a platform of nodes a reservation names nodes`},
		{AvailSpec{Reservations: []string{"10:20:n2", "15:30:ALL"}}, `--reservation 1 [10, 20) and --reservation 2 [15, 30) overlap on node n2`},
		{AvailSpec{Events: ev}, ev + `:2: field resources: node "n9" is not on the platform`},
	} {
		_, err := (RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Nodes: []string{"n[1-2]:cores=4"}, Avail: c.av},
			Policy: PolicySpec{Name: "easy"}}).Run()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err %v, want %q", c.av, err, c.want)
		}
	}
}

// A cluster scenario on nodes with platform.reservations naming nodes
// computes what schedlab run computes with --nodes and --reservation:
// the same metrics to the last bit (the hand-worked schedule: waits 20,
// 0 and 8), and not those of the run without the window (waits 0, 14
// and 14: the same mean, another maximum).
func TestScenarioNodeAvailMatchesRun(t *testing.T) {
	tr := writeSWF(t, threeJobs)
	src := "model: cluster\nstop: trace\nworkload: {trace: " + tr + "}\nplatform:\n  nodes: [\"n[1-2]:cores=4\"]\n  reservations: [\"10:20:n2\"]\npolicy: {queue: easy}\n"
	pts, err := scenario.Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got, err := RunReplication(pts[0].Scenario, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	spec := RunSpec{Workload: WorkloadSpec{Trace: tr}, Platform: PlatformSpec{Nodes: []string{"n[1-2]:cores=4"}, Avail: AvailSpec{Reservations: []string{"10:20:n2"}}}, Policy: PolicySpec{Name: "easy"}}
	want, err := spec.Run()
	if err != nil {
		t.Fatal(err)
	}
	sameMetrics(t, got, want.Result)
	if w := want.Result.MeanWait; w != 28.0/3 {
		t.Errorf("mean wait %v, want 28/3", w)
	}
	spec.Platform.Avail = AvailSpec{}
	plain, err := spec.Run()
	if err != nil {
		t.Fatal(err)
	}
	if plain.Result.MaxWait != 14 || want.Result.MaxWait != 20 {
		t.Errorf("max wait %v without the window (want 14), %v with it (want 20)", plain.Result.MaxWait, want.Result.MaxWait)
	}
}

// --check's capacity check covers the attempts a failure requeued: on
// n1 (4 cores), job 1's first attempt holds all 4 cores over [0, 5)
// and job 2 holds them over [2, 6) (planted: two holds of one core at
// 2..5); job 1's last run is later, clear of job 2. Only the requeued
// attempt overlaps, and the check names it.
func TestNodeCheckSeesRequeuedAttempts(t *testing.T) {
	ns, err := ParseNodes([]string{"n1:cores=4"})
	if err != nil {
		t.Fatal(err)
	}
	all := func() *nodes.Allocation {
		st := nodes.NewState(ns)
		a, ok := st.Alloc(nodes.FromProcs(4))
		if !ok {
			t.Fatal("no allocation")
		}
		return &a
	}
	j1 := &actual.Job{ID: 1, Procs: 4, Runtime: 3}
	j2 := &actual.Job{ID: 2, Procs: 4, Runtime: 4}
	c := &nodeCheck{ns: ns}
	c.JobSubmitted(0, j1)
	c.JobSubmitted(0, j2)
	c.Interrupted(5, &engine.Record{Job: j1, Start: 0, End: 5, Alloc: all()}, true)
	c.JobFinished(6, &engine.Record{Job: j2, Start: 2, End: 6, Alloc: all()})
	c.JobFinished(9, &engine.Record{Job: j1, Start: 6, End: 9, Alloc: all()})
	if err := c.check(); err == nil || !strings.Contains(err.Error(), "job 1") {
		t.Errorf("check: %v, want the requeued attempt's overlap", err)
	}
	// Without the requeued attempt the schedule is valid.
	c.tries = nil
	if err := c.check(); err != nil {
		t.Errorf("without the attempt: %v", err)
	}
}
