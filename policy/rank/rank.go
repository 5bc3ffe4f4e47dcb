package rank

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/internal/enum"
)

// Form is the shape of a rank function.
type Form uint8

const (
	// FormOriginal: Const + CPU*procs + Mem*MB + Speed*speed, with the
	// coefficients of Eq. 1 (3000, 75, 10; constant 0).
	FormOriginal Form = iota
	// FormLinear: the same shape, with the fitted coefficients of
	// Tables 2-3 (constant 257.099, CPU 6.565, Mem -0.011; no speed term).
	FormLinear
	// FormLog: Const + CPU*lg(procs) + Mem*lg(MB) + Speed*lg(speed), lg
	// the log10 of a value >= 1 and 0 below (Tables 6-7: 10.130, 568.756,
	// 91.513; no speed term).
	FormLog
)

// Forms lists the forms in documentation order, the default first.
func Forms() []Form { return []Form{FormOriginal, FormLinear, FormLog} }

func (f Form) String() string {
	switch f {
	case FormOriginal:
		return "original"
	case FormLinear:
		return "linear"
	case FormLog:
		return "log"
	}
	return "Form(" + strconv.Itoa(int(f)) + ")"
}

// FormNames lists the forms' names, the default first.
func FormNames() []string { return enum.Names(Forms()...) }

// ParseForm parses "original", "linear" or "log".
func ParseForm(s string) (Form, error) { return enum.ParseNamed("rank", s, Forms()...) }

// Rank is a rank function: a form and its coefficients.
type Rank struct {
	Form                   Form
	Const, CPU, Mem, Speed float64
	// MemUnitKB is the memory unit the rank reads, in KB: 0 or 1024 is MB
	// (the default, as the issue and the paper's fitted data imply); 1
	// reads memory in KB, a named alternative reading of the paper's
	// unitless "Memory_size" (docs/papers/alnajjar2019.md).
	MemUnitKB float64
	// LogBelowOne makes FormLog take the log10 of every value > 0, as Eq.
	// 6 writes it, so memory below 1 MB per CPU gives a negative term;
	// false counts a value below 1 as 0 (our first reading; unknown
	// memory, 0, is 0 either way).
	LogBelowOne bool
}

// Named returns the paper's rank of form f.
func Named(f Form) Rank {
	switch f {
	case FormLinear:
		// Tables 2-3: 257.0989 (Eq. 5's "57.099" drops the leading 2).
		return Rank{Form: FormLinear, Const: 257.099, CPU: 6.565, Mem: -0.011}
	case FormLog:
		// Tables 6-7: F4 = 91.513 (the text's "1.513" drops the 9).
		return Rank{Form: FormLog, Const: 10.130, CPU: 568.756, Mem: 91.513}
	}
	return Rank{Form: FormOriginal, CPU: 3000, Mem: 75, Speed: 10}
}

// WithCoefficients returns r with its constant, CPU and memory
// coefficients replaced (the speed coefficient is kept: the fit command
// does not estimate one). Each must be a finite number.
func (r Rank) WithCoefficients(c, cpu, mem float64) (Rank, error) {
	for _, x := range []float64{c, cpu, mem} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return Rank{}, fmt.Errorf("rank coefficients must be finite numbers, got %g, %g, %g", c, cpu, mem)
		}
	}
	r.Const, r.CPU, r.Mem = c, cpu, mem
	return r, nil
}

// ParseCoefficients parses "c,cpu,mem": three finite numbers separated by
// commas (spaces around them allowed), as the fit command prints them.
func ParseCoefficients(s string) (c, cpu, mem float64, err error) {
	parts := strings.Split(s, ",")
	if len(parts) != 3 {
		return 0, 0, 0, fmt.Errorf("rank coefficients %q: want three numbers c,cpu,mem, got %d field(s)", s, len(parts))
	}
	var xs [3]float64
	names := [3]string{"c", "cpu", "mem"}
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, 0, 0, fmt.Errorf("rank coefficients %q: field %d (%s) %q is not a finite number", s, i+1, names[i], strings.TrimSpace(p))
		}
		xs[i] = x
	}
	return xs[0], xs[1], xs[2], nil
}

// Valid reports a rank with an unknown form or a coefficient that is not
// a finite number.
func (r Rank) Valid() error {
	if r.Form > FormLog {
		return fmt.Errorf("unknown rank form %d", r.Form)
	}
	for _, x := range []float64{r.Const, r.CPU, r.Mem, r.Speed} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("rank %s: coefficients must be finite numbers, got %g, %g, %g, %g", r.Form, r.Const, r.CPU, r.Mem, r.Speed)
		}
	}
	if !(r.MemUnitKB >= 0) || math.IsInf(r.MemUnitKB, 0) {
		return fmt.Errorf("rank %s: memory unit %g KB (want a finite number > 0, or 0 for MB)", r.Form, r.MemUnitKB)
	}
	return nil
}

// lg is the log10 of x for x >= 1 and 0 otherwise (unknown memory is 0,
// memory below 1 MB counts as none; NaN counts as 0 too).
func lg(x float64) float64 {
	if !(x >= 1) {
		return 0
	}
	return math.Log10(x)
}

// lgPos is the log10 of x for x > 0 and 0 otherwise (unknown: 0).
func lgPos(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	return math.Log10(x)
}

// Of is the rank of a job of procs CPUs with memKB KB of memory per CPU
// (0: unknown) requiring CPU speed speed (0: any). Memory enters in MB
// (memKB / 1024).
func (r Rank) Of(procs int, memKB, speed float64) float64 {
	unit := r.MemUnitKB
	if unit == 0 {
		unit = 1024
	}
	cpu, mb := float64(procs), memKB/unit
	if r.Form == FormLog {
		l := lg
		if r.LogBelowOne {
			l = lgPos
		}
		return r.Const + r.CPU*l(cpu) + r.Mem*l(mb) + r.Speed*l(speed)
	}
	return r.Const + r.CPU*cpu + r.Mem*mb + r.Speed*speed
}

func (r Rank) String() string {
	mem := "MemMB"
	if r.MemUnitKB != 0 && r.MemUnitKB != 1024 {
		mem = fmt.Sprintf("Mem(%gKB)", r.MemUnitKB)
	}
	switch r.Form {
	case FormLog:
		return fmt.Sprintf("log: %g%s%s", r.Const, term(r.CPU, "log10(CPU)"), term(r.Mem, "log10("+mem+")"))
	case FormLinear:
		return fmt.Sprintf("linear: %g%s%s", r.Const, term(r.CPU, "CPU"), term(r.Mem, mem))
	}
	return fmt.Sprintf("original: %g%s%s%s", r.Const, term(r.CPU, "CPU"), term(r.Mem, mem), term(r.Speed, "Speed"))
}

// term writes " + c*x" or " - |c|*x".
func term(c float64, x string) string {
	if c < 0 {
		return fmt.Sprintf(" - %g*%s", -c, x)
	}
	return fmt.Sprintf(" + %g*%s", c, x)
}
