package scenario

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
)

// value decodes one scalar node for a field, checking its type, range
// and allowed values.
func (d *decoder) value(f *field, path string, n ast.Node) (val, bool) {
	v := val{at: posOf(n)}
	if t, ok := n.(*ast.TagNode); ok {
		tag := "!"
		if t.Start != nil {
			tag = t.Start.Value
		}
		d.add(posOf(n), path, "YAML tags (%s) are not supported", tag)
		return v, false
	}
	if l, ok := n.(*ast.LiteralNode); ok && l.Value != nil {
		n = l.Value
	}
	text, scalar := scalarText(n)
	v.text = text
	bad := func() (val, bool) {
		d.add(v.at, path, "must be %s, got %s", kindNames[f.kind], describe(n))
		return v, false
	}
	if !scalar {
		return bad()
	}
	switch f.kind {
	case kInt:
		x, ok, msg := intOf(n)
		if !ok {
			if msg != "" {
				d.add(v.at, path, "%s, got %s", msg, text)
				return v, false
			}
			return bad()
		}
		if !f.big && x > math.MaxInt32 {
			d.add(v.at, path, "out of range, got %s", text)
			return v, false
		}
		v.i, v.f, v.canon = x, float64(x), strconv.FormatInt(x, 10)
	case kUint:
		x, ok, msg := uintOf(n)
		if !ok {
			if msg != "" {
				d.add(v.at, path, "%s, got %s", msg, text)
				return v, false
			}
			return bad()
		}
		v.u, v.f, v.canon = x, float64(x), strconv.FormatUint(x, 10)
	case kFloat, kFrac:
		x, ok := floatOf(n)
		if !ok && f.kind == kFrac {
			if s, isStr := n.(*ast.StringNode); isStr && strings.HasSuffix(s.Value, "%") {
				p, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(s.Value, "%")), 64)
				if err == nil && !math.IsInf(p, 0) && !math.IsNaN(p) {
					x, ok = p/100, true
				}
			}
		}
		if !ok {
			if g, plain := plainNumber(n); plain && math.IsInf(g, 0) {
				d.add(v.at, path, "out of range, got %s", text)
				return v, false
			}
			if _, inf := n.(*ast.InfinityNode); inf {
				d.add(v.at, path, "must be a finite number, got %s", text)
				return v, false
			}
			if _, nan := n.(*ast.NanNode); nan {
				d.add(v.at, path, "must be a finite number, got %s", text)
				return v, false
			}
			return bad()
		}
		v.f, v.canon = x, strconv.FormatFloat(x, 'g', -1, 64)
	case kBool:
		b, ok := n.(*ast.BoolNode)
		if !ok {
			return bad()
		}
		v.b, v.canon = b.Value, strconv.FormatBool(b.Value)
	case kEnum:
		known := f.enumValues(d.model)
		if _, null := n.(*ast.NullNode); null {
			return bad()
		}
		if !has(known, text) {
			d.add(v.at, path, "unknown value %q (known: %s)", text, strings.Join(known, ", "))
			return v, false
		}
		v.s, v.canon = text, text
		return v, true
	case kString:
		if _, null := n.(*ast.NullNode); null {
			return bad()
		}
		if strings.TrimSpace(text) == "" {
			d.add(v.at, path, "must not be empty")
			return v, false
		}
		v.s, v.canon = text, text
		return v, true
	}
	if f.check != nil {
		if msg := f.check(v.f); msg != "" {
			d.add(v.at, path, "%s, got %s", msg, text)
			return v, false
		}
	}
	return v, true
}

// scalarText returns a scalar node's text as written (quoted strings
// without their quotes); scalar is false for mappings and lists.
func scalarText(n ast.Node) (text string, scalar bool) {
	switch x := n.(type) {
	case nil:
		return "null", true
	case *ast.StringNode:
		return x.Value, true
	case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NullNode, *ast.InfinityNode, *ast.NanNode:
		if tk := n.GetToken(); tk != nil {
			return tk.Value, true
		}
		return "", true
	}
	return "", false
}

// plainNumber parses a plain (unquoted) string scalar that is a number
// the YAML parser left as a string, such as 1e3.
func plainNumber(n ast.Node) (float64, bool) {
	s, ok := n.(*ast.StringNode)
	if !ok || s.Token == nil || s.Token.Type != token.StringType {
		return 0, false
	}
	t := s.Value
	if t == "" || strings.ContainsAny(t, "_xXoObBpPiInN") {
		return 0, false // no hex, octal, binary, inf or nan spelled as text
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return x, true
}

func floatOf(n ast.Node) (float64, bool) {
	switch x := n.(type) {
	case *ast.IntegerNode:
		switch v := x.Value.(type) {
		case int64:
			return float64(v), true
		case uint64:
			return float64(v), true
		}
		return 0, false
	case *ast.FloatNode:
		if math.IsInf(x.Value, 0) || math.IsNaN(x.Value) {
			return 0, false
		}
		return x.Value, true
	}
	if f, ok := plainNumber(n); ok && !math.IsInf(f, 0) {
		return f, true
	}
	return 0, false
}

const notInteger = "must be an integer"

// intOf decodes an integer (an integral float such as 1.2e5 too). When ok
// is false, msg says why for numbers ("" for other types).
func intOf(n ast.Node) (x int64, ok bool, msg string) {
	if in, isInt := n.(*ast.IntegerNode); isInt {
		switch v := in.Value.(type) {
		case int64:
			return v, true, ""
		case uint64:
			if v <= math.MaxInt64 {
				return int64(v), true, ""
			}
			return 0, false, "out of range"
		}
		return 0, false, ""
	}
	f, isNum := floatOf(n)
	if !isNum {
		if g, plain := plainNumber(n); plain && math.IsInf(g, 0) {
			return 0, false, "out of range"
		}
		if _, isF := n.(*ast.FloatNode); isF {
			return 0, false, "out of range"
		}
		return 0, false, ""
	}
	if f != math.Trunc(f) {
		return 0, false, notInteger
	}
	if f >= 1<<63 || f < -(1<<63) {
		return 0, false, "out of range"
	}
	return int64(f), true, ""
}

func uintOf(n ast.Node) (x uint64, ok bool, msg string) {
	if in, isInt := n.(*ast.IntegerNode); isInt {
		switch v := in.Value.(type) {
		case int64:
			if v < 0 {
				return 0, false, "must be >= 0"
			}
			return uint64(v), true, ""
		case uint64:
			return v, true, ""
		}
		return 0, false, ""
	}
	f, isNum := floatOf(n)
	if !isNum {
		if g, plain := plainNumber(n); plain && math.IsInf(g, 0) {
			return 0, false, "out of range"
		}
		return 0, false, ""
	}
	if f != math.Trunc(f) {
		return 0, false, notInteger
	}
	if f < 0 {
		return 0, false, "must be >= 0"
	}
	if f >= 1<<64 {
		return 0, false, "out of range"
	}
	return uint64(f), true, ""
}
