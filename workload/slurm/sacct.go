package slurm

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload/swf"
)

// MaxLine bounds a line of sacct output, and MaxJobs the jobs of one
// import (they are held in memory to be sorted by submit time).
const (
	MaxLine = 1 << 20
	MaxJobs = 10_000_000
)

// Options tune an import.
type Options struct {
	// Steps keeps job steps (ids with a '.': 123.batch, 123.0) as jobs of
	// their own; by default they are left out (the job's own line
	// already covers its allocation).
	Steps bool
	// Location is the time zone sacct printed its times in (sacct writes
	// local times without a zone); nil means UTC.
	Location *time.Location
}

// Result is an import: the SWF header and records, and what was kept
// and left out.
type Result struct {
	Header  swf.Header
	Records []swf.Record
	// Skipped counts the lines left out, by reason.
	Skipped map[string]int64
	// Users, Groups, Partitions and QOS are the names behind the integer
	// ids of the records (id i is name [i-1]).
	Users, Groups, Partitions, QOS []string
	// Renumbered: the job ids were not unique integers (no JobIDRaw, and
	// array or heterogeneous ids), so jobs are numbered 1..N in submit
	// order.
	Renumbered bool
}

// ParseError is a problem at one line and column of the input.
type ParseError struct {
	File   string
	Line   int
	Column string // "" for the line as a whole
	Err    error
}

func (e *ParseError) Error() string {
	if e.Column == "" {
		return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
	}
	return fmt.Sprintf("%s:%d: column %s: %v", e.File, e.Line, e.Column, e.Err)
}

func (e *ParseError) Unwrap() error { return e.Err }

// columns are the sacct columns the import reads (lower case).
type columns struct {
	idx   map[string]int
	n     int
	names []string
}

func (c columns) has(name string) bool { _, ok := c.idx[strings.ToLower(name)]; return ok }

func (c columns) get(row []string, name string) string {
	if i, ok := c.idx[strings.ToLower(name)]; ok {
		return strings.TrimSpace(row[i])
	}
	return ""
}

// first is the first of the named columns the header has.
func (c columns) first(names ...string) string {
	for _, n := range names {
		if c.has(n) {
			return n
		}
	}
	return ""
}

type job struct {
	id     int64
	hasID  bool
	rec    swf.Record
	submit int64 // epoch seconds
}

// collected is what a reader gathers before the jobs are sorted and
// numbered.
type collected struct {
	res                       *Result
	users, groups, parts, qos *names
	jobs                      []job
}

func newCollected() *collected {
	return &collected{res: &Result{Skipped: map[string]int64{}}, users: newNames(), groups: newNames(), parts: newNames(), qos: newNames()}
}

// add keeps job j with its names.
func (c *collected) add(j job, user, group, partition, qos string) {
	j.rec.User = c.users.id(user)
	j.rec.Group = c.groups.id(group)
	j.rec.Partition = c.parts.id(partition)
	j.rec.Queue = c.qos.id(qos)
	c.jobs = append(c.jobs, j)
}

// ReadSacct reads sacct output from r: `sacct --parsable2` (or -P) with
// its header line, or `sacct --json` (found by the content: a JSON
// object); name is the file's name for messages.
func ReadSacct(r io.Reader, name string, o Options) (*Result, error) {
	loc := o.Location
	if loc == nil {
		loc = time.UTC
	}
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		b, err := br.Peek(1)
		if err != nil || (b[0] != ' ' && b[0] != '\t' && b[0] != '\r' && b[0] != '\n') {
			if err == nil && b[0] == '{' {
				return readJSON(br, name, o, loc)
			}
			break
		}
		br.ReadByte()
	}
	return readParsable(br, name, o, loc)
}

// readParsable reads `sacct --parsable2` output.
func readParsable(r io.Reader, name string, o Options, loc *time.Location) (*Result, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	line := 0
	var cols columns
	c := newCollected()
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			continue
		}
		if cols.idx == nil {
			var err error
			if cols, err = header(text); err != nil {
				return nil, &ParseError{File: name, Line: line, Err: err}
			}
			continue
		}
		row, err := split(text, cols)
		if err != nil {
			return nil, &ParseError{File: name, Line: line, Err: err}
		}
		j, why, err := parseRow(row, cols, loc, o)
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				pe.File, pe.Line = name, line
				return nil, pe
			}
			return nil, &ParseError{File: name, Line: line, Err: err}
		}
		if why != "" {
			c.res.Skipped[why]++
			continue
		}
		if len(c.jobs) >= MaxJobs {
			return nil, &ParseError{File: name, Line: line, Err: fmt.Errorf("more than %d jobs (slurm.MaxJobs): import the history in parts", MaxJobs)}
		}
		c.add(j, cols.get(row, "User"), cols.get(row, "Group"), cols.get(row, "Partition"), cols.get(row, "QOS"))
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{File: name, Line: line + 1, Err: fmt.Errorf("line longer than %d bytes", MaxLine)}
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if cols.idx == nil {
		return nil, fmt.Errorf("%s: empty: want the output of sacct --parsable2 with its header line, or of sacct --json", name)
	}
	return c.finish(name, loc)
}

// finish sorts the jobs by submit time and numbers them.
func (c *collected) finish(name string, loc *time.Location) (*Result, error) {
	res, jobs := c.res, c.jobs
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s: no finished job to import (%s)", name, skippedText(res.Skipped))
	}
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].submit < jobs[b].submit })
	t0 := jobs[0].submit
	useIDs := true
	seen := map[int64]bool{}
	for _, j := range jobs {
		if !j.hasID || seen[j.id] {
			useIDs = false
			break
		}
		seen[j.id] = true
	}
	for i := range jobs {
		rec := jobs[i].rec
		rec.Submit = float64(jobs[i].submit - t0)
		if useIDs {
			rec.JobNumber = jobs[i].id
		} else {
			rec.JobNumber = int64(i + 1)
		}
		res.Records = append(res.Records, rec)
	}
	res.Users, res.Groups, res.Partitions, res.QOS = c.users.list, c.groups.list, c.parts.list, c.qos.list
	res.Header = swf.Header{Version: "2.2", UnixStartTime: t0, TimeZoneString: loc.String(), MaxJobs: int64(len(jobs)), MaxRecords: int64(len(jobs))}
	res.Renumbered = !useIDs
	return res, nil
}

// header reads the column names.
func header(text string) (columns, error) {
	names := strings.Split(text, "|")
	c := columns{idx: map[string]int{}, n: len(names), names: names}
	for i, n := range names {
		c.idx[strings.ToLower(strings.TrimSpace(n))] = i
	}
	var missing []string
	need := [][]string{{"JobIDRaw", "JobID"}, {"Submit"}, {"Start"}, {"End", "Elapsed"}, {"Timelimit"}, {"NCPUS", "AllocCPUS", "ReqCPUS"}, {"State"}}
	for _, alts := range need {
		if c.first(alts...) == "" {
			missing = append(missing, strings.Join(alts, " or "))
		}
	}
	if len(missing) > 0 {
		return columns{}, fmt.Errorf("the header line lacks the column(s) %s (have: %s); export with sacct --parsable2 --format=JobIDRaw,JobID,Submit,Start,End,Elapsed,Timelimit,NCPUS,ReqCPUS,ReqMem,State,User,Group,Partition,QOS,JobName",
			strings.Join(missing, ", "), strings.Join(names, ", "))
	}
	return c, nil
}

// split splits a line into the header's columns; extra '|' can only be
// inside JobName, whose column absorbs them.
func split(text string, c columns) ([]string, error) {
	f := strings.Split(text, "|")
	switch {
	case len(f) == c.n:
		return f, nil
	case len(f) < c.n:
		return nil, fmt.Errorf("%d fields, the header has %d", len(f), c.n)
	}
	i, ok := c.idx["jobname"]
	if !ok {
		return nil, fmt.Errorf("%d fields, the header has %d (and no JobName column that could hold a '|')", len(f), c.n)
	}
	extra := len(f) - c.n
	row := append([]string(nil), f[:i]...)
	row = append(row, strings.Join(f[i:i+extra+1], "|"))
	return append(row, f[i+extra+1:]...), nil
}

// parseRow turns one line into a job, or says why it is left out.
func parseRow(row []string, c columns, loc *time.Location, o Options) (job, string, error) {
	var j job
	idText := c.get(row, c.first("JobIDRaw", "JobID"))
	if strings.Contains(idText, ".") && !o.Steps {
		return j, "job steps (.batch, .extern, .N; --steps keeps them)", nil
	}
	if n, err := strconv.ParseInt(idText, 10, 64); err == nil && n >= 0 {
		j.id, j.hasID = n, true
	}
	state := strings.ToUpper(strings.Fields(c.get(row, "State") + " ?")[0])
	if unfinished[state] {
		return j, "not finished (" + strings.ToLower(state) + ")", nil
	}
	status, ok := statuses[state]
	if !ok {
		return j, "", &ParseError{Column: "State", Err: fmt.Errorf("unknown state %q", c.get(row, "State"))}
	}
	submit, ok, err := parseTime(c.get(row, "Submit"), loc)
	if err != nil {
		return j, "", &ParseError{Column: "Submit", Err: err}
	}
	if !ok {
		return j, "no submit time", nil
	}
	start, okS, err := parseTime(c.get(row, "Start"), loc)
	if err != nil {
		return j, "", &ParseError{Column: "Start", Err: err}
	}
	if !okS {
		return j, "never started (cancelled while waiting)", nil
	}
	var run float64 = -1
	if c.has("End") {
		end, okE, err := parseTime(c.get(row, "End"), loc)
		if err != nil {
			return j, "", &ParseError{Column: "End", Err: err}
		}
		if okE {
			run = float64(end - start)
		}
	}
	if run < 0 && c.has("Elapsed") {
		e, err := parseDuration(c.get(row, "Elapsed"), false)
		if err != nil {
			return j, "", &ParseError{Column: "Elapsed", Err: err}
		}
		run = e
	}
	if run < 0 {
		return j, "no end time or elapsed time", nil
	}
	limit := -1.0
	if tl := c.get(row, "Timelimit"); tl != "" && !strings.EqualFold(tl, "UNLIMITED") && !strings.EqualFold(tl, "Partition_Limit") {
		if limit, err = parseDuration(tl, true); err != nil {
			return j, "", &ParseError{Column: "Timelimit", Err: err}
		}
	}
	for _, c := range []struct {
		col string
		v   float64
	}{{"Timelimit", limit}, {"End", run}} {
		if c.v > swf.MaxSeconds {
			return j, "", &ParseError{Column: c.col, Err: fmt.Errorf("%.0f seconds is more than an SWF time holds (%g, swf.MaxSeconds)", c.v, float64(swf.MaxSeconds))}
		}
	}
	if state == "TIMEOUT" && limit >= 0 && run > limit {
		run = limit // killed at its limit (the grace time is not the job's)
	}
	cpus := 0
	for _, name := range []string{"NCPUS", "AllocCPUS", "ReqCPUS"} {
		if v := c.get(row, name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return j, "", &ParseError{Column: name, Err: fmt.Errorf("%q is not a CPU count", v)}
			}
			if n > platform.MaxCPUs {
				return j, "", &ParseError{Column: name, Err: fmt.Errorf("%d CPUs: more than a machine may have (%d, platform.MaxCPUs)", n, platform.MaxCPUs)}
			}
			if n > 0 {
				cpus = n
				break
			}
		}
	}
	if cpus == 0 {
		return j, "no CPU count", nil
	}
	reqCPUs := cpus
	if v := c.get(row, "ReqCPUS"); v != "" {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			reqCPUs = n
		}
	}
	mem := -1.0
	if v := c.get(row, "ReqMem"); v != "" {
		if mem, err = parseMem(v, cpus); err != nil {
			return j, "", &ParseError{Column: "ReqMem", Err: err}
		}
	}
	j.submit = submit
	j.rec = swf.Record{Wait: float64(start - submit), Run: run, AllocProcs: cpus, AvgCPU: -1, UsedMem: -1,
		ReqProcs: reqCPUs, ReqTime: limit, ReqMem: mem, Status: status, Exec: -1, PrecedingJob: -1, ThinkTime: -1}
	if j.rec.Wait < 0 {
		return j, "", &ParseError{Column: "Start", Err: fmt.Errorf("start %s is before submit %s", c.get(row, "Start"), c.get(row, "Submit"))}
	}
	return j, "", nil
}

// unfinished are the states of jobs that have not ended.
var unfinished = map[string]bool{
	"PENDING": true, "RUNNING": true, "REQUEUED": true, "RESIZING": true, "SUSPENDED": true,
	"REQUEUE_HOLD": true, "REQUEUE_FED": true, "CONFIGURING": true, "COMPLETING": true,
}

// statuses maps the final Slurm states to SWF status.
var statuses = map[string]int{
	"COMPLETED": 1, "TIMEOUT": 1,
	"FAILED": 0, "NODE_FAIL": 0, "OUT_OF_MEMORY": 0, "BOOT_FAIL": 0, "DEADLINE": 0,
	"CANCELLED": 5, "PREEMPTED": 5, "REVOKED": 5,
}

// parseTime reads sacct's time (2024-01-15T10:00:00, local) in loc: ok
// false for Unknown, None or an empty field.
func parseTime(s string, loc *time.Location) (int64, bool, error) {
	switch strings.ToLower(s) {
	case "", "unknown", "none", "n/a":
		return 0, false, nil
	}
	t, err := time.ParseInLocation("2006-01-02T15:04:05", s, loc)
	if err != nil {
		return 0, false, fmt.Errorf("%q is not a time (want YYYY-MM-DDTHH:MM:SS)", s)
	}
	return t.Unix(), true, nil
}

// parseDuration reads [D-]HH:MM:SS, HH:MM:SS, MM:SS, or (a limit) a
// bare number of minutes, into seconds.
func parseDuration(s string, limit bool) (float64, error) {
	days := 0
	rest := s
	if d, r, ok := strings.Cut(s, "-"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("%q is not a duration ([D-]HH:MM:SS)", s)
		}
		days, rest = n, r
	}
	parts := strings.Split(rest, ":")
	var nums []float64
	for _, p := range parts {
		x, err := strconv.ParseFloat(p, 64)
		if err != nil || x < 0 || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%q is not a duration ([D-]HH:MM:SS)", s)
		}
		nums = append(nums, x)
	}
	var sec float64
	switch len(nums) {
	case 1:
		if !limit && days == 0 {
			return 0, fmt.Errorf("%q is not a duration ([D-]HH:MM:SS)", s)
		}
		if days > 0 {
			sec = nums[0] * 3600 // D-HH
		} else {
			sec = nums[0] * 60 // minutes
		}
	case 2:
		if days > 0 {
			sec = nums[0]*3600 + nums[1]*60 // D-HH:MM
		} else {
			sec = nums[0]*60 + nums[1] // MM:SS
		}
	case 3:
		sec = nums[0]*3600 + nums[1]*60 + nums[2]
	default:
		return 0, fmt.Errorf("%q is not a duration ([D-]HH:MM:SS)", s)
	}
	return float64(days)*86400 + sec, nil
}

// parseMem reads ReqMem (4000M, 4G, 500Mc per CPU, 4Gn per node) into KB
// per CPU; memory per node is divided by the job's CPUs (the job is taken
// to be on one node). 0 or an empty value is unknown (-1).
func parseMem(s string, cpus int) (float64, error) {
	t := strings.TrimSpace(s)
	perCPU := false
	switch {
	case strings.HasSuffix(t, "c"):
		perCPU, t = true, strings.TrimSuffix(t, "c")
	case strings.HasSuffix(t, "n"):
		t = strings.TrimSuffix(t, "n")
	}
	unit := 1024.0 // MB by default
	if t != "" {
		switch t[len(t)-1] {
		case 'K', 'k':
			unit, t = 1, t[:len(t)-1]
		case 'M', 'm':
			unit, t = 1024, t[:len(t)-1]
		case 'G', 'g':
			unit, t = 1024*1024, t[:len(t)-1]
		case 'T', 't':
			unit, t = 1024*1024*1024, t[:len(t)-1]
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || x < 0 || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%q is not a memory size (e.g. 4000M, 4G, 500Mc)", s)
	}
	if x == 0 {
		return -1, nil
	}
	kb := x * unit
	if !perCPU {
		kb /= float64(cpus)
	}
	return kb, nil
}

// names numbers distinct names 1, 2, ... in order of appearance; "" is -1.
type names struct {
	id_  map[string]int
	list []string
}

func newNames() *names { return &names{id_: map[string]int{}} }

func (n *names) id(s string) int {
	if s == "" {
		return -1
	}
	if i, ok := n.id_[s]; ok {
		return i
	}
	n.list = append(n.list, s)
	n.id_[s] = len(n.list)
	return len(n.list)
}

// skippedText lists the reasons and counts, sorted.
func skippedText(m map[string]int64) string {
	if len(m) == 0 {
		return "no line"
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
	}
	return "left out: " + strings.Join(parts, ", ")
}

// SkippedText describes what an import left out, by reason.
func (r *Result) SkippedText() string { return skippedText(r.Skipped) }

// WriteSWF writes the import as an SWF file: a header with the typed
// fields (MaxProcs when maxProcs > 0), a note on where it comes from, the
// name of every user and group id ("; User 1: alice"), the QOS as the
// queues (field 15: MaxQueues and "; Queue: 1 normal") and the
// partitions (field 16: MaxPartitions and "; Partition: 1 batch"), then
// the records.
func (r *Result) WriteSWF(w io.Writer, maxProcs int, source string) error {
	h := r.Header
	h.MaxProcs = maxProcs
	lines := []string{
		" Version: " + h.Version,
		" Note: imported from Slurm accounting (sacct output) " + clean(source) + " by schedlab trace import",
		" Note: field 15 (queue) is the QOS, field 16 the partition; ids are listed below",
		fmt.Sprintf(" MaxJobs: %d", h.MaxJobs),
		fmt.Sprintf(" MaxRecords: %d", h.MaxRecords),
		fmt.Sprintf(" UnixStartTime: %d", h.UnixStartTime),
		" TimeZoneString: " + h.TimeZoneString,
	}
	if maxProcs > 0 {
		lines = append(lines, fmt.Sprintf(" MaxProcs: %d", maxProcs))
	}
	if r.Renumbered {
		lines = append(lines, " Note: the job ids were not unique integers; jobs are numbered 1..N in submit order")
	}
	for _, t := range []struct {
		what  string
		names []string
	}{{"User", r.Users}, {"Group", r.Groups}} {
		for i, n := range t.names {
			lines = append(lines, fmt.Sprintf(" %s %d: %s", t.what, i+1, clean(n)))
		}
	}
	// Queues (the QOS) and partitions in the SWF's own form, which
	// readers parse (swf.Header.QueueNames, PartitionNames).
	for _, t := range []struct {
		what  string
		names []string
	}{{"Queue", r.QOS}, {"Partition", r.Partitions}} {
		if len(t.names) == 0 {
			continue
		}
		lines = append(lines, fmt.Sprintf(" Max%ss: %d", t.what, len(t.names)))
		for i, n := range t.names {
			lines = append(lines, fmt.Sprintf(" %s: %d %s", t.what, i+1, clean(n)))
		}
	}
	h.Lines = lines
	sw := swf.NewWriter(w)
	if err := sw.WriteHeader(h); err != nil {
		return err
	}
	for _, rec := range r.Records {
		if err := sw.Write(rec); err != nil {
			return fmt.Errorf("job %d: %w", rec.JobNumber, err)
		}
	}
	return sw.Flush()
}

// clean keeps a name on one header line.
func clean(s string) string { return strings.NewReplacer("\n", " ", "\r", " ").Replace(s) }
