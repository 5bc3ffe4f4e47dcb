package external

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/platform/nodes/nodestest"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/workload"
)

// nodesFF is a decision process for the tests (SCHEDLAB_EXTERNAL_HELPER
// =nodesff): first fit on nodes, written from docs/protocol.md alone. It
// rebuilds the platform from node_groups and each job's request from
// its req, keeps a nodes.State of what it started (the selection rule
// gives the ids the engine takes), checks at every request that the
// view's nodes agree with that state (exit 5 otherwise), and starts
// each waiting job in queue order that the rule places now, naming
// (mode "named") every id of the allocation, (mode "counts") only its
// nodes and their tasks, or (mode "engine") nothing.
func nodesFF(mode string) int {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	var ns *nodes.Nodes
	var st *nodes.State
	var told []nodeTold
	type waiting struct {
		id  int64
		req nodes.Request
	}
	var queue []waiting
	held := map[int64]nodes.Allocation{}
	for {
		line, err := in.ReadBytes('\n')
		if err != nil {
			return 0
		}
		var msg struct {
			Events []struct {
				Type string          `json:"type"`
				Data json.RawMessage `json:"data"`
			} `json:"events"`
			View struct {
				Nodes []struct {
					ID    int            `json:"id"`
					Cores int            `json:"cores"`
					Mem   int64          `json:"mem"`
					Jobs  int            `json:"jobs"`
					Whole bool           `json:"whole"`
					GRES  map[string]int `json:"gres"`
				} `json:"nodes"`
			} `json:"view"`
		}
		if err := json.Unmarshal(line, &msg); err != nil {
			fmt.Fprintln(os.Stderr, "nodesff:", err)
			return 3
		}
		for _, e := range msg.Events {
			switch e.Type {
			case "SIMULATION_BEGINS":
				var err error
				if ns, err = platformOf(e.Data); err != nil {
					fmt.Fprintln(os.Stderr, "nodesff:", err)
					return 3
				}
				st = nodes.NewState(ns)
				for id := range ns.Len() {
					nd := ns.Node(id)
					t := nodeTold{cores: nd.Cores(), mem: nd.MemMB, gres: map[string]int{}}
					for _, g := range nd.GRES() {
						t.gres[g.Kind().String()] = g.Count
					}
					told = append(told, t)
				}
			case "JOB_SUBMITTED":
				var d struct {
					Job struct {
						ID  int64           `json:"id"`
						Req json.RawMessage `json:"req"`
					} `json:"job"`
				}
				json.Unmarshal(e.Data, &d)
				r, err := requestOfJSON(d.Job.Req)
				if err != nil {
					fmt.Fprintln(os.Stderr, "nodesff:", err)
					return 3
				}
				queue = append(queue, waiting{d.Job.ID, r})
			case "JOB_COMPLETED":
				var d struct {
					JobID int64 `json:"job_id"`
				}
				json.Unmarshal(e.Data, &d)
				st.Release(held[d.JobID])
				delete(held, d.JobID)
			case "SIMULATION_ENDS":
				return 0
			}
		}
		for _, f := range msg.View.Nodes {
			told[f.ID] = nodeTold{f.Cores, f.Mem, f.Jobs, f.Whole, f.GRES}
		}
		for id := range ns.Len() {
			t := told[id]
			ok := t.cores == st.FreeCores(id) && t.mem == st.FreeMemMB(id) && t.jobs == st.Jobs(id) && t.whole == st.Whole(id)
			for _, g := range ns.Node(id).GRES() {
				ok = ok && t.gres[g.Kind().String()] == st.FreeGRES(id, g.Kind())
			}
			if !ok {
				fmt.Fprintf(os.Stderr, "nodesff: the view of node %s (%+v) is not what it started\n", ns.Name(id), t)
				return 5
			}
		}
		var evs []string
		kept := queue[:0]
		for _, w := range queue {
			a, ok := st.Alloc(w.req)
			if !ok {
				kept = append(kept, w)
				continue
			}
			held[w.id] = a
			data := `{"job_id":` + strconv.FormatInt(w.id, 10)
			if mode != "engine" {
				var us []string
				for _, na := range a.Nodes {
					u := fmt.Sprintf(`{"node":%q,"tasks":%d`, ns.Name(na.Node), na.Tasks)
					if mode == "named" {
						u += fmt.Sprintf(`,"cores":%q,"gres":{`, idsText(na.Cores))
						for k, g := range na.GRES {
							if k > 0 {
								u += ","
							}
							u += fmt.Sprintf("%q:%q", g.Kind.String(), idsText(g.Units))
						}
						u += "}"
					}
					us = append(us, u+"}")
				}
				data += `,"nodes":[` + strings.Join(us, ",") + "]"
			}
			evs = append(evs, `{"type":"EXECUTE_JOB","data":`+data+"}}")
		}
		queue = kept
		fmt.Println(`{"events":[` + strings.Join(evs, ",") + "]}")
	}
}

type nodeTold struct {
	cores int
	mem   int64
	jobs  int
	whole bool
	gres  map[string]int
}

func idsText(ids []int) string {
	var r platform.Runs
	for _, c := range ids {
		r = r.Add(int32(c))
	}
	return r.String()
}

// platformOf rebuilds the platform of SIMULATION_BEGINS's node_groups.
func platformOf(data []byte) (*nodes.Nodes, error) {
	var d struct {
		Protocol string `json:"protocol"`
		Groups   []struct {
			Names    []string        `json:"names"`
			Cores    int             `json:"cores"`
			Sockets  int             `json:"sockets"`
			Threads  int             `json:"threads"`
			Mem      int64           `json:"mem"`
			GRES     json.RawMessage `json:"gres"`
			Features []string        `json:"features"`
			Weight   uint32          `json:"weight"`
		} `json:"node_groups"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, err
	}
	if d.Protocol != ProtocolNodes {
		return nil, fmt.Errorf("protocol %q", d.Protocol)
	}
	var gs []nodes.NodeGroup
	for _, g := range d.Groups {
		grp := nodes.NodeGroup{Names: g.Names, Sockets: g.Sockets, CoresPerSocket: g.Cores / g.Sockets, ThreadsPerCore: g.Threads,
			MemMB: g.Mem, Features: g.Features, Weight: g.Weight}
		kinds, err := orderedObject(g.GRES)
		if err != nil {
			return nil, err
		}
		for _, kv := range kinds {
			var x struct{ Count int }
			json.Unmarshal(kv.v, &x)
			name, typ, _ := strings.Cut(kv.k, ":")
			grp.GRES = append(grp.GRES, nodes.GRES{Name: name, Type: typ, Count: x.Count})
		}
		gs = append(gs, grp)
	}
	ns, err := nodes.New(gs)
	return &ns, err
}

// requestOfJSON reads a job's req, its GRES in the order written.
func requestOfJSON(b []byte) (nodes.Request, error) {
	var d struct {
		Tasks      int             `json:"tasks"`
		CPT        int             `json:"cpus_per_task"`
		Nodes      int             `json:"nodes"`
		Max        int             `json:"max_nodes"`
		MemNode    int64           `json:"mem_per_node"`
		MemCPU     int64           `json:"mem_per_cpu"`
		PerNode    json.RawMessage `json:"gres_per_node"`
		PerJob     json.RawMessage `json:"gres_per_job"`
		Constraint string          `json:"constraint"`
		Exclusive  bool            `json:"exclusive"`
	}
	if err := json.Unmarshal(b, &d); err != nil {
		return nodes.Request{}, err
	}
	r := nodes.Request{Tasks: d.Tasks, CPUsPerTask: d.CPT, Nodes: d.Nodes, MaxNodes: d.Max, MemPerNodeMB: d.MemNode, MemPerCPUMB: d.MemCPU,
		Constraint: d.Constraint, Exclusive: d.Exclusive}
	for _, l := range []struct {
		raw json.RawMessage
		to  *[]nodes.GRES
	}{{d.PerNode, &r.GRESPerNode}, {d.PerJob, &r.GRESPerJob}} {
		kvs, err := orderedObject(l.raw)
		if err != nil {
			return r, err
		}
		for _, kv := range kvs {
			n, _ := strconv.Atoi(string(kv.v))
			name, typ, _ := strings.Cut(kv.k, ":")
			*l.to = append(*l.to, nodes.GRES{Name: name, Type: typ, Count: n})
		}
	}
	return r, nil
}

type keyValue struct {
	k string
	v json.RawMessage
}

// orderedObject reads a JSON object's members in the order written (nil
// or empty input: none).
func orderedObject(b []byte) ([]keyValue, error) {
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var out []keyValue
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, keyValue{t.(string), v})
	}
	return out, nil
}

// nodeRunLog keeps each job's start and allocation as text.
type nodeRunLog struct {
	engine.NopListener
	ns   *nodes.Nodes
	runs map[job.ID]string
}

func (l *nodeRunLog) JobFinished(now float64, r *engine.Record) {
	var b strings.Builder
	fmt.Fprintf(&b, "start %g end %g:", r.Start, r.End)
	for _, na := range r.Alloc.Nodes {
		fmt.Fprintf(&b, " %s tasks %d cores %s mem %d", l.ns.Name(na.Node), na.Tasks, idsText(na.Cores), na.MemMB)
		for _, g := range na.GRES {
			fmt.Fprintf(&b, " %s=%s", g.Kind, idsText(g.Units))
		}
	}
	l.runs[r.Job.ID] = b.String()
}

func (l *nodeRunLog) JobKilled(now float64, r *engine.Record) { l.JobFinished(now, r) }

func runOnNodes(t testing.TB, ns *nodes.Nodes, pol policy.NodeScheduler, jobs []actual.Job) (map[job.ID]string, error) {
	l := &nodeRunLog{ns: ns, runs: map[job.ID]string{}}
	c, err := engine.NewNodeCluster(engine.NodeClusterConfig{Nodes: ns, Policy: pol, Source: workload.FromSlice(slices.Clone(jobs)), Listener: l})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Run()
	if cl, ok := pol.(interface{ Close() error }); ok {
		if cerr := cl.Close(); err == nil {
			err = cerr
		}
	}
	return l.runs, err
}

// randomPlatform: 1-3 groups of 1-3 nodes, 1-6 cores, 1-2 threads,
// memory or none, GPUs of type a or b or none, features x/y, weights.
func randomPlatform(t *testing.T, r *rand.Rand) *nodes.Nodes {
	return nodestest.RandomPlatform(t, r, nodestest.PlatformDraw{Nodes: 3, Cores: 6, GPUs: 4})
}

func randomJobs(ns *nodes.Nodes, r *rand.Rand, n int) []actual.Job {
	var jobs []actual.Job
	now := 0.0
	for id := job.ID(1); len(jobs) < n; id++ {
		now += float64(r.IntN(3))
		q := nodestest.RandomRequest(r, nodestest.RequestDraw{Tasks: 5, PerJob: true, Constraints: []string{"x", "y", "x&y", "x|y"}})
		if !nodes.Fits(ns, q) {
			continue
		}
		run := float64(r.IntN(10))
		j := actual.Job{ID: id, Submit: now, Procs: q.CPUs(), Runtime: run, Estimate: run + 1, Request: run + 1, User: -1, Group: -1, Req: &q}
		if r.IntN(5) == 0 {
			if p := nodes.FromProcs(1 + r.IntN(ns.Cores())); nodes.Fits(ns, p) {
				j.Req, j.Procs = nil, p.Tasks
			}
		}
		jobs = append(jobs, j)
	}
	return jobs
}

// A decision process doing first fit on nodes over the protocol, written
// from docs/protocol.md (nodesFF), gives the built-in firstfit's
// schedule job for job (start, nodes, tasks, cores, memory, GRES units)
// on random platforms and workloads, whether its starts name every id,
// only nodes and tasks (the ids the defaults give), or nothing (the
// engine's rule), and its view of the nodes, rebuilt from the requests'
// changed nodes alone, is at every request what it started.
func TestNodesFirstFitAgrees(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(7, 11))
	for round := range 30 {
		ns := randomPlatform(t, r)
		jobs := randomJobs(ns, r, 60)
		ff, err := backfill.NewNodePolicy(backfill.NodeConfig{Name: "firstfit", Nodes: ns})
		if err != nil {
			t.Fatal(err)
		}
		want, err := runOnNodes(t, ns, ff, jobs)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) != len(jobs) {
			t.Fatalf("round %d: firstfit ran %d of %d jobs", round, len(want), len(jobs))
		}
		plat, _ := platform.Cluster(ns.Cores())
		for _, mode := range []string{"named", "counts", "engine"} {
			cmd := fmt.Sprintf("SCHEDLAB_EXTERNAL_HELPER=nodesff SCHEDLAB_NODES_MODE=%s exec '%s'", mode, exe)
			p, err := NewNodes(plat, ns, Options{Command: cmd, Timeout: 20 * time.Second, Full: round%2 == 0})
			if err != nil {
				t.Fatal(err)
			}
			got, err := runOnNodes(t, ns, p, jobs)
			if err != nil {
				t.Fatalf("round %d (%s), %s: %v", round, ns, mode, err)
			}
			for _, j := range jobs {
				if got[j.ID] != want[j.ID] {
					t.Errorf("round %d (%s), %s: job %d (%v): %q, firstfit %q", round, ns, mode, j.ID, j.Req, got[j.ID], want[j.ID])
				}
			}
		}
	}
}

// goFirstFit is nodesFF as an in-process Decider: first fit with its
// own nodes.State, naming (mode) every id, nodes and tasks, or nothing;
// it checks that the nodes of Request.Changed are those whose free
// cores changed by its own account.
type goFirstFit struct {
	mode  string
	st    *nodes.State
	held  map[job.ID]nodes.Allocation
	cores []int // free cores by its account at the last request
	err   error
}

func (f *goFirstFit) Decide(r *Request) (Decision, error) {
	if r.Ends {
		return Decision{}, nil
	}
	ns := r.Nodes.Nodes()
	if r.Begins {
		f.st, f.held = nodes.NewState(ns), map[job.ID]nodes.Allocation{}
		for id := range ns.Len() {
			f.cores = append(f.cores, ns.Node(id).Cores())
		}
	}
	for _, id := range r.Completed {
		f.st.Release(f.held[id])
		delete(f.held, id)
	}
	for id := range ns.Len() {
		if c := f.st.FreeCores(id); c != r.Nodes.FreeCores(id) {
			return Decision{}, fmt.Errorf("node %s: %d free cores, %d by its account", ns.Name(id), r.Nodes.FreeCores(id), c)
		} else if c != f.cores[id] && !slices.Contains(r.Changed, id) {
			return Decision{}, fmt.Errorf("node %s changed (%d to %d free cores), not in Changed %v", ns.Name(id), f.cores[id], c, r.Changed)
		}
		f.cores[id] = f.st.FreeCores(id)
	}
	var d Decision
	for _, j := range r.Waiting {
		q := nodes.FromProcs(j.Procs)
		if j.Req != nil {
			q = *j.Req
		}
		a, ok := f.st.Alloc(q)
		if !ok {
			continue
		}
		f.held[j.ID] = a
		e := Exec{ID: j.ID}
		if f.mode != "engine" {
			for _, na := range a.Nodes {
				u := NodeUse{Node: ns.Name(na.Node), Tasks: na.Tasks}
				if f.mode == "named" {
					u.Cores, u.GRES = idsText(na.Cores), map[string]Units{}
					for _, g := range na.GRES {
						u.GRES[g.Kind.String()] = Units{IDs: idsText(g.Units)}
					}
				}
				e.Nodes = append(e.Nodes, u)
			}
		}
		d.Starts = append(d.Starts, e)
	}
	return d, nil
}

// The in-process Decider on nodes gives the built-in firstfit's
// schedule, as the decision process does.
func TestNodesDeciderAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 17))
	for round := range 20 {
		ns := randomPlatform(t, r)
		jobs := randomJobs(ns, r, 60)
		ff, err := backfill.NewNodePolicy(backfill.NodeConfig{Name: "firstfit", Nodes: ns})
		if err != nil {
			t.Fatal(err)
		}
		want, err := runOnNodes(t, ns, ff, jobs)
		if err != nil {
			t.Fatal(err)
		}
		plat, _ := platform.Cluster(ns.Cores())
		for _, mode := range []string{"named", "counts", "engine"} {
			p, err := NewNodes(plat, ns, Options{Decider: &goFirstFit{mode: mode}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := runOnNodes(t, ns, p, jobs)
			if err != nil {
				t.Fatalf("round %d (%s), %s: %v", round, ns, mode, err)
			}
			for _, j := range jobs {
				if got[j.ID] != want[j.ID] {
					t.Errorf("round %d (%s), %s: job %d (%v): %q, firstfit %q", round, ns, mode, j.ID, j.Req, got[j.ID], want[j.ID])
				}
			}
		}
	}
}

// A Decider's bad start on nodes is the model's error, or the
// decision's, naming the start.
func TestNodesDeciderErrors(t *testing.T) {
	ns := *nodestest.Must(t, "n[1-2]:cores=4:gres=gpu=2")
	one := nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []nodes.GRES{{Name: "gpu", Count: 1}}}
	jobs := []actual.Job{
		{ID: 1, Submit: 0, Procs: 1, Runtime: 10, Estimate: 10, Request: 10, Req: &one},
		{ID: 2, Submit: 1, Procs: 1, Runtime: 10, Estimate: 10, Request: 10, Req: &one},
	}
	for _, c := range []struct {
		second Exec
		want   string
	}{
		{Exec{ID: 2, Nodes: []NodeUse{{Node: "n1", GRES: map[string]Units{"gpu": {IDs: "0"}}}}},
			"policy external at t=1: start job 2: node n1: gres gpu unit 0 is busy"},
		{Exec{ID: 2, Nodes: []NodeUse{{Node: "n3"}}},
			`policy external at t=1: start 1 of the decision: job 2: node "n3": no such node [in-process]`},
		{Exec{ID: 2, Alloc: "1"},
			`policy external at t=1: start 1 of the decision: job 2: on a platform of nodes a start names its nodes`},
	} {
		dec := deciderFunc(func(r *Request) (Decision, error) {
			switch {
			case r.Ends || len(r.Waiting) == 0:
				return Decision{}, nil
			case r.Now == 0:
				return Decision{Starts: []Exec{{ID: 1, Nodes: []NodeUse{{Node: "n1"}}}}}, nil
			}
			return Decision{Starts: []Exec{c.second}}, nil
		})
		p, err := NewNodes(platform.MustCluster(8), &ns, Options{Decider: dec})
		if err != nil {
			t.Fatal(err)
		}
		_, err = runOnNodes(t, &ns, p, jobs)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: err = %v, want %s", c.second, err, c.want)
		}
	}
}

type deciderFunc func(*Request) (Decision, error)

func (f deciderFunc) Decide(r *Request) (Decision, error) { return f(r) }

// The same on 1,024 nodes (a group of 512 with GPUs, one without) and
// 2,000 jobs arriving in bursts, with nodes and tasks only named: the
// requests carry only the nodes that changed.
func TestNodesFirstFitAgrees1024(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 jobs on 1,024 nodes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ns := *nodestest.Must(t, "g[0001-0512]:cores=4:gres=gpu:a=2:features=x", "c[0001-0512]:cores=2:mem=4G:features=y")
	r := rand.New(rand.NewPCG(3, 5))
	jobs := randomJobs(&ns, r, 2000)
	for k := range jobs { // bursts: 40 jobs an instant, so that the platform fills
		jobs[k].Submit = float64(k / 40)
		jobs[k].Runtime *= 20
		jobs[k].Estimate, jobs[k].Request = jobs[k].Runtime+1, jobs[k].Runtime+1
	}
	ff, err := backfill.NewNodePolicy(backfill.NodeConfig{Name: "firstfit", Nodes: &ns})
	if err != nil {
		t.Fatal(err)
	}
	want, err := runOnNodes(t, &ns, ff, jobs)
	if err != nil {
		t.Fatal(err)
	}
	waited := 0
	for _, j := range jobs {
		if !strings.HasPrefix(want[j.ID], fmt.Sprintf("start %g ", j.Submit)) {
			waited++
		}
	}
	if waited < 100 {
		t.Fatalf("only %d jobs waited: the platform does not fill", waited)
	}
	cmd := fmt.Sprintf("SCHEDLAB_EXTERNAL_HELPER=nodesff SCHEDLAB_NODES_MODE=counts exec '%s'", exe)
	plat, _ := platform.Cluster(ns.Cores())
	p, err := NewNodes(plat, &ns, Options{Command: cmd, Timeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	got, err := runOnNodes(t, &ns, p, jobs)
	if err != nil {
		t.Fatal(err)
	}
	diff := 0
	for _, j := range jobs {
		if got[j.ID] != want[j.ID] {
			if diff++; diff <= 5 {
				t.Errorf("job %d (%v): %q, firstfit %q", j.ID, j.Req, got[j.ID], want[j.ID])
			}
		}
	}
	if diff > 0 {
		t.Errorf("%d of %d jobs differ", diff, len(jobs))
	}
}

// BenchmarkNodesDecider1024 is a run of 2,000 jobs on 1,024 nodes with
// an in-process first fit naming nodes and tasks: the node side's cost
// per instant (the changed nodes, the mirror, the allocations built from
// the starts), without a process or JSON.
func BenchmarkNodesDecider1024(b *testing.B) {
	ns := *nodestest.Must(b, "g[0001-0512]:cores=4:gres=gpu:a=2:features=x", "c[0001-0512]:cores=2:mem=4G:features=y")
	jobs := randomJobs(&ns, rand.New(rand.NewPCG(3, 5)), 2000)
	for k := range jobs {
		jobs[k].Submit = float64(k / 40)
	}
	plat, _ := platform.Cluster(ns.Cores())
	for b.Loop() {
		p, err := NewNodes(plat, &ns, Options{Decider: &goFirstFit{mode: "counts"}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := runOnNodes(b, &ns, p, jobs); err != nil {
			b.Fatal(err)
		}
	}
}

// jsonFirstFit is nodesFF as an in-process Decider that sees the nodes
// only through NodeViewJSON (the platform from its node_groups, each
// job's request from its req, the free amounts from its nodes, as the
// protocol's JSON) and answers with Exec.NodesJSON in the protocol's
// form, naming (mode) every id, or nodes and tasks only. At every
// request it checks the view it rebuilt against the engine's.
type jsonFirstFit struct {
	mode  string
	ns    *nodes.Nodes
	st    *nodes.State
	told  []nodeTold
	queue []jsonWaiting
	held  map[job.ID]nodes.Allocation
}

type jsonWaiting struct {
	id  job.ID
	req nodes.Request
}

func (f *jsonFirstFit) Decide(r *Request) (Decision, error) {
	if r.Ends {
		return Decision{}, nil
	}
	raw := NodeViewJSON(r)
	var v struct {
		Groups json.RawMessage   `json:"node_groups"`
		Nodes  []json.RawMessage `json:"nodes"`
		Req    []json.RawMessage `json:"req"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return Decision{}, fmt.Errorf("NodeViewJSON %s: %v", raw, err)
	}
	if r.Begins != (v.Groups != nil) {
		return Decision{}, fmt.Errorf("begins %v, node_groups %s", r.Begins, v.Groups)
	}
	if r.Begins {
		var err error
		if f.ns, err = platformOf([]byte(`{"protocol":"` + ProtocolNodes + `","node_groups":` + string(v.Groups) + "}")); err != nil {
			return Decision{}, err
		}
		f.st, f.held = nodes.NewState(f.ns), map[job.ID]nodes.Allocation{}
		for id := range f.ns.Len() {
			nd := f.ns.Node(id)
			t := nodeTold{cores: nd.Cores(), mem: nd.MemMB, gres: map[string]int{}}
			for _, g := range nd.GRES() {
				t.gres[g.Kind().String()] = g.Count
			}
			f.told = append(f.told, t)
		}
	}
	if len(v.Req) != len(r.Submitted) {
		return Decision{}, fmt.Errorf("%d reqs for %d jobs submitted", len(v.Req), len(r.Submitted))
	}
	for k, q := range v.Req {
		req, err := requestOfJSON(q)
		if err != nil {
			return Decision{}, err
		}
		f.queue = append(f.queue, jsonWaiting{r.Submitted[k].ID, req})
	}
	for _, id := range r.Completed {
		f.st.Release(f.held[id])
		delete(f.held, id)
	}
	for _, e := range v.Nodes {
		var n struct {
			ID    int            `json:"id"`
			Cores int            `json:"cores"`
			Mem   int64          `json:"mem"`
			Jobs  int            `json:"jobs"`
			Whole bool           `json:"whole"`
			GRES  map[string]int `json:"gres"`
		}
		if err := json.Unmarshal(e, &n); err != nil {
			return Decision{}, err
		}
		f.told[n.ID] = nodeTold{n.Cores, n.Mem, n.Jobs, n.Whole, n.GRES}
	}
	for id := range f.ns.Len() {
		t := f.told[id]
		ok := t.cores == f.st.FreeCores(id) && t.mem == f.st.FreeMemMB(id) && t.jobs == f.st.Jobs(id) && t.whole == f.st.Whole(id)
		for _, g := range f.ns.Node(id).GRES() {
			ok = ok && t.gres[g.Kind().String()] == f.st.FreeGRES(id, g.Kind())
		}
		if !ok {
			return Decision{}, fmt.Errorf("t=%g: the view of node %s (%+v) is not what it started", r.Now, f.ns.Name(id), t)
		}
	}
	var d Decision
	kept := f.queue[:0]
	for _, w := range f.queue {
		a, ok := f.st.Alloc(w.req)
		if !ok {
			kept = append(kept, w)
			continue
		}
		f.held[w.id] = a
		var us []string
		for _, na := range a.Nodes {
			u := fmt.Sprintf(`{"node":%q,"tasks":%d`, f.ns.Name(na.Node), na.Tasks)
			if f.mode == "named" {
				u += fmt.Sprintf(`,"cores":%q,"gres":{`, idsText(na.Cores))
				for k, g := range na.GRES {
					if k > 0 {
						u += ","
					}
					u += fmt.Sprintf("%q:%q", g.Kind.String(), idsText(g.Units))
				}
				u += "}"
			}
			us = append(us, u+"}")
		}
		d.Starts = append(d.Starts, Exec{ID: w.id, NodesJSON: []byte("[" + strings.Join(us, ",") + "]")})
	}
	f.queue = kept
	return d, nil
}

// A Decider that sees the nodes only as NodeViewJSON and names them as
// NodesJSON (the in-process engine's way for Python) gives the built-in
// firstfit's schedule: the JSON view is complete and right at every
// request (jsonFirstFit checks it), and the starts read as a reply's.
func TestNodesDeciderJSONAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 31))
	for round := range 20 {
		ns := randomPlatform(t, r)
		jobs := randomJobs(ns, r, 60)
		ff, err := backfill.NewNodePolicy(backfill.NodeConfig{Name: "firstfit", Nodes: ns})
		if err != nil {
			t.Fatal(err)
		}
		want, err := runOnNodes(t, ns, ff, jobs)
		if err != nil {
			t.Fatal(err)
		}
		plat, _ := platform.Cluster(ns.Cores())
		for _, mode := range []string{"named", "counts"} {
			p, err := NewNodes(plat, ns, Options{Decider: &jsonFirstFit{mode: mode}})
			if err != nil {
				t.Fatal(err)
			}
			got, err := runOnNodes(t, ns, p, jobs)
			if err != nil {
				t.Fatalf("round %d (%s), %s: %v", round, ns, mode, err)
			}
			for _, j := range jobs {
				if got[j.ID] != want[j.ID] {
					t.Errorf("round %d (%s), %s: job %d (%v): %q, firstfit %q", round, ns, mode, j.ID, j.Req, got[j.ID], want[j.ID])
				}
			}
		}
	}
}

// A start's NodesJSON is read as a reply's "nodes": its errors are the
// reply's, naming the start of the decision.
func TestNodesDeciderJSONErrors(t *testing.T) {
	ns := *nodestest.Must(t, "n[1-2]:cores=4:gres=gpu=2")
	one := nodes.Request{Tasks: 1, CPUsPerTask: 1, GRESPerNode: []nodes.GRES{{Name: "gpu", Count: 1}}}
	jobs := []actual.Job{
		{ID: 1, Submit: 0, Procs: 1, Runtime: 10, Estimate: 10, Request: 10, Req: &one},
		{ID: 2, Submit: 1, Procs: 1, Runtime: 10, Estimate: 10, Request: 10, Req: &one},
	}
	for _, c := range []struct {
		second Exec
		want   string
	}{
		{Exec{ID: 2, NodesJSON: []byte(`[{"node":"n1","gres":{"gpu":"0"}}]`)},
			"policy external at t=1: start job 2: node n1: gres gpu unit 0 is busy"},
		{Exec{ID: 2, NodesJSON: []byte(`["n3"]`)},
			`policy external at t=1: start 1 of the decision: job 2: node "n3": no such node`},
		{Exec{ID: 2, NodesJSON: []byte(`[{"node":"n2","gres":{"gpu":1.5}}]`)},
			`start 1 of the decision: job 2: node n2: gres "gpu": "1.5": want unit ids ("0-1") or a count`},
		{Exec{ID: 2, NodesJSON: []byte(`{"node":"n2"}`)},
			`start 1 of the decision: job 2: nodes "{\"node\":\"n2\"}": json: cannot unmarshal object`},
		{Exec{ID: 2, NodesJSON: []byte(`["n2"]`), Nodes: []NodeUse{{Node: "n2"}}},
			`start 1 of the decision: job 2: both Nodes and NodesJSON are set`},
	} {
		dec := deciderFunc(func(r *Request) (Decision, error) {
			switch {
			case r.Ends || len(r.Waiting) == 0:
				return Decision{}, nil
			case r.Now == 0:
				return Decision{Starts: []Exec{{ID: 1, NodesJSON: []byte(`["n1"]`)}}}, nil
			}
			return Decision{Starts: []Exec{c.second}}, nil
		})
		p, err := NewNodes(platform.MustCluster(8), &ns, Options{Decider: dec})
		if err != nil {
			t.Fatal(err)
		}
		_, err = runOnNodes(t, &ns, p, jobs)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %s", c.second.NodesJSON, err, c.want)
		}
	}
}
