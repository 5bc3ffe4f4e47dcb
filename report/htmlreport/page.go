package htmlreport

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/schedlab/schedlab/internal/atomicfile"
)

//go:embed assets/page.html
var pageHTML string

//go:embed assets/report.js
var reportJS string

//go:embed assets/nodes.js
var nodesJS string

//go:embed assets/report.css
var reportCSS string

// pageTmpl is the page template, parsed on first use (not at start-up).
var pageTmpl = sync.OnceValue(func() *template.Template { return template.Must(template.New("page").Parse(pageHTML)) })

// Kind is the kind of output folder.
type Kind int

const (
	// Run is a trace run: jobs.csv and summary.json.
	Run Kind = iota + 1
	// Sweep is a scenario sweep: summary.csv, comparisons.csv, points/.
	Sweep
	// Reproduction is a paper reproduction: <paper>/comparison.csv.
	Reproduction
)

func (k Kind) String() string {
	switch k {
	case Run:
		return "run"
	case Sweep:
		return "sweep"
	case Reproduction:
		return "reproduction"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

func exists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// Detect tells what kind of output folder dir is.
func Detect(dir string) (Kind, error) {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("%s: no such folder (give the folder a run, sweep or reproduction wrote: its --out)", dir)
	}
	if err != nil {
		return 0, err
	}
	if !st.IsDir() {
		return 0, fmt.Errorf("%s: not a folder", dir)
	}
	switch {
	case exists(filepath.Join(dir, "jobs.csv")) && exists(filepath.Join(dir, "summary.json")):
		return Run, nil
	case exists(filepath.Join(dir, "summary.csv")) && exists(filepath.Join(dir, "comparisons.csv")):
		return Sweep, nil
	case exists(filepath.Join(dir, "comparison.csv")):
		return Reproduction, nil
	}
	return 0, fmt.Errorf("%s: neither a run (jobs.csv and summary.json), a sweep (summary.csv and comparisons.csv) nor a reproduction (comparison.csv, or paper folders holding one)", dir)
}

// Write writes dir/report.html for the output folder dir and returns its
// path. A folder whose subfolders are paper reproductions (the --out of
// 'schedlab reproduce all') gets one report.html in each paper's folder.
// Every page is built before any is written; nothing is written on error.
func Write(dir string) ([]string, error) { return WriteOpts(dir, Options{}) }

// Options are the choices of a page.
type Options struct {
	// NoGantt leaves the Gantt charts and the per-job data they need out
	// of run and comparison pages: a light page (the summaries, the
	// utilization and queue charts, the distributions and the per-job
	// differences stay).
	NoGantt bool
	// Window restricts run and comparison pages to the jobs submitted in
	// a time window (nil: every job); see Window. Sweeps and
	// reproductions refuse it.
	Window *Window
	// Clock, when set, puts calendar dates on the time axes of run and
	// comparison pages (nil: time since the first submission).
	Clock *Clock
	// Labels, when set, name the runs of a comparison, one per folder in
	// their order (each not empty, no two the same; CheckLabels), in
	// place of the names runLabels gives. Run pages ignore them.
	Labels []string
}

// Clock places a trace's times on the calendar: Start is the epoch second
// trace time 0 stands for (the SWF header's UnixStartTime), Zone the
// IANA time zone its dates are shown in (the header's TimeZoneString; ""
// or a name the browser does not know: UTC).
type Clock struct {
	Start float64 `json:"start"`
	Zone  string  `json:"zone"`
}

// WriteOpts is Write with options.
func WriteOpts(dir string, o Options) ([]string, error) {
	kind, err := Detect(dir)
	dirs := []string{dir}
	if err != nil {
		if ps := papers(dir); len(ps) > 0 {
			kind, dirs = Reproduction, ps
		} else {
			return nil, err
		}
	}
	pages := make([][]byte, len(dirs))
	for i, d := range dirs {
		if pages[i], err = build(d, kind, o); err != nil {
			return nil, err
		}
	}
	var outs []string
	for i, d := range dirs {
		out := filepath.Join(d, "report.html")
		err = atomicfile.Write(out, func(w io.Writer) error {
			_, err := w.Write(pages[i])
			return err
		})
		if err != nil {
			return outs, err
		}
		outs = append(outs, out)
	}
	return outs, nil
}

// build renders the page of one folder.
func build(dir string, kind Kind, o Options) ([]byte, error) {
	var buf bytes.Buffer
	var err error
	if o.Window != nil && kind != Run {
		return nil, fmt.Errorf("%s: a %v folder: --from and --to restrict the page of a run or a comparison of runs", dir, kind)
	}
	switch kind {
	case Run:
		var p *runPage
		if p, err = readRun(dir); err == nil {
			p.noGantt, p.clock = o.NoGantt, o.Clock
			if o.Window != nil {
				err = p.restrict(o.Window, dir)
			}
			if err == nil {
				err = p.render(&buf)
			}
		}
	case Sweep:
		var p *sweepPage
		if p, err = readSweep(dir); err == nil {
			err = p.render(&buf)
		}
	case Reproduction:
		var p *reproPage
		if p, err = readRepro(dir); err == nil {
			err = p.render(&buf)
		}
	default:
		err = fmt.Errorf("%s: unknown kind %v", dir, kind)
	}
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// runData is the JSON the page's script reads.
type runData struct {
	Kind    string    `json:"kind"`
	Jobs    int       `json:"jobs"`
	Procs   int       `json:"procs"`
	Tau     float64   `json:"tau"`
	Header  []string  `json:"header"`
	ID      col       `json:"id"`
	Submit  col       `json:"submit"`
	NProcs  col       `json:"nprocs"`
	Req     col       `json:"req"`
	Start   col       `json:"start"`
	Finish  col       `json:"finish"`
	IvOff   col       `json:"ivoff"`
	IvLo    col       `json:"ivlo"`
	IvHi    col       `json:"ivhi"`
	Text    []dictCol `json:"text"`
	Util    series    `json:"util"`
	Queue   series    `json:"queue"`
	Wait    histogram `json:"wait"`
	Bsld    histogram `json:"bsld"`
	Reasons []string  `json:"reasons"`
	NoGantt bool      `json:"nogantt"` // no Gantt chart: the per-job columns are left empty
	Clock   *Clock    `json:"clock,omitempty"`
	// Spans are the unavailable CPUs of unavailability.csv, drawn behind
	// the jobs; absent without the file (and without a Gantt chart).
	Spans *spanData `json:"spans,omitempty"`
	// Planned is, per job (in the order of ID), its last planned start
	// from planned.csv (NaN: none); absent without the file.
	Planned *col `json:"planned,omitempty"`
	// Nodes: a run on a platform of nodes (nodes.go); absent otherwise.
	Nodes *nodeView `json:"nodes,omitempty"`
	// Partitions are the run's partitions, whose CPU ranges the Gantt
	// chart marks; absent without partitions.
	Partitions []partView `json:"partitions,omitempty"`
	// Power is the machine's power over time from energy.csv, with the
	// cap of summary.json's energy.cap (power.go); absent without the
	// file.
	Power *powerView `json:"power,omitempty"`
}

// spanData is unavailability.csv as rectangles, one per span and CPU
// interval: Kind 0 is reserved, 1 is down; [Start, End) x CPUs Lo..Hi.
type spanData struct {
	Kind  []int     `json:"kind"`
	Start []float64 `json:"start"`
	End   []float64 `json:"end"`
	Lo    []int     `json:"lo"`
	Hi    []int     `json:"hi"`
}

// pageView is what page.html renders.
type pageView struct {
	Kind     string
	Title    string
	Summary  []kv
	Headline *headline
	NoGantt  bool
	Nodes    bool // a run on nodes: the Gantt by node and the GPU chart
	// Power: a run with energy.csv (the power chart); Cap: with a power cap.
	Power, Cap bool
	// Partitions: a run's table of partitions (nil: none).
	Partitions []partRow
	// Groups: a run's table of metrics_by (nil: none).
	Groups  *groupTable
	Window  string // the sentence on the page's time window ("" without one)
	CSS     template.CSS
	JS      template.JS
	Data    template.JS
	Sweep   *sweepPage
	Repro   *reproPage
	Compare *comparePage
}

func (p *reproPage) render(w io.Writer) error {
	return pageTmpl().Execute(w, pageView{Kind: "reproduction", Title: p.Title, Repro: p,
		CSS: template.CSS(reportCSS), JS: template.JS(reportJS), Data: template.JS(`{"kind":"reproduction"}`)})
}

func (p *sweepPage) render(w io.Writer) error {
	data, err := json.Marshal(p.data())
	if err != nil {
		return err
	}
	return pageTmpl().Execute(w, pageView{Kind: "sweep", Title: p.Title, Sweep: p,
		CSS: template.CSS(reportCSS), JS: template.JS(reportJS), Data: template.JS(data)})
}

func (p *runPage) render(w io.Writer) error {
	data, err := json.Marshal(p.data()) // escapes <, > and &: safe inside <script>
	if err != nil {
		return err
	}
	title := p.Title
	if p.window != nil {
		title += " · " + p.window.Text
	}
	js := reportJS
	if p.nodes != nil {
		if js, err = nodePageJS(); err != nil {
			return err
		}
	}
	return pageTmpl().Execute(w, pageView{Kind: "run", Title: title, Summary: p.Summary, Headline: runHeadline(p), NoGantt: p.noGantt, Nodes: p.nodes != nil, Power: p.power != nil, Cap: p.pcap != nil, Window: p.WindowNote(), Partitions: partitionRows(p.partitions), Groups: p.groups,
		CSS: template.CSS(reportCSS), JS: template.JS(js), Data: template.JS(data)})
}

// data is the embedded data of a run.
func (p *runPage) data() runData {
	j := p.jobs
	d := runData{Kind: "run", Jobs: len(j.id), Procs: p.procs, Tau: p.tau, Header: j.header,
		ID: numCol(j.id), Submit: numCol(j.submit), NProcs: numCol(j.procs), Req: numCol(j.req),
		Start: numCol(j.start), Finish: numCol(j.finish),
		IvOff: i32Col(j.ivOff), IvLo: i32Col(j.ivLo), IvHi: i32Col(j.ivHi)}
	for _, c := range j.textCols {
		d.Text = append(d.Text, newDictCol(c, j.text[c]))
	}
	d.Util, d.Queue = overTime(j, p.procs)
	d.Wait, d.Bsld = distributions(j, p.tau)
	d.Reasons = []string{"immediate", "backfilled", "reserved"}
	d.Clock = p.clock
	if p.planned != nil && !p.noGantt {
		pl := make([]float64, len(j.id))
		for i, id := range j.id {
			pl[i] = math.NaN()
			if t, ok := p.planned[id]; ok {
				pl[i] = t
			}
		}
		c := numCol(pl)
		d.Planned = &c
	}
	if p.spans != nil && !p.noGantt {
		d.Spans = p.spans
	}
	d.Nodes = p.nodeView()
	d.Partitions = partitionViews(p.partitions)
	if p.power != nil {
		t0, t1 := timeSpan(j)
		d.Power = powerOverTime(p.power, p.pcap, t0, t1)
	}
	if p.noGantt {
		// Only the Gantt chart reads the jobs one by one.
		empty := numCol(nil)
		d.ID, d.Submit, d.NProcs, d.Req, d.Start, d.Finish = empty, empty, empty, empty, empty, empty
		d.IvOff, d.IvLo, d.IvHi = i32Col(nil), i32Col(nil), i32Col(nil)
		d.Text, d.NoGantt = nil, true
	}
	return d
}
