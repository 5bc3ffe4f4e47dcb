package slurm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// MaxJSONJob bounds the JSON text of one job of `sacct --json` output
// (its batch script and steps included): the jobs are decoded one at a
// time, so this, not the file's size, bounds the memory a JSON import
// needs beyond the jobs it keeps.
const MaxJSONJob = 64 << 20

// maxJSONJob is MaxJSONJob, lowered by tests.
var maxJSONJob = MaxJSONJob

// errJSONTooLong is returned by a lineReader asked for more of a value
// that already has more than maxJSONJob bytes.
var errJSONTooLong = errors.New("too long")

// lineReader passes its input through, keeping the bytes after offset
// base (and the line number at base), so that the line of any offset the
// decoder has not yet been told to forget can be found. The decoder
// forgets up to the start of each value it decodes (blanks and a comma
// before it are counted in lead), so the decoder asking for more while
// more than maxJSONJob bytes are kept means the value is longer.
type lineReader struct {
	r        io.Reader
	buf      []byte
	base     int64
	baseLine int
	lead     int // the blanks (and commas) at the start of buf
}

func (l *lineReader) Read(p []byte) (int, error) {
	if len(l.buf)-l.lead > maxJSONJob {
		return 0, errJSONTooLong
	}
	n, err := l.r.Read(p)
	if l.lead == len(l.buf) {
		l.buf = append(l.buf, p[:n]...)
		l.lead = skipBlanks(l.buf, l.lead)
	} else {
		l.buf = append(l.buf, p[:n]...)
	}
	return n, err
}

// line is the line number of offset off (off >= base).
func (l *lineReader) line(off int64) int {
	k := min(int(off-l.base), len(l.buf))
	if k < 0 {
		return l.baseLine
	}
	return l.baseLine + bytes.Count(l.buf[:k], []byte{'\n'})
}

// forget drops what lies before off.
func (l *lineReader) forget(off int64) {
	k := min(int(off-l.base), len(l.buf))
	if k <= 0 {
		return
	}
	l.baseLine += bytes.Count(l.buf[:k], []byte{'\n'})
	l.buf = append(l.buf[:0], l.buf[k:]...)
	l.base += int64(k)
	l.lead = skipBlanks(l.buf, 0)
}

// jsonJob holds the fields of one job of `sacct --json` the import reads
// (Slurm 22.05's openapi/dbv0.0.38, and data_parser v0.0.39 to v0.0.4x:
// numbers that may be unset are plain numbers up to v0.0.39 and {set,
// infinite, number} objects later; the state is a string up to v0.0.39
// and a list of flags later; v0.0.38 has one required/memory, per CPU
// when its bit 63 is set).
type jsonJob struct {
	JobID     json.RawMessage `json:"job_id"`
	Name      string          `json:"name"`
	User      string          `json:"user"`
	Group     string          `json:"group"`
	Partition string          `json:"partition"`
	QOS       string          `json:"qos"`
	State     struct {
		Current json.RawMessage `json:"current"`
	} `json:"state"`
	Time struct {
		Submission json.RawMessage `json:"submission"`
		Start      json.RawMessage `json:"start"`
		End        json.RawMessage `json:"end"`
		Elapsed    json.RawMessage `json:"elapsed"`
		Limit      json.RawMessage `json:"limit"`
	} `json:"time"`
	Required struct {
		CPUs       json.RawMessage `json:"CPUs"`
		MemPerCPU  json.RawMessage `json:"memory_per_cpu"`
		MemPerNode json.RawMessage `json:"memory_per_node"`
		Memory     json.RawMessage `json:"memory"` // v0.0.38: MB, per CPU when bit 63 is set
	} `json:"required"`
	TRES struct {
		Allocated []jsonTRES `json:"allocated"`
		Requested []jsonTRES `json:"requested"`
	} `json:"tres"`
	AllocationNodes json.RawMessage `json:"allocation_nodes"`
	Constraints     string          `json:"constraints"`
	Steps           []struct{}      `json:"steps"`
	// Array and Het give an array task's and a heterogeneous
	// component's Slurm id (101_1, 104+0; slurmID).
	Array struct {
		JobID  json.RawMessage `json:"job_id"`
		TaskID json.RawMessage `json:"task_id"`
	} `json:"array"`
	Het struct {
		JobID     json.RawMessage `json:"job_id"`
		JobOffset json.RawMessage `json:"job_offset"`
	} `json:"het"`
}

// slurmID is the job's JobID as sacct -P prints it when it is an array
// task's (ARRAY_TASK: 101_1) or a heterogeneous component's (104+0), ""
// otherwise or when the fields do not say.
func (jj *jsonJob) slurmID() string {
	num := func(raw json.RawMessage) (uint64, bool) {
		if len(raw) == 0 {
			return 0, false
		}
		n, set, inf, err := jsonNumber(raw)
		return n, err == nil && set && !inf
	}
	if a, ok := num(jj.Array.JobID); ok && a > 0 {
		if t, ok := num(jj.Array.TaskID); ok {
			return fmt.Sprintf("%d_%d", a, t)
		}
	}
	if h, ok := num(jj.Het.JobID); ok && h > 0 {
		if o, ok := num(jj.Het.JobOffset); ok {
			return fmt.Sprintf("%d+%d", h, o)
		}
	}
	return ""
}

// jsonTRES is one TRES of a job: type cpu, mem (MB), node, billing,
// gres (name gpu or gpu:a100), ...
type jsonTRES struct {
	Type  string          `json:"type"`
	Name  string          `json:"name"`
	Count json.RawMessage `json:"count"`
}

// tresText writes a JSON TRES list as sacct -P writes ReqTRES and
// AllocTRES (mem in MB: "mem=4000M"; "gres/gpu:a100=4").
func tresText(field string, list []jsonTRES) (string, error) {
	var parts []string
	for _, t := range list {
		n, set, _, err := jsonNumber(t.Count)
		if err != nil {
			return "", fmt.Errorf("field %s (%s): %v", field, t.Type, err)
		}
		if !set || strings.ContainsAny(t.Type+t.Name, ",=") {
			continue
		}
		switch t.Type {
		case "cpu", "node", "billing":
			parts = append(parts, t.Type+"="+strconv.FormatUint(n, 10))
		case "mem":
			parts = append(parts, "mem="+strconv.FormatUint(n, 10)+"M")
		case "gres":
			parts = append(parts, "gres/"+t.Name+"="+strconv.FormatUint(n, 10))
		}
	}
	return strings.Join(parts, ","), nil
}

// Slurm's special values of unset (NO_VAL) and infinite numbers, 32 and
// 64 bits, as v0.0.39 prints them.
const (
	noVal32, infinite32 = 0xfffffffe, 0xffffffff
	noVal64, infinite64 = 0xfffffffffffffffe, 0xffffffffffffffff
)

// jsonNumber reads a number that may be unset: a plain number, null, or
// {"set": .., "infinite": .., "number": ..}.
func jsonNumber(raw json.RawMessage) (n uint64, set, inf bool, err error) {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 || string(s) == "null" {
		return 0, false, false, nil
	}
	if s[0] == '{' {
		var o struct {
			Set      *bool           `json:"set"`
			Infinite bool            `json:"infinite"`
			Number   json.RawMessage `json:"number"`
		}
		if err := json.Unmarshal(s, &o); err != nil {
			return 0, false, false, fmt.Errorf("want {set, infinite, number}: %v", err)
		}
		if o.Infinite {
			return 0, true, true, nil
		}
		if o.Set != nil && !*o.Set {
			return 0, false, false, nil
		}
		s = bytes.TrimSpace(o.Number)
		if len(s) == 0 {
			return 0, false, false, nil
		}
	}
	x, perr := strconv.ParseUint(string(s), 10, 64)
	if perr != nil {
		return 0, false, false, fmt.Errorf("%s is not a whole number", s)
	}
	switch x {
	case noVal32, noVal64:
		return 0, false, false, nil
	case infinite32, infinite64:
		return 0, true, true, nil
	}
	return x, true, false, nil
}

// jsonColumns are the sacct columns a JSON job is turned into; parseRow
// then reads it exactly as a --parsable2 line.
var jsonColumns = func() columns {
	names := []string{"JobIDRaw", "JobName", "User", "Group", "Partition", "QOS", "Submit", "Start", "End", "Elapsed", "Timelimit", "NCPUS", "ReqCPUS", "ReqMem", "State",
		"NNodes", "ReqTRES", "AllocTRES", "Constraints"}
	c := columns{idx: map[string]int{}, n: len(names), names: names}
	for i, n := range names {
		c.idx[strings.ToLower(n)] = i
	}
	return c
}()

// jsonField names, for messages, the JSON field a column comes from.
var jsonField = map[string]string{
	"JobIDRaw": "job_id", "Submit": "time/submission", "Start": "time/start", "End": "time/end",
	"Elapsed": "time/elapsed", "Timelimit": "time/limit", "NCPUS": "tres/allocated", "ReqCPUS": "required/CPUs",
	"ReqMem": "required/memory_per_cpu or memory_per_node", "State": "state/current",
	"NNodes": "allocation_nodes", "ReqTRES": "tres/requested", "AllocTRES": "tres/allocated", "Constraints": "constraints",
}

// readJSON reads `sacct --json` output: an object whose "jobs" array is
// decoded one job at a time.
func readJSON(r io.Reader, name string, o Options, loc *time.Location) (*Result, error) {
	if o.Steps {
		return nil, fmt.Errorf("%s: sacct --json output nests the steps in their job: --steps reads them only from sacct --parsable2 output", name)
	}
	lr := &lineReader{r: r, baseLine: 1}
	dec := json.NewDecoder(lr)
	at := func(off int64, err error) error {
		return &ParseError{File: name, Line: lr.line(off), Err: err}
	}
	decErr := func(err error) error {
		if errors.Is(err, errJSONTooLong) {
			return at(lr.base+int64(lr.lead), fmt.Errorf("a JSON value of more than %d bytes (slurm.MaxJSONJob): not sacct --json output", maxJSONJob))
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return at(se.Offset, fmt.Errorf("not valid JSON: %v", se))
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return at(dec.InputOffset(), errors.New("not valid JSON: the file ends early"))
		}
		return at(dec.InputOffset(), err)
	}
	if _, err := dec.Token(); err != nil { // '{', seen by ReadSacct
		return nil, decErr(err)
	}
	c := newCollected()
	c.res.HasRequests = true
	sawJobs := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, decErr(err)
		}
		if key, _ := tok.(string); key != "jobs" {
			lr.forget(dec.InputOffset())
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, decErr(err)
			}
			lr.forget(dec.InputOffset())
			continue
		}
		sawJobs = true
		if tok, err = dec.Token(); err != nil {
			return nil, decErr(err)
		}
		if d, ok := tok.(json.Delim); !ok || d != '[' {
			return nil, at(dec.InputOffset(), errors.New(`"jobs" is not an array: not sacct --json output`))
		}
		for i := 0; dec.More(); i++ {
			off := dec.InputOffset()
			lr.forget(off)
			start := off + int64(skipBlanks(lr.buf, 0))
			var jj jsonJob
			err := dec.Decode(&jj)
			if errors.Is(err, errJSONTooLong) || err == nil && dec.InputOffset()-start > int64(maxJSONJob) {
				return nil, at(start, fmt.Errorf("jobs[%d]: more than %d bytes of JSON (slurm.MaxJSONJob): not sacct --json output", i, maxJSONJob))
			}
			if err != nil {
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) {
					return nil, at(start, fmt.Errorf("jobs[%d]: field %s: want %s, have a JSON %s", i, strings.ReplaceAll(te.Field, ".", "/"), te.Type, te.Value))
				}
				return nil, decErr(err)
			}
			// The job's line, and its bytes forgotten: the next Read is for
			// the next value.
			line := lr.line(start)
			lr.forget(dec.InputOffset())
			at := func(_ int64, err error) error { return &ParseError{File: name, Line: line, Err: err} }
			row, err := jj.row()
			if err != nil {
				return nil, at(start, fmt.Errorf("jobs[%d] (job_id %s): %w", i, bytes.TrimSpace(jj.JobID), err))
			}
			j, info, why, err := parseRow(row, jsonColumns, time.UTC, o)
			if err != nil {
				var pe *ParseError
				if errors.As(err, &pe) {
					return nil, at(start, fmt.Errorf("job %s: field %s: %w", row[0], jsonField[pe.Column], pe.Err))
				}
				return nil, at(start, err)
			}
			if len(jj.Steps) > 0 {
				c.res.Skipped["job steps (.batch, .extern, .N; --steps keeps them)"] += int64(len(jj.Steps))
			}
			if why != "" {
				c.res.Skipped[why]++
				continue
			}
			if c.jobs.n >= MaxJobs {
				return nil, at(start, fmt.Errorf("more than %d jobs (slurm.MaxJobs): import the history in parts", MaxJobs))
			}
			c.add(j, info, row[0], jj.slurmID(), jj.User, jj.Group, jj.Partition, jj.QOS)
		}
		if _, err := dec.Token(); err != nil { // ']'
			return nil, decErr(err)
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return nil, decErr(err)
	}
	// Nothing but blanks after the object (and a gzip stream read to its
	// end, checked).
	if _, err := dec.Token(); err != io.EOF {
		if err == nil {
			return nil, at(dec.InputOffset(), errors.New("more after the JSON object: not sacct --json output"))
		}
		return nil, decErr(err)
	}
	if !sawJobs {
		return nil, fmt.Errorf(`%s: a JSON object without "jobs": not sacct --json output`, name)
	}
	return c.finish(name, loc)
}

func skipBlanks(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n' || b[i] == ',') {
		i++
	}
	return i
}

// row writes the job as a --parsable2 line of jsonColumns. Times are
// epoch seconds, written in UTC and read back in UTC.
func (jj *jsonJob) row() ([]string, error) {
	id, set, _, err := jsonNumber(jj.JobID)
	if err != nil || !set {
		return nil, fmt.Errorf("field job_id: want the job's number, have %q", bytes.TrimSpace(jj.JobID))
	}
	stamp := func(field string, raw json.RawMessage) (string, error) {
		n, set, inf, err := jsonNumber(raw)
		if err != nil {
			return "", fmt.Errorf("field %s: %v", field, err)
		}
		if !set || inf || n == 0 {
			return "Unknown", nil
		}
		if n > 1<<40 {
			return "", fmt.Errorf("field %s: %d is not a time (epoch seconds)", field, n)
		}
		return time.Unix(int64(n), 0).UTC().Format("2006-01-02T15:04:05"), nil
	}
	submit, err := stamp("time/submission", jj.Time.Submission)
	if err != nil {
		return nil, err
	}
	startT, err := stamp("time/start", jj.Time.Start)
	if err != nil {
		return nil, err
	}
	end, err := stamp("time/end", jj.Time.End)
	if err != nil {
		return nil, err
	}
	elapsed := ""
	if n, set, _, err := jsonNumber(jj.Time.Elapsed); err != nil {
		return nil, fmt.Errorf("field time/elapsed: %v", err)
	} else if set {
		elapsed = fmt.Sprintf("%d:%02d:%02d", n/3600, n/60%60, n%60)
	}
	limit := "Partition_Limit"
	if n, set, inf, err := jsonNumber(jj.Time.Limit); err != nil {
		return nil, fmt.Errorf("field time/limit: %v", err)
	} else if inf {
		limit = "UNLIMITED"
	} else if set {
		limit = strconv.FormatUint(n, 10) // minutes
	}
	req := ""
	if n, set, _, err := jsonNumber(jj.Required.CPUs); err != nil {
		return nil, fmt.Errorf("field required/CPUs: %v", err)
	} else if set {
		req = strconv.FormatUint(n, 10)
	}
	ncpus := ""
	for _, t := range jj.TRES.Allocated {
		if t.Type == "cpu" {
			n, set, _, err := jsonNumber(t.Count)
			if err != nil {
				return nil, fmt.Errorf("field tres/allocated (cpu): %v", err)
			}
			if set {
				ncpus = strconv.FormatUint(n, 10)
			}
		}
	}
	mem := ""
	if n, set, _, err := jsonNumber(jj.Required.MemPerCPU); err != nil {
		return nil, fmt.Errorf("field required/memory_per_cpu: %v", err)
	} else if set {
		mem = strconv.FormatUint(n, 10) + "Mc"
	}
	if n, set, _, err := jsonNumber(jj.Required.MemPerNode); err != nil {
		return nil, fmt.Errorf("field required/memory_per_node: %v", err)
	} else if set && mem == "" {
		mem = strconv.FormatUint(n, 10) + "Mn"
	}
	if mem == "" && len(jj.Required.Memory) > 0 {
		n, err := strconv.ParseUint(string(bytes.TrimSpace(jj.Required.Memory)), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("field required/memory: %q is not a whole number", bytes.TrimSpace(jj.Required.Memory))
		}
		switch {
		case n == noVal64 || n == infinite64:
		case n&(1<<63) != 0:
			mem = strconv.FormatUint(n&^(1<<63), 10) + "Mc"
		default:
			mem = strconv.FormatUint(n, 10) + "Mn"
		}
	}
	state, err := jsonState(jj.State.Current)
	if err != nil {
		return nil, fmt.Errorf("field state/current: %v", err)
	}
	nnodes := ""
	if n, set, _, err := jsonNumber(jj.AllocationNodes); err != nil {
		return nil, fmt.Errorf("field allocation_nodes: %v", err)
	} else if set {
		nnodes = strconv.FormatUint(n, 10)
	}
	reqTRES, err := tresText("tres/requested", jj.TRES.Requested)
	if err != nil {
		return nil, err
	}
	allocTRES, err := tresText("tres/allocated", jj.TRES.Allocated)
	if err != nil {
		return nil, err
	}
	return []string{strconv.FormatUint(id, 10), jj.Name, jj.User, jj.Group, jj.Partition, jj.QOS,
		submit, startT, end, elapsed, limit, ncpus, req, mem, state, nnodes, reqTRES, allocTRES, strings.TrimSpace(jj.Constraints)}, nil
}

// jsonState is the job's base state: the string (v0.0.39), or the first
// flag of the list that is a state the import knows (later versions list
// the base state and flags such as REQUEUED).
func jsonState(raw json.RawMessage) (string, error) {
	s := bytes.TrimSpace(raw)
	if len(s) > 0 && s[0] == '"' {
		var st string
		err := json.Unmarshal(s, &st)
		return st, err
	}
	var list []string
	if err := json.Unmarshal(s, &list); err != nil {
		return "", fmt.Errorf("want a state or a list of them, have %s", s)
	}
	for _, st := range list {
		u := strings.ToUpper(st)
		if _, ok := statuses[u]; ok || unfinished[u] {
			return u, nil
		}
	}
	if len(list) == 0 {
		return "", errors.New("no state")
	}
	return list[0], nil
}
