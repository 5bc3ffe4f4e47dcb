package option

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Type is the type of an option's value.
type Type uint8

const (
	Int      Type = iota + 1 // an integer
	Float                    // a finite number
	Fraction                 // a finite number; "10%" in scenario files
	Bool                     // true or false
	Enum                     // one of Decl.Values
	Text                     // free text the policy parses itself ("" = its default)
)

func (t Type) String() string {
	switch t {
	case Int:
		return "integer"
	case Float:
		return "number"
	case Fraction:
		return "fraction"
	case Bool:
		return "true or false"
	case Enum:
		return "name"
	case Text:
		return "text"
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}

// Range bounds a numeric option. The zero Range is [0, 0]: write bounds
// with AtLeast, Above or Between.
type Range struct {
	Min, Max float64 // -Inf, +Inf: unbounded
	MinOpen  bool    // Min itself is excluded
}

// AtLeast is [min, +Inf).
func AtLeast(min float64) Range { return Range{Min: min, Max: math.Inf(1)} }

// Above is (min, +Inf).
func Above(min float64) Range { return Range{Min: min, Max: math.Inf(1), MinOpen: true} }

// Between is [min, max].
func Between(min, max float64) Range { return Range{Min: min, Max: max} }

// Contains reports whether x is in the range.
func (r Range) Contains(x float64) bool {
	if r.MinOpen && !(x > r.Min) || !r.MinOpen && !(x >= r.Min) {
		return false
	}
	return x <= r.Max
}

// String describes the range as it completes "must be ...": ">= 0",
// "> 0", "in [0, 1]".
func (r Range) String() string {
	lo := "["
	if r.MinOpen {
		lo = "("
	}
	switch {
	case math.IsInf(r.Max, 1) && math.IsInf(r.Min, -1):
		return "a number"
	case math.IsInf(r.Max, 1) && r.MinOpen:
		return "> " + numText(r.Min)
	case math.IsInf(r.Max, 1):
		return ">= " + numText(r.Min)
	}
	return "in " + lo + numText(r.Min) + ", " + numText(r.Max) + "]"
}

// numText writes a bound: integers in full (1000000, not 1e+06), other
// numbers in their shortest form.
func numText(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// Decl declares one option of a policy (or a setting of a model that
// reads like one).
type Decl struct {
	Name string // as in scenario files: lower case, words joined by "_"
	Key  string // the scenario key: "policy." + Name for most options
	Type Type
	// Values are the allowed values of an Enum, in documentation order,
	// the default first.
	Values []string
	Range  Range // Int, Float, Fraction
	// Default is the value, as written in a scenario file, taken when the
	// option is not given; "" means the option is required (a Text
	// option's "" is its own default: Text options are never required).
	Default string
	Doc     string // one line
	// Note says why Values is narrower for this policy than for the
	// others of its kind, for the message that refuses a value ("" when it
	// is not).
	Note string

	// KeyName is the option's name in result keys (scenario.Key), e.g.
	// a short form of a long name; "" = Name. Keys are file names of
	// saved results: a KeyName never changes once released.
	KeyName string
	// KeyAlways writes the option in result keys even at its default (the
	// options of the first releases, whose keys always named them); every
	// other option is written only when the point sets it away from its
	// default, so adding an option keeps every existing key.
	KeyAlways bool
	// ZeroDistinct: the value 0 (or false) of an option whose default is
	// not zero is a real setting and is written in keys.
	ZeroDistinct bool
	// On and When: the option is read only when the option On of the same
	// policy has one of the values When (a window size read only with
	// fixed windows); elsewhere it is left out of keys and may not be set.
	On   string
	When []string

	// Flag is the 'schedlab run' flag that sets the option ("" = only
	// 'run --set NAME=VALUE'); its help is Doc.
	Flag string
	// FromFlag, when set, reads the flag's text into option texts (the
	// flag may set several options: matrix's --window fixed:8 sets the
	// window rule and its size); nil: the text is the option's own.
	FromFlag func(text string) (map[string]string, error)
	// Valid, when set, checks a Text option's value (the policy's own
	// syntax) when it is checked, so that a bad value is refused before
	// any work.
	Valid func(text string) error
}

// Required reports an option without a default.
func (d Decl) Required() bool { return d.Default == "" && d.Type != Text }

// Clone returns a copy that shares nothing with d.
func (d Decl) Clone() Decl {
	d.Values, d.When = slices.Clone(d.Values), slices.Clone(d.When)
	return d
}

// CloneAll copies a list of declarations.
func CloneAll(ds []Decl) []Decl {
	if ds == nil {
		return nil
	}
	out := make([]Decl, len(ds))
	for i, d := range ds {
		out[i] = d.Clone()
	}
	return out
}

// Value is one checked value.
type Value struct {
	Text  string  // canonical text: numbers in their shortest form, "10%" as 0.1
	Int   int64   // Int
	Float float64 // Int, Float, Fraction
	Bool  bool    // Bool
}

// Parse checks text as a value of the option: its type, range or allowed
// values. A Fraction may be written "10%". The error says what is wrong
// and what is allowed, without the option's name (the caller says where).
func (d Decl) Parse(text string) (Value, error) {
	t := strings.TrimSpace(text)
	switch d.Type {
	case Int:
		n, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return Value{}, fmt.Errorf("%q is not an integer", text)
		}
		if !d.Range.Contains(float64(n)) {
			return Value{}, fmt.Errorf("%d is out of range: must be %s", n, d.Range)
		}
		return Value{Text: strconv.FormatInt(n, 10), Int: n, Float: float64(n)}, nil
	case Float, Fraction:
		s, pct := t, false
		if d.Type == Fraction {
			s, pct = strings.CutSuffix(t, "%")
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return Value{}, fmt.Errorf("%q is not a finite number", text)
		}
		if pct {
			f /= 100
		}
		if !d.Range.Contains(f) {
			return Value{}, fmt.Errorf("%s is out of range: must be %s", t, d.Range)
		}
		return Value{Text: strconv.FormatFloat(f, 'g', -1, 64), Float: f}, nil
	case Bool:
		b, err := strconv.ParseBool(t)
		if err != nil {
			return Value{}, fmt.Errorf("%q is not true or false", text)
		}
		return Value{Text: strconv.FormatBool(b), Bool: b}, nil
	case Enum:
		if !slices.Contains(d.Values, t) {
			for _, v := range d.Values { // case does not matter: SJF is sjf
				if strings.EqualFold(v, t) {
					return Value{Text: v}, nil
				}
			}
			msg := fmt.Sprintf("%q is not one of %s", text, strings.Join(d.Values, ", "))
			if d.Note != "" {
				msg += " (" + d.Note + ")"
			}
			if s := Suggest(t, d.Values); s != "" {
				msg += "; did you mean " + s + "?"
			}
			return Value{}, errors.New(msg)
		}
		return Value{Text: t}, nil
	case Text:
		if d.Valid != nil && t != "" {
			if err := d.Valid(t); err != nil {
				return Value{}, err
			}
		}
		return Value{Text: t}, nil
	}
	return Value{}, fmt.Errorf("option %s has no type", d.Name)
}

// Values are checked values of a policy's options: every declared option
// is present (given, or its default), and nothing else. The zero Values
// holds nothing. Values are immutable.
type Values struct {
	m map[string]Value
}

// Error is a problem with one option: its name and what is wrong.
type Error struct {
	Name string // the option
	Err  error
}

func (e *Error) Error() string { return "option " + e.Name + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// ErrUnknown is the error of an option the policy does not declare;
// ErrRequired of a required option not given.
var (
	ErrUnknown  = errors.New("not an option of this policy")
	ErrRequired = errors.New("required (it has no default)")
)

// Check checks the given texts (option name -> text) against decls and
// returns every declared option's value: the given one, else its default.
// Every problem is reported (errors.Join of *Error, in declaration order,
// then unknown names sorted).
func Check(decls []Decl, given map[string]string) (Values, error) {
	v := Values{m: make(map[string]Value, len(decls))}
	var errs []error
	for _, d := range decls {
		text, ok := given[d.Name]
		if !ok {
			if d.Required() {
				errs = append(errs, &Error{Name: d.Name, Err: ErrRequired})
				continue
			}
			text = d.Default
		}
		x, err := d.Parse(text)
		if err != nil {
			errs = append(errs, &Error{Name: d.Name, Err: err})
			continue
		}
		v.m[d.Name] = x
	}
	var unknown []string
	for name := range given {
		if !slices.ContainsFunc(decls, func(d Decl) bool { return d.Name == name }) {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		errs = append(errs, &Error{Name: name, Err: ErrUnknown})
	}
	if len(errs) > 0 {
		return Values{}, errors.Join(errs...)
	}
	return v, nil
}

// Defaults are the values of decls when nothing is given (an error only
// if some option is required).
func Defaults(decls []Decl) (Values, error) { return Check(decls, nil) }

func (v Values) get(name string) Value {
	x, ok := v.m[name]
	if !ok {
		panic("option: " + name + " is not a declared option of this policy")
	}
	return x
}

// Has reports whether the values hold the option called name.
func (v Values) Has(name string) bool {
	_, ok := v.m[name]
	return ok
}

// Int is the integer option called name.
func (v Values) Int(name string) int { return int(v.get(name).Int) }

// Float is the numeric option called name.
func (v Values) Float(name string) float64 { return v.get(name).Float }

// Bool is the boolean option called name.
func (v Values) Bool(name string) bool { return v.get(name).Bool }

// Text is the option called name as canonical text (an enum's name).
func (v Values) Text(name string) string { return v.get(name).Text }

// Texts are every value as canonical text, by name (a fresh map).
func (v Values) Texts() map[string]string {
	out := make(map[string]string, len(v.m))
	for k, x := range v.m {
		out[k] = x.Text
	}
	return out
}
