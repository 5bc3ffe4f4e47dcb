package htmlreport

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/validate"
)

// MaxJobs bounds the rows of a jobs.csv the report reads (a page beyond
// that would be too large for a browser anyway).
const MaxJobs = 5_000_000

// MaxSummaryBytes bounds the size of summary.json.
const MaxSummaryBytes = 16 << 20

// The jobs.csv columns the report needs; other columns are shown in the
// hover text as they are.
var runColumns = []string{"job_id", "submission_time", "requested_number_of_resources",
	"requested_time", "starting_time", "finish_time", "allocated_resources", "final_state", "start_reason"}

// derived are the jobs.csv columns the page recomputes from the others
// (exactly as the simulator writes them), so they are not embedded.
// The columns kept for Batsim's tools (success follows from final_state,
// the others are the same on every row) are not embedded either.
var derived = map[string]bool{"execution_time": true, "waiting_time": true, "turnaround_time": true, "stretch": true,
	"workload_name": true, "profile": true, "success": true, "consumed_energy": true, "metadata": true}

// runJobs is jobs.csv in columns.
type runJobs struct {
	header                        []string
	id, submit, procs, req, start []float64
	finish                        []float64
	ivOff                         []int32 // job i's intervals are ivLo/ivHi[ivOff[i]:ivOff[i+1]]
	ivLo, ivHi                    []int32
	maxCPU                        int
	text                          map[string][]string // the string columns, by name
	textCols                      []string            // their names, in file order
}

// kv is one row of the summary table.
type kv struct{ Key, Value string }

// readSummary flattens summary.json into key/value rows in file order
// (nested objects as dotted keys).
func readSummary(path string) ([]kv, map[string]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxSummaryBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(b) > MaxSummaryBytes {
		return nil, nil, fmt.Errorf("%s: larger than %d bytes", path, MaxSummaryBytes)
	}
	if !json.Valid(b) {
		var v any
		err := json.Unmarshal(b, &v)
		return nil, nil, fmt.Errorf("%s: not valid JSON: %v", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var rows []kv
	nums := map[string]float64{}
	var walk func(prefix string) error
	walk = func(prefix string) error {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				for dec.More() {
					kt, err := dec.Token()
					if err != nil {
						return err
					}
					k := kt.(string)
					if prefix != "" {
						k = prefix + "." + k
					}
					if err := walk(k); err != nil {
						return err
					}
				}
				_, err = dec.Token()
				return err
			case '[':
				var parts []string
				for dec.More() {
					var v any
					if err := dec.Decode(&v); err != nil {
						return err
					}
					j, _ := json.Marshal(v)
					parts = append(parts, string(j))
				}
				_, err = dec.Token()
				rows = append(rows, kv{prefix, "[" + strings.Join(parts, ", ") + "]"})
				return err
			}
		case json.Number:
			rows = append(rows, kv{prefix, formatNumber(string(t))})
			// A number beyond the float64 range (1e999) is kept as
			// ±Inf, for the checks of readRunMax to refuse.
			v, _ := t.Float64()
			nums[prefix] = v
		case string:
			rows = append(rows, kv{prefix, t})
		case bool:
			rows = append(rows, kv{prefix, strconv.FormatBool(t)})
		case nil:
			rows = append(rows, kv{prefix, "null"})
		}
		return nil
	}
	if err := walk(""); err != nil {
		return nil, nil, fmt.Errorf("%s: %v", path, err)
	}
	return rows, nums, nil
}

// formatNumber shows a JSON number with at most 6 significant decimals
// after the point (integers as they are).
func formatNumber(s string) string {
	if !strings.ContainsAny(s, ".eE") {
		return s
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	if math.Abs(v) >= 1e15 || (v != 0 && math.Abs(v) < 1e-4) {
		return strconv.FormatFloat(v, 'g', 6, 64)
	}
	out := strconv.FormatFloat(v, 'f', 6, 64)
	out = strings.TrimRight(out, "0")
	return strings.TrimSuffix(out, ".")
}

// readJobs reads jobs.csv into columns. Errors have the form
// "path:line: column c: problem".
func readJobs(path string) (*runJobs, error) {
	return readJobsMax(path, MaxJobs, "the report's limit", machine{platform.MaxCPUs, "the largest machine schedlab simulates"})
}

// machine is the number of CPUs the CPU ids of jobs.csv must be below,
// and where it comes from, for the error.
type machine struct {
	cpus int
	what string
}

// readJobsMax is readJobs with a limit on the rows; why says where the
// limit comes from in the error. CPU ids must be below m.cpus.
func readJobsMax(path string, limit int, why string, m machine) (*runJobs, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file, want a header row", path)
	}
	if err != nil {
		return nil, csvErr(path, err)
	}
	j := &runJobs{header: append([]string(nil), header...), text: map[string][]string{}}
	at := map[string]int{}
	for i, h := range j.header {
		if _, dup := at[h]; dup {
			return nil, fmt.Errorf("%s:1: column %s appears twice", path, h)
		}
		at[h] = i
	}
	for _, c := range runColumns {
		if _, ok := at[c]; !ok {
			return nil, fmt.Errorf("%s:1: missing column %s (not a jobs.csv written by schedlab run)", path, c)
		}
	}
	numCols := []struct {
		name     string
		dst      *[]float64
		optional bool
	}{{"job_id", &j.id, false}, {"submission_time", &j.submit, false}, {"requested_number_of_resources", &j.procs, false},
		{"requested_time", &j.req, true}, {"starting_time", &j.start, false}, {"finish_time", &j.finish, false}}
	isNum := map[string]bool{"allocated_resources": true}
	for _, c := range numCols {
		isNum[c.name] = true
	}
	for _, h := range j.header {
		if !isNum[h] && !derived[h] {
			j.textCols = append(j.textCols, h)
		}
	}
	j.ivOff = []int32{0}
	for n := 0; ; n++ {
		row, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(path, err)
		}
		if n >= limit {
			return nil, fmt.Errorf("%s: more than %d jobs (%s)", path, limit, why)
		}
		cellErr := func(col, what string) error {
			line, _ := cr.FieldPos(at[col])
			return fmt.Errorf("%s:%d: column %s: %s %q", path, line, col, what, cut(row[at[col]]))
		}
		for _, c := range numCols {
			s := row[at[c.name]]
			if s == "" && c.optional {
				*c.dst = append(*c.dst, -1)
				continue
			}
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || (c.optional && v < 0) {
				return nil, cellErr(c.name, "invalid number")
			}
			*c.dst = append(*c.dst, v)
		}
		k := len(j.id) - 1
		if j.procs[k] < 0 || j.procs[k] != math.Trunc(j.procs[k]) {
			return nil, cellErr("requested_number_of_resources", "not a count")
		}
		if j.start[k] < j.submit[k] || j.finish[k] < j.start[k] {
			return nil, cellErr("starting_time", "not submit <= start <= finish:")
		}
		if s := row[at["allocated_resources"]]; s != "" {
			ivs, err := validate.ParseResources(s)
			if err != nil {
				line, _ := cr.FieldPos(at["allocated_resources"])
				return nil, fmt.Errorf("%s:%d: column allocated_resources: %q: %v", path, line, cut(s), err)
			}
			if last := ivs[len(ivs)-1].Hi; last >= m.cpus {
				line, _ := cr.FieldPos(at["allocated_resources"])
				return nil, fmt.Errorf("%s:%d: column allocated_resources: %q: CPU %d is beyond the machine (%d CPUs: %s)", path, line, cut(s), last, m.cpus, m.what)
			}
			for _, iv := range ivs {
				j.ivLo = append(j.ivLo, int32(iv.Lo))
				j.ivHi = append(j.ivHi, int32(iv.Hi))
				j.maxCPU = max(j.maxCPU, iv.Hi)
			}
		}
		j.ivOff = append(j.ivOff, int32(len(j.ivLo)))
		for _, c := range j.textCols {
			j.text[c] = append(j.text[c], row[at[c]])
		}
	}
	if len(j.ivLo) > math.MaxInt32 {
		return nil, fmt.Errorf("%s: too many CPU intervals", path)
	}
	return j, nil
}

func cut(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

func csvErr(path string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s:%d: %v", path, pe.Line, pe.Err)
	}
	return fmt.Errorf("%s: %v", path, err)
}

// readRun reads a run folder.
func readRun(dir string) (*runPage, error) {
	return readRunMax(dir, MaxJobs, "the report's limit")
}

// readRunMax is readRun with a limit on the rows of jobs.csv.
func readRunMax(dir string, limit int, why string) (*runPage, error) {
	sumPath := filepath.Join(dir, "summary.json")
	rows, nums, err := readSummary(sumPath)
	if err != nil {
		return nil, err
	}
	// The counts the page relies on must be counts: a number that is not
	// one (1e999, -3, 2.5) is refused, not skipped.
	for _, c := range []struct {
		key      string
		min, max float64
	}{{"jobs", 0, 1 << 53}, {"procs", 1, platform.MaxCPUs}} {
		if n, ok := nums[c.key]; ok && !(n >= c.min && n <= c.max && n == math.Trunc(n)) {
			return nil, fmt.Errorf("%s: %s: %s is not a count in %.0f..%.0f", sumPath, c.key, get(rows, c.key), c.min, c.max)
		}
	}
	if t, ok := nums["bounded_slowdown_tau"]; ok && !(t >= 0 && t <= math.MaxFloat64) {
		return nil, fmt.Errorf("%s: bounded_slowdown_tau: %s is not a finite number >= 0", sumPath, get(rows, "bounded_slowdown_tau"))
	}
	m := machine{platform.MaxCPUs, "the largest machine schedlab simulates; " + sumPath + " gives no procs"}
	if p, ok := nums["procs"]; ok {
		m = machine{int(p), "procs in " + sumPath}
	}
	parts, err := readPartitions(sumPath, m)
	if err != nil {
		return nil, err
	}
	if parts != nil {
		for i := range rows {
			if rows[i].Key == partitionsKey || rows[i].Key == "partitions" {
				rows[i].Value = partitionsText(parts)
			}
		}
	}
	groups := readGroups(sumPath)
	if groups != nil {
		for i := range rows {
			if rows[i].Key == groupsKey {
				rows[i].Value = groups.text()
			}
		}
	}
	jobsPath := filepath.Join(dir, "jobs.csv")
	j, err := readJobsMax(jobsPath, limit, why, m)
	if err != nil {
		return nil, err
	}
	nr, err := readNodes(sumPath, jobsPath, j)
	if err != nil {
		return nil, err
	}
	if n, ok := nums["jobs"]; ok && int(n) != len(j.id) {
		return nil, fmt.Errorf("%s: %d job rows, but %s says jobs: %d (is jobs.csv truncated?)", jobsPath, len(j.id), sumPath, int(n))
	}
	tau := 10.0
	if t, ok := nums["bounded_slowdown_tau"]; ok && t > 0 {
		tau = t
	}
	procs := j.maxCPU + 1
	if p, ok := nums["procs"]; ok && int(p) > procs {
		procs = int(p)
	}
	if len(j.ivLo) == 0 {
		procs = 0
		for _, p := range j.procs {
			procs = max(procs, int(p))
		}
	}
	spans, err := readSpans(filepath.Join(dir, "unavailability.csv"), m)
	if err != nil {
		return nil, err
	}
	planned, err := readPlanned(filepath.Join(dir, "planned.csv"), j)
	if err != nil {
		return nil, err
	}
	power, err := readPower(filepath.Join(dir, "energy.csv"))
	if err != nil {
		return nil, err
	}
	var pcap *capSpec
	if power != nil {
		if pcap, err = readCap(sumPath); err != nil {
			return nil, err
		}
	}
	title := filepath.Base(filepath.Clean(dir))
	if tr, po := get(rows, "run.trace"), get(rows, "run.policy"); tr != "" && po != "" {
		title = tr + " · " + po
	}
	return &runPage{Title: title, Summary: rows, jobs: j, procs: procs, tau: tau, trace: get(rows, "run.trace"), policy: get(rows, "run.policy"), nums: nums, spans: spans, planned: planned, nodes: nr, partitions: parts, groups: groups, power: power, pcap: pcap}, nil
}

// readPlanned reads the run's planned.csv (run --planned: every
// reservation a backfilling policy made or moved) into, for each job
// that held one, the last planned start recorded at or before its start;
// nil without the file. A job not in jobs.csv is an error naming the
// line.
func readPlanned(path string, j *runJobs) (map[float64]float64, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	t, err := readTable(path, "job_id", "time", "planned_start")
	if err != nil {
		return nil, err
	}
	start := make(map[float64]float64, len(j.id))
	for i, id := range j.id {
		start[id] = j.start[i]
	}
	out := map[float64]float64{}
	for i := range t.rows {
		var id, at, ps float64
		if id, err = t.num(i, "job_id", false); err != nil {
			return nil, err
		}
		if at, err = t.num(i, "time", false); err != nil {
			return nil, err
		}
		if ps, err = t.num(i, "planned_start", false); err != nil {
			return nil, err
		}
		st, ok := start[id]
		if !ok {
			return nil, fmt.Errorf("%s:%d: job %s is not in jobs.csv", path, t.line[i], num(id))
		}
		if at <= st {
			out[id] = ps
		}
	}
	return out, nil
}

// MaxSpans bounds the rectangles of unavailable CPUs a run page draws
// (spans x CPU intervals of unavailability.csv).
const MaxSpans = 1_000_000

// readSpans reads the run's unavailability.csv (docs/availability.md)
// into rectangles; nil when the run has none.
func readSpans(path string, m machine) (*spanData, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Every row is at least one rectangle: no more than MaxSpans rows
	// are read (the file of a run may hold up to engine.MaxSpans).
	spans, err := validate.ReadUnavailabilityCSVLimit(f, path, MaxSpans, "htmlreport.MaxSpans")
	if err != nil {
		return nil, err
	}
	d := &spanData{}
	for i, s := range spans {
		kind := 0
		if s.Kind == "down" {
			kind = 1
		}
		for _, iv := range s.CPUs {
			if iv.Hi >= m.cpus {
				return nil, fmt.Errorf("%s: span %d: CPU %d is not on the machine (%d CPUs: %s)", path, i+1, iv.Hi, m.cpus, m.what)
			}
			if len(d.Kind) == MaxSpans {
				return nil, fmt.Errorf("%s: more than %d CPU intervals of spans; the report draws at most %d", path, MaxSpans, MaxSpans)
			}
			d.Kind, d.Start, d.End = append(d.Kind, kind), append(d.Start, s.Start), append(d.End, s.End)
			d.Lo, d.Hi = append(d.Lo, iv.Lo), append(d.Hi, iv.Hi)
		}
	}
	return d, nil
}

// get is the value of key k in the summary rows ("" if absent).
func get(rows []kv, k string) string {
	for _, r := range rows {
		if r.Key == k {
			return r.Value
		}
	}
	return ""
}

// runPage is what the template of a run needs.
type runPage struct {
	Title   string
	Summary []kv
	jobs    *runJobs
	procs   int
	tau     float64
	trace   string              // run.trace of summary.json ("" when absent)
	policy  string              // run.policy of summary.json ("" when absent)
	label   string              // a comparison's name for the run ("": the policy)
	nums    map[string]float64  // the numbers of summary.json, by dotted key
	noGantt bool                // Options.NoGantt
	spans   *spanData           // unavailability.csv (nil: none)
	planned map[float64]float64 // planned.csv: a job's last planned start (nil: none)
	clock   *Clock              // Options.Clock
	nodes   *nodeRun            // a run on nodes (nil: a pool of CPUs)
	// partitions are summary.json's run.partitions.list (nil: none).
	partitions []partition
	// groups are summary.json's metrics_by (nil: none).
	groups *groupTable
	// window is Options.Window (nil: the whole run); windowAll the jobs
	// of the whole run.
	window    *Window
	windowAll int
	// power is energy.csv (nil: none), pcap summary.json's energy.cap
	// (nil: none).
	power []powerRow
	pcap  *capSpec
}
