package htmlreport

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// MaxFigureBytes bounds one figure (figNN.svg) of a reproduction.
const MaxFigureBytes = 8 << 20

// itemRow is one published number beside ours.
type itemRow struct {
	Item, Paper, Ours, CI string
	InCI                  string // "yes", "no" or "" (no paper value or no CI)
	OffBy                 string // (ours - paper) / paper in percent
}

type itemTable struct {
	File string
	Rows []itemRow
}

type claimRow struct{ ID, Claim, Verdict, Evidence string }

// Class is the verdict's CSS class (holds-holds, holds-direction-only).
func (c claimRow) Class() string { return verdictClass(c.Verdict) }

// ClaimVerdicts are the verdicts claims.csv may give, in the order the
// page counts them (repro.Verdicts; a test of cmd/schedlab/cli holds the
// two lists equal).
var ClaimVerdicts = []string{"holds", "direction only", "no", "not reproduced", "not estimable", "vacuous", "n/a"}

func verdictClass(v string) string {
	if v == "-" {
		return "holds-none"
	}
	return "holds-" + strings.ReplaceAll(strings.ReplaceAll(v, "/", ""), " ", "-")
}

// verdictCell is one verdict of the claims x readings table.
type verdictCell struct{ Text, Class string }

// readingRow is one claim's verdict under each reading (claims.csv with a
// reading column, from reproduce --readings).
type readingRow struct {
	ID    string
	Cells []verdictCell
}

type figure struct {
	Name string
	Src  template.URL // data:image/svg+xml;base64,...
}

type reproPage struct {
	Title, Setup string
	Tables       []itemTable
	Claims       []claimRow
	HasClaims    bool
	// Tally counts the default reading's claims by verdict, in
	// ClaimVerdicts' order ("5 hold, 2 no, 1 not reproduced").
	Tally   string
	Figures []figure
	// Readings names the readings of claims.csv's reading column (none
	// without it); ByReading is the claims x readings table. Claims
	// and Tally are then the default reading's.
	Readings  []string
	ByReading []readingRow
	// Skipped are the workloads the reproduction left out because their
	// traces were not found (skipped.csv), shown as a banner.
	Skipped []skippedRow
}

// skippedRow is one row of skipped.csv.
type skippedRow struct{ Workload, Trace string }

// SkippedBanner is the sentence of the banner of a reproduction that
// left workloads out.
func (p *reproPage) SkippedBanner() string {
	if len(p.Skipped) == 0 {
		return ""
	}
	var wls []string
	for _, s := range p.Skipped {
		wls = append(wls, s.Workload+" ("+s.Trace+")")
	}
	return "Workloads left out: " + strings.Join(wls, ", ") +
		". Their traces were not found when this reproduction ran, so the claims, numbers and figures below are without them. " +
		"To include them, put the trace files (from the Parallel Workloads Archive) in a folder, set SCHEDLAB_TRACES to that folder and run schedlab reproduce again."
}

var itemColumns = []string{"item", "paper", "ours", "ci_low", "ci_high"}

// readItems reads comparison.csv or another file of items.
func readItems(path string) (itemTable, error) {
	t, err := readTable(path, itemColumns...)
	if err != nil {
		return itemTable{}, err
	}
	it := itemTable{File: filepath.Base(path)}
	for i := range t.rows {
		var v [4]float64
		for k, c := range itemColumns[1:] {
			if v[k], err = t.num(i, c, true); err != nil {
				return itemTable{}, err
			}
		}
		paper, ours, lo, hi := v[0], v[1], v[2], v[3]
		r := itemRow{Item: t.get(i, "item"), Paper: g(paper), Ours: g(ours)}
		if !math.IsNaN(lo) && !math.IsNaN(hi) {
			r.CI = "[" + g(lo) + ", " + g(hi) + "]"
			if !math.IsNaN(paper) {
				r.InCI = "no"
				if paper >= lo && paper <= hi {
					r.InCI = "yes"
				}
			}
		}
		if !math.IsNaN(paper) && paper != 0 && !math.IsNaN(ours) {
			r.OffBy = fmt.Sprintf("%+.1f%%", 100*(ours-paper)/paper)
		}
		it.Rows = append(it.Rows, r)
	}
	return it, nil
}

// isItemFile tells whether a CSV file's header is exactly the items'.
func isItemFile(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 256).ReadString('\n')
	return err == nil && strings.TrimRight(line, "\r\n") == strings.Join(itemColumns, ",")
}

// readRepro reads the folder of one paper's reproduction.
func readRepro(dir string) (*reproPage, error) {
	p := &reproPage{Title: filepath.Base(filepath.Clean(dir))}
	if b, err := os.ReadFile(filepath.Join(dir, "report.txt")); err == nil {
		// "== paper: title", then the setup paragraph.
		lines := strings.Split(string(b), "\n")
		if len(lines) > 0 && strings.HasPrefix(lines[0], "== ") {
			p.Title = strings.TrimPrefix(lines[0], "== ")
			var setup []string
			for _, l := range lines[1:] {
				if strings.TrimSpace(l) == "" {
					break
				}
				setup = append(setup, l)
			}
			p.Setup = strings.Join(setup, " ")
		}
	}
	main, err := readItems(filepath.Join(dir, "comparison.csv"))
	if err != nil {
		return nil, err
	}
	p.Tables = append(p.Tables, main)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		path := filepath.Join(dir, n)
		switch {
		case n == "comparison.csv":
		case strings.HasSuffix(n, ".csv") && isItemFile(path):
			it, err := readItems(path)
			if err != nil {
				return nil, err
			}
			p.Tables = append(p.Tables, it)
		case strings.HasSuffix(n, ".svg"):
			fig, err := readFigure(path)
			if err != nil {
				return nil, err
			}
			p.Figures = append(p.Figures, fig)
		}
	}
	spath := filepath.Join(dir, "skipped.csv")
	if _, err := os.Stat(spath); err == nil {
		t, err := readTable(spath, "workload", "trace")
		if err != nil {
			return nil, err
		}
		for i := range t.rows {
			s := skippedRow{t.get(i, "workload"), t.get(i, "trace")}
			if s.Workload == "" || s.Trace == "" {
				return nil, fmt.Errorf("%s:%d: want a workload and a trace, got %q and %q", spath, t.line[i], cut(s.Workload), cut(s.Trace))
			}
			p.Skipped = append(p.Skipped, s)
		}
	}
	cpath := filepath.Join(dir, "claims.csv")
	if _, err := os.Stat(cpath); err == nil {
		t, err := readTable(cpath, "id", "claim", "verdict", "evidence")
		if err != nil {
			return nil, err
		}
		p.HasClaims = true
		counts := map[string]int{}
		cell := map[[2]string]string{}
		var ids []string
		for i := range t.rows {
			c := claimRow{t.get(i, "id"), t.get(i, "claim"), t.get(i, "verdict"), t.get(i, "evidence")}
			if !slices.Contains(ClaimVerdicts, c.Verdict) {
				return nil, fmt.Errorf("%s:%d: column verdict: want one of %s, got %q", cpath, t.line[i], strings.Join(ClaimVerdicts, ", "), cut(c.Verdict))
			}
			if t.has("reading") {
				rd := t.get(i, "reading")
				if !slices.Contains(p.Readings, rd) {
					p.Readings = append(p.Readings, rd)
				}
				if !slices.Contains(ids, c.ID) {
					ids = append(ids, c.ID)
				}
				cell[[2]string{c.ID, rd}] = c.Verdict
				if rd != "default" {
					continue
				}
			}
			counts[c.Verdict]++
			p.Claims = append(p.Claims, c)
		}
		p.Tally = tallyText(counts)
		for _, id := range ids {
			row := readingRow{ID: id}
			for _, rd := range p.Readings {
				v, ok := cell[[2]string{id, rd}]
				if !ok {
					v = "-"
				}
				row.Cells = append(row.Cells, verdictCell{v, verdictClass(v)})
			}
			p.ByReading = append(p.ByReading, row)
		}
	}
	return p, nil
}

// tallyText is counts in ClaimVerdicts' order: "5 hold, 2 no".
func tallyText(counts map[string]int) string {
	var parts []string
	for _, v := range ClaimVerdicts {
		if n := counts[v]; n > 0 {
			w := v
			if v == "holds" && n != 1 {
				w = "hold"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, w))
		}
	}
	if len(parts) == 0 {
		return "no claims"
	}
	return strings.Join(parts, ", ")
}

// readFigure embeds an SVG file as a data URL: shown through <img>, an
// SVG cannot run scripts, so a figure cannot act on the page.
func readFigure(path string) (figure, error) {
	f, err := os.Open(path)
	if err != nil {
		return figure{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFigureBytes+1))
	if err != nil {
		return figure{}, fmt.Errorf("%s: %v", path, err)
	}
	if len(b) > MaxFigureBytes {
		return figure{}, fmt.Errorf("%s: larger than %d bytes", path, MaxFigureBytes)
	}
	if !strings.Contains(string(b[:min(len(b), 4096)]), "<svg") {
		return figure{}, fmt.Errorf("%s: not an SVG file (no <svg element at the start)", path)
	}
	return figure{Name: strings.TrimSuffix(filepath.Base(path), ".svg"),
		Src: template.URL("data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString(b))}, nil
}

// papers lists the subfolders of dir that hold a reproduction, sorted.
func papers(dir string) []string {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() && exists(filepath.Join(dir, e.Name(), "comparison.csv")) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}
