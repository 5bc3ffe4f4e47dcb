package htmlreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/internal/atomicfile"
)

// MaxCompareRuns bounds the run folders of one comparison page.
const MaxCompareRuns = 8

// TopJobs is the number of jobs in the tables of the jobs a policy helps
// most and hurts most.
const TopJobs = 10

// comparePage is what the template of a comparison needs.
type comparePage struct {
	Title   string
	Runs    []compareRun
	Summary []compareRow
	Diffs   []diffPage
}

// compareRun names one run of a comparison: its policy and folder.
type compareRun struct {
	Policy, Dir string
}

// compareRow is one field of summary.json across the runs ("" where a
// run lacks it); Differs marks a value other than the first run's.
type compareRow struct {
	Key   string
	Cells []compareCell
}

type compareCell struct {
	Value   string
	Differs bool
}

// diffPage is the comparison of run R with the first run.
type diffPage struct {
	Index                int // the canvas of the histogram is diff-<Index>
	Base, Other          string
	Helped, Hurt, Same   int
	MeanWait, MeanResp   string
	HelpedMost, HurtMost []diffRow
}

// diffRow is one job of the tables of the most helped and hurt jobs.
type diffRow struct {
	ID, Procs, Req          string
	Submit                  cellText // a date with the trace's clock
	WaitBase, WaitOther     cellText // in human units
	DiffWait, DiffResp      cellText
	ReasonBase, ReasonOther string
}

// cellText is a table cell in the units a person reads, and its exact value
// in seconds (the cell's title: hover for it).
type cellText struct{ Text, Exact string }

// compareData is the JSON the page's script reads for a comparison.
type compareData struct {
	Kind  string     `json:"kind"`
	Names []string   `json:"names"`
	T0    float64    `json:"t0"`
	T1    float64    `json:"t1"`
	Runs  []runData  `json:"runs"`
	IDs   col        `json:"ids"` // the job ids in increasing order
	Diffs []diffData `json:"diffs"`
	Clock *Clock     `json:"clock,omitempty"`
}

// diffData holds, for run Run against the first run, one value per job
// in the order of IDs: the difference of wait and of response (run −
// first run, seconds).
type diffData struct {
	Run    int       `json:"run"`
	Wait   col       `json:"wait"`
	Resp   col       `json:"resp"`
	Hist   histogram `json:"hist"`
	Helped int       `json:"helped"`
	Hurt   int       `json:"hurt"`
	Same   int       `json:"same"`
}

// Compare writes one page to out that sets the run folders dirs (two to
// MaxCompareRuns runs of one trace) side by side, with the per-job
// differences of every run against the first. The runs must be of the
// same trace: the same base name in run.trace of summary.json and the
// same job ids with the same submission times. The page is built in
// memory first; on any error nothing is written. out must end in .html
// (or .htm).
func Compare(dirs []string, out string) error { return CompareOpts(dirs, out, Options{}) }

// CompareOpts is Compare with options.
func CompareOpts(dirs []string, out string, o Options) error {
	if !IsHTMLName(out) {
		return fmt.Errorf("%s: the comparison page's name must end in .html (so that it cannot replace a run's jobs.csv or summary.json)", out)
	}
	page, err := buildCompare(dirs, o)
	if err != nil {
		return err
	}
	return atomicfile.Write(out, func(w io.Writer) error {
		_, err := w.Write(page)
		return err
	})
}

// IsHTMLName tells whether a file name ends in .html or .htm (in any
// case).
func IsHTMLName(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".html" || ext == ".htm"
}

func buildCompare(dirs []string, o Options) ([]byte, error) {
	if len(dirs) < 2 || len(dirs) > MaxCompareRuns {
		return nil, fmt.Errorf("a comparison takes 2 to %d run folders, got %d", MaxCompareRuns, len(dirs))
	}
	if len(o.Labels) > 0 {
		if err := CheckLabels(o.Labels, len(dirs)); err != nil {
			return nil, err
		}
	}
	// All runs hold the same jobs, so the page holds len(dirs) times
	// their number: bound that by MaxJobs.
	limit := MaxJobs / len(dirs)
	why := fmt.Sprintf("a comparison of %d runs holds at most %d job rows in all", len(dirs), MaxJobs)
	runs := make([]*runPage, len(dirs))
	for i, d := range dirs {
		kind, err := Detect(d)
		if err != nil {
			return nil, err
		}
		if kind != Run {
			return nil, fmt.Errorf("%s: a %v folder, not a run (jobs.csv and summary.json): a comparison takes runs of one trace", d, kind)
		}
		if runs[i], err = readRunMax(d, limit, why); err != nil {
			return nil, err
		}
		runs[i].noGantt, runs[i].clock = o.NoGantt, o.Clock
		if o.Window != nil {
			if err := runs[i].restrict(o.Window, d); err != nil {
				return nil, err
			}
		}
		if runs[i].trace == "" {
			return nil, fmt.Errorf("%s: no run.trace (a comparison needs to know each run's trace)", filepath.Join(d, "summary.json"))
		}
	}
	base := runs[0]
	order := make([][]int, len(runs))
	for i, r := range runs {
		var err error
		if order[i], err = byID(r.jobs, filepath.Join(dirs[i], "jobs.csv")); err != nil {
			return nil, err
		}
	}
	for i := 1; i < len(runs); i++ {
		if err := sameTrace(dirs[0], base, order[0], dirs[i], runs[i], order[i]); err != nil {
			return nil, err
		}
	}
	p := &comparePage{}
	names := o.Labels
	if len(names) == 0 {
		names = runLabels(runs, dirs)
	}
	for i, name := range names {
		runs[i].label = name
		p.Runs = append(p.Runs, compareRun{Policy: name, Dir: dirs[i]})
	}
	p.Title = filepath.Base(base.trace) + " · "
	for i, r := range p.Runs {
		if i > 0 {
			p.Title += " vs "
		}
		p.Title += r.Policy
	}
	p.Summary = sideBySide(runs)

	d := compareData{Kind: "comparison", Clock: o.Clock}
	d.T0, d.T1 = math.Inf(1), math.Inf(-1)
	for _, r := range runs {
		a, b := timeSpan(r.jobs)
		d.T0, d.T1 = math.Min(d.T0, a), math.Max(d.T1, b)
	}
	for i, r := range runs {
		rd := r.data()
		rd.Util, rd.Queue = overTimeIn(r.jobs, r.procs, d.T0, d.T1)
		d.Runs = append(d.Runs, rd)
		d.Names = append(d.Names, p.Runs[i].Policy)
	}
	ids := make([]float64, len(order[0]))
	for k, row := range order[0] {
		ids[k] = base.jobs.id[row]
	}
	d.IDs = numCol(ids)
	for i := 1; i < len(runs); i++ {
		dd, dp := jobDiffs(base, order[0], runs[i], order[i])
		dd.Run, dp.Index = i, i
		dp.Base, dp.Other = p.Runs[0].Policy, p.Runs[i].Policy
		d.Diffs = append(d.Diffs, dd)
		p.Diffs = append(p.Diffs, dp)
	}

	data, err := json.Marshal(d) // escapes <, > and &: safe inside <script>
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if o.Window != nil {
		p.Title += " · " + o.Window.Text
	}
	err = pageTmpl().Execute(&buf, pageView{Kind: "comparison", Title: p.Title, Compare: p, Headline: compareHeadline(runs), NoGantt: o.NoGantt, Window: runs[0].WindowNote(),
		CSS: template.CSS(reportCSS), JS: template.JS(reportJS), Data: template.JS(data)})
	if err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// byID returns the rows of j in increasing job id, and refuses a job id
// that appears twice (a comparison matches jobs by id).
func byID(j *runJobs, path string) ([]int, error) {
	rows := make([]int, len(j.id))
	for i := range rows {
		rows[i] = i
	}
	sort.SliceStable(rows, func(a, b int) bool { return j.id[rows[a]] < j.id[rows[b]] })
	for k := 1; k < len(rows); k++ {
		if j.id[rows[k]] == j.id[rows[k-1]] {
			return nil, fmt.Errorf("%s: job id %s appears twice (rows %d and %d): a comparison matches the jobs of its runs by id",
				path, num(j.id[rows[k]]), rows[k-1]+1, rows[k]+1)
		}
	}
	return rows, nil
}

// sameTrace checks that run b is of the same trace as run a: the same
// base name of run.trace, and the same job ids with the same submission
// times.
func sameTrace(dirA string, a *runPage, ordA []int, dirB string, b *runPage, ordB []int) error {
	if na, nb := filepath.Base(a.trace), filepath.Base(b.trace); na != nb {
		return fmt.Errorf("%s is a run of trace %s, %s of trace %s: a comparison takes runs of one trace", dirB, nb, dirA, na)
	}
	ja, jb := a.jobs, b.jobs
	pa, pb := filepath.Join(dirA, "jobs.csv"), filepath.Join(dirB, "jobs.csv")
	if len(ja.id) != len(jb.id) {
		return fmt.Errorf("%s has %d jobs, %s has %d: not runs of the same trace (or one was run with other options that drop jobs)", pb, len(jb.id), pa, len(ja.id))
	}
	for k := range ordA {
		x, y := ordA[k], ordB[k]
		if ja.id[x] != jb.id[y] {
			// The first id in increasing order that one file lacks.
			missing, in, from := ja.id[x], pb, pa
			if jb.id[y] < ja.id[x] {
				missing, in, from = jb.id[y], pa, pb
			}
			return fmt.Errorf("job %s of %s is not in %s: not runs of the same trace", num(missing), from, in)
		}
		if ja.submit[x] != jb.submit[y] {
			return fmt.Errorf("job %s is submitted at %s in %s (row %d) but at %s in %s (row %d): not runs of the same trace",
				num(ja.id[x]), num(jb.submit[y]), pb, y+1, num(ja.submit[x]), pa, x+1)
		}
	}
	return nil
}

// Bins of a difference of wait: by its size on each side of 0, and 0
// itself in the middle.
var (
	diffEdges  = []float64{60, 600, 3600, 4 * 3600, 86400}
	diffLabels = []string{"≤ −1 d", "−1 d..−4 h", "−4..−1 h", "−1 h..−10 min", "−10..−1 min", "−1 min..0", "0",
		"0..1 min", "1..10 min", "10 min..1 h", "1..4 h", "4 h..1 d", "≥ 1 d"}
)

// diffBin is the bin of a difference v: 6 for 0; 7 + k for 0 < v with
// diffEdges[k-1] <= v < diffEdges[k]; 5 - k for the same sizes below 0.
func diffBin(v float64) int {
	if v == 0 {
		return 6
	}
	m, k := math.Abs(v), 0
	for k < len(diffEdges) && m >= diffEdges[k] {
		k++
	}
	if v > 0 {
		return 7 + k
	}
	return 5 - k
}

// jobDiffs compares run b with the base run a job by job (rows matched
// through ordA and ordB, both in increasing job id).
func jobDiffs(a *runPage, ordA []int, b *runPage, ordB []int) (diffData, diffPage) {
	ja, jb := a.jobs, b.jobs
	n := len(ordA)
	wait, resp := make([]float64, n), make([]float64, n)
	h := histogram{Labels: diffLabels, Counts: make([]int, len(diffLabels)),
		Title: "wait in " + b.policyName() + " − wait in " + a.policyName() + " (jobs per bin)"}
	var d diffData
	var sumW, sumR float64
	for k := 0; k < n; k++ {
		x, y := ordA[k], ordB[k]
		wait[k] = (jb.start[y] - jb.submit[y]) - (ja.start[x] - ja.submit[x])
		resp[k] = (jb.finish[y] - jb.submit[y]) - (ja.finish[x] - ja.submit[x])
		sumW += wait[k]
		sumR += resp[k]
		h.Counts[diffBin(wait[k])]++
		switch {
		case wait[k] < 0:
			d.Helped++
		case wait[k] > 0:
			d.Hurt++
		default:
			d.Same++
		}
	}
	d.Wait, d.Resp, d.Hist = numCol(wait), numCol(resp), h
	p := diffPage{Helped: d.Helped, Hurt: d.Hurt, Same: d.Same}
	if n > 0 {
		p.MeanWait, p.MeanResp = signedDuration(sumW/float64(n)), signedDuration(sumR/float64(n))
	}
	// The most helped (most negative difference) and most hurt, ties by
	// job id (k is in increasing id).
	ks := make([]int, n)
	for k := range ks {
		ks[k] = k
	}
	sort.SliceStable(ks, func(i, j int) bool { return wait[ks[i]] < wait[ks[j]] })
	row := func(k int) diffRow {
		x, y := ordA[k], ordB[k]
		wa, wb := ja.start[x]-ja.submit[x], jb.start[y]-jb.submit[y]
		return diffRow{ID: num(ja.id[x]), Submit: cellText{a.clock.Date(ja.submit[x]), num(ja.submit[x]) + " s"}, Procs: num(ja.procs[x]), Req: reqText(ja.req[x]),
			WaitBase: cellText{humanDuration(wa), num(wa) + " s"}, WaitOther: cellText{humanDuration(wb), num(wb) + " s"},
			DiffWait: cellText{signedDuration(wait[k]), signed(wait[k]) + " s"}, DiffResp: cellText{signedDuration(resp[k]), signed(resp[k]) + " s"},
			ReasonBase: ja.text["start_reason"][x], ReasonOther: jb.text["start_reason"][y]}
	}
	for i := 0; i < n && i < TopJobs && wait[ks[i]] < 0; i++ {
		p.HelpedMost = append(p.HelpedMost, row(ks[i]))
	}
	sort.SliceStable(ks, func(i, j int) bool {
		if wait[ks[i]] != wait[ks[j]] {
			return wait[ks[i]] > wait[ks[j]]
		}
		return ks[i] < ks[j]
	})
	for i := 0; i < n && i < TopJobs && wait[ks[i]] > 0; i++ {
		p.HurtMost = append(p.HurtMost, row(ks[i]))
	}
	return d, p
}

func (p *runPage) policyName() string {
	switch {
	case p.label != "":
		return p.label
	case p.policy == "":
		return "?"
	}
	return p.policy
}

// CheckLabels checks the names given to the n runs of a comparison
// (Options.Labels, report --label): one per run, none empty or longer
// than MaxLabel bytes, no two the same (a page never names two runs
// alike).
func CheckLabels(labels []string, n int) error {
	if len(labels) != n {
		return fmt.Errorf("%d label(s) for %d runs: give one --label per folder, in their order", len(labels), n)
	}
	seen := map[string]int{}
	for i, l := range labels {
		switch {
		case strings.TrimSpace(l) == "":
			return fmt.Errorf("label %d is empty", i+1)
		case len(l) > MaxLabel:
			return fmt.Errorf("label %d is %d bytes long; at most %d", i+1, len(l), MaxLabel)
		}
		if j, ok := seen[l]; ok {
			return fmt.Errorf("labels %d and %d are both %q: each run needs a name of its own", j+1, i+1, l)
		}
		seen[l] = i
	}
	return nil
}

// MaxLabel bounds a run's label on a comparison page, in bytes.
const MaxLabel = 200

// runLabels names the runs of a comparison: by their policy, unless two
// share one; then every run of that policy by its folder's name (runs of
// conservative in conservative/ and mf-cons/ read conservative and
// mf-cons), and a name still taken gets " (2)", " (3)": never twice the
// same.
func runLabels(runs []*runPage, dirs []string) []string {
	count := map[string]int{}
	for _, r := range runs {
		count[r.policy]++
	}
	out := make([]string, len(runs))
	used := map[string]bool{}
	for i, r := range runs {
		name := r.policy
		if name == "" {
			name = "?"
		}
		if count[r.policy] > 1 {
			name = filepath.Base(filepath.Clean(dirs[i]))
		}
		base := name
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s (%d)", base, k)
		}
		used[name] = true
		out[i] = name
	}
	return out
}

func num(v float64) string { return formatNumber(strconv.FormatFloat(v, 'f', -1, 64)) }

func signed(v float64) string {
	if v > 0 {
		return "+" + num(v)
	}
	return num(v)
}

// signedDuration is a difference of times in human units, with its sign.
func signedDuration(v float64) string {
	if v > 0 {
		return "+" + humanDuration(v)
	}
	return humanDuration(v)
}

func reqText(v float64) string {
	if v < 0 {
		return ""
	}
	return num(v)
}

// sideBySide puts the summary rows of the runs side by side: the fields
// in the order of the first run, then those only later runs have.
func sideBySide(runs []*runPage) []compareRow {
	var keys []string
	seen := map[string]bool{}
	vals := make([]map[string]string, len(runs))
	for i, r := range runs {
		vals[i] = map[string]string{}
		for _, kv := range r.Summary {
			vals[i][kv.Key] = kv.Value
			if !seen[kv.Key] {
				seen[kv.Key] = true
				keys = append(keys, kv.Key)
			}
		}
	}
	rows := make([]compareRow, len(keys))
	for k, key := range keys {
		rows[k].Key = key
		for i := range runs {
			v, ok := vals[i][key]
			if !ok {
				v = "—"
			}
			rows[k].Cells = append(rows[k].Cells, compareCell{Value: v, Differs: i > 0 && v != rows[k].Cells[0].Value})
		}
	}
	return rows
}
