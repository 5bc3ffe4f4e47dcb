package swf

import (
	"fmt"
	"math"
	"strconv"
	"unsafe"

	"github.com/schedlab/schedlab/internal/invariants"
)

// NumFields is the number of fields of an SWF job line.
const NumFields = 18

// Record is one SWF job line, field by field. Every field may be -1,
// meaning "unknown"; no other negative value is valid.
type Record struct {
	JobNumber    int64   // 1: job number
	Submit       float64 // 2: submit time, seconds from the trace start
	Wait         float64 // 3: wait time, seconds from submit to start
	Run          float64 // 4: run time, seconds (0 means < 0.5 s)
	AllocProcs   int     // 5: number of allocated processors
	AvgCPU       float64 // 6: average CPU time used per processor, seconds
	UsedMem      float64 // 7: used memory per processor, KB
	ReqProcs     int     // 8: requested number of processors
	ReqTime      float64 // 9: requested time, seconds
	ReqMem       float64 // 10: requested memory per processor, KB
	Status       int     // 11: 1 completed, 0 failed, 5 cancelled, ...
	User         int     // 12: user ID
	Group        int     // 13: group ID
	Exec         int     // 14: executable (application) number
	Queue        int     // 15: queue number
	Partition    int     // 16: partition number
	PrecedingJob int64   // 17: preceding job number
	ThinkTime    float64 // 18: think time from the preceding job, seconds
}

// FieldName returns the name of the 1-based SWF field n ("submit time" for
// 2), or "" if n is out of range.
func FieldName(n int) string {
	if n < 1 || n > NumFields {
		return ""
	}
	return fieldNames[n-1]
}

var fieldNames = [NumFields]string{
	"job number",
	"submit time",
	"wait time",
	"run time",
	"allocated processors",
	"average CPU time",
	"used memory",
	"requested processors",
	"requested time",
	"requested memory",
	"status",
	"user ID",
	"group ID",
	"executable number",
	"queue number",
	"partition number",
	"preceding job number",
	"think time",
}

// maxExactInt is the largest integer magnitude accepted in an integer
// field: every integer up to 2^53 is exactly representable as a float64.
const maxExactInt = 1 << 53

// intLimit[i] is the largest magnitude accepted in field i+1 if it is an
// integer field, 0 if it is a float field.
var intLimit = func() [NumFields]float64 {
	intMax := float64(maxExactInt)
	if math.MaxInt < maxExactInt { // 32-bit platforms
		intMax = float64(math.MaxInt)
	}
	var l [NumFields]float64
	l[0] = maxExactInt // job number (int64)
	l[4] = intMax      // allocated processors
	l[7] = intMax      // requested processors
	for i := 10; i <= 15; i++ {
		l[i] = intMax // status, user, group, executable, queue, partition
	}
	l[16] = maxExactInt // preceding job (int64)
	return l
}()

// fieldValues is an SWF line's 18 numbers in field order.
type fieldValues [NumFields]float64

func (v *fieldValues) record() Record {
	var r Record
	v.recordInto(&r)
	return r
}

func (v *fieldValues) recordInto(r *Record) {
	*r = Record{
		JobNumber:    int64(v[0]),
		Submit:       v[1],
		Wait:         v[2],
		Run:          v[3],
		AllocProcs:   int(v[4]),
		AvgCPU:       v[5],
		UsedMem:      v[6],
		ReqProcs:     int(v[7]),
		ReqTime:      v[8],
		ReqMem:       v[9],
		Status:       int(v[10]),
		User:         int(v[11]),
		Group:        int(v[12]),
		Exec:         int(v[13]),
		Queue:        int(v[14]),
		Partition:    int(v[15]),
		PrecedingJob: int64(v[16]),
		ThinkTime:    v[17],
	}
}

func (v *fieldValues) set(r *Record) {
	*v = fieldValues{
		float64(r.JobNumber), r.Submit, r.Wait, r.Run, float64(r.AllocProcs),
		r.AvgCPU, r.UsedMem, float64(r.ReqProcs), r.ReqTime, r.ReqMem,
		float64(r.Status), float64(r.User), float64(r.Group), float64(r.Exec),
		float64(r.Queue), float64(r.Partition), float64(r.PrecedingJob), r.ThinkTime,
	}
}

// isSpace reports whether c separates fields. Only ASCII blanks count:
// space, tab, CR, VT and FF.
func isSpace(c byte) bool { return spaceTab[c] }

var spaceTab = [256]bool{' ': true, '\t': true, '\r': true, '\v': true, '\f': true}

// MaxSeconds bounds the time fields of a record (submit, wait, run,
// average CPU time, requested time, think time): about 31,700 years, far
// beyond any trace, and small enough that times keep sub-millisecond
// precision in float64 seconds when added up by a simulation.
const MaxSeconds = 1e12

// timeField marks the time fields (0-based).
var timeField = [NumFields]bool{1: true, 2: true, 3: true, 5: true, 8: true, 17: true}

// parseLine parses one job line (without its line terminator) into a
// record. It returns a field number (0 for the whole line) and a cause on
// error; the caller wraps them in a ParseError.
//
// Splitting and number parsing are fused into one pass over the line; the
// common case (plain integers and short decimal fractions) never leaves
// this function. A wrong field count takes precedence over bad values.
func parseLine(line []byte) (Record, int, error) {
	var r Record
	field, err := parseLineInto(line, &r)
	return r, field, err
}

// parseLineInto is parseLine writing the record to *out, which it leaves
// unchanged on error.
func parseLineInto(line []byte, out *Record) (int, error) {
	var v fieldValues
	n := 0   // fields seen
	bad := 0 // first field (1-based) that is not a number
	// check: some field may be refused by the value checks below. Left
	// false only when every field took the fast path as a plain number
	// that passes them all: -1 or not negative, fewer than 10 digits
	// before the point (below every integer and time limit), and no
	// fraction in an integer field.
	check := invariants.Enabled && alwaysCheck
	for i := 0; i < len(line); {
		if isSpace(line[i]) {
			i++
			continue
		}
		s := i
		neg := line[i] == '-'
		if neg {
			i++
		}
		var mant int64 // int64, not uint64: converts to float64 faster
		ds := i
		for ; i < len(line); i++ {
			d := line[i] - '0'
			if d >= 10 {
				break
			}
			mant = mant*10 + int64(d)
		}
		digits := i - ds
		frac := 0
		if i < len(line) && line[i] == '.' {
			i++
			fs := i
			for ; i < len(line); i++ {
				d := line[i] - '0'
				if d >= 10 {
					break
				}
				mant = mant*10 + int64(d)
			}
			frac = i - fs
			digits += frac
		}
		var x float64
		ok := true
		if (i == len(line) || isSpace(line[i])) && digits > 0 && digits <= 15 {
			x = float64(mant)
			if frac > 0 {
				x /= pow10[frac]
			}
			if neg {
				x = -x
			}
			if (neg && (mant != 1 || frac != 0)) || digits-frac > 9 || (frac > 0 && n < NumFields && intLimit[n] > 0) {
				check = true
			}
		} else {
			for i < len(line) && !isSpace(line[i]) {
				i++
			}
			x, ok = parseNumberSlow(line[s:i])
			check = true
		}
		if n < NumFields {
			v[n] = x
			if !ok && bad == 0 {
				bad = n + 1
			}
		}
		n++
	}
	if n != NumFields {
		return 0, fmt.Errorf("%w: got %d, want %d", ErrFieldCount, n, NumFields)
	}
	if bad > 0 {
		return bad, fmt.Errorf("%w %q", ErrSyntax, fieldText(line, bad))
	}
	if !check {
		v.recordInto(out)
		return 0, nil
	}
	for f, x := range v {
		if x < 0 && x != -1 {
			return f + 1, fmt.Errorf("%w %s (only -1 means unknown)", ErrNegative, fieldText(line, f+1))
		}
		if lim := intLimit[f]; lim > 0 {
			if x != math.Trunc(x) {
				return f + 1, fmt.Errorf("%w: %q", ErrNotInteger, fieldText(line, f+1))
			}
			if x > lim {
				return f + 1, fmt.Errorf("%w: %q is out of range", ErrNotInteger, fieldText(line, f+1))
			}
		}
		if timeField[f] && x > MaxSeconds {
			return f + 1, fmt.Errorf("%w: %s seconds (at most %g)", ErrTooLong, fieldText(line, f+1), float64(MaxSeconds))
		}
	}
	v.recordInto(out)
	return 0, nil
}

// fieldText returns the text of the 1-based field n of line (for error
// messages only).
func fieldText(line []byte, n int) string {
	for i := 0; i < len(line); {
		if isSpace(line[i]) {
			i++
			continue
		}
		s := i
		for i < len(line) && !isSpace(line[i]) {
			i++
		}
		if n--; n == 0 {
			return string(line[s:i])
		}
	}
	return ""
}

// pow10 holds the powers of ten that are exact in a float64.
var pow10 = [...]float64{
	1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
}

// parseNumber parses a decimal number without allocating. Plain integers
// and decimal fractions of up to 15 significant digits take an exact fast
// path (an exact integer divided by an exact power of ten is correctly
// rounded, so the result equals strconv.ParseFloat's); anything else
// (exponents, long mantissas) is checked against the decimal grammar and
// handed to strconv.ParseFloat. NaN, Inf, hexadecimal floats, underscores
// and out-of-range values are rejected.
func parseNumber(b []byte) (float64, bool) {
	i := 0
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		i = 1
	}
	var mant uint64
	digits := 0
	for ; i < len(b) && b[i]-'0' < 10; i++ {
		mant = mant*10 + uint64(b[i]-'0')
		digits++
	}
	frac := 0
	if i < len(b) && b[i] == '.' {
		i++
		for ; i < len(b) && b[i]-'0' < 10; i++ {
			mant = mant*10 + uint64(b[i]-'0')
			frac++
		}
		digits += frac
	}
	if i == len(b) && digits > 0 && digits <= 15 {
		x := float64(mant)
		if frac > 0 {
			x /= pow10[frac]
		}
		if neg {
			x = -x
		}
		return x, true
	}
	return parseNumberSlow(b)
}

func parseNumberSlow(b []byte) (float64, bool) {
	if !validDecimal(b) {
		return 0, false
	}
	x, err := strconv.ParseFloat(unsafe.String(&b[0], len(b)), 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, false
	}
	return x, true
}

// validDecimal reports whether b is [+-]? digits [. digits] [e [+-] digits]
// with at least one mantissa digit.
func validDecimal(b []byte) bool {
	i := 0
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		i++
	}
	digits := 0
	for ; i < len(b) && b[i]-'0' < 10; i++ {
		digits++
	}
	if i < len(b) && b[i] == '.' {
		i++
		for ; i < len(b) && b[i]-'0' < 10; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '-' || b[i] == '+') {
			i++
		}
		e := 0
		for ; i < len(b) && b[i]-'0' < 10; i++ {
			e++
		}
		if e == 0 {
			return false
		}
	}
	return i == len(b)
}
