package nodesref

import (
	"fmt"
	"slices"
)

// constraint is a parsed feature constraint: a feature (word), or the
// and (op '&') or or (op '|') of its parts. The zero constraint (no word,
// no parts) is satisfied by every node.
type constraint struct {
	word  string
	op    byte
	parts []constraint
}

// matches reports whether a node with features satisfies c.
func (c constraint) matches(features []string) bool {
	switch {
	case c.word != "":
		return slices.Contains(features, c.word)
	case c.op == '&':
		for _, p := range c.parts {
			if !p.matches(features) {
				return false
			}
		}
		return true
	case c.op == '|':
		for _, p := range c.parts {
			if p.matches(features) {
				return true
			}
		}
		return false
	}
	return true // the empty constraint
}

// parseConstraint parses a constraint ("" is the empty one): features,
// & and | (never both at one level without parentheses) and parentheses.
// It panics on anything else.
func parseConstraint(s string) constraint {
	if s == "" {
		return constraint{}
	}
	p := &cparser{s: s}
	c := p.expr()
	if p.i != len(s) {
		p.fail("unexpected character")
	}
	return c
}

type cparser struct {
	s string
	i int
}

func (p *cparser) fail(what string) {
	panic(fmt.Sprintf("nodesref: constraint %q: column %d: %s", p.s, p.i+1, what))
}

// expr := term { op term }, one op throughout.
func (p *cparser) expr() constraint {
	first := p.term()
	c := constraint{parts: []constraint{first}}
	for p.i < len(p.s) && (p.s[p.i] == '&' || p.s[p.i] == '|') {
		op := p.s[p.i]
		if c.op != 0 && c.op != op {
			p.fail("& and | mixed without parentheses")
		}
		c.op = op
		p.i++
		c.parts = append(c.parts, p.term())
	}
	if c.op == 0 {
		return first
	}
	return c
}

// term := word | ( expr )
func (p *cparser) term() constraint {
	if p.i < len(p.s) && p.s[p.i] == '(' {
		p.i++
		c := p.expr()
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			p.fail("want )")
		}
		p.i++
		return c
	}
	start := p.i
	for p.i < len(p.s) && isWordByte(p.s[p.i]) {
		p.i++
	}
	if p.i == start {
		p.fail("want a feature")
	}
	return constraint{word: p.s[start:p.i]}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.'
}
