package external

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
)

// ProtocolNodes names the protocol's node extension in SIMULATION_BEGINS
// (docs/protocol.md, "On a platform of nodes"): a decision process
// written for the pool of CPUs that checks the protocol's name refuses
// it instead of misreading the platform.
const ProtocolNodes = "schedlab-external/1+nodes"

// NodeClient is the external policy on a platform of nodes
// (policy.NodeScheduler): the Client's process, framing, events and
// validation, with the node extension of the protocol. Build it with
// NewNodes.
type NodeClient struct{ *Client }

// NewNodes returns the external policy for the platform of nodes ns
// (plat: the kernel's machine of its cores). With opt.Decider the
// decisions come from it (Request.Nodes, Request.Changed, Exec.Nodes).
func NewNodes(plat platform.Platform, ns *nodes.Nodes, opt Options) (*NodeClient, error) {
	c := New(plat, opt)
	c.nd = newNodeSide(ns)
	return &NodeClient{c}, nil
}

var _ policy.NodeScheduler = (*NodeClient)(nil)

// nodeSide is what the Client keeps on a platform of nodes: a mirror of
// what the engine holds (every start names its allocation, so the
// mirror holds exactly the engine's), the requests of the waiting jobs,
// and what the last request told the process of each node.
type nodeSide struct {
	ns        *nodes.Nodes
	kinds     []nodes.Kind
	state     *nodes.State
	coreUsed  []bool   // per global core
	unitUsed  [][]bool // per kind (kinds order), per unit
	freeCores int      // all nodes together
	held      map[job.ID]nodes.Allocation
	reqs      map[job.ID]nodes.Request // waiting jobs
	// groupKinds are each group's GRES kinds, sorted; sent what the
	// process was last told of each node.
	groupKinds [][]nodes.Kind
	sent       []nodeFree
	dirty      []int
	isDirty    []bool
	changed    []int // the nodes of the current request's view
	scratch    []int
}

// nodeFree is what the view says of one node.
type nodeFree struct {
	cores int
	mem   int64
	jobs  int
	whole bool
	units []int // the node's kinds (groupKinds), in order
}

func newNodeSide(ns *nodes.Nodes) *nodeSide {
	d := &nodeSide{ns: ns, kinds: ns.Kinds(), state: nodes.NewState(ns), coreUsed: make([]bool, ns.Cores()),
		freeCores: ns.Cores(), held: map[job.ID]nodes.Allocation{}, reqs: map[job.ID]nodes.Request{},
		sent: make([]nodeFree, ns.Len()), isDirty: make([]bool, ns.Len())}
	d.unitUsed = make([][]bool, len(d.kinds))
	for k, kind := range d.kinds {
		d.unitUsed[k] = make([]bool, ns.GRESTotal(kind))
	}
	for g := range ns.Groups() {
		var ks []nodes.Kind
		for _, x := range ns.Group(g).GRES {
			ks = append(ks, x.Kind())
		}
		d.groupKinds = append(d.groupKinds, ks)
	}
	for id := range ns.Len() {
		nd := ns.Node(id)
		f := nodeFree{cores: nd.Cores(), mem: nd.MemMB}
		for _, k := range d.groupKinds[nd.Group] {
			f.units = append(f.units, nd.GRESCount(k))
		}
		d.sent[id] = f
	}
	return d
}

func (d *nodeSide) kindIndex(k nodes.Kind) (int, bool) {
	return slices.BinarySearchFunc(d.kinds, k, func(a, b nodes.Kind) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Type, b.Type))
	})
}

func (d *nodeSide) touch(id int) {
	if !d.isDirty[id] {
		d.isDirty[id] = true
		d.dirty = append(d.dirty, id)
	}
}

// occupy takes a in the mirror; false (nothing taken) when something of
// it is not free or not of the platform: the engine then refuses the
// start with its own message.
func (d *nodeSide) occupy(id job.ID, a nodes.Allocation) bool {
	if !d.state.Occupy(a) {
		return false
	}
	d.mark(a, true)
	d.held[id] = a
	return true
}

// mark sets the mirror's bits of a's cores and units to used.
func (d *nodeSide) mark(a nodes.Allocation, used bool) {
	for _, na := range a.Nodes {
		for _, c := range na.Cores {
			d.coreUsed[c] = used
		}
		if used {
			d.freeCores -= len(na.Cores)
		} else {
			d.freeCores += len(na.Cores)
		}
		for _, g := range na.GRES {
			k, _ := d.kindIndex(g.Kind)
			for _, u := range g.Units {
				d.unitUsed[k][u] = used
			}
		}
		d.touch(na.Node)
	}
}

// release gives back what job id held (it ended).
func (d *nodeSide) release(id job.ID) {
	a, ok := d.held[id]
	if !ok {
		return
	}
	delete(d.held, id)
	d.state.Release(a)
	d.mark(a, false)
}

// Schedule sends the request of this instant, with the nodes whose free
// amounts changed since the last request, and applies the reply.
func (p *NodeClient) Schedule(now float64, v policy.NodeView, plan *policy.Plan) {
	if p.err != nil {
		return
	}
	p.now = now
	if !p.wakeDue() && (len(p.waiting) == 0 || p.nd.freeCores == 0) {
		// Nothing can start (every job takes a core): no request.
		p.skipped++
		return
	}
	if p.opt.Decider != nil {
		p.decideNodes(now, v, plan)
		return
	}
	b, ok := p.openRequest(now)
	if !ok {
		return
	}
	b = strconv.AppendInt(b, int64(p.nd.freeCores), 10)
	b = append(b, `],"nodes":[`...)
	b, ok = p.appendChanged(b, v)
	if !ok {
		return
	}
	b = append(b, ']')
	p.sendRequest(now, b, plan)
}

// changed sets d.changed to the nodes touched since the last request
// whose free amounts (read from the engine's view) differ from what the
// process was told, in node id order, and records them as told. It
// checks the mirror against the view on the way: false (the policy
// failed) if they disagree.
func (p *NodeClient) changed(v policy.NodeView) bool {
	d := p.nd
	slices.Sort(d.dirty)
	d.changed = d.changed[:0]
	for _, id := range d.dirty {
		d.isDirty[id] = false
		f := &d.sent[id]
		now := nodeFree{cores: v.FreeCores(id), mem: v.FreeMemMB(id), jobs: v.Jobs(id), whole: v.Whole(id), units: d.scratch[:0]}
		for _, k := range d.groupKinds[d.ns.GroupOf(id)] {
			now.units = append(now.units, v.FreeGRES(id, k))
		}
		d.scratch = now.units
		if now.cores != d.state.FreeCores(id) {
			p.fail("internal error: node %s has %d free cores, the policy's mirror %d", d.ns.Name(id), now.cores, d.state.FreeCores(id))
			return false
		}
		if now.cores == f.cores && now.mem == f.mem && now.jobs == f.jobs && now.whole == f.whole && slices.Equal(now.units, f.units) {
			continue
		}
		f.cores, f.mem, f.jobs, f.whole = now.cores, now.mem, now.jobs, now.whole
		copy(f.units, now.units)
		d.changed = append(d.changed, id)
	}
	d.dirty = d.dirty[:0]
	return true
}

// appendChanged appends the view's entries of the changed nodes.
func (p *NodeClient) appendChanged(b []byte, v policy.NodeView) ([]byte, bool) {
	d := p.nd
	if !p.changed(v) {
		return b, false
	}
	for n, id := range d.changed {
		if n > 0 {
			b = append(b, ',')
		}
		b = appendNodeFree(b, id, &d.sent[id], d.groupKinds[d.ns.GroupOf(id)])
	}
	return b, true
}

// appendNodeFree appends the view's entry of node id: what is free on
// it (f), its GRES as the kinds of its group, in order.
func appendNodeFree(b []byte, id int, f *nodeFree, ks []nodes.Kind) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, `,"cores":`...)
	b = strconv.AppendInt(b, int64(f.cores), 10)
	b = append(b, `,"mem":`...)
	b = strconv.AppendInt(b, f.mem, 10)
	b = append(b, `,"jobs":`...)
	b = strconv.AppendInt(b, int64(f.jobs), 10)
	b = append(b, `,"whole":`...)
	b = strconv.AppendBool(b, f.whole)
	if len(ks) > 0 {
		b = append(b, `,"gres":{`...)
		for k, kind := range ks {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, kind.String())
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(f.units[k]), 10)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// NodeViewJSON is what a request of the protocol says of the nodes,
// for a Decider's request r on a platform of nodes (nil on a pool of
// CPUs), as JSON: {"node_groups": [...] (SIMULATION_BEGINS's, on the
// first request only), "nodes": [...] (the view's entries of the nodes
// r.Changed names), "req": [...] (the request of each job of
// r.Submitted, in order)}, each part in the protocol's own encoding
// (docs/protocol.md, "On a platform of nodes"). The in-process engine
// (cmd/libschedlab) hands it to Python, which reads it with the
// protocol's code, so that both engines give a Python policy the same
// view. Call it during Decide (r.Nodes is valid then).
func NodeViewJSON(r *Request) []byte {
	if r.Nodes == nil {
		return nil
	}
	ns := r.Nodes.Nodes()
	b := []byte{'{'}
	if r.Begins {
		b = append(b, `"node_groups":`...)
		b = appendNodeGroups(b, ns)
		b = append(b, ',')
	}
	b = append(b, `"nodes":[`...)
	var f nodeFree
	for n, id := range r.Changed {
		if n > 0 {
			b = append(b, ',')
		}
		f = nodeFree{cores: r.Nodes.FreeCores(id), mem: r.Nodes.FreeMemMB(id), jobs: r.Nodes.Jobs(id), whole: r.Nodes.Whole(id), units: f.units[:0]}
		var ks []nodes.Kind
		for _, x := range ns.Group(ns.GroupOf(id)).GRES {
			ks = append(ks, x.Kind())
			f.units = append(f.units, r.Nodes.FreeGRES(id, x.Kind()))
		}
		b = appendNodeFree(b, id, &f, ks)
	}
	b = append(b, `],"req":[`...)
	for k := range r.Submitted {
		if k > 0 {
			b = append(b, ',')
		}
		q := requestOf(&r.Submitted[k])
		// appendReq writes `,"req":{...}`: keep the object
		b = append(b, appendReq(nil, &q)[len(`,"req":`):]...)
	}
	return append(b, "]}"...)
}

// appendBegins appends SIMULATION_BEGINS's data on a platform of
// nodes (after "data":{).
func (d *nodeSide) appendBegins(b []byte, full bool) []byte {
	b = append(b, `"protocol":"`...)
	b = append(b, ProtocolNodes...)
	b = append(b, `","platform":"nodes","nb_resources":`...)
	b = strconv.AppendInt(b, int64(d.ns.Cores()), 10)
	b = append(b, `,"view":"`...)
	if full {
		b = append(b, "full"...)
	} else {
		b = append(b, "free"...)
	}
	b = append(b, `","machines":[{"id":0,"cpus":`...)
	b = strconv.AppendInt(b, int64(d.ns.Cores()), 10)
	b = append(b, `,"first_cpu":0,"speed":1}],"node_groups":`...)
	return appendNodeGroups(b, d.ns)
}

// appendNodeGroups appends SIMULATION_BEGINS's node_groups: the
// platform's node groups, in order.
func appendNodeGroups(b []byte, ns *nodes.Nodes) []byte {
	b = append(b, '[')
	id := 0
	for g := range ns.Groups() {
		grp := ns.Group(g)
		nd := ns.Node(id)
		if g > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"first_node":`...)
		b = strconv.AppendInt(b, int64(id), 10)
		b = append(b, `,"names":[`...)
		for k, name := range grp.Names {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, name)
		}
		b = append(b, `],"first_core":`...)
		b = strconv.AppendInt(b, int64(nd.FirstCore), 10)
		b = append(b, `,"cores":`...)
		b = strconv.AppendInt(b, int64(grp.Cores()), 10)
		b = append(b, `,"sockets":`...)
		b = strconv.AppendInt(b, int64(grp.Sockets), 10)
		b = append(b, `,"threads":`...)
		b = strconv.AppendInt(b, int64(grp.ThreadsPerCore), 10)
		b = append(b, `,"mem":`...)
		b = strconv.AppendInt(b, grp.MemMB, 10)
		b = append(b, `,"gres":{`...)
		for k, x := range grp.GRES {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, x.Kind().String())
			b = append(b, `:{"count":`...)
			b = strconv.AppendInt(b, int64(x.Count), 10)
			first, _ := ns.FirstGRES(id, x.Kind())
			b = append(b, `,"first_unit":`...)
			b = strconv.AppendInt(b, int64(first), 10)
			b = append(b, '}')
		}
		b = append(b, `},"features":[`...)
		for k, f := range grp.Features {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, f)
		}
		b = append(b, `],"weight":`...)
		b = strconv.AppendUint(b, uint64(grp.Weight), 10)
		b = append(b, '}')
		id += len(grp.Names)
	}
	return append(b, ']')
}

// appendReq appends `,"req":{...}`: a job's request, the fields it sets
// (tasks and cpus_per_task always).
func appendReq(b []byte, r *nodes.Request) []byte {
	b = append(b, `,"req":{"tasks":`...)
	b = strconv.AppendInt(b, int64(r.Tasks), 10)
	b = append(b, `,"cpus_per_task":`...)
	b = strconv.AppendInt(b, int64(r.CPUsPerTask), 10)
	for _, f := range []struct {
		name string
		v    int64
	}{{"nodes", int64(r.Nodes)}, {"max_nodes", int64(r.MaxNodes)}, {"mem_per_node", r.MemPerNodeMB}, {"mem_per_cpu", r.MemPerCPUMB}} {
		if f.v != 0 {
			b = append(b, `,"`...)
			b = append(b, f.name...)
			b = append(b, `":`...)
			b = strconv.AppendInt(b, f.v, 10)
		}
	}
	for _, l := range []struct {
		name string
		g    []nodes.GRES
	}{{"gres_per_node", r.GRESPerNode}, {"gres_per_job", r.GRESPerJob}} {
		if len(l.g) == 0 {
			continue
		}
		b = append(b, `,"`...)
		b = append(b, l.name...)
		b = append(b, `":{`...)
		for k, g := range l.g {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, g.Kind().String())
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(g.Count), 10)
		}
		b = append(b, '}')
	}
	if r.Constraint != "" {
		b = append(b, `,"constraint":`...)
		b = strconv.AppendQuote(b, r.Constraint)
	}
	if r.Exclusive {
		b = append(b, `,"exclusive":true`...)
	}
	return append(b, '}')
}

// requestOf is what j asks of the nodes: its Req, or Procs tasks of one
// CPU (as the engine reads it).
func requestOf(j *job.Info) nodes.Request {
	if j.Req != nil {
		return *j.Req
	}
	return nodes.FromProcs(j.Procs)
}

// nodeUse is one node of a start's "nodes" list: a name, or an object.
type nodeUse struct {
	Node  string                     `json:"node"`
	Tasks *int                       `json:"tasks"`
	Cores *string                    `json:"cores"`
	GRES  map[string]json.RawMessage `json:"gres"`
}

func (u *nodeUse) UnmarshalJSON(b []byte) error {
	if t := trimSpace(b); len(t) > 0 && t[0] == '"' {
		return json.Unmarshal(b, &u.Node)
	}
	type plain nodeUse
	return json.Unmarshal(b, (*plain)(u))
}

// executeNodes validates one start on nodes (EXECUTE_JOB with data d)
// and appends it to the plan with its allocation; false after a failure
// (recorded). What the reply names is made into an allocation here; the
// engine checks it against the request and what is free, as every
// policy's.
func (p *NodeClient) executeNodes(now float64, where string, d *executeData, plan *policy.Plan) bool {
	id := job.ID(*d.JobID)
	var uses []nodeUse
	named := len(d.Nodes) > 0 && string(trimSpace(d.Nodes)) != "null"
	if named && p.waitingJob(where, id) {
		if err := json.Unmarshal(d.Nodes, &uses); err != nil {
			p.fail("%s: job %d: nodes %s: %s", where, id, quote(d.Nodes), jsonError(err))
			return false
		}
	}
	return p.execNodes(now, where, id, d.Machine, d.Alloc, uses, named, plan)
}

// execNodes validates one start on nodes (what executeNodes read, or a
// Decider's Exec) and appends it to the plan; false after a failure
// (recorded).
func (p *NodeClient) execNodes(now float64, where string, id job.ID, machine int, alloc string, uses []nodeUse, named bool, plan *policy.Plan) bool {
	if !p.waitingJob(where, id) {
		return false
	}
	if alloc != "" || machine != 0 {
		p.fail(`%s: job %d: on a platform of nodes a start names its nodes (field "nodes"), not "alloc" or "machine"`, where, id)
		return false
	}
	r := p.nd.reqs[id]
	var a nodes.Allocation
	if named {
		var err error
		if a, err = p.nd.build(r, uses); err != nil {
			p.fail("%s: job %d: %v", where, id, err)
			return false
		}
	} else {
		var ok bool
		if a, ok = p.nd.state.Alloc(r); ok {
			p.nd.state.Release(a) // taken below by occupy, with the mirror's bits
		}
		if !ok {
			// the engine's state is the mirror's: its own rule fails
			// too, and says so
			plan.Starts = append(plan.Starts, policy.Start{ID: id})
			p.startedNow(now, id, plan)
			return true
		}
	}
	p.nd.occupy(id, a)
	plan.Starts = append(plan.Starts, policy.Start{ID: id, Alloc: &a})
	p.startedNow(now, id, plan)
	return true
}

// NodeUse is what a Decider's start takes on one node (Exec.Nodes; the
// protocol's "nodes" entries, docs/protocol.md): Node its name; Tasks
// the tasks placed there (0: all the job's, on a start of one node);
// Cores global core ids in the interval syntax ("": the node's lowest
// free); GRES by kind ("gpu", "gpu:a100"), nil for the request's GRES
// by the default rule.
type NodeUse struct {
	Node  string
	Tasks int
	Cores string
	GRES  map[string]Units
}

// Units are GRES units of one kind on a node: IDs, global unit ids in
// the interval syntax, or (IDs "") Count, the node's lowest free units.
type Units struct {
	IDs   string
	Count int
}

// decideNodes asks the in-process Decider for this instant's decision
// on nodes and validates it as a reply's.
func (p *NodeClient) decideNodes(now float64, v policy.NodeView, plan *policy.Plan) {
	if !p.changed(v) {
		return
	}
	r := &p.req
	r.Now, r.Begins, r.Ends = now, !p.began, false
	p.began = true
	r.Free = append(r.Free[:0], p.nd.freeCores)
	r.Waiting, r.Running, r.Platform = p.waiting, len(p.running), p.plat
	r.Nodes, r.Changed = v, p.nd.changed
	d, err := p.opt.Decider.Decide(r)
	r.Submitted, r.Completed, r.RequestedCall = r.Submitted[:0], r.Completed[:0], false
	r.Nodes, r.Changed = nil, nil
	if err != nil {
		p.fail("%v", err)
		return
	}
	p.started, p.nrej = p.started[:0], 0
	for k, e := range d.Starts {
		if e.NodesJSON != nil {
			if e.Nodes != nil {
				p.fail("%s: job %d: both Nodes and NodesJSON are set (give one)", decisionWhere(k), e.ID)
				return
			}
			id := int64(e.ID)
			p.data = executeData{JobID: &id, Machine: e.Machine, Alloc: e.Alloc, Nodes: e.NodesJSON}
			if !p.executeNodes(now, decisionWhere(k), &p.data, plan) {
				return
			}
			continue
		}
		var uses []nodeUse
		if e.Nodes != nil {
			uses = make([]nodeUse, len(e.Nodes))
			for i, u := range e.Nodes {
				uses[i] = nodeUse{Node: u.Node}
				if u.Tasks != 0 {
					uses[i].Tasks = &e.Nodes[i].Tasks
				}
				if u.Cores != "" {
					uses[i].Cores = &e.Nodes[i].Cores
				}
				if u.GRES != nil {
					uses[i].GRES = make(map[string]json.RawMessage, len(u.GRES))
					for kind, x := range u.GRES {
						if x.IDs != "" {
							uses[i].GRES[kind] = json.RawMessage(strconv.Quote(x.IDs))
						} else {
							uses[i].GRES[kind] = json.RawMessage(strconv.Itoa(x.Count))
						}
					}
				}
			}
		}
		if !p.execNodes(now, decisionWhere(k), e.ID, e.Machine, e.Alloc, uses, e.Nodes != nil, plan) {
			return
		}
	}
	p.decided(now, d, plan)
}

// startedNow records a start appended to the plan.
func (p *Client) startedNow(now float64, id job.ID, plan *policy.Plan) {
	p.started = append(p.started, len(plan.Starts)-1)
	delete(p.queued, id)
	if p.nd != nil {
		delete(p.nd.reqs, id)
	}
	p.running[id] = runningJob{machine: 0, start: now}
}

// build makes the allocation a start names: per node its tasks (default:
// all of them on a start of one node), its cores (default: the lowest
// free, then, if too few are free, the lowest busy, which the engine
// refuses), its GRES units by kind, as ids or a count (default: the
// request's GRES per node, then its GRES per job spread over the nodes
// without "gres" in their order, lowest free units first), and the
// memory the allocation rule charges.
func (d *nodeSide) build(r nodes.Request, uses []nodeUse) (nodes.Allocation, error) {
	if len(uses) == 0 {
		return nodes.Allocation{}, errors.New(`"nodes" is empty: name at least one node, or leave "nodes" out`)
	}
	a := nodes.Allocation{Exclusive: r.Exclusive, Nodes: make([]nodes.NodeAlloc, len(uses))}
	for i, u := range uses {
		nid, ok := d.ns.Lookup(u.Node)
		if !ok {
			return a, fmt.Errorf("node %q: no such node", u.Node)
		}
		nd := d.ns.Node(nid)
		na := &a.Nodes[i]
		na.Node = nid
		switch {
		case u.Tasks != nil:
			na.Tasks = *u.Tasks
		case len(uses) == 1:
			na.Tasks = r.Tasks
		default:
			return a, fmt.Errorf("node %s: no tasks: a start on several nodes gives each node's tasks", nd.Name)
		}
		if na.Tasks < 1 || na.Tasks > r.Tasks {
			return a, fmt.Errorf("node %s: tasks %d: want 1..%d (the request's)", nd.Name, na.Tasks, r.Tasks)
		}
		want := na.Tasks * ((r.CPUsPerTask + nd.ThreadsPerCore - 1) / nd.ThreadsPerCore)
		if r.Exclusive {
			want = nd.Cores()
		}
		if u.Cores != nil {
			runs, err := parseAlloc(*u.Cores)
			if err != nil {
				return a, fmt.Errorf("node %s: cores %q: %v", nd.Name, *u.Cores, err)
			}
			for k := 0; k+1 < len(runs); k += 2 {
				for c := runs[k]; c <= runs[k+1]; c++ {
					na.Cores = append(na.Cores, int(c))
				}
			}
		} else {
			na.Cores = lowest(d.coreUsed, nd.FirstCore, nd.Cores(), want)
		}
		if nd.MemMB > 0 {
			switch {
			case r.Exclusive:
				na.MemMB = nd.MemMB
			case r.MemPerNodeMB > 0:
				na.MemMB = r.MemPerNodeMB
			case r.MemPerCPUMB > 0:
				na.MemMB = r.MemPerCPUMB * int64(len(na.Cores)*nd.ThreadsPerCore)
			}
		}
		if u.GRES != nil {
			if err := d.namedGRES(nd, u.GRES, na); err != nil {
				return a, fmt.Errorf("node %s: %v", nd.Name, err)
			}
		}
	}
	d.defaultGRES(r, uses, &a)
	return a, nil
}

// lowest is n of the units first..first+count-1: the free ones (used
// false) lowest first, then, when too few are free, the lowest used
// ones, in increasing order.
func lowest(used []bool, first, count, n int) []int {
	out := make([]int, 0, n)
	for u := first; u < first+count && len(out) < n; u++ {
		if !used[u] {
			out = append(out, u)
		}
	}
	for u := first; u < first+count && len(out) < n; u++ {
		if used[u] {
			out = append(out, u)
		}
	}
	slices.Sort(out)
	return out
}

// namedGRES fills na's GRES from a start's "gres" object: KIND -> "ids"
// (global unit ids of the kind, the interval syntax) or a count (the
// lowest free units of the node).
func (d *nodeSide) namedGRES(nd nodes.Node, gres map[string]json.RawMessage, na *nodes.NodeAlloc) error {
	keys := make([]string, 0, len(gres))
	for k := range gres {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, key := range keys {
		name, typ, _ := strings.Cut(key, ":")
		kind := nodes.Kind{Name: name, Type: typ}
		k, ok := d.kindIndex(kind)
		if !ok {
			return fmt.Errorf("gres %q: the platform has no such kind", key)
		}
		first, count := d.ns.FirstGRES(nd.ID, kind)
		raw := trimSpace(gres[key])
		var units []int
		if len(raw) > 0 && raw[0] == '"' {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return fmt.Errorf("gres %q: %s", key, jsonError(err))
			}
			runs, err := parseAlloc(s)
			if err != nil {
				return fmt.Errorf("gres %q: %q: %v", key, s, err)
			}
			for i := 0; i+1 < len(runs); i += 2 {
				for u := runs[i]; u <= runs[i+1]; u++ {
					units = append(units, int(u))
				}
			}
		} else {
			var n int
			if err := json.Unmarshal(raw, &n); err != nil || n < 1 {
				return fmt.Errorf(`gres %q: %s: want unit ids ("0-1") or a count (a whole number >= 1)`, key, quote(raw))
			}
			if n > count {
				return fmt.Errorf("gres %q: %d unit(s) asked, the node has %d", key, n, count)
			}
			units = lowest(d.unitUsed[k], first, count, n)
		}
		na.GRES = append(na.GRES, nodes.GRESUnits{Kind: kind, Units: units})
	}
	return nil
}

// defaultGRES gives the nodes of a that name no "gres" the request's
// GRES: on each, its GRES per node (the matching kinds in (name, type)
// order, lowest free units first); then each GRES per job beyond what
// the nodes hold already, from those nodes in their order, as many as
// each has free (the allocation rule's rule 4). Too few free units are
// made up with busy ones on a GRES per node, which the engine refuses.
func (d *nodeSide) defaultGRES(r nodes.Request, uses []nodeUse, a *nodes.Allocation) {
	if len(r.GRESPerNode)+len(r.GRESPerJob) == 0 {
		return
	}
	taken := map[[2]int]int{} // (node, kind index) -> units taken here
	for i := range a.Nodes {
		if uses[i].GRES != nil {
			continue
		}
		na := &a.Nodes[i]
		for _, g := range r.GRESPerNode {
			left := g.Count
			for pass := 0; pass < 2 && left > 0; pass++ { // free units, then busy ones
				for k, kind := range d.kinds {
					if left == 0 {
						break
					}
					if !serves(g, kind) {
						continue
					}
					first, count := d.ns.FirstGRES(na.Node, kind)
					for u := first; u < first+count && left > 0; u++ {
						if d.unitUsed[k][u] == (pass == 0) || has(na, kind, u) {
							continue
						}
						addUnit(na, kind, u)
						taken[[2]int{na.Node, k}]++
						left--
					}
				}
			}
		}
	}
	for _, g := range r.GRESPerJob {
		left := g.Count
		for i := range a.Nodes {
			if uses[i].GRES == nil {
				continue
			}
			held, per := 0, 0
			for _, x := range a.Nodes[i].GRES {
				if serves(g, x.Kind) {
					held += len(x.Units)
				}
			}
			for _, x := range r.GRESPerNode {
				if x.Name == g.Name && (g.Type == "" || x.Type == "" || x.Type == g.Type) {
					per += x.Count
				}
			}
			left -= max(held-per, 0)
		}
		for i := range a.Nodes {
			if left <= 0 {
				break
			}
			if uses[i].GRES != nil {
				continue
			}
			na := &a.Nodes[i]
			for k, kind := range d.kinds {
				if !serves(g, kind) {
					continue
				}
				first, count := d.ns.FirstGRES(na.Node, kind)
				for u := first; u < first+count && left > 0; u++ {
					if d.unitUsed[k][u] || has(na, kind, u) {
						continue
					}
					addUnit(na, kind, u)
					left--
				}
			}
		}
	}
	for i := range a.Nodes {
		na := &a.Nodes[i]
		slices.SortFunc(na.GRES, func(x, y nodes.GRESUnits) int {
			return cmp.Or(strings.Compare(x.Kind.Name, y.Kind.Name), strings.Compare(x.Kind.Type, y.Kind.Type))
		})
		for _, g := range na.GRES {
			slices.Sort(g.Units)
		}
	}
}

// serves reports whether units of kind k serve g (g of type "": any type
// of its name).
func serves(g nodes.GRES, k nodes.Kind) bool {
	return k.Name == g.Name && (g.Type == "" || k.Type == g.Type)
}

func has(na *nodes.NodeAlloc, k nodes.Kind, u int) bool {
	for _, g := range na.GRES {
		if g.Kind == k {
			return slices.Contains(g.Units, u)
		}
	}
	return false
}

func addUnit(na *nodes.NodeAlloc, k nodes.Kind, u int) {
	for i := range na.GRES {
		if na.GRES[i].Kind == k {
			na.GRES[i].Units = append(na.GRES[i].Units, u)
			return
		}
	}
	na.GRES = append(na.GRES, nodes.GRESUnits{Kind: k, Units: []int{u}})
}
