package golden

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/cmd/schedlab/cli"
	"github.com/schedlab/schedlab/workload"
)

var update = flag.Bool("update", false, "rewrite testdata from the current code instead of comparing (only in a commit whose results are meant to change; see doc.go)")

const (
	// fullEnv set to 1 (and no -short) adds the slow comparisons.
	fullEnv = "SCHEDLAB_GOLDEN_FULL"
	// examplesDir holds the scenario files, each swept and compared.
	examplesDir = "../../examples"
	// kthTrace is embedded in the binary: the bare name is enough.
	kthTrace = "KTH-SP2-1996-2.1-cln.swf.gz"
	// sharedTraces is the shared folder of real traces beside the checkout.
	sharedTraces = "../../../shared/traces"
	// hpc2nTrace is the shared copy of HPC2N-2002.
	hpc2nTrace = sharedTraces + "/HPC2N-2002-2.1-cln.swf.gz"
	// maxDiffs is how many differences of one file a failure shows.
	maxDiffs = 5
	// blockRows is the row block of jobs.digest.json's block_sha256.
	blockRows = 10000
)

var policies = []string{"fcfs", "easy", "conservative"}

// traceRepros are the reproductions whose results depend on which real
// traces are found, with the traces they look for besides the embedded
// KTH-SP2 (repro/hafshejani2012.go, hTraces). "reproduce all" runs with
// no trace folder (testdata/quick, testdata/full); TestReproduceWithTraces
// runs these with the shared traces (testdata/quick-traces,
// testdata/full-traces).
var traceRepros = map[string][]string{
	"hafshejani2012": {"HPC2N-2002-2.1-cln.swf.gz", "SDSC-BLUE-2000-4.2-cln.swf.gz"},
}

// Output files compared byte for byte: the SVG figures and report.txt are
// byte-identical from run to run (and for any --workers), so the quick
// runs compare them too; the full runs compare the CSV files.
var (
	quickPatterns = []string{"*.csv", "*.svg", "report.txt"}
	fullPatterns  = []string{"*.csv"}
)

// slowExamples are the examples whose sweep takes too long for the default
// mode (times on a 2-core machine); they run only in full mode.
var slowExamples = map[string]string{
	"dimitriadou2010":   "about 9 s",
	"kth-sleeper-sweep": "about 30 s",
}

func fullMode() bool { return !testing.Short() && os.Getenv(fullEnv) == "1" }

func requireFull(t *testing.T, what string) {
	t.Helper()
	if !fullMode() {
		t.Skipf("%s: runs only with %s=1 and without -short", what, fullEnv)
	}
}

// schedlab runs the command line in-process and fails the test unless it
// succeeds.
func schedlab(t *testing.T, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := cli.Main(args, &stdout, &stderr); code != 0 {
		lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
		if len(lines) > 20 {
			lines = lines[len(lines)-20:]
		}
		t.Fatalf("schedlab %s: exit status %d\nstderr:\n%s\nstdout (end):\n%s",
			strings.Join(args, " "), code, stderr.String(), strings.Join(lines, "\n"))
	}
}

// --- reproductions ---

func TestReproduceQuick(t *testing.T) {
	testReproduce(t, "quick", []string{"--quick"}, quickPatterns)
}

func TestReproduceFull(t *testing.T) {
	requireFull(t, "full reproduction (about 60 s)")
	testReproduce(t, "full", nil, fullPatterns)
}

// hideTraces makes the real traces invisible to the command line for the
// rest of the test: no $SCHEDLAB_TRACES, and none of the folders searched
// relative to this package's folder holds them.
func hideTraces(t *testing.T) {
	t.Helper()
	t.Setenv(workload.TraceDirsEnv, "")
	for _, d := range workload.TraceDirs() {
		for _, names := range traceRepros {
			for _, n := range names {
				if _, err := os.Stat(filepath.Join(d, n)); err == nil {
					t.Fatalf("%s is visible from %s: the goldens without traces cannot be checked here", n, d)
				}
			}
		}
	}
}

// testReproduce runs "reproduce all" with flags and without the real
// traces, and compares the files of each paper's folder that match
// patterns with testdata/<mode>/<paper>. Every paper written must have its
// golden folder, and every golden folder its paper.
func testReproduce(t *testing.T, mode string, flags, patterns []string) {
	hideTraces(t)
	out := t.TempDir()
	schedlab(t, append([]string{"reproduce", "all", "--out", out}, flags...)...)
	goldenRoot := filepath.Join("testdata", mode)
	papers := subdirs(t, out)
	if len(papers) == 0 {
		t.Fatalf("reproduce all wrote no paper folder in %s", out)
	}
	if *update {
		if err := os.RemoveAll(goldenRoot); err != nil {
			t.Fatal(err)
		}
		for _, p := range papers {
			updateDir(t, filepath.Join(goldenRoot, p), filepath.Join(out, p), patterns)
		}
		return
	}
	for _, p := range subdirs(t, goldenRoot) {
		if !slices.Contains(papers, p) {
			t.Errorf("reproduce all no longer writes %s/ (golden %s)", p, filepath.Join(goldenRoot, p))
			continue
		}
		compareDir(t, filepath.Join(goldenRoot, p), filepath.Join(out, p), patterns)
	}
	for _, p := range papers {
		if _, err := os.Stat(filepath.Join(goldenRoot, p)); err != nil {
			t.Errorf("reproduce all writes %s/ but %s has no golden for it; if the paper is new, add them with\n\t%s go test ./internal/golden/ -run '%s$' -update",
				p, goldenRoot, envFor(mode), t.Name())
		}
	}
}

// envFor is the environment an -update of mode needs.
func envFor(mode string) string {
	if strings.HasPrefix(mode, "full") {
		return fullEnv + "=1"
	}
	return ""
}

// The reproductions that read real traces, with the shared traces found
// through $SCHEDLAB_TRACES (the documented way): testdata/quick-traces/
// <paper> and testdata/full-traces/<paper>, compared as testdata/quick
// and testdata/full. Both modes run by default (hafshejani2012 takes
// about a second). Skipped, with the reason, when a trace is missing.
func TestReproduceWithTraces(t *testing.T) {
	dir, err := filepath.Abs(sharedTraces)
	if err != nil {
		t.Fatal(err)
	}
	papers := slices.Sorted(maps.Keys(traceRepros))
	for _, p := range papers {
		for _, n := range traceRepros[p] {
			if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
				t.Skipf("%s needs the real trace %s: %v", p, n, err)
			}
		}
	}
	if !*update {
		for _, mode := range []string{"quick-traces", "full-traces"} {
			for _, d := range subdirs(t, filepath.Join("testdata", mode)) {
				if _, ok := traceRepros[d]; !ok {
					t.Errorf("testdata/%s/%s: %s is not in traceRepros any more; delete the folder if that is on purpose", mode, d, d)
				}
			}
		}
	}
	t.Setenv(workload.TraceDirsEnv, dir)
	for _, mode := range []struct {
		name     string
		flags    []string
		patterns []string
	}{
		{"quick", []string{"--quick"}, quickPatterns},
		{"full", nil, fullPatterns},
	} {
		for _, p := range papers {
			t.Run(mode.name+"/"+p, func(t *testing.T) {
				out := t.TempDir()
				schedlab(t, append([]string{"reproduce", p, "--out", out}, mode.flags...)...)
				golden := filepath.Join("testdata", mode.name+"-traces", p)
				if *update {
					updateDir(t, golden, filepath.Join(out, p), mode.patterns)
					return
				}
				if _, err := os.Stat(golden); err != nil {
					t.Fatalf("no golden results for %s with traces in %s; add them with\n\tgo test ./internal/golden/ -run 'TestReproduceWithTraces' -update", p, golden)
				}
				compareDir(t, golden, filepath.Join(out, p), mode.patterns)
			})
		}
	}
}

// --- example sweeps ---

func TestSweeps(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(examplesDir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenario files in %s (%v)", examplesDir, err)
	}
	patterns := []string{"summary.csv", "comparisons.csv"}
	names := map[string]bool{}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".yaml")
		names[name] = true
		t.Run(name, func(t *testing.T) {
			if why, slow := slowExamples[name]; slow {
				requireFull(t, fmt.Sprintf("sweep of %s (%s)", file, why))
			}
			golden := filepath.Join("testdata", "sweep", name)
			if _, err := os.Stat(golden); err != nil && !*update {
				t.Fatalf("no golden results for %s in %s; if the example is new, add them with\n\tgo test ./internal/golden/ -run 'TestSweeps/%s$' -update", file, golden, name)
			}
			out := filepath.Join(t.TempDir(), name)
			schedlab(t, "sweep", file, "--out", out)
			if *update {
				updateDir(t, golden, out, patterns)
				return
			}
			compareDir(t, golden, out, patterns)
		})
	}
	if *update {
		return
	}
	for _, d := range subdirs(t, filepath.Join("testdata", "sweep")) {
		if !names[d] {
			t.Errorf("testdata/sweep/%s has no %s/%s.yaml any more; delete it if the example was removed on purpose", d, examplesDir, d)
		}
	}
}

// --- KTH runs: jobs.csv by column name, summary.json by key ---

func TestKTH(t *testing.T) {
	for _, p := range policies {
		t.Run(p, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "kth-"+p)
			schedlab(t, "run", "--trace", kthTrace, "--policy", p, "--out", out)
			golden := filepath.Join("testdata", "kth", p)
			jobs := readFile(t, filepath.Join(out, "jobs.csv"))
			summary := readFile(t, filepath.Join(out, "summary.json"))
			if *update {
				writeGzip(t, filepath.Join(golden, "jobs.csv.gz"), jobs)
				writeFile(t, filepath.Join(golden, "summary.json"), summary)
				return
			}
			want := readGzip(t, filepath.Join(golden, "jobs.csv.gz"))
			compareColumns(t, "kth/"+p+"/jobs.csv", bytes.NewReader(want), bytes.NewReader(jobs))
			compareJSON(t, "kth/"+p+"/summary.json", readFile(t, filepath.Join(golden, "summary.json")), summary, nil)
		})
	}
}

// compareColumns compares a jobs.csv with the golden one by column name:
// every golden column must be in the new file, with the same value on every
// row; rows in the same order and as many. Other columns are ignored.
func compareColumns(t *testing.T, name string, want, got io.Reader) {
	t.Helper()
	wr, gr := csv.NewReader(want), csv.NewReader(got)
	wr.ReuseRecord, gr.ReuseRecord = true, true
	wh, err := wr.Read()
	if err != nil {
		t.Fatalf("%s: golden header: %v", name, err)
	}
	wh = slices.Clone(wh)
	gh, err := gr.Read()
	if err != nil {
		t.Fatalf("%s: new header: %v", name, err)
	}
	idx, missing := columnIndex(wh, gh)
	if len(missing) > 0 {
		t.Errorf("%s: golden column(s) %s missing from the new header %q", name, strings.Join(missing, ", "), strings.Join(gh, ","))
	}
	id := slices.Index(wh, "job_id")
	var d differ
	rows := 0
	for {
		w, werr := wr.Read()
		g, gerr := gr.Read()
		if werr == io.EOF || gerr == io.EOF {
			wn, gn := rows, rows
			if werr != io.EOF {
				wn += 1 + countRecords(t, name+" (golden)", wr)
			}
			if gerr != io.EOF {
				gn += 1 + countRecords(t, name, gr)
			}
			if wn != gn {
				d.always("the golden file has %d data rows, the new one %d", wn, gn)
			}
			break
		}
		if werr != nil {
			t.Fatalf("%s (golden): %v", name, werr)
		}
		if gerr != nil {
			t.Fatalf("%s: %v", name, gerr)
		}
		rows++
		line, _ := wr.FieldPos(0)
		job := ""
		if id >= 0 {
			job = " (job_id " + w[id] + ")"
		}
		for j, col := range wh {
			if idx[j] >= 0 && w[j] != g[idx[j]] {
				d.add("line %d%s, column %s: golden %q, got %q", line, job, col, w[j], g[idx[j]])
			}
		}
	}
	d.report(t, name)
}

// columnIndex gives, for each golden column, its index in the new header
// (-1 if absent), and the absent ones.
func columnIndex(golden, header []string) (idx []int, missing []string) {
	for _, c := range golden {
		i := slices.Index(header, c)
		idx = append(idx, i)
		if i < 0 {
			missing = append(missing, c)
		}
	}
	return idx, missing
}

func countRecords(t *testing.T, name string, r *csv.Reader) int {
	t.Helper()
	n := 0
	for {
		if _, err := r.Read(); err == io.EOF {
			return n
		} else if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		n++
	}
}

// --- HPC2N runs: jobs.csv by digest, summary.json by key ---

// jobsDigest is testdata/hpc2n/<policy>/jobs.digest.json: digests of a
// jobs.csv projected on Columns (the projection is defined in doc.go).
type jobsDigest struct {
	Command      string   `json:"command"`
	Columns      []string `json:"columns"`
	Rows         int      `json:"rows"`
	SHA256       string   `json:"sha256"`        // whole projection, header line included
	ColumnSHA256 []string `json:"column_sha256"` // each column's values, each ended by "\n"
	BlockRows    int      `json:"block_rows"`
	BlockSHA256  []string `json:"block_sha256"` // projected data lines, BlockRows at a time
}

func TestHPC2N(t *testing.T) {
	requireFull(t, "HPC2N runs")
	if _, err := os.Stat(hpc2nTrace); err != nil {
		t.Skipf("HPC2N trace not available: %v", err)
	}
	for _, p := range policies {
		t.Run(p, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "hpc2n-"+p)
			schedlab(t, "run", "--trace", hpc2nTrace, "--policy", p, "--out", out)
			golden := filepath.Join("testdata", "hpc2n", p)
			summary := readFile(t, filepath.Join(out, "summary.json"))
			jobsPath := filepath.Join(out, "jobs.csv")
			if *update {
				f := open(t, jobsPath)
				header, err := csv.NewReader(f).Read()
				f.Close()
				if err != nil {
					t.Fatalf("%s: %v", jobsPath, err)
				}
				d := digestFile(t, jobsPath, header, blockRows)
				d.Command = "schedlab run --trace " + filepath.Base(hpc2nTrace) + " --policy " + p
				b, err := json.MarshalIndent(d, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, filepath.Join(golden, "jobs.digest.json"), append(b, '\n'))
				writeFile(t, filepath.Join(golden, "summary.json"), summary)
				return
			}
			var want jobsDigest
			if err := json.Unmarshal(readFile(t, filepath.Join(golden, "jobs.digest.json")), &want); err != nil {
				t.Fatalf("%s/jobs.digest.json: %v", golden, err)
			}
			got := digestFile(t, jobsPath, want.Columns, want.BlockRows)
			compareDigests(t, "hpc2n/"+p+"/jobs.csv", want, got)
			// run.trace is the path as given on the command line: it
			// depends on the folder the run is made from.
			compareJSON(t, "hpc2n/"+p+"/summary.json", readFile(t, filepath.Join(golden, "summary.json")), summary,
				map[string]bool{"run.trace": true})
		})
	}
}

// digestFile computes the digests of the jobs.csv at path projected on
// columns, with row blocks of blockRows.
func digestFile(t *testing.T, path string, columns []string, blockRows int) jobsDigest {
	t.Helper()
	if blockRows <= 0 {
		t.Fatalf("block_rows must be positive, got %d", blockRows)
	}
	f := open(t, path)
	defer f.Close()
	r := csv.NewReader(f)
	r.ReuseRecord = true
	header, err := r.Read()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	idx, missing := columnIndex(columns, header)
	if len(missing) > 0 {
		t.Fatalf("%s: golden column(s) %s missing from the new header %q", path, strings.Join(missing, ", "), strings.Join(header, ","))
	}
	whole := sha256.New()
	io.WriteString(whole, strings.Join(columns, ",")+"\n")
	cols := make([]hash.Hash, len(columns))
	for i := range cols {
		cols[i] = sha256.New()
	}
	var blocks []hash.Hash
	var line []byte
	rows := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if rows%blockRows == 0 {
			blocks = append(blocks, sha256.New())
		}
		rows++
		line = line[:0]
		for i, j := range idx {
			if i > 0 {
				line = append(line, ',')
			}
			line = append(line, rec[j]...)
			cols[i].Write([]byte(rec[j]))
			cols[i].Write([]byte{'\n'})
		}
		line = append(line, '\n')
		whole.Write(line)
		blocks[len(blocks)-1].Write(line)
	}
	sum := func(h hash.Hash) string { return hex.EncodeToString(h.Sum(nil)) }
	d := jobsDigest{Columns: columns, Rows: rows, SHA256: sum(whole), BlockRows: blockRows}
	for _, h := range cols {
		d.ColumnSHA256 = append(d.ColumnSHA256, sum(h))
	}
	for _, h := range blocks {
		d.BlockSHA256 = append(d.BlockSHA256, sum(h))
	}
	return d
}

// compareDigests narrows a mismatch to columns and row blocks.
func compareDigests(t *testing.T, name string, want, got jobsDigest) {
	t.Helper()
	if want.SHA256 == got.SHA256 && want.Rows == got.Rows {
		return
	}
	var d differ
	if want.Rows != got.Rows {
		d.always("the golden file has %d data rows, the new one %d", want.Rows, got.Rows)
	}
	var cols []string
	for i, c := range want.Columns {
		if i >= len(want.ColumnSHA256) || i >= len(got.ColumnSHA256) || want.ColumnSHA256[i] != got.ColumnSHA256[i] {
			cols = append(cols, c)
		}
	}
	if len(cols) > 0 {
		d.always("differing column(s): %s", strings.Join(cols, ", "))
	}
	for i := range max(len(want.BlockSHA256), len(got.BlockSHA256)) {
		if i >= len(want.BlockSHA256) || i >= len(got.BlockSHA256) || want.BlockSHA256[i] != got.BlockSHA256[i] {
			first := i*want.BlockRows + 1
			// data row n is on line n+1 of jobs.csv
			d.add("data rows %d-%d (lines %d-%d) differ", first, first+want.BlockRows-1, first+1, first+want.BlockRows)
		}
	}
	if d.n == 0 {
		d.always("projection SHA-256 %s, golden %s", got.SHA256, want.SHA256)
	}
	d.report(t, name)
}

// --- summary.json ---

// compareJSON checks that every key of the golden JSON object has an
// identical value in the new one (numbers compared as written; new keys
// allowed). The key paths in baseOnly are strings compared by
// filepath.Base.
func compareJSON(t *testing.T, name string, want, got []byte, baseOnly map[string]bool) {
	t.Helper()
	w, err := decodeJSON(want)
	if err != nil {
		t.Fatalf("%s (golden): %v", name, err)
	}
	g, err := decodeJSON(got)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var d differ
	diffJSON(&d, "", w, g, baseOnly)
	d.report(t, name)
}

func decodeJSON(b []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

func diffJSON(d *differ, path string, want, got any, baseOnly map[string]bool) {
	at := path
	if at == "" {
		at = "(top level)"
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			d.add("%s: golden %s, got %s", at, showJSON(want), showJSON(got))
			return
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			gv, ok := g[k]
			if !ok {
				d.add("%s: missing (golden %s)", p, showJSON(w[k]))
				continue
			}
			diffJSON(d, p, w[k], gv, baseOnly)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			d.add("%s: golden %s, got %s", at, showJSON(want), showJSON(got))
			return
		}
		for i := range w {
			diffJSON(d, fmt.Sprintf("%s[%d]", path, i), w[i], g[i], baseOnly)
		}
	default:
		if ws, ok := want.(string); ok && baseOnly[path] {
			if gs, ok := got.(string); ok && filepath.Base(ws) == filepath.Base(gs) {
				return
			}
		}
		if !reflect.DeepEqual(want, got) {
			d.add("%s: golden %s, got %s", at, showJSON(want), showJSON(got))
		}
	}
}

func showJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

// --- byte-for-byte comparison of folders ---

// compareDir compares, byte for byte, every file of golden whose name
// matches one of patterns with the file of the same name in dir. A file of
// dir matching patterns that golden lacks is an error too (a new output is
// pinned, with -update, in the commit that adds it).
func compareDir(t *testing.T, golden, dir string, patterns []string) {
	t.Helper()
	want := matching(t, golden, patterns)
	if len(want) == 0 {
		t.Fatalf("no golden files in %s", golden)
	}
	for _, f := range want {
		name := filepath.Join(golden, f)
		got, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Errorf("%s: the new run wrote no %s: %v", name, f, err)
			continue
		}
		compareBytes(t, name, readFile(t, name), got)
	}
	for _, f := range matching(t, dir, patterns) {
		if !slices.Contains(want, f) {
			t.Errorf("new output file %s is not in %s: pin it with -update (see doc.go)", f, golden)
		}
	}
}

// compareBytes reports where got differs from want: by line and column
// name for CSV files, by line otherwise.
func compareBytes(t *testing.T, name string, want, got []byte) {
	t.Helper()
	if bytes.Equal(want, got) {
		return
	}
	var d differ
	if strings.HasSuffix(name, ".csv") {
		diffCSV(&d, want, got)
	}
	if d.empty() {
		diffLines(&d, want, got)
	}
	if d.empty() {
		d.always("same lines, different bytes (line endings or final newline)")
	}
	d.report(t, name)
}

type csvFile struct {
	rows  [][]string
	lines []int
}

func readCSV(b []byte) (csvFile, error) {
	r := csv.NewReader(bytes.NewReader(b))
	r.FieldsPerRecord = -1
	var f csvFile
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return f, nil
		}
		if err != nil {
			return f, err
		}
		line, _ := r.FieldPos(0)
		f.rows = append(f.rows, rec)
		f.lines = append(f.lines, line)
	}
}

// diffCSV adds the differing values of two CSV files, named by the golden
// header; nothing if either does not parse (the caller falls back to lines).
func diffCSV(d *differ, want, got []byte) {
	w, err := readCSV(want)
	if err != nil || len(w.rows) == 0 {
		return
	}
	g, err := readCSV(got)
	if err != nil {
		return
	}
	if len(w.rows) != len(g.rows) {
		d.always("the golden file has %d records (header included), the new one %d", len(w.rows), len(g.rows))
		if n := min(len(w.rows), len(g.rows)); n < len(w.rows) {
			d.always("first record missing from the new file: line %d of the golden one, %q", w.lines[n], strings.Join(w.rows[n], ","))
		} else {
			d.always("first record only in the new file: line %d, %q", g.lines[n], strings.Join(g.rows[n], ","))
		}
	}
	header := w.rows[0]
	field := func(rec []string, j int) string {
		if j < len(rec) {
			return fmt.Sprintf("%q", rec[j])
		}
		return "(no such field)"
	}
	for i := range min(len(w.rows), len(g.rows)) {
		wr, gr := w.rows[i], g.rows[i]
		for j := range max(len(wr), len(gr)) {
			if j < len(wr) && j < len(gr) && wr[j] == gr[j] {
				continue
			}
			col := fmt.Sprintf("#%d", j+1)
			if i > 0 && j < len(header) {
				col = header[j]
			}
			d.add("line %d, column %s: golden %s, got %s", w.lines[i], col, field(wr, j), field(gr, j))
		}
	}
}

// diffLines adds the differing lines of two text files.
func diffLines(d *differ, want, got []byte) {
	wl := strings.Split(string(want), "\n")
	gl := strings.Split(string(got), "\n")
	if len(wl) != len(gl) {
		d.always("the golden file has %d lines, the new one %d", len(wl), len(gl))
	}
	for i := range min(len(wl), len(gl)) {
		if wl[i] != gl[i] {
			a, b := clip(wl[i], gl[i])
			d.add("line %d:\n\t\tgolden %q\n\t\tgot    %q", i+1, a, b)
		}
	}
}

// clip shortens two long lines to the neighbourhood of their first
// difference.
func clip(a, b string) (string, string) {
	const width = 60
	if len(a) <= 2*width && len(b) <= 2*width {
		return a, b
	}
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	start := max(0, i-width)
	cut := func(s string) string {
		end := min(len(s), i+width)
		r := s[start:end]
		if start > 0 {
			r = "…" + r
		}
		if end < len(s) {
			r += "…"
		}
		return r
	}
	return cut(a), cut(b)
}

// differ collects the first maxDiffs differences of a file and counts the
// rest; always-messages (row counts, column lists) are always shown.
type differ struct {
	notes []string
	msgs  []string
	n     int
}

func (d *differ) add(format string, args ...any) {
	d.n++
	if len(d.msgs) < maxDiffs {
		d.msgs = append(d.msgs, fmt.Sprintf(format, args...))
	}
}

func (d *differ) always(format string, args ...any) {
	d.notes = append(d.notes, fmt.Sprintf(format, args...))
}

func (d *differ) empty() bool { return d.n == 0 && len(d.notes) == 0 }

func (d *differ) report(t *testing.T, name string) {
	t.Helper()
	if d.empty() {
		return
	}
	all := append(slices.Clone(d.notes), d.msgs...)
	if d.n > len(d.msgs) {
		all = append(all, fmt.Sprintf("... and %d more difference(s)", d.n-len(d.msgs)))
	}
	t.Errorf("%s: results differ from the golden ones (see internal/golden/doc.go if the change is deliberate):\n\t%s",
		name, strings.Join(all, "\n\t"))
}

// --- files ---

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func open(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readGzip(t *testing.T, path string) []byte {
	t.Helper()
	f := open(t, path)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return b
}

func writeGzip(t *testing.T, path string, b []byte) {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, path, buf.Bytes())
}

// matching lists the names of the files of dir matching one of patterns,
// sorted.
func matching(t *testing.T, dir string, patterns []string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		for _, p := range patterns {
			if ok, _ := filepath.Match(p, e.Name()); ok {
				names = append(names, e.Name())
				break
			}
		}
	}
	return names
}

// subdirs lists the folders in dir, sorted; none if dir does not exist.
func subdirs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// updateDir replaces golden by the files of dir matching patterns.
func updateDir(t *testing.T, golden, dir string, patterns []string) {
	t.Helper()
	files := matching(t, dir, patterns)
	if len(files) == 0 {
		t.Fatalf("-update: no files matching %q in %s", patterns, dir)
	}
	if err := os.RemoveAll(golden); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		writeFile(t, filepath.Join(golden, f), readFile(t, filepath.Join(dir, f)))
	}
	t.Logf("-update: wrote %d file(s) to %s", len(files), golden)
}
