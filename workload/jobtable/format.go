package jobtable

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/swf"
)

// Magic is the first line of every job table.
const Magic = "# schedlab job table v1"

// Bounds of a job table. Each is checked while reading, at the line that
// passes it.
const (
	// MaxLine bounds a line, in bytes (the header and every row).
	MaxLine = 1 << 20
	// MaxColumns bounds the columns of the header line (known and
	// unknown ones together).
	MaxColumns = 64
	// MaxLinesWithoutJob bounds the blank and comment lines in a row.
	MaxLinesWithoutJob = 1_000_000
	// MaxJobs bounds the rows of one table (they are streamed, never held:
	// this bounds a run's length, not its memory).
	MaxJobs = 100_000_000
	// MaxGRES bounds the GRES of one list (gres_per_node, gres_per_job).
	MaxGRES = nodes.MaxGRESKinds
	// MaxName bounds the name column, in bytes.
	MaxName = 1024
	// MaxComments and MaxCommentBytes bound the comment lines before
	// the header, which a Reader keeps (Comments): those of an SWF
	// header (swf.MaxHeaderLines, swf.MaxHeaderBytes).
	MaxComments     = swf.MaxHeaderLines
	MaxCommentBytes = swf.MaxHeaderBytes
)

// Row is one job of a table: its SWF fields (Record; fields 6, 14, 17
// and 18, which the table does not carry, are -1), its name and what it
// asks of a node platform.
type Row struct {
	Record  swf.Record
	Name    string
	Request nodes.Request
}

// Columns are the columns a Writer writes, in this order. A Reader takes
// them by name, in any order; id, submit, runtime and procs are required,
// the others default to unknown (-1), none (0, "") or false.
var Columns = []string{
	"id", "submit", "wait", "runtime", "procs", "req_procs", "req_time", "used_mem_kb", "req_mem_kb",
	"status", "user", "group", "qos", "partition",
	"nodes", "max_nodes", "tasks", "cpus_per_task", "mem_per_node_mb", "mem_per_cpu_mb",
	"gres_per_node", "gres_per_job", "constraint", "exclusive", "name",
}

// required are the columns a header must have.
var required = []string{"id", "submit", "runtime", "procs"}

// col numbers the columns of Columns.
type col int

const (
	cID col = iota
	cSubmit
	cWait
	cRuntime
	cProcs
	cReqProcs
	cReqTime
	cUsedMem
	cReqMem
	cStatus
	cUser
	cGroup
	cQOS
	cPartition
	cNodes
	cMaxNodes
	cTasks
	cCPUsPerTask
	cMemPerNode
	cMemPerCPU
	cGRESPerNode
	cGRESPerJob
	cConstraint
	cExclusive
	cName
	numCols
)

// maxExact is the largest integer a float64 holds exactly (2^53), the
// bound of SWF's integer fields.
const maxExact = 1 << 53

// errHash is the error for a '#' inside a row or the header.
var errHash = errors.New("a '#' inside the line: pandas' comment='#' would cut the line there (only a line that starts with '#' is a comment)")

// parseSeconds reads a time of the SWF part: a plain decimal within
// swf.MaxSeconds, or -1 (unknown).
func parseSeconds(s string) (float64, error) {
	if s == "-1" {
		return -1, nil
	}
	if !decimal(s) {
		return 0, fmt.Errorf("%q: want seconds (a decimal number >= 0) or -1", s)
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || x > swf.MaxSeconds {
		return 0, fmt.Errorf("%q: want at most %g seconds (swf.MaxSeconds)", s, float64(swf.MaxSeconds))
	}
	return x, nil
}

// parseKB reads a memory of the SWF part (KB a processor): a plain
// decimal below 2^53, or -1.
func parseKB(s string) (float64, error) {
	if s == "-1" {
		return -1, nil
	}
	x, err := strconv.ParseFloat(s, 64)
	if !decimal(s) || err != nil || x > maxExact {
		return 0, fmt.Errorf("%q: want KB (a decimal number from 0 to 2^53) or -1", s)
	}
	return x, nil
}

// parseInt reads a whole number in lo..hi.
func parseInt(s string, lo, hi int64) (int64, error) {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < lo || n > hi || s[0] == '+' || s[0] == '-' && lo >= 0 || len(s) > 1 && s[0] == '0' {
		return 0, fmt.Errorf("%q: want a whole number from %d to %d", s, lo, hi)
	}
	return n, nil
}

// decimal says that s is digits with at most one '.' inside (no sign,
// exponent, NaN or Inf).
func decimal(s string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] >= '0' && s[i] <= '9':
			digits++
		case s[i] == '.' && i > 0 && i < len(s)-1:
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

// ParseGRES reads a GRES list as the table writes it: comma-separated
// NAME:COUNT (untyped) or NAME:TYPE:COUNT, each kind once, at most
// MaxGRES of them ("" is none). Names and types are letters, digits, '_',
// '-' and '.' (not starting with '-' or '.'), at most nodes.MaxWordLen
// bytes; counts 1..nodes.MaxGRESUnits.
func ParseGRES(s string) ([]nodes.GRES, error) {
	if s == "" {
		return nil, nil
	}
	items := strings.Split(s, ",")
	if len(items) > MaxGRES {
		return nil, fmt.Errorf("%d GRES: more than %d (jobtable.MaxGRES)", len(items), MaxGRES)
	}
	out := make([]nodes.GRES, 0, len(items))
	seen := map[nodes.Kind]bool{}
	for _, it := range items {
		p := strings.Split(it, ":")
		if len(p) < 2 || len(p) > 3 {
			return nil, fmt.Errorf("%q: want NAME:COUNT or NAME:TYPE:COUNT", it)
		}
		g := nodes.GRES{Name: p[0]}
		if len(p) == 3 {
			g.Type = p[1]
		}
		for _, w := range []string{g.Name, g.Type} {
			if err := checkWord(w, w == g.Type); err != nil {
				return nil, fmt.Errorf("%q: %v", it, err)
			}
		}
		n, err := parseInt(p[len(p)-1], 1, nodes.MaxGRESUnits)
		if err != nil {
			return nil, fmt.Errorf("%q: count %v", it, err)
		}
		g.Count = int(n)
		if seen[g.Kind()] {
			return nil, fmt.Errorf("%s given twice", g.Kind())
		}
		seen[g.Kind()] = true
		out = append(out, g)
	}
	return out, nil
}

// FormatGRES writes a GRES list in ParseGRES's form.
func FormatGRES(gs []nodes.GRES) string {
	parts := make([]string, len(gs))
	for i, g := range gs {
		parts[i] = g.Kind().String() + ":" + strconv.Itoa(g.Count)
	}
	return strings.Join(parts, ",")
}

// checkWord checks a GRES name (or, when typ, a type; "" is then no
// type) as ParseGRES reads it.
func checkWord(w string, typ bool) error {
	if w == "" {
		if typ {
			return nil
		}
		return errors.New("a GRES without a name")
	}
	if len(w) > nodes.MaxWordLen {
		return fmt.Errorf("a word of %d bytes, more than %d (nodes.MaxWordLen)", len(w), nodes.MaxWordLen)
	}
	if w[0] == '-' || w[0] == '.' {
		return fmt.Errorf("%q starts with %q", w, w[0])
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.') {
			return fmt.Errorf("%q: byte %q (want letters, digits, _, - and .)", w, c)
		}
	}
	return nil
}

// CheckWord reports whether w is a GRES name or type the table can hold.
func CheckWord(w string) error { return checkWord(w, false) }

// checkRecord refuses what the table cannot hold in the SWF part, naming
// the column: as swf.Writer, NaN and infinities, negatives other than
// -1, times beyond swf.MaxSeconds, integers beyond 2^53; and processors
// beyond platform.MaxCPUs.
func checkRecord(r *swf.Record) (col, error) {
	for _, t := range []struct {
		c col
		v float64
	}{{cSubmit, r.Submit}, {cWait, r.Wait}, {cRuntime, r.Run}, {cReqTime, r.ReqTime}} {
		if math.IsNaN(t.v) || t.v < 0 && t.v != -1 || t.v > swf.MaxSeconds {
			return t.c, fmt.Errorf("%v: want 0..%g seconds or -1", t.v, float64(swf.MaxSeconds))
		}
	}
	for _, t := range []struct {
		c col
		v float64
	}{{cUsedMem, r.UsedMem}, {cReqMem, r.ReqMem}} {
		if math.IsNaN(t.v) || t.v < 0 && t.v != -1 || t.v > maxExact {
			return t.c, fmt.Errorf("%v: want 0..2^53 KB or -1", t.v)
		}
	}
	if r.JobNumber < 0 || r.JobNumber > maxExact {
		return cID, fmt.Errorf("%d: want 0..2^53", r.JobNumber)
	}
	for _, t := range []struct {
		c  col
		v  int64
		hi int64
	}{{cProcs, int64(r.AllocProcs), platform.MaxCPUs}, {cReqProcs, int64(r.ReqProcs), platform.MaxCPUs},
		{cStatus, int64(r.Status), maxExact}, {cUser, int64(r.User), maxExact}, {cGroup, int64(r.Group), maxExact},
		{cQOS, int64(r.Queue), maxExact}, {cPartition, int64(r.Partition), maxExact}} {
		if t.v < -1 || t.v > t.hi {
			return t.c, fmt.Errorf("%d: want -1..%d", t.v, t.hi)
		}
	}
	return 0, nil
}
