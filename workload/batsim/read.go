package batsim

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/jobtable"
	"github.com/schedlab/schedlab/workload/swf"
)

// MaxBytes bounds the size of a workload file (it is read whole), and
// MaxJobs the jobs of one workload.
const (
	MaxBytes = 256 << 20
	MaxJobs  = 10_000_000
)

// maxExactInt is the largest job number SWF holds exactly.
const maxExactInt = 1 << 53

// Result is an imported workload: the SWF header and records.
type Result struct {
	Header  swf.Header
	Records []swf.Record
	// IDs are the Batsim ids of the records, in the same order.
	IDs []string
	// Renumbered: the ids (without their workload prefix) were not
	// distinct integers, so the jobs are numbered 1..N in submit order.
	Renumbered bool
}

// Error is a problem at one place of a workload file.
type Error struct {
	File string
	Line int    // 1-based; 0 if not about a place
	What string // the job or profile and field, e.g. `job "3" (jobs[2]): res`
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.What != "" {
		b.WriteString(e.What)
		b.WriteString(": ")
	}
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// member is one key of a JSON object, with the offset of its value.
type member struct {
	key string
	raw json.RawMessage
	off int
}

// skipSep moves off past blanks and the separators ':' ',' '[' in data.
func skipSep(data []byte, off int) int {
	for off < len(data) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ':', ',', '[':
			off++
		default:
			return off
		}
	}
	return off
}

// reader holds the file for positions.
type reader struct {
	name string
	data []byte
}

func (r *reader) line(off int) int {
	return bytes.Count(r.data[:min(off, len(r.data))], []byte{'\n'}) + 1
}

func (r *reader) errAt(off int, what string, err error) *Error {
	return &Error{File: r.name, Line: r.line(off), What: what, Err: err}
}

// jsonErr turns a decoder error at base into an Error.
func (r *reader) jsonErr(base int, what string, err error) *Error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return r.errAt(base+int(se.Offset), what, fmt.Errorf("not valid JSON: %v", se))
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return r.errAt(len(r.data), what, errors.New("not valid JSON: the file ends early"))
	}
	return r.errAt(base, what, err)
}

// object reads the JSON object raw (at offset base of the file) into its
// members, in order.
func (r *reader) object(raw []byte, base int, what string) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, r.jsonErr(base, what, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, r.errAt(base, what, fmt.Errorf("want a JSON object, have %s", kind(raw)))
	}
	var ms []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, r.jsonErr(base+int(dec.InputOffset()), what, err)
		}
		key, _ := tok.(string)
		off := base + skipSep(raw, int(dec.InputOffset()))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, r.jsonErr(off, what, err)
		}
		ms = append(ms, member{key: key, raw: v, off: off})
	}
	if _, err := dec.Token(); err != nil {
		return nil, r.jsonErr(base+int(dec.InputOffset()), what, err)
	}
	return ms, nil
}

// array reads the JSON array raw (at base) into its elements, calling f
// for each with its index and offset.
func (r *reader) array(raw []byte, base int, what string, f func(i int, v json.RawMessage, off int) error) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return r.jsonErr(base, what, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return r.errAt(base, what, fmt.Errorf("want a JSON array, have %s", kind(raw)))
	}
	for i := 0; dec.More(); i++ {
		off := base + skipSep(raw, int(dec.InputOffset()))
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return r.jsonErr(off, what, err)
		}
		if err := f(i, v, off); err != nil {
			return err
		}
	}
	return nil
}

// kind names the JSON type of raw for messages.
func kind(raw []byte) string {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 {
		return "nothing"
	}
	switch s[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// number reads a JSON number (not a string holding one).
func number(raw json.RawMessage) (float64, error) {
	s := string(bytes.TrimSpace(raw))
	if k := kind(raw); k != "a number" {
		return 0, fmt.Errorf("want a number, have %s", k)
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("%s is not a finite number", s)
	}
	return x, nil
}

// integer reads a JSON number that is a whole number in [lo, hi].
func integer(raw json.RawMessage, lo, hi float64) (int64, error) {
	x, err := number(raw)
	if err != nil {
		return 0, err
	}
	if x != math.Trunc(x) || x < lo || x > hi {
		return 0, fmt.Errorf("%s: want an integer from %.0f to %.0f", bytes.TrimSpace(raw), lo, hi)
	}
	return int64(x), nil
}

// seconds reads a time in seconds: 0..swf.MaxSeconds.
func seconds(raw json.RawMessage) (float64, error) {
	x, err := number(raw)
	if err != nil {
		return 0, err
	}
	if x < 0 || x > swf.MaxSeconds {
		return 0, fmt.Errorf("%s: want 0 to %g seconds (swf.MaxSeconds)", bytes.TrimSpace(raw), float64(swf.MaxSeconds))
	}
	return x, nil
}

type profile struct {
	typ   string
	delay float64
	ret   int64
	off   int
	err   error // set for a profile that cannot be imported
}

type rawJob struct {
	id      string
	submit  float64
	wall    float64
	res     int
	profile string
	off     int
	index   int
}

// Read reads a Batsim workload from r; name is the file's name for
// messages.
func Read(in io.Reader, name string) (*Result, error) {
	br := bufio.NewReader(in)
	var src io.Reader = br
	if b, _ := br.Peek(2); len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: gzip stream truncated or corrupt: %w", name, err)
		}
		src = gz
	}
	data, err := io.ReadAll(io.LimitReader(src, MaxBytes+1))
	if err != nil {
		if src != io.Reader(br) {
			return nil, fmt.Errorf("%s: gzip stream truncated or corrupt: %w", name, err)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > MaxBytes {
		return nil, &Error{File: name, Err: fmt.Errorf("larger than %d bytes (batsim.MaxBytes): split the workload", MaxBytes)}
	}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, &Error{File: name, Line: 1, Err: errors.New("the file starts with a UTF-8 byte-order mark (BOM): JSON has none; remove the first 3 bytes")}
	}
	r := &reader{name: name, data: data}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{File: name, Err: errors.New("empty: want a Batsim workload (a JSON object with nb_res, jobs and profiles)")}
	}
	top, err := r.object(data, 0, "")
	if err != nil {
		return nil, err
	}
	// The value after the top object must be nothing but blanks.
	var end int
	{
		dec := json.NewDecoder(bytes.NewReader(data))
		var v json.RawMessage
		_ = dec.Decode(&v)
		end = int(dec.InputOffset())
		if rest := bytes.TrimSpace(data[end:]); len(rest) > 0 {
			return nil, r.errAt(end+bytes.Index(data[end:], rest[:1]), "", errors.New("text after the workload's JSON object"))
		}
	}
	var nbRes int64 = -1
	var jobsM, profM *member
	for i := range top {
		m := &top[i]
		switch m.key {
		case "nb_res":
			if nbRes, err = integer(m.raw, 1, platform.MaxCPUs); err != nil {
				return nil, r.errAt(m.off, "nb_res", err)
			}
		case "jobs":
			jobsM = m
		case "profiles":
			profM = m
		}
	}
	var missing []string
	if nbRes < 0 {
		missing = append(missing, "nb_res")
	}
	if jobsM == nil {
		missing = append(missing, "jobs")
	}
	if profM == nil {
		missing = append(missing, "profiles")
	}
	if len(missing) > 0 {
		return nil, r.errAt(0, "", fmt.Errorf("not a Batsim workload: no %s (want a JSON object with nb_res, jobs and profiles)", strings.Join(missing, ", ")))
	}

	profiles := map[string]*profile{}
	pm, err := r.object(profM.raw, profM.off, "profiles")
	if err != nil {
		return nil, err
	}
	for _, p := range pm {
		pr, err := r.profile(p)
		if err != nil {
			return nil, err
		}
		profiles[p.key] = pr
	}

	var jobs []rawJob
	err = r.array(jobsM.raw, jobsM.off, "jobs", func(i int, v json.RawMessage, off int) error {
		if len(jobs) >= MaxJobs {
			return r.errAt(off, fmt.Sprintf("jobs[%d]", i), fmt.Errorf("more than %d jobs (batsim.MaxJobs): split the workload", MaxJobs))
		}
		j, err := r.job(i, v, off)
		if err != nil {
			return err
		}
		jobs = append(jobs, j)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, r.errAt(jobsM.off, "jobs", errors.New("no job to import"))
	}

	res := &Result{}
	for _, j := range jobs {
		what := fmt.Sprintf("job %q (jobs[%d])", j.id, j.index)
		p, ok := profiles[j.profile]
		if !ok {
			return nil, r.errAt(j.off, what+": profile", fmt.Errorf("%q is not among the workload's profiles", j.profile))
		}
		if p.err != nil {
			return nil, r.errAt(j.off, what+": profile", fmt.Errorf("profile %q (line %d): %w", j.profile, r.line(p.off), p.err))
		}
	}
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].submit < jobs[b].submit })
	useIDs := true
	ids := make([]int64, len(jobs))
	seen := make(map[int64]bool, len(jobs))
	for i, j := range jobs {
		short := j.id[strings.LastIndexByte(j.id, '!')+1:]
		n, err := strconv.ParseInt(short, 10, 64)
		if err != nil || n < 0 || n > maxExactInt || seen[n] || strconv.FormatInt(n, 10) != short {
			useIDs = false
			break
		}
		seen[n] = true
		ids[i] = n
	}
	for i, j := range jobs {
		p := profiles[j.profile]
		status := 1
		if p.ret != 0 {
			status = 0
		}
		num := int64(i + 1)
		if useIDs {
			num = ids[i]
		}
		res.Records = append(res.Records, swf.Record{
			JobNumber: num, Submit: j.submit, Wait: -1, Run: p.delay, AllocProcs: j.res, AvgCPU: -1, UsedMem: -1,
			ReqProcs: j.res, ReqTime: j.wall, ReqMem: -1, Status: status, User: -1, Group: -1, Exec: -1,
			Queue: -1, Partition: -1, PrecedingJob: -1, ThinkTime: -1,
		})
		res.IDs = append(res.IDs, j.id)
	}
	res.Renumbered = !useIDs
	res.Header = swf.Header{Version: "2.2", MaxJobs: int64(len(jobs)), MaxRecords: int64(len(jobs)), MaxProcs: int(nbRes)}
	return res, nil
}

// profile reads one profile; a profile of another type than delay is
// kept with its reason, refused only if a job uses it.
func (r *reader) profile(m member) (*profile, error) {
	what := fmt.Sprintf("profile %q", m.key)
	fs, err := r.object(m.raw, m.off, what)
	if err != nil {
		return nil, err
	}
	p := &profile{off: m.off}
	var delay, ret *member
	for i := range fs {
		switch fs[i].key {
		case "type":
			if err := json.Unmarshal(fs[i].raw, &p.typ); err != nil {
				return nil, r.errAt(fs[i].off, what+": type", fmt.Errorf("want a string, have %s", kind(fs[i].raw)))
			}
		case "delay":
			delay = &fs[i]
		case "ret":
			ret = &fs[i]
		}
	}
	switch p.typ {
	case "":
		return nil, r.errAt(m.off, what, errors.New("no type"))
	case "delay", "DelayProfile":
	default:
		p.err = fmt.Errorf("of type %q: only delay profiles can be imported (the run time of the others depends on Batsim's platform model)", p.typ)
		return p, nil
	}
	if delay == nil {
		return nil, r.errAt(m.off, what, errors.New("a delay profile without a delay"))
	}
	if p.delay, err = seconds(delay.raw); err != nil {
		return nil, r.errAt(delay.off, what+": delay", err)
	}
	if ret != nil {
		if p.ret, err = integer(ret.raw, math.MinInt32, math.MaxInt32); err != nil {
			return nil, r.errAt(ret.off, what+": ret", err)
		}
	}
	return p, nil
}

// job reads one job.
func (r *reader) job(i int, v json.RawMessage, off int) (rawJob, error) {
	j := rawJob{off: off, index: i, wall: -1}
	what := fmt.Sprintf("jobs[%d]", i)
	fs, err := r.object(v, off, what)
	if err != nil {
		return j, err
	}
	// The id first, to name the job in what follows.
	have := map[string]bool{}
	for _, f := range fs {
		have[f.key] = true
		if f.key != "id" {
			continue
		}
		switch kind(f.raw) {
		case "a string":
			_ = json.Unmarshal(f.raw, &j.id)
		case "a number":
			n, err := integer(f.raw, 0, maxExactInt)
			if err != nil {
				return j, r.errAt(f.off, what+": id", err)
			}
			j.id = strconv.FormatInt(n, 10)
		default:
			return j, r.errAt(f.off, what+": id", fmt.Errorf("want a string, have %s", kind(f.raw)))
		}
		if j.id == "" {
			return j, r.errAt(f.off, what+": id", errors.New("empty"))
		}
		what = fmt.Sprintf("job %q (jobs[%d])", j.id, i)
	}
	for _, need := range []string{"id", "subtime", "res", "profile"} {
		if !have[need] {
			return j, r.errAt(off, what, fmt.Errorf("no %s (a job has id, subtime, res and profile)", need))
		}
	}
	for _, f := range fs {
		switch f.key {
		case "subtime":
			j.submit, err = seconds(f.raw)
		case "walltime":
			var x float64
			if x, err = number(f.raw); err == nil && x != -1 {
				if x, err = seconds(f.raw); err == nil && x == 0 {
					err = errors.New("0: want a positive limit, or -1 (none)")
				}
				j.wall = x
			}
		case "res":
			var n int64
			n, err = integer(f.raw, 1, platform.MaxCPUs)
			j.res = int(n)
		case "profile":
			if kind(f.raw) != "a string" {
				err = fmt.Errorf("want a profile name (a string), have %s", kind(f.raw))
			} else {
				_ = json.Unmarshal(f.raw, &j.profile)
			}
		}
		if err != nil {
			return j, r.errAt(f.off, what+": "+f.key, err)
		}
	}
	return j, nil
}

// WriteSWF writes the import as an SWF file: a header saying where it
// comes from and MaxProcs (nb_res), then the records.
func (r *Result) WriteSWF(w io.Writer, source string) error {
	h := r.Header
	h.Lines = r.headerLines(source)
	sw := swf.NewWriter(w)
	if err := sw.WriteHeader(h); err != nil {
		return err
	}
	for i, rec := range r.Records {
		if err := sw.Write(rec); err != nil {
			return fmt.Errorf("job %q: %w", r.IDs[i], err)
		}
	}
	return sw.Flush()
}

// headerLines are the lines of WriteSWF's header (without their ';').
func (r *Result) headerLines(source string) []string {
	h := r.Header
	lines := []string{
		" Version: " + h.Version,
		" Note: imported from the Batsim workload " + strings.NewReplacer("\n", " ", "\r", " ").Replace(source) + " by schedlab trace import",
		" Note: run time = the delay profile's delay, requested time = walltime, status 0 for a profile's non-zero ret; wait time unknown",
		fmt.Sprintf(" MaxJobs: %d", h.MaxJobs),
		fmt.Sprintf(" MaxRecords: %d", h.MaxRecords),
		fmt.Sprintf(" MaxProcs: %d", h.MaxProcs),
	}
	if r.Renumbered {
		lines = append(lines, " Note: the Batsim job ids were not distinct integers; jobs are numbered 1..N in submit order")
	}
	return lines
}

// Request is what job i asks of a node platform: its res as tasks of
// one CPU (nodes.FromProcs), as the import makes each Batsim resource a
// processor. A Batsim workload says nothing else of a job's needs (the
// platform's hosts are Batsim's, and a job holds its resources whole).
func (r *Result) Request(i int) nodes.Request { return nodes.FromProcs(r.Records[i].AllocProcs) }

// WriteJobTable writes the import as a job table (package jobtable): the
// lines of WriteSWF's header as its comments, then a row a job (its
// record and Request).
func (r *Result) WriteJobTable(w io.Writer, source string) error {
	jw := jobtable.NewWriter(w)
	for _, l := range r.headerLines(source) {
		if err := jw.Comment(strings.TrimPrefix(l, " ")); err != nil {
			return err
		}
	}
	for i, rec := range r.Records {
		if err := jw.Write(jobtable.Row{Record: rec, Request: r.Request(i)}); err != nil {
			return fmt.Errorf("job %q: %w", r.IDs[i], err)
		}
	}
	return jw.Flush()
}
