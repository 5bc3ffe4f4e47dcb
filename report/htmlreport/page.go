package htmlreport

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"

	"github.com/schedlab/schedlab/internal/atomicfile"
)

//go:embed assets/page.html
var pageHTML string

//go:embed assets/report.js
var reportJS string

//go:embed assets/report.css
var reportCSS string

var pageTmpl = template.Must(template.New("page").Parse(pageHTML))

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
	return 0, fmt.Errorf("%s: neither a run (jobs.csv and summary.json), a sweep (summary.csv and comparisons.csv) nor a reproduction (comparison.csv)", dir)
}

// Write writes dir/report.html for the output folder dir and returns its
// path. Nothing is written on error.
func Write(dir string) (string, error) {
	kind, err := Detect(dir)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	switch kind {
	case Run:
		p, err := readRun(dir)
		if err != nil {
			return "", err
		}
		if err := p.render(&buf); err != nil {
			return "", err
		}
	case Sweep:
		p, err := readSweep(dir)
		if err != nil {
			return "", err
		}
		if err := p.render(&buf); err != nil {
			return "", err
		}
	default:
		return "", fmt.Errorf("%s: a %s folder; reports of %ss are not implemented yet (only runs and sweeps)", dir, kind, kind)
	}
	out := filepath.Join(dir, "report.html")
	err = atomicfile.Write(out, func(w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	})
	if err != nil {
		return "", err
	}
	return out, nil
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
}

// pageView is what page.html renders.
type pageView struct {
	Kind    string
	Title   string
	Summary []kv
	CSS     template.CSS
	JS      template.JS
	Data    template.JS
	Sweep   *sweepPage
}

func (p *sweepPage) render(w io.Writer) error {
	data, err := json.Marshal(p.data())
	if err != nil {
		return err
	}
	return pageTmpl.Execute(w, pageView{Kind: "sweep", Title: p.Title, Sweep: p,
		CSS: template.CSS(reportCSS), JS: template.JS(reportJS), Data: template.JS(data)})
}

func (p *runPage) render(w io.Writer) error {
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
	data, err := json.Marshal(d) // escapes <, > and &: safe inside <script>
	if err != nil {
		return err
	}
	return pageTmpl.Execute(w, pageView{Kind: "run", Title: p.Title, Summary: p.Summary,
		CSS: template.CSS(reportCSS), JS: template.JS(reportJS), Data: template.JS(data)})
}
