package option

import (
	"errors"
	"strings"
	"testing"
)

var decls = []Decl{
	{Name: "depth", Type: Int, Range: AtLeast(0), Default: "0"},
	{Name: "ai", Type: Float, Range: Above(0)},
	{Name: "frac", Type: Fraction, Range: Between(0, 1), Default: "0.5"},
	{Name: "pin", Type: Bool, Default: "true"},
	{Name: "order", Type: Enum, Values: []string{"fcfs", "sjf"}, Default: "fcfs", Note: "a note"},
	{Name: "coeffs", Type: Text, Valid: func(s string) error {
		if strings.Count(s, ",") != 2 {
			return errors.New("want three numbers")
		}
		return nil
	}},
}

// Given values are parsed by type; the others take their defaults; a
// Text option's default is "".
func TestCheck(t *testing.T) {
	v, err := Check(decls, map[string]string{"ai": "0.25", "frac": "10%", "order": "sjf", "coeffs": "1,2,3"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Int("depth") != 0 || v.Float("ai") != 0.25 || v.Float("frac") != 0.1 || !v.Bool("pin") ||
		v.Text("order") != "sjf" || v.Text("coeffs") != "1,2,3" || v.Text("frac") != "0.1" {
		t.Errorf("values %v", v.Texts())
	}
	if !v.Has("pin") || v.Has("nope") {
		t.Error("Has")
	}
}

// Every problem is reported, each naming its option and rule; unknown
// names come last, sorted.
func TestCheckErrors(t *testing.T) {
	_, err := Check(decls, map[string]string{"depth": "-1", "frac": "150%", "pin": "yes", "order": "lifo",
		"coeffs": "1,2", "zeta": "1", "alpha": "2"})
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{
		`option depth: -1 is out of range: must be >= 0`,
		`option ai: required (it has no default)`,
		`option frac: 150% is out of range: must be in [0, 1]`,
		`option pin: "yes" is not true or false`,
		`option order: "lifo" is not one of fcfs, sjf (a note)`,
		`option coeffs: want three numbers`,
		`option alpha: not an option of this policy`,
		`option zeta: not an option of this policy`,
	}
	if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", err, strings.Join(want, "\n"))
	}
	var oe *Error
	if !errors.As(err, &oe) || oe.Name != "depth" {
		t.Errorf("errors.As: %v", oe)
	}
	if !errors.Is(err, ErrRequired) || !errors.Is(err, ErrUnknown) {
		t.Error("errors.Is: the sentinels")
	}
	for _, text := range []string{"1e400", "NaN", "inf", "x"} {
		if _, err := (Decl{Name: "x", Type: Float, Range: AtLeast(0)}).Parse(text); err == nil {
			t.Errorf("float %q accepted", text)
		}
	}
	if _, err := (Decl{Name: "n", Type: Int, Range: AtLeast(0)}).Parse("1.5"); err == nil {
		t.Error("int 1.5 accepted")
	}
}

// Reading an undeclared option is a programming error.
func TestUndeclaredPanics(t *testing.T) {
	v, _ := Defaults([]Decl{{Name: "a", Type: Int, Range: AtLeast(0), Default: "1"}})
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	v.Int("b")
}

func TestRangeString(t *testing.T) {
	for _, c := range []struct {
		r    Range
		want string
	}{
		{AtLeast(0), ">= 0"}, {Above(0), "> 0"}, {Between(0, 1), "in [0, 1]"},
		{Between(0, 1_000_000), "in [0, 1000000]"}, {Range{Min: 0.5, Max: 2, MinOpen: true}, "in (0.5, 2]"},
	} {
		if got := c.r.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}

// Enum values match whatever their case, and read as declared.
func TestEnumCaseInsensitive(t *testing.T) {
	d := Decl{Name: "order", Type: Enum, Values: []string{"fcfs", "sjf"}, Default: "fcfs"}
	for _, in := range []string{"SJF", "Sjf", "sjf"} {
		v, err := d.Parse(in)
		if err != nil || v.Text != "sjf" {
			t.Errorf("Parse(%q) = %+v, %v; want sjf", in, v, err)
		}
	}
}

// An enum value given in another case is the declared value; a
// misspelling says the value it is closest to, when exactly one is
// within two edits, and nothing when none or several are.
func TestEnumCaseAndSuggestion(t *testing.T) {
	d := Decl{Name: "order", Type: Enum, Values: []string{"fcfs", "sjf", "multifactor"}}
	if v, err := d.Parse("SJF"); err != nil || v.Text != "sjf" {
		t.Errorf("SJF: %v, %v; want sjf", v, err)
	}
	for _, c := range []struct{ text, want string }{
		{"sfj", `"sfj" is not one of fcfs, sjf, multifactor; did you mean sjf?`},
		{"multifacter", `"multifacter" is not one of fcfs, sjf, multifactor; did you mean multifactor?`},
		{"lifo", `"lifo" is not one of fcfs, sjf, multifactor`},
	} {
		_, err := d.Parse(c.text)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: %v, want %q", c.text, err, c.want)
		}
	}
	for _, c := range []struct {
		name  string
		known []string
		want  string
	}{
		{"Easy", []string{"fcfs", "easy"}, "easy"},
		{"eazy", []string{"fcfs", "easy"}, "easy"},
		{"ab", []string{"aa", "bb"}, ""}, // two within two edits: none guessed
		{"xyzzy", []string{"fcfs", "easy"}, ""},
	} {
		if got := Suggest(c.name, c.known); got != c.want {
			t.Errorf("Suggest(%q, %q) = %q, want %q", c.name, c.known, got, c.want)
		}
	}
}
