package nodes

import (
	"slices"
	"strings"
)

// Limits of a constraint.
const (
	// MaxConstraintLen bounds the text of a constraint, in bytes.
	MaxConstraintLen = 4096
	// MaxConstraintDepth bounds the nesting of parentheses.
	MaxConstraintDepth = 32
)

// Constraint is a parsed feature constraint, Slurm's --constraint of
// features joined by '&' (and) and '|' (or), grouped with parentheses,
// evaluated against one node's features. Its zero value is the empty
// constraint, which every node satisfies.
type Constraint struct {
	root *cnode
}

type cnode struct {
	feature string   // a leaf when kids is nil
	and     bool     // the operator joining kids
	kids    []*cnode // two or more
}

// ParseConstraint parses a constraint: a feature (letters, digits, '_',
// '-', '.'), or constraints joined by '&' or by '|', or a constraint in
// parentheses. One level may not mix '&' and '|' without parentheses
// ("a|b&c" is refused: write "(a|b)&c" or "a|(b&c)"), so no reading of
// precedence is needed. Slurm's matching OR ("[a|b]"), counts ("a*2")
// and anything else are refused; so is whitespace. The empty text is the
// empty constraint. Errors are *Error with the column.
func ParseConstraint(s string) (Constraint, error) {
	if len(s) > MaxConstraintLen {
		return Constraint{}, errAt(0, "constraint of %d bytes, more than %d (MaxConstraintLen)", len(s), MaxConstraintLen)
	}
	if s == "" {
		return Constraint{}, nil
	}
	p := &cparser{s: s}
	n, err := p.expr(0)
	if err != nil {
		return Constraint{}, err
	}
	if p.i < len(s) {
		return Constraint{}, p.unexpected()
	}
	return Constraint{root: n}, nil
}

type cparser struct {
	s string
	i int
}

func (p *cparser) unexpected() error {
	if p.i == len(p.s) {
		return errAt(p.i, "constraint ends early: want a feature or '('")
	}
	switch c := p.s[p.i]; c {
	case '[', ']':
		return errAt(p.i, "matching OR (brackets) is not supported: it needs the allocation, not one node")
	case '*':
		return errAt(p.i, "feature counts ('*') are not supported: they need the allocation, not one node")
	case ')':
		return errAt(p.i, "')' without '('")
	case ' ', '\t', '\n', '\r':
		return errAt(p.i, "whitespace in a constraint")
	case ',':
		return errAt(p.i, "',' in a constraint: use '&' (and) or '|' (or)")
	case '&', '|':
		return errAt(p.i, "%q with nothing before it", c)
	}
	if p.i > 0 && p.s[p.i-1] == ')' && nameByte(p.s[p.i]) {
		return errAt(p.i, "a feature right after ')': want '&' or '|' between them")
	}
	return errAt(p.i, "%q may not appear in a constraint (features, '&', '|', '(', ')')", p.s[p.i])
}

func (p *cparser) expr(depth int) (*cnode, error) {
	first, err := p.term(depth)
	if err != nil {
		return nil, err
	}
	var op byte
	n := first
	for p.i < len(p.s) && (p.s[p.i] == '&' || p.s[p.i] == '|') {
		c := p.s[p.i]
		if op == 0 {
			op = c
			n = &cnode{and: c == '&', kids: []*cnode{first}}
		} else if c != op {
			return nil, errAt(p.i, "'&' and '|' mixed without parentheses: group them, as (a|b)&c or a|(b&c)")
		}
		p.i++
		k, err := p.term(depth)
		if err != nil {
			return nil, err
		}
		n.kids = append(n.kids, k)
	}
	return n, nil
}

func (p *cparser) term(depth int) (*cnode, error) {
	if p.i < len(p.s) && p.s[p.i] == '(' {
		if depth >= MaxConstraintDepth {
			return nil, errAt(p.i, "parentheses nested more than %d deep (MaxConstraintDepth)", MaxConstraintDepth)
		}
		open := p.i
		p.i++
		if p.i < len(p.s) && p.s[p.i] == ')' {
			return nil, errAt(open, "empty parentheses")
		}
		n, err := p.expr(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.i == len(p.s) || p.s[p.i] != ')' {
			if p.i == len(p.s) {
				return nil, errAt(open, "'(' without ')'")
			}
			return nil, p.unexpected()
		}
		p.i++
		return n, nil
	}
	j := p.i
	for j < len(p.s) && nameByte(p.s[j]) {
		j++
	}
	if j == p.i {
		return nil, p.unexpected()
	}
	f := p.s[p.i:j]
	if len(f) > MaxWordLen {
		return nil, errAt(p.i, "feature of %d bytes, more than %d (MaxWordLen)", len(f), MaxWordLen)
	}
	p.i = j
	return &cnode{feature: f}, nil
}

// Eval reports whether a node with the sorted features satisfies c.
func (c Constraint) Eval(features []string) bool {
	if c.root == nil {
		return true
	}
	return c.root.eval(features)
}

// Matches reports whether node n satisfies c.
func (c Constraint) Matches(n Node) bool { return c.Eval(n.features) }

func (n *cnode) eval(fs []string) bool {
	if n.kids == nil {
		_, ok := slices.BinarySearch(fs, n.feature)
		return ok
	}
	for _, k := range n.kids {
		if k.eval(fs) != n.and {
			return !n.and
		}
	}
	return n.and
}

// String is the constraint with parentheses exactly where a group is
// nested ("(a|b)&c"); "" for the empty constraint.
func (c Constraint) String() string {
	if c.root == nil {
		return ""
	}
	var b strings.Builder
	c.root.write(&b, false)
	return b.String()
}

func (n *cnode) write(b *strings.Builder, nested bool) {
	if n.kids == nil {
		b.WriteString(n.feature)
		return
	}
	if nested {
		b.WriteByte('(')
	}
	for i, k := range n.kids {
		if i > 0 {
			if n.and {
				b.WriteByte('&')
			} else {
				b.WriteByte('|')
			}
		}
		k.write(b, true)
	}
	if nested {
		b.WriteByte(')')
	}
}
