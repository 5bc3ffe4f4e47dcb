package htmlreport

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/validate"
)

// MaxNodeRows bounds the rows of a run's Gantt by node.
const MaxNodeRows = nodes.MaxNodes

// nodeRun is what a run on a platform of nodes adds to its page: the
// rows of the Gantt by node and, per job, the rows it held and the GPU
// units it held. A run's jobs.csv is on nodes when it has the column
// allocated_nodes (docs/nodes.md, "Outputs of a run on nodes").
type nodeRun struct {
	// names are the rows, top to bottom: the platform's nodes
	// (summary.json's nodes.hostlist) in hostlist order, or without it
	// the nodes jobs.csv names.
	names []string
	// gpuTotal is the platform's units of the GRES named gpu (summary.json's
	// nodes.gres); 0 when unknown.
	gpuTotal int
}

// nodeSection is summary.json's "nodes" section, the fields the page
// reads.
type nodeSection struct {
	Nodes *struct {
		Hostlist string `json:"hostlist"`
		GRES     []struct {
			Kind  string `json:"kind"`
			Units int    `json:"units"`
		} `json:"gres"`
	} `json:"nodes"`
}

// gresName is the name of a GRES kind as jobs.csv and summary.json write
// it ("gpu:a100" and "gpu" are of name gpu).
func gresName(kind string) string {
	name, _, _ := strings.Cut(kind, ":")
	return name
}

// readNodes reads what a run on nodes adds (nil, nil when jobs.csv has
// no allocated_nodes column) and checks every row's node columns:
// hostlists that expand, to nodes of the platform when summary.json
// names them; GRES as KIND=IDS;...
func readNodes(sumPath, jobsPath string, j *runJobs) (*nodeRun, error) {
	if _, ok := j.text["allocated_nodes"]; !ok {
		return nil, nil
	}
	b, err := os.ReadFile(sumPath) // readSummary has bounded and checked it
	if err != nil {
		return nil, err
	}
	var s nodeSection
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: nodes: %v", sumPath, err)
	}
	nr := &nodeRun{}
	known := map[string]bool{}
	if s.Nodes != nil && s.Nodes.Hostlist != "" {
		if nr.names, err = nodes.Expand(s.Nodes.Hostlist); err != nil {
			return nil, fmt.Errorf("%s: nodes.hostlist: %v", sumPath, err)
		}
		for _, n := range nr.names {
			known[n] = true
		}
		for _, g := range s.Nodes.GRES {
			if gresName(g.Kind) == "gpu" && g.Units > 0 {
				nr.gpuTotal += g.Units
			}
		}
	}
	seen := map[string]bool{}
	var found []string
	for i, hl := range j.text["allocated_nodes"] {
		rowErr := func(col, format string, args ...any) error {
			return fmt.Errorf("%s: row %d (job %s): column %s: %q: %s", jobsPath, i+1, num(j.id[i]), col, cut(j.text[col][i]), fmt.Sprintf(format, args...))
		}
		names, err := nodes.Expand(hl)
		if err != nil {
			return nil, rowErr("allocated_nodes", "%v", err)
		}
		for _, n := range names {
			if len(known) > 0 && !known[n] {
				return nil, rowErr("allocated_nodes", "node %s is not in %s's nodes.hostlist", n, sumPath)
			}
			if !seen[n] {
				seen[n] = true
				found = append(found, n)
			}
		}
		if len(found) > MaxNodeRows {
			return nil, rowErr("allocated_nodes", "more than %d nodes", MaxNodeRows)
		}
		if gs, ok := j.text["allocated_gres"]; ok {
			if _, err := gpuUnits(gs[i]); err != nil {
				return nil, rowErr("allocated_gres", "%v", err)
			}
		}
	}
	if len(known) == 0 {
		if nr.names, err = nodes.Sort(found); err != nil {
			return nil, fmt.Errorf("%s: allocated_nodes: %v", jobsPath, err)
		}
	}
	return nr, nil
}

// gpuUnits counts the units of the GRES named gpu in an allocated_gres
// cell: KIND=IDS items separated by ';', IDS in allocated_resources
// syntax.
func gpuUnits(cell string) (int, error) {
	if cell == "" {
		return 0, nil
	}
	n := 0
	for _, item := range strings.Split(cell, ";") {
		kind, ids, ok := strings.Cut(item, "=")
		if !ok || kind == "" {
			return 0, fmt.Errorf("%q: want KIND=IDS", item)
		}
		ivs, err := validate.ParseResources(ids)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", kind, err)
		}
		if gresName(kind) == "gpu" {
			for _, iv := range ivs {
				n += iv.Hi - iv.Lo + 1
			}
		}
	}
	return n, nil
}

// nodeData is the embedded data of the Gantt by node: the rows' names
// and, per job (as the CPU Gantt's ivoff, ivlo, ivhi), the runs of rows
// it held.
type nodeData struct {
	Names []string `json:"names"`
	IvOff col      `json:"ivoff"`
	IvLo  col      `json:"ivlo"`
	IvHi  col      `json:"ivhi"`
}

// rows returns the Gantt by node of the jobs of j: per job, its nodes'
// rows as runs of consecutive rows.
func (nr *nodeRun) rows(j *runJobs) (off, lo, hi []int32) {
	row := make(map[string]int32, len(nr.names))
	for i, n := range nr.names {
		row[n] = int32(i)
	}
	off = []int32{0}
	var rs []int32
	for _, hl := range j.text["allocated_nodes"] {
		names, _ := nodes.Expand(hl) // readNodes checked it
		rs = rs[:0]
		for _, n := range names {
			rs = append(rs, row[n])
		}
		slices.Sort(rs)
		rs = slices.Compact(rs)
		for k, r := range rs {
			if k > 0 && r == hi[len(hi)-1]+1 {
				hi[len(hi)-1] = r
				continue
			}
			lo, hi = append(lo, r), append(hi, r)
		}
		off = append(off, int32(len(lo)))
	}
	return off, lo, hi
}

// gpuSeries is the GPU units held over time, on the bins of the
// utilization chart: over the platform's GPU units (a fraction) when
// summary.json gives them, else in units; and whether it is a fraction.
func (nr *nodeRun) gpuSeries(j *runJobs) (series, bool) {
	held := make([]float64, len(j.id))
	if gs, ok := j.text["allocated_gres"]; ok {
		for i, c := range gs {
			n, _ := gpuUnits(c) // readNodes checked it
			held[i] = float64(n)
		}
	}
	g := &runJobs{id: j.id, submit: j.submit, start: j.start, finish: j.finish, procs: held}
	t0, t1 := timeSpan(j)
	s, _ := overTimeIn(g, nr.gpuTotal, t0, t1)
	return s, nr.gpuTotal > 0
}

// nodeView is what the run page adds on nodes.
type nodeView struct {
	Gantt *nodeData `json:"gantt,omitempty"` // nil with NoGantt
	GPU   series    `json:"gpu"`
	// GPUFraction: GPU is units held over the platform's units;
	// otherwise units held.
	GPUFraction bool `json:"gpufraction"`
	GPUUnits    int  `json:"gpuunits"`
}

func (p *runPage) nodeView() *nodeView {
	nr := p.nodes
	if nr == nil {
		return nil
	}
	v := &nodeView{GPUUnits: nr.gpuTotal}
	v.GPU, v.GPUFraction = nr.gpuSeries(p.jobs)
	if !p.noGantt {
		off, lo, hi := nr.rows(p.jobs)
		v.Gantt = &nodeData{Names: nr.names, IvOff: i32Col(off), IvLo: i32Col(lo), IvHi: i32Col(hi)}
	}
	return v
}

// The run page's script on nodes is report.js with the Gantt's row label
// and its hover text of allocated_resources made settable (so that the
// Gantt by node reuses the CPU Gantt's code) and nodesJS run after the
// charts of a run; the page of a pool of CPUs keeps report.js as it is.
var nodeJSEdits = [][2]string{
	{`"CPU id", ax[1], true);`, `R.ylabel || "CPU id", ax[1], true);`},
	{`case "allocated_resources": return ivText(j);`, `case "allocated_resources": return R.resText ? R.resText(j) : ivText(j);`},
	{"\n  if (D.kind === \"comparison\") {", "\n" + nodesJS + "\n  if (D.kind === \"comparison\") {"},
}

// nodePageJS is the script of a run page on nodes; an error when
// report.js no longer has the places nodeJSEdits edits.
func nodePageJS() (string, error) {
	js := reportJS
	for _, e := range nodeJSEdits {
		if strings.Count(js, e[0]) != 1 {
			return "", fmt.Errorf("htmlreport: report.js has %d places for the node page's edit %q, want 1", strings.Count(js, e[0]), e[0])
		}
		js = strings.Replace(js, e[0], e[1], 1)
	}
	return js, nil
}
