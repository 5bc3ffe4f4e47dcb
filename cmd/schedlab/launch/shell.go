package launch

import (
	"fmt"
	"regexp"
	"strings"
)

// A shell script as typed values: statements whose arguments are words,
// each a sequence of literal text (quoted when written) and parameter
// expansions (written "${name}", so never split or globbed).

type part struct {
	text   string
	expand bool // text is a parameter name, written "${text}"
}

type word []part

// lit is a literal word.
func lit(s string) word { return word{{text: s}} }

// param is the expansion of a shell parameter.
func param(name string) part { return part{text: name, expand: true} }

// words are literal words.
func words(ss ...string) []word {
	out := make([]word, len(ss))
	for i, s := range ss {
		out[i] = lit(s)
	}
	return out
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)
var paramName = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_]*|[0-9])$`)

// quote writes s as one shell word: as it is when it holds only
// characters no shell treats specially, else in single quotes (a single
// quote inside becomes '\”).
func quote(s string) string {
	if shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func (w word) String() string {
	var b strings.Builder
	for _, p := range w {
		if p.expand {
			b.WriteString(`"${` + p.text + `}"`)
		} else {
			b.WriteString(quote(p.text))
		}
	}
	return b.String()
}

// stmt is one statement of a script.
type stmt interface{ shell() (string, error) }

// comment is a comment line (one line: no newline).
type comment string

func (c comment) shell() (string, error) {
	if strings.ContainsAny(string(c), "\n\r") {
		return "", fmt.Errorf("comment %q: more than one line", string(c))
	}
	if c == "" {
		return "#", nil
	}
	return "# " + string(c), nil
}

// command runs args; with capture set, its standard output is assigned
// to that variable (capture=$(...)); with stdin set, the command reads
// that script as a here-document whose delimiter is quoted (nothing in
// it is expanded).
type command struct {
	capture string
	args    []word
	stdin   *heredoc
}

type heredoc struct {
	delim string
	body  script
}

func (c command) shell() (string, error) {
	var b strings.Builder
	if c.capture != "" {
		if !paramName.MatchString(c.capture) {
			return "", fmt.Errorf("%q: not a variable name", c.capture)
		}
		b.WriteString(c.capture + "=$(")
	}
	for i, w := range c.args {
		if i > 0 {
			b.WriteString(" ")
		}
		for _, p := range w {
			if p.expand && !paramName.MatchString(p.text) {
				return "", fmt.Errorf("%q: not a parameter name", p.text)
			}
		}
		b.WriteString(w.String())
	}
	if c.stdin != nil {
		body, err := c.stdin.body.text()
		if err != nil {
			return "", err
		}
		if !paramName.MatchString(c.stdin.delim) {
			return "", fmt.Errorf("here-document delimiter %q", c.stdin.delim)
		}
		for _, line := range strings.Split(body, "\n") {
			if line == c.stdin.delim {
				return "", fmt.Errorf("the here-document holds its delimiter %s as a line", c.stdin.delim)
			}
		}
		fmt.Fprintf(&b, " <<'%s'\n%s%s", c.stdin.delim, body, c.stdin.delim)
	}
	if c.capture != "" {
		if c.stdin != nil {
			b.WriteString("\n")
		}
		b.WriteString(")")
	}
	return b.String(), nil
}

// defaultParam is name=${N:-def}: the script's N-th argument, or def.
// def must be a safe word.
type defaultParam struct {
	name string
	n    int // 1..9
	def  string
}

func (d defaultParam) shell() (string, error) {
	if !paramName.MatchString(d.name) || d.n < 1 || d.n > 9 || !shellSafe.MatchString(d.def) {
		return "", fmt.Errorf("default parameter %+v", d)
	}
	return fmt.Sprintf("%s=${%d:-%s}", d.name, d.n, d.def), nil
}

// firstField is name=${name%%;*}: what sbatch --parsable prints is
// "jobid" or "jobid;cluster".
type firstField string

func (f firstField) shell() (string, error) {
	if !paramName.MatchString(string(f)) {
		return "", fmt.Errorf("%q: not a variable name", string(f))
	}
	return fmt.Sprintf("%s=${%s%%%%;*}", f, f), nil
}

// script is a list of statements, after an interpreter line.
type script struct {
	interpreter string // "/bin/bash"
	stmts       []stmt
}

func (s script) text() (string, error) {
	var b strings.Builder
	if s.interpreter != "" {
		b.WriteString("#!" + s.interpreter + "\n")
	}
	for _, st := range s.stmts {
		line, err := st.shell()
		if err != nil {
			return "", err
		}
		b.WriteString(line + "\n")
	}
	return b.String(), nil
}
