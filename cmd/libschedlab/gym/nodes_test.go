package gym

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/cmd/libschedlab/inproc"
	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload"
)

// handNodes is the platform of the hand-worked episode: two nodes of 4
// cores and 8 GiB (n1, n2: ids 0 and 1) and one of 4 cores, 8 GiB and 2
// GPUs (g1: id 2); 12 cores, one GRES kind (gpu).
var handNodes = []string{"n[1-2]:cores=4:mem=8G", "g1:cores=4:mem=8G:gres=gpu=2"}

// handTable: 1 asks one task of 4 CPUs, 4 GiB and a GPU (only g1 holds
// it); 2 two nodes of one 2-CPU task each; 3 a whole node (exclusive);
// 4 four 1-CPU tasks and 2 GPUs on one node.
const handTable = `# schedlab job table v1
id	submit	runtime	procs	req_time	nodes	tasks	cpus_per_task	mem_per_node_mb	gres_per_node	exclusive
1	0	100	4	200	0	1	4	4096	gpu:1	0
2	0	50	4	100	2	2	2	0		0
3	0	30	1	60	0	1	1	0		1
4	10	10	4	20	0	4	1	0	gpu:2	0
`

// handEpisode writes handTable to a file and parses handNodes: the
// hand-worked episode's job table and platform.
func handEpisode(t *testing.T) (string, *nodes.Nodes) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hand.jobs")
	if err := os.WriteFile(path, []byte(handTable), 0o644); err != nil {
		t.Fatal(err)
	}
	ns, err := experiment.ParseNodes(handNodes)
	if err != nil {
		t.Fatal(err)
	}
	return path, ns
}

// nodeSpec is 'schedlab run --trace path --nodes ... --policy external
// --no-out --set view=free' as a spec.
func nodeSpec(path string, groups []string) experiment.RunSpec {
	return experiment.RunSpec{
		Workload: experiment.WorkloadSpec{Trace: path, Seed: 1, Deadlines: workload.DeadlineRule{Seed: 1}},
		Platform: experiment.PlatformSpec{Nodes: groups},
		Policy:   experiment.PolicySpec{Name: "external", Options: map[string]string{"view": "free"}},
		Outputs:  experiment.OutputSpec{Tau: 10},
	}
}

// The observation on a platform of nodes, by hand, with the default
// node features (DefaultNodeFeatures): window 2, TimeScale 100,
// QueueScale 4. A slot is 13 numbers: present, cpus (/12), estimate,
// wait, fits, req_nodes (/3 nodes), req_tasks (/12 cores),
// req_cpus_per_task (/4, the largest node's CPUs), req_mem_per_node
// (/8192 MB), req_mem_per_cpu (/2048 MB), req_gres_per_node gpu (/2,
// the most on a node), req_gres_per_job gpu (/2 on the platform),
// req_exclusive; then free_cpus, running_jobs, waiting_jobs; then per
// node free cores (/4), free memory (/8192), free gpus (/2; 0 on a
// node without).
func TestHandComputedNodes(t *testing.T) {
	path, ns := handEpisode(t)
	cfg := Config{Window: 2, TimeScale: 100, QueueScale: 4, Nodes: ns}
	lay, err := ParseFeaturesOn(nil, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := lay.SizeOn(2, 3, 1); got != 2*13+3+3*3 {
		t.Fatalf("size %d, want 38", got)
	}
	obs, mask := make([]float32, 38), make([]int8, 2)
	sim := inproc.Start(nodeSpec(path, handNodes), false)
	defer sim.Close()
	env, err := New(sim, cfg, obs, mask)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, want []float32, wantMask []int8, now float64) {
		t.Helper()
		if !slices.Equal(obs, want) || !slices.Equal(mask, wantMask) || env.Now() != now {
			t.Errorf("%s:\n obs %v mask %v now %g\nwant %v mask %v now %g", what, obs, mask, env.Now(), want, wantMask, now)
		}
	}
	cat := func(parts ...[]float32) []float32 { return slices.Concat(parts...) }
	empty := make([]float32, 13)
	free := []float32{1, 1, 0} // a free node without GPUs
	// job 1: 4/12 CPUs, estimate 200 clipped to 1; 1 task of 4 CPUs
	// (4/4), 4096 MB per node (1/2), 1 GPU per node (1/2)
	job1 := []float32{1, f32(4.0 / 12), 1, 0, 1, 0, f32(1.0 / 12), 1, 0.5, 0, 0.5, 0, 0}
	// job 2: estimate 100 (1), 2 nodes (2/3), 2 tasks (2/12) of 2 CPUs (2/4)
	job2 := func(wait float64) []float32 {
		return []float32{1, f32(4.0 / 12), 1, f32(wait / 100), 1, f32(2.0 / 3), f32(2.0 / 12), 0.5, 0, 0, 0, 0, 0}
	}
	// job 3: 1 CPU, estimate 60, exclusive
	job3 := []float32{1, f32(1.0 / 12), 0.6, 0, 1, 0, f32(1.0 / 12), 0.25, 0, 0, 0, 0, 1}
	// job 4: estimate 20, 4 tasks of 1 CPU, 2 GPUs per node (2/2); fits
	// as given
	job4 := func(wait float64, fits float32) []float32 {
		return []float32{1, f32(4.0 / 12), 0.2, f32(wait / 100), fits, 0, f32(4.0 / 12), 0.25, 0, 0, 1, 0, 0}
	}

	if ok, err := env.Start(); !ok || err != nil {
		t.Fatalf("Start: %v, %v", ok, err)
	}
	// t=0, all free: jobs 1 and 2 in the window, both fit; 12/12 free,
	// none running, 3 waiting (3/4)
	check("t=0", cat(job1, job2(0), []float32{1, 0, 0.75}, free, free, []float32{1, 1, 1}), []int8{1, 1}, 0)

	// job 1 starts: only g1 has a GPU: its 4 cores, 4096 MB and GPU
	// unit 0. Job 2 moves up, job 3 enters; both fit (job 3 takes a
	// node that runs nothing: n1). 8/12 cores free.
	if ok, replaced, err := env.Step(0); !ok || replaced || err != nil {
		t.Fatalf("step 1: %v %v %v", ok, replaced, err)
	}
	check("t=0 after job 1", cat(job2(0), job3, []float32{f32(8.0 / 12), 0, 0.75}, free, free, []float32{0, 0.5, 0.5}), []int8{1, 1}, 0)

	// job 3 starts on all of n1. Job 2 (exactly 2 nodes of 2 free
	// cores) now fits nowhere (n1 held whole, g1 full): the instant is
	// over. t=10: job 4 arrives; 2 GPUs on one node: g1 has one free
	// and no core: none fits, no start. t=30: job 3 ends, n1 is free
	// again: job 2 fits, job 4 not. 8 cores free (g1's are job 1's),
	// job 1 running (1/12), 2 waiting (2/4).
	if ok, replaced, err := env.Step(1); !ok || replaced || err != nil {
		t.Fatalf("step 2: %v %v %v", ok, replaced, err)
	}
	check("t=30", cat(job2(30), job4(20, 0), []float32{f32(8.0 / 12), f32(1.0 / 12), 0.5}, free, free, []float32{0, 0.5, 0.5}),
		[]int8{1, 0}, 30)

	// slot 1's job does not fit: the action is replaced by slot 0 (the
	// first legal), job 2, on n1 and n2 (a task of 2 cores each). Job 4
	// still fits nowhere: t=80 (job 2 ends) has no start either;
	// t=100: job 1 ends, all is free, job 4 fits g1, waited 90 s.
	if ok, replaced, err := env.Step(1); !ok || !replaced || err != nil {
		t.Fatalf("step 3: %v %v %v", ok, replaced, err)
	}
	if env.Wait() != 30 {
		t.Errorf("step 3: wait %g, want 30 (job 2, submitted at 0, started at 30)", env.Wait())
	}
	check("t=100", cat(job4(90, 1), empty, []float32{1, 0, 0.25}, free, free, []float32{1, 1, 1}), []int8{1, 0}, 100)

	// job 4 starts; the window is empty: the run ends (job 4 at 110)
	if ok, _, err := env.Step(0); ok || err != nil {
		t.Fatalf("step 4: %v %v (want the end)", ok, err)
	}
	if err := sim.Err(); err != nil {
		t.Fatal(err)
	}
	if env.Now() != 110 {
		t.Errorf("the end at %g, want 110 (job 4: 100 + 10)", env.Now())
	}
}

// Features of nodes on a pool are refused; names given by hand take
// one number each, or one per GRES kind, in the order given (slot,
// machine, node).
func TestNodeFeatureLayout(t *testing.T) {
	if _, err := ParseFeatures([]string{"wait", "node_free_cores"}); err == nil || !strings.Contains(err.Error(), `"node_free_cores" is for a platform of nodes`) {
		t.Errorf("node feature on a pool: %v", err)
	}
	if _, err := ParseFeatures([]string{"req_tasks"}); err == nil || !strings.Contains(err.Error(), `"req_tasks" is for a platform of nodes`) {
		t.Errorf("request feature on a pool: %v", err)
	}
	lay, err := ParseFeaturesOn([]string{"node_free_gres", "req_gres_per_job", "free_cpus", "wait", "node_free_mem"}, true)
	if err != nil {
		t.Fatal(err)
	}
	// 3 kinds: a slot is req_gres_per_job (3) + wait (1); a node
	// node_free_gres (3) + node_free_mem (1)
	if lay.SlotWidth(3) != 4 || lay.NodeWidth(3) != 4 || lay.SizeOn(5, 7, 3) != 5*4+1+7*4 {
		t.Errorf("widths %d %d size %d", lay.SlotWidth(3), lay.NodeWidth(3), lay.SizeOn(5, 7, 3))
	}
	if slotOffset(lay, fWait, 3) != 3 {
		t.Errorf("wait at %d, want 3 (after the 3 kinds)", slotOffset(lay, fWait, 3))
	}
	// the pool's layout is unchanged by the nodes' features
	pool, _ := ParseFeatures(nil)
	if pool.Size(16) != 16*Features+MachineFeatures || len(pool.Node) != 0 {
		t.Errorf("pool size %d", pool.Size(16))
	}
}

// An Env on nodes refuses a run on a pool, and one on a pool a run on
// nodes, with a message.
func TestNodesConfigMismatch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hand.jobs")
	if err := os.WriteFile(path, []byte(handTable), 0o644); err != nil {
		t.Fatal(err)
	}
	ns, _ := experiment.ParseNodes(handNodes)
	pool, _ := ParseFeatures(nil)
	obs, mask := make([]float32, pool.Size(2)), make([]int8, 2)
	sim := inproc.Start(nodeSpec(path, handNodes), false)
	env, err := New(sim, Config{Window: 2, TimeScale: 100, QueueScale: 4}, obs, mask)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.Start(); err == nil || !strings.Contains(err.Error(), "give its nodes (Config.Nodes)") {
		t.Errorf("a run on nodes without Config.Nodes: %v", err)
	}
	sim.Close()
	lay, _ := ParseFeaturesOn(nil, true)
	obs = make([]float32, lay.SizeOn(2, ns.Len(), 1))
	sim = inproc.Start(kthSpec(), false)
	defer sim.Close()
	env, err = New(sim, Config{Window: 2, TimeScale: 100, QueueScale: 4, Nodes: ns}, obs, mask)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.Start(); err == nil || !strings.Contains(err.Error(), "the run is on a pool of CPUs") {
		t.Errorf("a run on a pool with Config.Nodes: %v", err)
	}
}

// Random platforms of nodes and job tables, random legal actions: every
// job is started by exactly one step, the engine accepts every pick
// (the mask never offers a job that does not fit: the engine would fail
// the run), and the Env's state of the nodes agrees with the engine's
// at every instant (nodesAt fails the episode otherwise).
func TestRandomNodeEpisodes(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 43))
	for round := range 12 {
		var groups []string
		for g := range 2 + r.IntN(3) {
			s := fmt.Sprintf("g%dn[1-%d]:cores=%d", g, 1+r.IntN(3), []int{2, 4, 8}[r.IntN(3)])
			if r.IntN(2) == 0 {
				s += ":mem=8G"
			}
			if r.IntN(2) == 0 {
				s += fmt.Sprintf(":gres=gpu:%s=%d", []string{"a", "b"}[r.IntN(2)], 1+r.IntN(3))
			}
			groups = append(groups, s)
		}
		ns, err := experiment.ParseNodes(groups)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		b.WriteString("# schedlab job table v1\nid\tsubmit\truntime\tprocs\treq_time\tnodes\ttasks\tcpus_per_task\tmem_per_node_mb\tgres_per_node\texclusive\n")
		jobs, at := 0, 0
		for jobs < 60 {
			tasks, cpt, mem, gres, nn, excl := 1+r.IntN(2), 1+r.IntN(2), []int{0, 1024, 4096}[r.IntN(3)], []string{"", "", "gpu:1", "gpu:a:1"}[r.IntN(4)], 0, r.IntN(8)/7
			if r.IntN(6) == 0 {
				nn, tasks, cpt, mem, gres = 2, 2, 1, 0, ""
			}
			q := nodes.Request{Tasks: tasks, CPUsPerTask: cpt, Nodes: nn, MemPerNodeMB: int64(mem), Exclusive: excl == 1}
			if gres != "" {
				name, typ, _ := strings.Cut(strings.TrimSuffix(gres, ":1"), ":")
				q.GRESPerNode = []nodes.GRES{{Name: name, Type: typ, Count: 1}}
			}
			if !nodes.Fits(ns, q) {
				continue
			}
			jobs++
			at += r.IntN(4)
			run := 1 + r.IntN(50)
			fmt.Fprintf(&b, "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%d\n", jobs, at, run, tasks*cpt, run+r.IntN(10), nn, tasks, cpt, mem, gres, excl)
		}
		path := filepath.Join(t.TempDir(), "r.jobs")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		lay, _ := ParseFeaturesOn(nil, true)
		cfg := Config{Window: 4, TimeScale: 100, QueueScale: 8, Nodes: ns}
		obs, mask := make([]float32, lay.SizeOn(4, ns.Len(), len(ns.Kinds()))), make([]int8, 4)
		sim := inproc.Start(nodeSpec(path, groups), false)
		env, err := New(sim, cfg, obs, mask)
		if err != nil {
			t.Fatal(err)
		}
		steps := 0
		ok, err := env.Start()
		for ok {
			for _, x := range obs {
				if !(x >= 0 && x <= 1) {
					t.Fatalf("round %d: observation %v out of [0, 1]", round, obs)
				}
			}
			ok, _, err = env.Step(r.IntN(5) - 1)
			steps++
		}
		if err != nil || sim.Err() != nil {
			t.Fatalf("round %d (%v): %v, %v", round, groups, err, sim.Err())
		}
		if steps != 60 {
			t.Errorf("round %d: %d steps, want one per job (60)", round, steps)
		}
	}
}

// The feature "power" on nodes, by hand, on the hand-worked episode's
// platform (three nodes of 4 cores) at 100 W idle and 300 W running,
// per node linear in its cores held: all idle 300/900; after job 1
// takes g1's 4 cores 500/900; after job 3 (n1 whole) the instant is
// over and the episode goes on to t=30, when job 3 has ended: job 1
// alone again, 500/900; job 2 then takes 2 cores of n1 and of n2, and
// the episode goes on to t=100, when all have ended: 300/900.
func TestHandComputedPowerNodes(t *testing.T) {
	path, ns := handEpisode(t)
	names := []string{"power"}
	cfg := Config{Window: 2, TimeScale: 100, QueueScale: 4, Nodes: ns, Features: names, Power: &[2]float64{100, 300}}
	lay, err := ParseFeaturesOn(names, true)
	if err != nil {
		t.Fatal(err)
	}
	obs, mask := make([]float32, lay.SizeOn(2, 3, 1)), make([]int8, 2)
	sim := inproc.Start(nodeSpec(path, handNodes), false)
	defer sim.Close()
	env, err := New(sim, cfg, obs, mask)
	if err != nil {
		t.Fatal(err)
	}
	if len(obs) != 1 {
		t.Fatalf("observation of %d numbers, want power alone", len(obs))
	}
	if ok, err := env.Start(); !ok || err != nil {
		t.Fatalf("Start: %v, %v", ok, err)
	}
	for k, want := range []float64{300.0 / 900, 500.0 / 900, 500.0 / 900, 300.0 / 900} {
		if k > 0 {
			if ok, _, err := env.Step([]int{0, 1, 0}[k-1]); !ok || err != nil {
				t.Fatalf("step %d: %v %v", k, ok, err)
			}
		}
		if obs[0] != f32(want) {
			t.Errorf("after %d starts: power %v, want %v", k, obs[0], f32(want))
		}
	}
}
