package slurm

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/jobtable"
)

// requestColumns are the sacct columns that describe a job's request on
// nodes; an export with any of them (Result.HasRequests) can be written
// as a job table.
var requestColumns = []string{"NNodes", "ReqNodes", "ReqTRES", "AllocTRES", "Constraints"}

// tres is what the import reads of a TRES list (ReqTRES, AllocTRES:
// "billing=16,cpu=16,gres/gpu=4,gres/gpu:a100=4,mem=64G,node=2"). The
// counts are the job's totals, over all its nodes.
type tres struct {
	node  int64 // -1: not given
	memMB int64 // -1: not given
	gres  []nodes.GRES
}

// parseTRES reads a TRES list: cpu, node and billing are whole numbers
// (cpu and billing are checked, not kept: the CPUs come from NCPUS), mem
// a size (a plain number is MB; K, M, G, T, P), gres/NAME[:TYPE] a count
// of a generic resource (when a name is given both untyped and typed, as
// Slurm lists gres/gpu=4 beside gres/gpu:a100=4, the typed ones are kept:
// the untyped count is their sum). A gres whose value is not a count
// (gres/gpumem=40G) and other TRES (energy, fs/disk, license/..., vmem,
// pages, bb/...) are left alone.
func parseTRES(s string) (tres, error) {
	t := tres{node: -1, memMB: -1}
	if s == "" {
		return t, nil
	}
	var untyped, typed []nodes.GRES
	for _, item := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return t, fmt.Errorf("%q: want TYPE=COUNT items separated by commas", item)
		}
		switch {
		case k == "cpu" || k == "node" || k == "billing":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return t, fmt.Errorf("%s=%s: want a whole number", k, v)
			}
			if k == "node" {
				if n > nodes.MaxNodes {
					return t, fmt.Errorf("node=%d: more than %d nodes (nodes.MaxNodes)", n, nodes.MaxNodes)
				}
				t.node = n
			}
		case k == "mem":
			kb, _, err := memKB(v)
			if err != nil {
				return t, fmt.Errorf("mem=%s: %v", v, err)
			}
			t.memMB = int64(math.Ceil(kb / 1024))
		case strings.HasPrefix(k, "gres/"):
			g, ok, err := parseGRESTRES(k[len("gres/"):], v)
			if err != nil {
				return t, fmt.Errorf("%s=%s: %v", k, v, err)
			}
			if !ok {
				continue
			}
			if g.Type == "" {
				untyped = append(untyped, g)
			} else {
				typed = append(typed, g)
			}
		}
	}
	for _, g := range untyped {
		if !slices.ContainsFunc(typed, func(h nodes.GRES) bool { return h.Name == g.Name }) {
			t.gres = append(t.gres, g)
		}
	}
	t.gres = append(t.gres, typed...)
	slices.SortFunc(t.gres, func(a, b nodes.GRES) int {
		return cmpKind(a.Kind(), b.Kind())
	})
	for i := 1; i < len(t.gres); i++ {
		if t.gres[i].Kind() == t.gres[i-1].Kind() {
			return t, fmt.Errorf("gres/%s given twice", t.gres[i].Kind())
		}
	}
	if len(t.gres) > jobtable.MaxGRES {
		return t, fmt.Errorf("%d kinds of GRES: more than %d (jobtable.MaxGRES)", len(t.gres), jobtable.MaxGRES)
	}
	return t, nil
}

func cmpKind(a, b nodes.Kind) int {
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return strings.Compare(a.Type, b.Type)
}

// parseGRESTRES reads the NAME[:TYPE] and value of a gres/ TRES; ok
// false for a value that is not a count (gres/gpumem=40G).
func parseGRESTRES(kind, v string) (nodes.GRES, bool, error) {
	name, typ, _ := strings.Cut(kind, ":")
	g := nodes.GRES{Name: name, Type: typ}
	if err := jobtable.CheckWord(name); err != nil {
		return g, false, err
	}
	if typ != "" {
		if err := jobtable.CheckWord(typ); err != nil {
			return g, false, err
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		if decimal(strings.TrimRight(v, "KMGTPkmgtp")) {
			return g, false, nil // an amount, not a count
		}
		return g, false, errors.New("want a count")
	}
	if n == 0 {
		return g, false, nil
	}
	if n < 0 || n > nodes.MaxGRESUnits {
		return g, false, fmt.Errorf("want 1..%d", nodes.MaxGRESUnits)
	}
	g.Count = int(n)
	return g, true, nil
}

// reqInfo is what a line gives of the job's request beyond its job
// struct: its GRES and constraint (interned by collected.add) and what
// could not be kept.
type reqInfo struct {
	gres       []nodes.GRES
	constraint string
	unread     []string
}

// readRequest reads NNodes, ReqNodes, ReqTRES, AllocTRES and Constraints
// into j (nnodes, reqNodes) and info, and the request's memory from
// ReqMem, else from the TRES mem total over the job's nodes.
func readRequest(j *job, row []string, c columns) (reqInfo, error) {
	var info reqInfo
	var trs [2]tres
	for i, name := range []string{"ReqTRES", "AllocTRES"} {
		t, err := parseTRES(c.get(row, name))
		if err != nil {
			return info, &ParseError{Column: name, Err: err}
		}
		trs[i] = t
	}
	for _, f := range []struct {
		col  string
		tres int64
		p    *int32
	}{{"NNodes", trs[1].node, &j.nnodes}, {"ReqNodes", trs[0].node, &j.reqNodes}} {
		v := c.get(row, f.col)
		if v == "" {
			*f.p = int32(max(f.tres, 0))
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > nodes.MaxNodes {
			return info, &ParseError{Column: f.col, Err: fmt.Errorf("%q is not a node count (0..%d, nodes.MaxNodes)", v, nodes.MaxNodes)}
		}
		*f.p = int32(n)
	}
	info.gres = trs[0].gres
	if len(info.gres) == 0 {
		info.gres = trs[1].gres
	}
	if v := c.get(row, "ReqMem"); v != "" {
		kb, form, err := memKB(v)
		if err != nil {
			return info, &ParseError{Column: "ReqMem", Err: err}
		}
		j.memPerCPU = form == memPerCPU
		if form == memPerJob {
			// The job's total (Slurm 21.08 and later): a node's share of
			// it, its nodes holding it alike.
			kb /= float64(max(j.nnodes, 1))
		}
		if mb := math.Ceil(kb / 1024); mb > nodes.MaxMemMB {
			info.unread = append(info.unread, "memory beyond 1 PiB (nodes.MaxMemMB)")
		} else {
			j.reqMemMB = int32(mb)
		}
	}
	total := trs[0].memMB
	if total < 0 {
		total = trs[1].memMB
	}
	if j.reqMemMB == 0 && total > 0 {
		n := int64(max(j.nnodes, 1))
		if mb := (total + n - 1) / n; mb <= nodes.MaxMemMB {
			j.reqMemMB, j.memPerCPU = int32(mb), false
		}
	}
	switch v := c.get(row, "Constraints"); v {
	case "", "(null)":
	default:
		if _, err := nodes.ParseConstraint(v); err != nil {
			info.unread = append(info.unread, "constraints schedlab does not read (Slurm's [a|b] matching OR, counts a*2, or another syntax)")
		} else {
			info.constraint = v
		}
	}
	return info, nil
}

// request builds the request of job j.
func (r *Result) request(j *job) nodes.Request {
	q := nodes.Request{Tasks: int(j.cpus), CPUsPerTask: 1}
	n, rq := int(j.nnodes), int(j.reqNodes)
	switch {
	case n > 0 && rq > 0:
		q.Nodes = min(n, rq)
		if n > q.Nodes {
			q.MaxNodes = n
		}
	case n > 0:
		q.Nodes = n
	case rq > 0:
		q.Nodes = rq
	}
	// A node holds at least one task.
	q.Nodes, q.MaxNodes = min(q.Nodes, q.Tasks), min(q.MaxNodes, q.Tasks)
	if q.MaxNodes <= q.Nodes {
		q.MaxNodes = 0
	}
	if j.memPerCPU {
		q.MemPerCPUMB = int64(j.reqMemMB)
	} else {
		q.MemPerNodeMB = int64(j.reqMemMB)
	}
	if j.gres > 0 {
		q.GRESPerJob = slices.Clone(r.gres[j.gres-1])
	}
	if j.constraint > 0 {
		q.Constraint = r.constraints[j.constraint-1]
	}
	return q
}

// Request is what job i (in submit order, as Record) asks of a node
// platform: its CPUs (NCPUS, as the record's processors) as tasks of one
// CPU; its nodes, from ReqNodes (the least it asked; ReqTRES node=
// without that column) and NNodes (what it got; AllocTRES node=): both
// known and different, the range of the two, else the one known, exact;
// memory per CPU (ReqMem "c") or per node (ReqMem "n"; a plain size,
// the job's total as sacct writes it since Slurm 21.08, over its NNodes;
// without ReqMem, the TRES mem total over its nodes), in whole MB
// rounded up; the GRES of ReqTRES (else AllocTRES), which are the job's
// totals, as GRES per job; Constraints when nodes.ParseConstraint reads
// them (else left out, counted in Unread). Exclusive is never set: sacct
// has no column for it.
func (r *Result) Request(i int) nodes.Request { return r.request(r.jobs.at(int(r.order[i]))) }

// WriteJobTable writes the import as a job table (package jobtable): the
// lines of WriteSWF's header as its comments (so that run --trace reads
// the same header from it), then a row a job in submit order: the SWF
// record (Record) and the request (Request).
func (r *Result) WriteJobTable(w io.Writer, maxProcs int, source string) error {
	jw := jobtable.NewWriter(w)
	for _, l := range r.headerLines(maxProcs, source) {
		if err := jw.Comment(strings.TrimPrefix(l, " ")); err != nil {
			return err
		}
	}
	for i := range r.Len() {
		if err := jw.Write(jobtable.Row{Record: r.Record(i), Request: r.Request(i)}); err != nil {
			return err
		}
	}
	return jw.Flush()
}

// RequestCounts are how many jobs of an import ask for what SWF has no
// field for.
type RequestCounts struct {
	// Beyond: the jobs that ask for more than CPUs (jobtable.Beyond),
	// and of them, those asking for GRES, for more than one node, with a
	// constraint, with memory per node.
	Beyond, GRES, MultiNode, Constraint, MemPerNode int64
}

// RequestCounts counts the jobs whose requests SWF cannot hold.
func (r *Result) RequestCounts() RequestCounts {
	var n RequestCounts
	for i := range r.Len() {
		q := r.Request(i)
		if !jobtable.Beyond(q) {
			continue
		}
		n.Beyond++
		for _, c := range []struct {
			p  *int64
			ok bool
		}{{&n.GRES, len(q.GRESPerJob) > 0 || len(q.GRESPerNode) > 0}, {&n.MultiNode, q.Nodes > 1},
			{&n.Constraint, q.Constraint != ""}, {&n.MemPerNode, q.MemPerNodeMB > 0}} {
			if c.ok {
				(*c.p)++
			}
		}
	}
	return n
}
