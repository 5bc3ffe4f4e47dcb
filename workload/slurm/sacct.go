package slurm

import (
	"bufio"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/jobtable"
	"github.com/schedlab/schedlab/workload/swf"
)

// MaxLine bounds a line of sacct output, and MaxJobs the jobs of one
// import (they are held in memory to be sorted by submit time, in about
// 106 bytes a job, the request's fields included: 10 M jobs in about
// 1.1 GB of heap).
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
// and left out. The records are held compactly (Len, Record, Records).
type Result struct {
	Header swf.Header
	// Skipped counts the lines left out, by reason.
	Skipped map[string]int64
	// Users, Groups, Partitions and QOS are the names behind the integer
	// ids of the records (id i is name [i-1]).
	Users, Groups, Partitions, QOS []string
	// Renumbered: the job ids were not unique integers, so jobs are
	// numbered 1..N in submit order; RenumberedWhy says why (an id that
	// is not an integer, or one that appears twice).
	Renumbered    bool
	RenumberedWhy string
	// Ambiguous counts the jobs with a local time in an hour repeated
	// when daylight saving time ends that neither the order Submit <=
	// Start <= End nor Elapsed settled (the shortest wait was taken).
	Ambiguous int64

	// HasRequests: the export has a column of what jobs ask of nodes
	// (NNodes, ReqNodes, ReqTRES, AllocTRES, Constraints; the JSON
	// equivalents), so that Request says more than the CPUs.
	HasRequests bool
	// Unread counts the jobs of which something of the request was left
	// out (Request), by reason.
	Unread map[string]int64

	jobs        *jobList
	order       []uint32 // the jobs in submit order
	t0          int64
	gres        [][]nodes.GRES // the distinct GRES lists
	constraints []string
	slurmIDs    map[uint32]string // collected.slurmIDs
}

// Len is the number of records.
func (r *Result) Len() int { return len(r.order) }

// Record is record i (0 <= i < Len()), in submit order.
func (r *Result) Record(i int) swf.Record {
	j := r.jobs.at(int(r.order[i]))
	rec := swf.Record{Submit: float64(j.submit - r.t0), Wait: float64(j.wait), Run: j.run, AllocProcs: int(j.cpus), AvgCPU: -1, UsedMem: -1,
		ReqProcs: int(j.reqCPUs), ReqTime: j.limit, ReqMem: j.mem, Status: int(j.status), User: int(j.user), Group: int(j.group),
		Exec: -1, Queue: int(j.qos), Partition: int(j.part), PrecedingJob: -1, ThinkTime: -1}
	if r.Renumbered {
		rec.JobNumber = int64(i + 1)
	} else {
		rec.JobNumber = j.id
	}
	return rec
}

// Records returns all the records (Len of them, built at once: for a
// large import use Record).
func (r *Result) Records() []swf.Record {
	recs := make([]swf.Record, r.Len())
	for i := range recs {
		recs[i] = r.Record(i)
	}
	return recs
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

// job is what an import keeps of a job: the fields the SWF record needs
// and those of its request (Result.Request), in 96 bytes.
type job struct {
	id, submit, wait       int64 // submit in epoch seconds
	run, limit, mem        float64
	cpus, reqCPUs          int32
	user, group, part, qos int32
	nnodes, reqNodes       int32 // 0 unknown
	reqMemMB               int32 // per node, or per CPU if memPerCPU; 0 none
	gres, constraint       int32 // 1-based ids in Result.gres, constraints; 0 none
	status                 int8
	hasID                  bool
	ambiguous              bool // a local time the order did not settle
	memPerCPU              bool
}

// jobList holds the jobs in chunks, so that it grows without copying.
type jobList struct {
	chunks [][]job
	n      int
}

const chunkBits = 14

func (l *jobList) add(j job) {
	if l.n>>chunkBits == len(l.chunks) {
		l.chunks = append(l.chunks, make([]job, 0, 1<<chunkBits))
	}
	k := len(l.chunks) - 1
	l.chunks[k] = append(l.chunks[k], j)
	l.n++
}

func (l *jobList) at(i int) *job { return &l.chunks[i>>chunkBits][i&(1<<chunkBits-1)] }

// collected is what a reader gathers before the jobs are sorted and
// numbered.
type collected struct {
	res                       *Result
	users, groups, parts, qos *names
	gres, constraints         *names // GRES lists by their text
	jobs                      jobList
	badID                     string // the first job id that is not an integer
	noRaw                     bool   // the -P header has no JobIDRaw column
	// slurmIDs are the JobID texts of array tasks and heterogeneous
	// components (101_1, 104+0), by index in jobs, when they differ from
	// the JobIDRaw the job is numbered by.
	slurmIDs map[uint32]string
}

func newCollected() *collected {
	return &collected{res: &Result{Skipped: map[string]int64{}, Unread: map[string]int64{}}, users: newNames(), groups: newNames(), parts: newNames(),
		qos: newNames(), gres: newNames(), constraints: newNames()}
}

// add keeps job j with its names and request; idText is its id as read.
func (c *collected) add(j job, info reqInfo, idText, slurmID, user, group, partition, qos string) {
	if slurmID != "" && slurmID != idText && strings.ContainsAny(slurmID, "_+") {
		if c.slurmIDs == nil {
			c.slurmIDs = map[uint32]string{}
		}
		c.slurmIDs[uint32(c.jobs.n)] = strings.Clone(slurmID)
	}
	if len(info.gres) > 0 {
		text := jobtable.FormatGRES(info.gres)
		n := len(c.gres.list)
		j.gres = int32(c.gres.id(text))
		if len(c.gres.list) > n {
			c.res.gres = append(c.res.gres, info.gres)
		}
	}
	j.constraint = max(0, int32(c.constraints.id(info.constraint)))
	for _, u := range info.unread {
		c.res.Unread[u]++
	}
	j.user = int32(c.users.id(user))
	j.group = int32(c.groups.id(group))
	j.part = int32(c.parts.id(partition))
	j.qos = int32(c.qos.id(qos))
	if !j.hasID && c.badID == "" {
		c.badID = strings.Clone(idText)
	}
	if j.ambiguous {
		c.res.Ambiguous++
	}
	c.jobs.add(j)
}

// bom is the UTF-8 byte-order mark.
const bom = "\xef\xbb\xbf"

// ReadSacct reads sacct output from r: `sacct --parsable2` (or -P) with
// its header line, or `sacct --json` (found by the content: a JSON
// object), plain or gzip-compressed (found by its magic bytes); name is
// the file's name for messages. A file that starts with a UTF-8
// byte-order mark is refused, as the SWF reader refuses it.
func ReadSacct(r io.Reader, name string, o Options) (*Result, error) {
	loc := o.Location
	if loc == nil {
		loc = time.UTC
	}
	br := bufio.NewReaderSize(r, 64<<10)
	if b, _ := br.Peek(2); len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: not a valid gzip file: %w", name, err)
		}
		br = bufio.NewReaderSize(&gzipErrReader{gz}, 64<<10)
	}
	if b, _ := br.Peek(3); string(b) == bom {
		return nil, &ParseError{File: name, Line: 1, Err: errors.New("the file starts with a UTF-8 byte-order mark (BOM), which would hide the first column: sacct does not write one; remove the first 3 bytes")}
	}
	for {
		b, err := br.Peek(1)
		if err != nil || (b[0] != ' ' && b[0] != '\t' && b[0] != '\r' && b[0] != '\n') {
			if err == nil && b[0] == '{' {
				return readJSON(br, name, o, loc)
			}
			if err != nil && err != io.EOF {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			break
		}
		br.ReadByte()
	}
	return readParsable(br, name, o, loc)
}

// gzipErrReader says that a read error comes from the gzip stream.
type gzipErrReader struct{ r io.Reader }

func (g *gzipErrReader) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	if err != nil && err != io.EOF {
		if err == io.ErrUnexpectedEOF {
			err = errors.New("ends early")
		}
		err = fmt.Errorf("gzip stream truncated or corrupt: %w", err)
	}
	return n, err
}

// readParsable reads `sacct --parsable2` output.
func readParsable(r io.Reader, name string, o Options, loc *time.Location) (*Result, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), MaxLine)
	line := 0
	var cols columns
	var idCol string
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
			idCol = cols.first("JobIDRaw", "JobID")
			c.noRaw = !cols.has("JobIDRaw")
			c.res.HasRequests = cols.first(requestColumns...) != ""
			continue
		}
		rows, err := split(text, cols)
		if err != nil {
			return nil, &ParseError{File: name, Line: line, Err: err}
		}
		row, j, info, why, err := parseRows(rows, cols, loc, o)
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
		if c.jobs.n >= MaxJobs {
			return nil, &ParseError{File: name, Line: line, Err: fmt.Errorf("more than %d jobs (slurm.MaxJobs): import the history in parts", MaxJobs)}
		}
		c.add(j, info, cols.get(row, idCol), cols.get(row, "JobID"), cols.get(row, "User"), cols.get(row, "Group"), cols.get(row, "Partition"), cols.get(row, "QOS"))
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

// finish sorts the jobs by submit time (ties in the order read) and
// numbers them.
func (c *collected) finish(name string, loc *time.Location) (*Result, error) {
	res, jobs := c.res, &c.jobs
	if jobs.n == 0 {
		return nil, fmt.Errorf("%s: no finished job to import (%s)", name, skippedText(res.Skipped))
	}
	order := make([]uint32, jobs.n)
	for i := range order {
		order[i] = uint32(i)
	}
	// The ids are used if they are all integers, and distinct.
	why := ""
	if c.badID != "" {
		why = fmt.Sprintf("job id %q is not an integer of 0 or more", c.badID)
		switch {
		case strings.Contains(c.badID, "."):
			why += " (a job step, kept by --steps)"
		case c.noRaw:
			why += " (no JobIDRaw column: the JobID of an array or heterogeneous job, 123_4 or 123+0, is not; export JobIDRaw too)"
		}
	} else {
		slices.SortFunc(order, func(a, b uint32) int { return cmp.Compare(jobs.at(int(a)).id, jobs.at(int(b)).id) })
		for i := 1; i < len(order); i++ {
			if id := jobs.at(int(order[i])).id; id == jobs.at(int(order[i-1])).id {
				why = fmt.Sprintf("job id %d appears more than once (as sacct --duplicates lists a requeued job, or an export of several clusters)", id)
				break
			}
		}
		for i := range order {
			order[i] = uint32(i)
		}
	}
	slices.SortFunc(order, func(a, b uint32) int {
		if c := cmp.Compare(jobs.at(int(a)).submit, jobs.at(int(b)).submit); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	res.jobs, res.order = jobs, order
	res.t0 = jobs.at(int(order[0])).submit
	res.Users, res.Groups, res.Partitions, res.QOS = c.users.list, c.groups.list, c.parts.list, c.qos.list
	res.constraints = c.constraints.list
	res.slurmIDs = c.slurmIDs
	res.Header = swf.Header{Version: "2.2", UnixStartTime: res.t0, TimeZoneString: loc.String(), MaxJobs: int64(jobs.n), MaxRecords: int64(jobs.n)}
	res.Renumbered, res.RenumberedWhy = why != "", why
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
	if len(missing) == len(need) && looksLikeJob(names) {
		return columns{}, fmt.Errorf("the first line is a job, not sacct's header line (its fields: %s): the import reads the columns' names from the header, which sacct --noheader leaves out; export again without --noheader: sacct --parsable2 --format=JobIDRaw,JobID,Submit,Start,End,Elapsed,Timelimit,NCPUS,ReqCPUS,ReqMem,State,User,Group,Partition,QOS,JobName",
			strings.Join(names[:min(len(names), 6)], "|")+map[bool]string{true: "|...", false: ""}[len(names) > 6])
	}
	if len(missing) > 0 {
		return columns{}, fmt.Errorf("the header line lacks the column(s) %s (have: %s); export with sacct --parsable2 --format=JobIDRaw,JobID,Submit,Start,End,Elapsed,Timelimit,NCPUS,ReqCPUS,ReqMem,State,User,Group,Partition,QOS,JobName",
			strings.Join(missing, ", "), strings.Join(names, ", "))
	}
	return c, nil
}

// split splits a line into the header's columns; extra '|' can only be
// inside JobName or Constraints (Slurm's OR, a|b), whose columns absorb
// them. With both columns, each way to share them out is a candidate,
// the most to Constraints first (parseRows takes the first that reads).
func split(text string, c columns) ([][]string, error) {
	f := strings.Split(text, "|")
	switch {
	case len(f) == c.n:
		return [][]string{f}, nil
	case len(f) < c.n:
		return nil, fmt.Errorf("%d fields, the header has %d", len(f), c.n)
	}
	extra := len(f) - c.n
	name, hasName := c.idx["jobname"]
	cons, hasCons := c.idx["constraints"]
	switch {
	case !hasName && !hasCons:
		return nil, fmt.Errorf("%d fields, the header has %d (and no JobName column, nor Constraints, that could hold a '|')", len(f), c.n)
	case !hasCons:
		return [][]string{absorb(f, name, extra)}, nil
	case !hasName:
		return [][]string{absorb(f, cons, extra)}, nil
	}
	var rows [][]string
	for k := extra; k >= 0 && len(rows) < maxSplits; k-- { // k extras to Constraints
		if cons > name {
			rows = append(rows, absorb(absorb(f, cons+extra-k, k), name, extra-k))
		} else {
			rows = append(rows, absorb(absorb(f, name+k, extra-k), cons, k))
		}
	}
	return rows, nil
}

// maxSplits bounds the ways split tries to share '|' out.
const maxSplits = 64

// parseRows parses the first candidate row that reads without error,
// else returns the first one's error.
func parseRows(rows [][]string, c columns, loc *time.Location, o Options) ([]string, job, reqInfo, string, error) {
	var first error
	for _, row := range rows {
		j, info, why, err := parseRow(row, c, loc, o)
		if err == nil {
			return row, j, info, why, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, job{}, reqInfo{}, "", first
}

// absorb joins fields i..i+k of f (k '|' that belong to field i).
func absorb(f []string, i, k int) []string {
	row := append([]string(nil), f[:i]...)
	row = append(row, strings.Join(f[i:i+k+1], "|"))
	return append(row, f[i+k+1:]...)
}

// maxJobID is the largest job id an SWF job number holds exactly (2^53).
const maxJobID = 1 << 53

// parseRow turns one line into a job, or says why it is left out.
func parseRow(row []string, c columns, loc *time.Location, o Options) (job, reqInfo, string, error) {
	var j job
	var info reqInfo
	idCol := c.first("JobIDRaw", "JobID")
	idText := c.get(row, idCol)
	if strings.Contains(idText, ".") && !o.Steps {
		return j, info, "job steps (.batch, .extern, .N; --steps keeps them)", nil
	}
	if n, err := strconv.ParseInt(idText, 10, 64); (err == nil && n > maxJobID) || errors.Is(err, strconv.ErrRange) && !strings.HasPrefix(idText, "-") {
		return j, info, "", &ParseError{Column: idCol, Err: fmt.Errorf("%s is more than an SWF job number holds (2^53)", idText)}
	} else if err == nil && n >= 0 {
		j.id, j.hasID = n, true
	}
	state := strings.ToUpper(strings.Fields(c.get(row, "State") + " ?")[0])
	if unfinished[state] {
		return j, info, "not finished (" + strings.ToLower(state) + ")", nil
	}
	status, ok := statuses[state]
	if !ok {
		return j, info, "", &ParseError{Column: "State", Err: fmt.Errorf("unknown state %q", c.get(row, "State"))}
	}
	submits, err := parseTime(c.get(row, "Submit"), loc)
	if err != nil {
		return j, info, "", &ParseError{Column: "Submit", Err: err}
	}
	if len(submits) == 0 {
		return j, info, "no submit time", nil
	}
	starts, err := parseTime(c.get(row, "Start"), loc)
	if err != nil {
		return j, info, "", &ParseError{Column: "Start", Err: err}
	}
	if len(starts) == 0 {
		return j, info, "never started (cancelled while waiting)", nil
	}
	var ends []int64
	if c.has("End") {
		if ends, err = parseTime(c.get(row, "End"), loc); err != nil {
			return j, info, "", &ParseError{Column: "End", Err: err}
		}
	}
	submit, start, end, ambiguous := submits[0], starts[0], int64(0), false
	if len(ends) > 0 {
		end = ends[0]
	}
	if len(submits) > 1 || len(starts) > 1 || len(ends) > 1 {
		elapsed := -1.0
		if c.has("Elapsed") {
			if e, err := parseDuration(c.get(row, "Elapsed"), false); err == nil {
				elapsed = e
			}
		}
		submit, start, end, ambiguous = resolveFold(submits, starts, ends, elapsed)
	}
	var run float64 = -1
	runCol := "End"
	if len(ends) > 0 {
		run = float64(end - start)
	}
	if run < 0 && c.has("Elapsed") {
		e, err := parseDuration(c.get(row, "Elapsed"), false)
		if err != nil {
			return j, info, "", &ParseError{Column: "Elapsed", Err: err}
		}
		run, runCol = e, "Elapsed"
	}
	if run < 0 {
		return j, info, "no end time or elapsed time", nil
	}
	limit := -1.0
	if tl := c.get(row, "Timelimit"); tl != "" && !strings.EqualFold(tl, "UNLIMITED") && !strings.EqualFold(tl, "Partition_Limit") {
		if limit, err = parseDuration(tl, true); err != nil {
			return j, info, "", &ParseError{Column: "Timelimit", Err: err}
		}
	}
	for _, c := range []struct {
		col string
		v   float64
	}{{"Timelimit", limit}, {runCol, run}} {
		if c.v > swf.MaxSeconds {
			return j, info, "", &ParseError{Column: c.col, Err: fmt.Errorf("%.0f seconds is more than an SWF time holds (%g, swf.MaxSeconds)", c.v, float64(swf.MaxSeconds))}
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
				return j, info, "", &ParseError{Column: name, Err: fmt.Errorf("%q is not a CPU count", v)}
			}
			if n > platform.MaxCPUs {
				return j, info, "", &ParseError{Column: name, Err: fmt.Errorf("%d CPUs: more than a machine may have (%d, platform.MaxCPUs)", n, platform.MaxCPUs)}
			}
			if n > 0 {
				cpus = n
				break
			}
		}
	}
	if cpus == 0 {
		return j, info, "no CPU count", nil
	}
	reqCPUs := cpus
	if v := c.get(row, "ReqCPUS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return j, info, "", &ParseError{Column: "ReqCPUS", Err: fmt.Errorf("%q is not a CPU count", v)}
		}
		if n > 0 {
			if n > platform.MaxCPUs {
				return j, info, "", &ParseError{Column: "ReqCPUS", Err: fmt.Errorf("%d CPUs: more than a machine may have (%d, platform.MaxCPUs)", n, platform.MaxCPUs)}
			}
			reqCPUs = n
		}
	}
	if info, err = readRequest(&j, row, c); err != nil {
		return j, info, "", err
	}
	nnodes := max(1, min(int(j.nnodes), cpus)) // a node holds at least one of the job's CPUs
	mem := -1.0
	if v := c.get(row, "ReqMem"); v != "" {
		if mem, err = parseMem(v, cpus, nnodes); err != nil {
			return j, info, "", &ParseError{Column: "ReqMem", Err: err}
		}
	}
	if start < submit {
		return j, info, "", &ParseError{Column: "Start", Err: fmt.Errorf("start %s is before submit %s", c.get(row, "Start"), c.get(row, "Submit"))}
	}
	j.submit, j.wait, j.run, j.limit, j.mem = submit, start-submit, run, limit, mem
	j.cpus, j.reqCPUs, j.status, j.ambiguous = int32(cpus), int32(reqCPUs), int8(status), ambiguous
	return j, info, "", nil
}

// resolveFold picks, for times of which some are ambiguous (in the hour
// repeated when daylight saving time ends: two instants each), the
// instants that keep Submit <= Start <= End, with End - Start equal to
// elapsed (when known, >= 0), and of those the shortest wait, then the
// shortest run, then the earliest. ambiguous says that more than one
// choice kept the order and Elapsed, and that the shortest wait decided.
// If no choice keeps Submit <= Start, the first instants come back (and
// the caller refuses the line).
func resolveFold(submits, starts, ends []int64, elapsed float64) (submit, start, end int64, ambiguous bool) {
	type choice struct {
		s, st, e         int64
		endBad, elapsBad bool
	}
	var best *choice
	better := func(a, b *choice) bool { // a before b
		if a.endBad != b.endBad {
			return !a.endBad
		}
		if a.elapsBad != b.elapsBad {
			return !a.elapsBad
		}
		if a.st-a.s != b.st-b.s {
			return a.st-a.s < b.st-b.s
		}
		if a.e-a.st != b.e-b.st {
			return a.e-a.st < b.e-b.st
		}
		return a.s < b.s
	}
	var all []choice
	noEnd := []int64{0}
	es := ends
	if len(es) == 0 {
		es = noEnd
	}
	for _, s := range submits {
		for _, st := range starts {
			if st < s {
				continue
			}
			for _, e := range es {
				c := choice{s: s, st: st, e: e}
				if len(ends) > 0 {
					c.endBad = e < st
					c.elapsBad = elapsed >= 0 && float64(e-st) != elapsed
				}
				all = append(all, c)
			}
		}
	}
	if len(all) == 0 {
		if len(ends) > 0 {
			end = ends[0]
		}
		return submits[0], starts[0], end, false
	}
	for i := range all {
		if best == nil || better(&all[i], best) {
			best = &all[i]
		}
	}
	n := 0
	for _, c := range all {
		if c.endBad == best.endBad && c.elapsBad == best.elapsBad {
			n++
		}
	}
	return best.s, best.st, best.e, n > 1
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

// parseTime reads sacct's time (2024-01-15T10:00:00, local) in loc:
// none for Unknown, None or an empty field; two instants, the earlier
// first, for a local time in the hour repeated when daylight saving time
// ends.
func parseTime(s string, loc *time.Location) ([]int64, error) {
	switch strings.ToLower(s) {
	case "", "unknown", "none", "n/a":
		return nil, nil
	}
	const layout = "2006-01-02T15:04:05"
	t, err := time.ParseInLocation(layout, s, loc)
	if err != nil {
		return nil, fmt.Errorf("%q is not a time (want YYYY-MM-DDTHH:MM:SS)", s)
	}
	if loc == time.UTC {
		return []int64{t.Unix()}, nil
	}
	// The other instant with the same wall clock, if any: the offset in
	// force 12 hours before or after (zones change at most once a day).
	wall, _ := time.Parse(layout, s)
	u := t.Unix()
	_, off := t.Zone()
	for _, d := range []int64{-12 * 3600, 12 * 3600} {
		_, o := time.Unix(u+d, 0).In(loc).Zone()
		if o == off {
			continue
		}
		v := wall.Unix() - int64(o)
		if time.Unix(v, 0).In(loc).Format(layout) == s {
			if v < u {
				return []int64{v, u}, nil
			}
			return []int64{u, v}, nil
		}
	}
	return []int64{u}, nil
}

// decimal says that s is a plain decimal number: digits, with at most
// one '.' (no sign, exponent, NaN or Inf, which strconv.ParseFloat would
// take).
func decimal(s string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] >= '0' && s[i] <= '9':
			digits++
		case s[i] == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
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
		if !decimal(p) || err != nil || x < 0 || math.IsInf(x, 0) {
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

// memForm is what a ReqMem value's memory is for.
type memForm int8

const (
	// memPerJob: a plain size (4000M, 4G, 4096), as sacct writes ReqMem
	// since Slurm 21.08: the memory of the job's ReqTRES (mem=), the
	// job's total over all its nodes (src/sacct/print.c prints
	// PRINT_REQ_MEM from tres_req_str's TRES_MEM since 21.08; 20.11 and
	// before print req_mem with a "c" or "n" suffix).
	memPerJob  memForm = iota
	memPerCPU          // "c": per CPU (Slurm 20.11 and before)
	memPerNode         // "n": per node (Slurm 20.11 and before)
)

// parseMem reads ReqMem (500Mc per CPU, 4Gn per node, 4000M or 4G the
// job's total) into KB per CPU, rounded to a whole KB (SWF's field is an
// integer): memory per node is divided by the CPUs the job has on a
// node (its cpus spread evenly over its nnodes: NNodes, 1 when the
// export does not say), the job's total by its cpus. 0 or an empty
// value is unknown (-1).
func parseMem(s string, cpus, nnodes int) (float64, error) {
	kb, form, err := memKB(s)
	if err != nil {
		return 0, err
	}
	if kb == 0 {
		return -1, nil
	}
	switch form {
	case memPerNode:
		kb = kb * float64(nnodes) / float64(cpus)
	case memPerJob:
		kb /= float64(cpus)
	}
	// SWF's memory field is a whole number of KB a processor: rounded to
	// the nearest (43690.67 -> 43691), never below 1 for a memory given.
	kb = max(1, math.Round(kb))
	if kb > maxMemKB {
		return 0, fmt.Errorf("%q is more memory than an SWF field holds (2^53 KB a CPU)", s)
	}
	return kb, nil
}

// memKB reads a memory size as sacct writes it (4000M, 4G, 500Mc, 4Gn, a
// plain number of MB) into KB, and what it is for (the suffix).
func memKB(s string) (kb float64, form memForm, err error) {
	t := strings.TrimSpace(s)
	switch {
	case strings.HasSuffix(t, "c"):
		form, t = memPerCPU, strings.TrimSuffix(t, "c")
	case strings.HasSuffix(t, "n"):
		form, t = memPerNode, strings.TrimSuffix(t, "n")
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
		case 'P', 'p':
			unit, t = 1024*1024*1024*1024, t[:len(t)-1]
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if !decimal(t) || err != nil || x < 0 || math.IsInf(x, 0) {
		return 0, 0, fmt.Errorf("%q is not a memory size (e.g. 4000M, 4G, 500Mc)", s)
	}
	return x * unit, form, nil
}

// maxMemKB bounds the memory a CPU, in KB (an SWF number is exact up to
// 2^53).
const maxMemKB = 1 << 53

// looksLikeJob reports whether the fields of a first line look like a
// job's values rather than column names: one of them a number or a date
// (column names have letters only, and underscores).
func looksLikeJob(fields []string) bool {
	for _, f := range fields {
		f = strings.TrimSpace(f)
		if f != "" && (f[0] >= '0' && f[0] <= '9') {
			return true
		}
	}
	return false
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
	s = strings.Clone(s) // not the line it was cut from
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
	h.Lines = r.headerLines(maxProcs, source)
	sw := swf.NewWriter(w)
	if err := sw.WriteHeader(h); err != nil {
		return err
	}
	for i := range r.Len() {
		rec := r.Record(i)
		if err := sw.Write(rec); err != nil {
			return fmt.Errorf("job %d: %w", rec.JobNumber, err)
		}
	}
	return sw.Flush()
}

// headerLines are the lines of WriteSWF's header (without their ';').
func (r *Result) headerLines(maxProcs int, source string) []string {
	h := r.Header
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
		lines = nameLines(lines, t.what, t.names, func(i int, n string) string { return fmt.Sprintf(" %s %d: %s", t.what, i, n) })
	}
	lines = r.slurmIDLines(lines)
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
		lines = nameLines(lines, t.what, t.names, func(i int, n string) string { return fmt.Sprintf(" %s: %d %s", t.what, i, n) })
	}
	return lines
}

// MaxHeaderNames and MaxHeaderNameBytes bound the names of one kind
// (users, groups, QOS, partitions) that WriteSWF lists in the header, and
// MaxHeaderName the bytes of one name, so that the header stays within
// what an SWF reader reads (swf.MaxHeaderLines, swf.MaxHeaderBytes,
// swf.MaxLineLength): the names beyond are not listed, and a note says
// so; a longer name is cut.
const (
	MaxHeaderNames     = 20_000
	MaxHeaderNameBytes = 2 << 20
	MaxHeaderName      = 1024
)

// nameLines appends the lines naming ids 1.. (line(id, name)), at most
// MaxHeaderNames of them and MaxHeaderNameBytes of text, then a note on
// the ids not named.
func nameLines(lines []string, what string, names []string, line func(int, string) string) []string {
	size := 0
	for i, n := range names {
		n = clean(n)
		if len(n) > MaxHeaderName {
			k := MaxHeaderName
			for k > 0 && !utf8.RuneStart(n[k]) {
				k--
			}
			n = n[:k] + "... (cut)"
		}
		l := line(i+1, n)
		if i == MaxHeaderNames || size+len(l) > MaxHeaderNameBytes {
			return append(lines, fmt.Sprintf(" Note: %ss %d to %d are not named here (at most %d names of a kind, %d bytes of them, are listed: slurm.MaxHeaderNames, slurm.MaxHeaderNameBytes)",
				strings.ToLower(what), i+1, len(names), MaxHeaderNames, MaxHeaderNameBytes))
		}
		size += len(l)
		lines = append(lines, l)
	}
	return lines
}

// slurmIDLines adds a line " JobID N: 101_1" for each job numbered N
// whose Slurm JobID is an array task's or a heterogeneous component's
// (explain --job 101_1 finds N by it), in submit order, at most
// MaxHeaderNames of them and a note on the rest.
func (r *Result) slurmIDLines(lines []string) []string {
	if len(r.slurmIDs) == 0 {
		return lines
	}
	n := 0
	for i, k := range r.order {
		text, ok := r.slurmIDs[k]
		if !ok {
			continue
		}
		if n == MaxHeaderNames {
			return append(lines, fmt.Sprintf(" Note: %d more jobs have an array or heterogeneous JobID not listed here (at most %d: slurm.MaxHeaderNames)", len(r.slurmIDs)-n, MaxHeaderNames))
		}
		num := r.jobs.at(int(k)).id
		if r.Renumbered {
			num = int64(i + 1)
		}
		lines = append(lines, fmt.Sprintf(" JobID %d: %s", num, clean(text)))
		n++
	}
	return lines
}

// clean keeps a name on one header line.
func clean(s string) string { return strings.NewReplacer("\n", " ", "\r", " ").Replace(s) }
