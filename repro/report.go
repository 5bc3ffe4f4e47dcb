package repro

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/schedlab/schedlab/internal/atomicfile"
	"github.com/schedlab/schedlab/report/plot"
	"github.com/schedlab/schedlab/stats"
)

// Item is one published number beside ours.
type Item struct {
	Name  string  // e.g. table4/sq/random_gs/rt
	Paper float64 // NaN when the paper gives no number
	Ours  float64
	Low   float64 // 95% CI of ours; NaN when not a replicated mean
	High  float64
	Unit  string // short note for people, e.g. "A_I"
	// File is the CSV the item is written to: "" for comparison.csv (the
	// paper's tables, named as the issues fix them), else e.g.
	// "equivalence_ai.csv" for our own derived items.
	File string
}

// Inside reports whether the paper's value lies in our CI.
func (it Item) Inside() bool { return it.Paper >= it.Low && it.Paper <= it.High }

// RelErr is (ours - paper) / paper.
func (it Item) RelErr() float64 { return (it.Ours - it.Paper) / it.Paper }

// Skip is a workload of a reproduction left out because its trace was
// not found on the trace lookup path.
type Skip struct {
	Workload string // the workload's name in the item names, e.g. HPC2N
	Trace    string // the file looked for, e.g. HPC2N-2002-2.1-cln.swf.gz
}

// SkippedFile is the file of a reproduction's folder that lists the
// workloads left out (columns workload,trace); WriteDir writes it only
// when a workload was left out, and removes an older one otherwise.
const SkippedFile = "skipped.csv"

// WriteSkipped writes the skipped workloads as CSV: workload,trace.
func (r *Report) WriteSkipped(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"workload", "trace"})
	for _, s := range r.Skipped {
		cw.Write([]string{s.Workload, s.Trace})
	}
	cw.Flush()
	return cw.Error()
}

// Check is one qualitative claim of the paper, tested on our results.
type Check struct {
	Claim string
	// V is the claim's verdict: from Judge (comparisons), threshold (a
	// bound on the paper's numbers), or stated with its reason
	// (NotReproduced, NotEstimable, Vacuous for a restatement,
	// NotApplicable); "" reads as no.
	V      Verdict
	Detail string
	// Cmps are the comparisons a judged claim was judged on (not
	// written: Detail gives them in words); tests hold every "holds" to
	// its intervals.
	Cmps []Cmp
	// ID names the claim in claims.csv (e.g. slowdown_tabu_best); claims
	// without one are written to report.txt only.
	ID string
	// Scope names, for people, what the claim was checked on when the
	// paper's claim is checked on several workloads or sizes (e.g. "KTH,
	// first 1292 jobs"); the text report prints it before the claim.
	// claims.csv does not have it (the ID says the same).
	Scope string
}

// Verdict is the claim's category, as claims.csv's verdict column writes
// it.
func (c Check) Verdict() Verdict {
	if c.V == "" {
		return No
	}
	return c.V
}

// Holds reports whether the claim holds (the verdict holds).
func (c Check) Holds() bool { return c.Verdict() == Holds }

// Failed reports whether the claim was checked and is contradicted or
// not shown: no, direction only or not reproduced.
func (c Check) Failed() bool {
	switch c.Verdict() {
	case No, DirectionOnly, NotReproduced:
		return true
	}
	return false
}

// Reading is a reproduction's outcome under one named reading of the
// paper's open rules (reproduce --readings): its claims and figures.
type Reading struct {
	Name    string // e.g. as-implemented; "default" is the report's own
	Why     string // what the reading changes and what supports it
	Checks  []Check
	Figures []plot.Figure
}

// Report is the outcome of a reproduction.
type Report struct {
	Paper   string // e.g. zikos2008
	Title   string
	Setup   string // one paragraph: what was run
	Items   []Item
	Figures []plot.Figure
	Checks  []Check
	Notes   []string // sentences for people (variance, deviations)
	// DefaultWhy says what the default reading is and why (with
	// --readings, beside the other readings).
	DefaultWhy string
	// Readings are the other named readings, run with --readings only;
	// empty otherwise (then claims.csv has no reading column).
	Readings []Reading
	Jobs     int64 // simulated jobs in total
	// Skipped are the workloads left out because their trace was not
	// found (hafshejani2012 without HPC2N or SDSC-BLUE). WriteDir lists
	// them in skipped.csv, which the HTML page shows as a banner, and
	// the command names them at its end.
	Skipped []Skip
	// Console holds machine-dependent lines (wall-clock times) that the
	// command prints but no file records: the files stay deterministic.
	Console []string
}

func item(name string, paper float64, xs []float64) Item {
	s := stats.CI95(xs)
	return Item{Name: name, Paper: paper, Ours: s.Mean, Low: s.Low, High: s.High}
}

func fmtNum(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// WriteComparison writes the items of comparison.csv as CSV:
// item,paper,ours,ci_low,ci_high.
func (r *Report) WriteComparison(w io.Writer) error { return r.writeItems(w, "") }

func (r *Report) writeItems(w io.Writer, file string) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"item", "paper", "ours", "ci_low", "ci_high"})
	for _, it := range r.Items {
		if it.File == file {
			cw.Write([]string{it.Name, fmtNum(it.Paper), fmtNum(it.Ours), fmtNum(it.Low), fmtNum(it.High)})
		}
	}
	cw.Flush()
	return cw.Error()
}

// extraFiles lists the item files besides comparison.csv, in order.
func (r *Report) extraFiles() []string {
	var out []string
	for _, it := range r.Items {
		if it.File != "" && !slices.Contains(out, it.File) {
			out = append(out, it.File)
		}
	}
	return out
}

// WriteText prints the report for people (the console and report.txt):
// the comparison table, the figures' data, the claims and the notes.
// Sentences wrap at TextWidth characters with continuation lines
// indented; numbers have four significant digits (Num); a label's line
// breaks become spaces. The first line is "== paper: title" and the
// setup paragraph follows up to the first empty line (the HTML page
// reads both from report.txt).
func (r *Report) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "== %s: %s\n", r.Paper, r.Title)
	writeWrapped(w, r.Setup, "", "")
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "item\tpaper\tours\t95% CI\tpaper in CI\toff by\t")
	for _, it := range r.Items {
		ci, in, off := "", "", ""
		if !math.IsNaN(it.Low) {
			ci = "[" + Num(it.Low) + ", " + Num(it.High) + "]"
			if !math.IsNaN(it.Paper) {
				in = map[bool]string{true: "yes", false: "no"}[it.Inside()]
			}
		}
		if !math.IsNaN(it.Paper) && it.Paper != 0 {
			off = fmt.Sprintf("%+.1f%%", 100*it.RelErr())
		}
		paper := paperNum(it.Paper)
		if paper == "" {
			paper = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", oneLine(it.Name), paper, Num(it.Ours), ci, in, off)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, f := range r.Figures {
		fmt.Fprintln(w)
		writeWrapped(w, fmt.Sprintf("%s: %s (%s vs %s)", f.ID, f.Title, f.YLabel, f.XLabel), "", "    ")
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		xs := figXs(f)
		fmt.Fprint(tw, "x\t")
		for _, s := range f.Series {
			fmt.Fprintf(tw, "%s\t", oneLine(s.Name))
		}
		fmt.Fprintln(tw)
		for _, x := range xs {
			label := Num(x)
			if f.Bars && int(x) < len(f.XTicks) {
				label = f.XTicks[int(x)]
			}
			fmt.Fprintf(tw, "%s\t", oneLine(label))
			for _, s := range f.Series {
				cell := ""
				for i, sx := range s.X {
					if sx == x {
						cell = Num(s.Y[i])
						if s.Low != nil && !math.IsNaN(s.Low[i]) {
							cell += fmt.Sprintf(" ±%.2g", (s.High[i]-s.Low[i])/2)
						}
					}
				}
				fmt.Fprintf(tw, "%s\t", cell)
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "\nClaims of the paper, checked on our runs (%s):\n", TallyText(r.Checks))
	writeChecks(w, r.Checks)
	if len(r.Readings) > 0 {
		if err := r.writeReadings(w); err != nil {
			return err
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintln(w)
		writeWrapped(w, n, "Note: ", "      ")
	}
	return nil
}

// verdictMark is a verdict as the text report marks a claim: upper case
// where the claim is contradicted or not shown.
func verdictMark(v Verdict) string {
	switch v {
	case Holds:
		return "holds"
	case No:
		return "NO"
	case DirectionOnly:
		return "DIRECTION ONLY"
	case NotReproduced:
		return "NOT REPRODUCED"
	}
	return string(v)
}

// writeChecks prints one claim per paragraph: "[holds] claim: evidence",
// wrapped, continuation lines indented under the claim. A claim made of
// the same words as another of cs (the same claim on several workloads)
// is preceded by its scope: Check.Scope, else its ID after the first "/".
func writeChecks(w io.Writer, cs []Check) {
	seen := map[string]int{}
	for _, c := range cs {
		seen[c.Claim]++
	}
	for _, c := range cs {
		mark := verdictMark(c.Verdict())
		claim := c.Claim
		scope := c.Scope
		if scope == "" && seen[c.Claim] > 1 {
			if _, rest, ok := strings.Cut(c.ID, "/"); ok {
				scope = rest
			}
		}
		if scope != "" {
			claim = scope + ": " + claim
		}
		writeWrapped(w, claim+": "+c.Detail, "  ["+mark+"] ", "        ")
	}
}

// readingNames are "default" and the other readings' names, in order.
func (r *Report) readingNames() []string {
	out := []string{"default"}
	for _, rd := range r.Readings {
		out = append(out, rd.Name)
	}
	return out
}

// readingChecks are the claims under each of readingNames.
func (r *Report) readingChecks() [][]Check {
	out := [][]Check{r.Checks}
	for _, rd := range r.Readings {
		out = append(out, rd.Checks)
	}
	return out
}

// writeReadings prints the claims x readings table, then each reading:
// what it is, and its claims with their evidence.
func (r *Report) writeReadings(w io.Writer) error {
	names, checks := r.readingNames(), r.readingChecks()
	fmt.Fprintf(w, "\nClaims under each reading (claims.csv, column reading):\n")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "claim\t")
	for _, n := range names {
		fmt.Fprintf(tw, "%s\t", n)
	}
	fmt.Fprintln(tw)
	var ids []string
	for _, cs := range checks {
		for _, c := range cs {
			if c.ID != "" && !slices.Contains(ids, c.ID) {
				ids = append(ids, c.ID)
			}
		}
	}
	for _, id := range ids {
		fmt.Fprintf(tw, "%s\t", id)
		for _, cs := range checks {
			cell := "-"
			for _, c := range cs {
				if c.ID == id {
					cell = string(c.Verdict())
				}
			}
			fmt.Fprintf(tw, "%s\t", cell)
		}
		fmt.Fprintln(tw)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if r.DefaultWhy != "" {
		fmt.Fprintln(w)
		writeWrapped(w, r.DefaultWhy, "Reading default: ", "  ")
	}
	for _, rd := range r.Readings {
		fmt.Fprintln(w)
		writeWrapped(w, rd.Why, "Reading "+rd.Name+": ", "  ")
		writeChecks(w, rd.Checks)
	}
	return nil
}

func figXs(f plot.Figure) []float64 {
	seen := map[float64]bool{}
	var xs []float64
	for _, s := range f.Series {
		for _, x := range s.X {
			if !seen[x] {
				seen[x] = true
				xs = append(xs, x)
			}
		}
	}
	sortFloats(xs)
	return xs
}

func sortFloats(xs []float64) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

// WriteDir writes comparison.csv, figNN.csv and figNN.svg into dir (created
// if needed). Each file is written to a temporary name and renamed, so a
// reader never sees a half-written file.
func (r *Report) WriteDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	write := func(name string, f func(io.Writer) error) error {
		if err := atomicfile.Write(filepath.Join(dir, name), f); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		return nil
	}
	if err := write("comparison.csv", r.WriteComparison); err != nil {
		return err
	}
	for _, name := range r.extraFiles() {
		if err := write(name, func(w io.Writer) error { return r.writeItems(w, name) }); err != nil {
			return err
		}
	}
	for i := range r.Figures {
		f := &r.Figures[i]
		if err := write(f.ID+".csv", f.WriteCSV); err != nil {
			return err
		}
		if err := write(f.ID+".svg", f.WriteSVG); err != nil {
			return err
		}
	}
	for _, rd := range r.Readings {
		for i := range rd.Figures {
			f := &rd.Figures[i]
			base := filepath.Join("readings", rd.Name, f.ID)
			if err := os.MkdirAll(filepath.Join(dir, "readings", rd.Name), 0o755); err != nil {
				return err
			}
			if err := write(base+".csv", f.WriteCSV); err != nil {
				return err
			}
			if err := write(base+".svg", f.WriteSVG); err != nil {
				return err
			}
		}
	}
	if r.hasClaimIDs() {
		if err := write("claims.csv", r.WriteClaims); err != nil {
			return err
		}
	}
	if len(r.Skipped) > 0 {
		if err := write(SkippedFile, r.WriteSkipped); err != nil {
			return err
		}
	} else if err := os.Remove(filepath.Join(dir, SkippedFile)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return write("report.txt", r.WriteText)
}

func (r *Report) hasClaimIDs() bool {
	for _, c := range r.Checks {
		if c.ID != "" {
			return true
		}
	}
	return false
}

// WriteClaims writes the claims that have an ID as CSV: id,claim,verdict,
// evidence (verdict one of Verdicts). With readings (--readings) the
// first column is reading (default, then each reading's name) and every
// reading's claims follow the default's.
func (r *Report) WriteClaims(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"id", "claim", "verdict", "evidence"}
	if len(r.Readings) > 0 {
		head = append([]string{"reading"}, head...)
	}
	cw.Write(head)
	names := r.readingNames()
	for i, cs := range r.readingChecks() {
		for _, c := range cs {
			if c.ID == "" {
				continue
			}
			row := []string{c.ID, c.Claim, string(c.Verdict()), c.Detail}
			if len(r.Readings) > 0 {
				row = append([]string{names[i]}, row...)
			}
			cw.Write(row)
		}
	}
	cw.Flush()
	return cw.Error()
}

func pct(v float64) string { return strings.TrimSuffix(fmt.Sprintf("%.1f", 100*v), ".0") + "%" }
