package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
	"github.com/schedlab/schedlab/registry"
)

// val is one scalar value as written in the file, decoded and checked.
type val struct {
	at    pos
	text  string // as written (without quotes)
	canon string // canonical text: equal values have equal canon
	i     int64  // kInt
	u     uint64 // kUint
	f     float64
	s     string // kEnum, kString
	b     bool
	sites []Site // one alternative of a swept site list
}

// setting is a key the file gives a valid value: one value, or a sweep
// axis (written as a list).
type setting struct {
	path string
	key  pos   // position of the key
	vals []val // the value, or the axis values in file order
	axis int   // index among the axes; -1 for a single value
}

// Forms of platform.sites.
const (
	sitesNone  = iota
	sitesCount // sites: 4 (with procs_per_site)
	sitesList  // sites: [{procs: 4}, ...]
	sitesLists // sites: [[{procs: 4}, ...], [...]] (a sweep over site lists)
)

// MaxSites is the largest number of sites in one site list.
const MaxSites = 10_000

// maxSiteValues bounds points x sites, the memory the expanded site lists
// take.
const maxSiteValues = 10_000_000

type decoder struct {
	problems
	anchors  map[string][]*ast.AnchorNode
	docStart pos
	model    string // "" when missing or invalid
	name     string
	keys     map[string]pos      // every key met (valid or not), by path
	broken   map[string]bool     // sections that are not mappings, by path
	set      map[string]*setting // every valid setting, by path
	axes     []*setting          // sweep axes, in file order
	stop     *val                // stop: trace
	sites    int                 // form of platform.sites
	nsites   int                 // sitesList: number of sites
	maxSites int                 // largest site list
	metrics  []string
	metricAt []pos         // where each of metrics is written
	resv     []reservation // platform.reservations
	parts    []partText    // platform.partitions
	nodes    []nodeText    // platform.nodes
}

func parse(name string, data []byte) ([]Point, error) {
	d := &decoder{
		problems: problems{file: name},
		anchors:  map[string][]*ast.AnchorNode{},
		keys:     map[string]pos{},
		broken:   map[string]bool{},
		set:      map[string]*setting{},
		docStart: pos{1, 1},
	}
	d.name = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(name), ".yaml"), ".yml")
	if name == "" {
		d.name = ""
	}
	if at, ok := nestingOK(data); !ok {
		d.add(at, "", "nesting too deep (more than %d levels of [ ] and { })", maxNesting)
		return nil, d.err()
	}
	if at, ok := blockNestingOK(data); !ok {
		d.add(at, "", "nesting too deep (more than %d levels of indented blocks and - entries)", maxNesting)
		return nil, d.err()
	}
	file, err := parseYAML(data)
	if err != nil {
		d.syntax(err)
		return nil, d.err()
	}
	var body ast.Node
	var docs []*ast.DocumentNode
	if file != nil {
		docs = file.Docs
	}
	for _, doc := range docs {
		if doc == nil || doc.Body == nil {
			continue
		}
		if body != nil {
			d.add(posOf(doc.Body), "", "a scenario file holds one YAML document; another one starts here")
			break
		}
		body = doc.Body
	}
	if body == nil {
		d.add(d.docStart, "", "empty scenario: expected a mapping with at least the key model")
		return nil, d.err()
	}
	d.collectAnchors(body, 0)
	d.top(body)
	if !d.present("model") && !d.broken[""] {
		d.add(d.docStart, "model", "required (one of %s)", strings.Join(allModels, ", "))
	}
	var points []Point
	if d.model != "" { // the rest depends on the model
		d.checkStatic()
		points = d.expand()
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	return points, nil
}

// parseYAML runs the YAML parser, turning a panic inside it into an error:
// Parse promises never to panic, whatever the input.
func parseYAML(data []byte) (f *ast.File, err error) {
	defer func() {
		if r := recover(); r != nil {
			f, err = nil, fmt.Errorf("YAML parser failed: %v", r)
		}
	}()
	return parser.ParseBytes(data, 0, parser.AllowDuplicateMapKey())
}

// maxNesting bounds the depth of flow collections. A scenario needs about
// four levels; the YAML parser's time and memory grow with the square of
// the depth, so deeper input is refused before parsing.
const maxNesting = 100

// nestingOK scans for flow brackets nested deeper than maxNesting, outside
// comments, and returns the position of the first bracket too deep. It is
// a guard, not a parser: brackets inside quoted strings count too.
func nestingOK(data []byte) (pos, bool) {
	depth, line, col := 0, 1, 0
	prevSpace := true
	for i := 0; i < len(data); i++ {
		c := data[i]
		col++
		switch c {
		case '\n':
			line, col = line+1, 0
		case '#':
			if prevSpace {
				for i+1 < len(data) && data[i+1] != '\n' {
					i++
				}
			}
		case '[', '{':
			depth++
			if depth > maxNesting {
				return pos{line, col}, false
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
		prevSpace = c == ' ' || c == '\t' || c == '\n' || c == '\r'
	}
	return pos{}, true
}

// blockNestingOK estimates the depth of block collections line by line
// and returns the position of the first entry deeper than maxNesting. A
// line's depth is the number of open blocks indented less than it, plus
// one for each block indicator ("- ", "? ", ": ") it starts with ("- - -
// x" opens three sequences on one line). Like nestingOK it is a guard,
// not a parser: it over-counts rather than misses (the lines of a block
// scalar count as blocks), which a scenario, a few levels deep, never
// comes near.
func blockNestingOK(data []byte) (pos, bool) {
	var stack []int // columns of the open blocks, increasing
	line := 0
	for len(data) > 0 {
		line++
		text := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			text, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		col := 0
		for col < len(text) && text[col] == ' ' {
			col++
		}
		if col == len(text) || text[col] == '#' || text[col] == '\r' {
			continue // blank or a comment
		}
		for len(stack) > 0 && stack[len(stack)-1] >= col {
			stack = stack[:len(stack)-1]
		}
		stack = append(stack, col)
		for col < len(text) && (text[col] == '-' || text[col] == '?' || text[col] == ':') &&
			(col+1 == len(text) || text[col+1] == ' ' || text[col+1] == '\t') {
			col++
			for col < len(text) && (text[col] == ' ' || text[col] == '\t') {
				col++
			}
			stack = append(stack, col)
			if len(stack) > maxNesting {
				return pos{line, col + 1}, false
			}
		}
		if len(stack) > maxNesting {
			return pos{line, col + 1}, false
		}
	}
	return pos{}, true
}

// syntax reports a YAML syntax error at the parser's position.
func (d *decoder) syntax(err error) {
	var ye interface {
		GetMessage() string
		GetToken() *token.Token
	}
	if errors.As(err, &ye) {
		at := pos{}
		if tk := ye.GetToken(); tk != nil {
			at = pos{tk.Position.Line, tk.Position.Column}
		}
		d.add(at, "", "invalid YAML: %s", ye.GetMessage())
		return
	}
	d.add(pos{}, "", "invalid YAML: %v", err)
}

func posOf(n ast.Node) pos {
	if n == nil {
		return pos{}
	}
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return pos{}
	}
	return pos{tk.Position.Line, tk.Position.Column}
}

// collectAnchors records every anchor of the document, in document order,
// so that aliases can be resolved to the latest anchor of their name
// before them.
func (d *decoder) collectAnchors(n ast.Node, depth int) {
	if n == nil || depth > 10_000 {
		return
	}
	switch n := n.(type) {
	case *ast.AnchorNode:
		if name := anchorName(n.Name); name != "" {
			d.anchors[name] = append(d.anchors[name], n)
		}
		d.collectAnchors(n.Value, depth+1)
	case *ast.MappingNode:
		for _, v := range n.Values {
			d.collectAnchors(v, depth+1)
		}
	case *ast.MappingValueNode:
		d.collectAnchors(n.Value, depth+1)
	case *ast.SequenceNode:
		for _, v := range n.Values {
			d.collectAnchors(v, depth+1)
		}
	case *ast.TagNode:
		d.collectAnchors(n.Value, depth+1)
	}
}

func anchorName(n ast.Node) string {
	if n == nil {
		return ""
	}
	if s, ok := n.(*ast.StringNode); ok {
		return s.Value
	}
	if tk := n.GetToken(); tk != nil {
		return tk.Value
	}
	return ""
}

// resolve looks through anchors and aliases. An alias names the latest
// anchor of its name that starts before it. It returns nil and reports
// the problem for an unknown alias.
func (d *decoder) resolve(n ast.Node, path string) ast.Node {
	if n == nil {
		return &ast.NullNode{BaseNode: &ast.BaseNode{}}
	}
	for range 64 {
		switch x := n.(type) {
		case *ast.AnchorNode:
			n = x.Value
		case *ast.AliasNode:
			name := anchorName(x.Value)
			at := posOf(x)
			var target ast.Node
			for _, a := range d.anchors[name] {
				if p := posOf(a); p.before(at) {
					target = a.Value
				}
			}
			if target == nil {
				d.add(at, path, "unknown alias *%s", name)
				return nil
			}
			n = target
		default:
			return n
		}
	}
	d.add(posOf(n), path, "aliases nest too deeply")
	return nil
}

// describe names what a node holds, for type errors.
func describe(n ast.Node) string {
	switch n := n.(type) {
	case nil, *ast.NullNode:
		return "nothing (null)"
	case *ast.StringNode:
		return fmt.Sprintf("string %q", n.Value)
	case *ast.LiteralNode:
		return "a block of text"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.SequenceNode:
		return "a list"
	case *ast.TagNode:
		return "a tagged value"
	case *ast.BoolNode:
		return strconv.FormatBool(n.Value)
	}
	if tk := n.GetToken(); tk != nil {
		return tk.Value
	}
	return n.Type().String()
}

// entry is one key of a mapping.
type entry struct {
	key   string
	path  string
	at    pos // position of the key
	value ast.Node
}

// entries returns the keys of a mapping node in file order, reporting
// (and leaving out) duplicate and malformed keys. ok is false, with the
// problem reported, when n is not a mapping.
func (d *decoder) entries(n ast.Node, path string) ([]entry, bool) {
	var values []*ast.MappingValueNode
	switch m := n.(type) {
	case *ast.MappingNode:
		values = m.Values
	case *ast.MappingValueNode:
		values = []*ast.MappingValueNode{m}
	default:
		d.broken[path] = true
		if path == "" {
			d.add(posOf(n), "", "a scenario must be a mapping of keys (model, platform, workload, policy, ...), got %s", describe(n))
		} else {
			d.add(posOf(n), path, "must be a mapping, got %s", describe(n))
		}
		return nil, false
	}
	first := map[string]pos{}
	var out []entry
	for _, mv := range values {
		if mv == nil {
			continue
		}
		at := posOf(mv.Key)
		var key string
		switch k := mv.Key.(type) {
		case *ast.StringNode:
			key = k.Value
		case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.NullNode:
			key = k.GetToken().Value
		case *ast.MergeKeyNode:
			d.add(at, path, "merge keys (<<) are not supported")
			continue
		default:
			d.add(at, path, "a key must be a plain name, got %s", describe(mv.Key))
			continue
		}
		p := join(path, key)
		if f, dup := first[key]; dup {
			d.add(at, p, "duplicate key (first at %s)", f)
			continue
		}
		first[key] = at
		out = append(out, entry{key: key, path: p, at: at, value: mv.Value})
	}
	return out, true
}

// known reports an unknown key (false) or a key of another model (false),
// and records the key's position.
func (d *decoder) known(section string, e entry) bool {
	if !has(sectionKeys(section), e.key) {
		d.add(e.at, e.path, "%s", unknownKeyMsg(e.key, knownKeys(section, d.model)))
		return false
	}
	d.keys[e.path] = e.at
	if d.model != "" {
		if ms := modelsOf(e.path); !has(ms, d.model) {
			d.add(e.at, e.path, "not used by model %s (only by %s)", d.model, strings.Join(ms, ", "))
			return false
		}
	}
	return true
}

func (d *decoder) top(body ast.Node) {
	ents, ok := d.entries(body, "")
	if !ok {
		return
	}
	if len(ents) > 0 {
		d.docStart = ents[0].at
	}
	for _, e := range ents {
		if e.key == "model" {
			d.keys["model"] = e.at
			d.decodeModel(e)
		}
	}
	for _, e := range ents {
		if e.key == "model" {
			continue
		}
		if !d.known("", e) {
			continue
		}
		switch e.key {
		case "name":
			if v, ok := d.single(&field{path: "name", kind: kString}, e); ok {
				d.name = v.s
			}
		case "seed", "replications", "workers":
			d.leaf(fieldOf(e.key), e.path, e)
		case "stop":
			d.decodeStop(e)
		case "warmup", "workload", "policy":
			d.section(e)
		case "platform":
			d.platform(e)
		case "metrics":
			d.decodeMetrics(e)
		}
	}
}

func (d *decoder) decodeModel(e entry) {
	f := &field{path: "model", kind: kEnum, enum: anyModel(allModels...)}
	if v, ok := d.single(f, e); ok {
		d.model = v.s
	}
}

// single decodes a key that cannot be swept.
func (d *decoder) single(f *field, e entry) (val, bool) {
	n := d.resolve(e.value, e.path)
	if n == nil {
		return val{}, false
	}
	if _, ok := n.(*ast.SequenceNode); ok {
		d.add(posOf(n), e.path, "cannot be swept: give one value")
		return val{}, false
	}
	return d.value(f, e.path, n)
}

// section decodes a mapping of scalar settings (warmup, workload, policy,
// stop).
func (d *decoder) section(e entry) {
	n := d.resolve(e.value, e.path)
	if n == nil {
		return
	}
	ents, ok := d.entries(n, e.path)
	if !ok {
		return
	}
	if e.key == "policy" {
		ents = d.policyForm(ents)
	}
	for _, c := range ents {
		if _, twice := d.keys[c.path]; twice && e.key == "policy" {
			d.add(c.at, c.path, "given twice (as %s and under policy.options or policy.name)", c.path)
			continue
		}
		if d.known(e.key, c) {
			d.leaf(fieldOf(c.path), c.path, c)
		}
	}
}

// policyForm reads the policy section's structured form beside the flat
// one: name is the policy of a model with one kind of policy
// (policy.queue, policy.approach), and options is a mapping of the
// policy's options, each read as policy.<option>. Both spellings may be
// mixed; a setting given twice is an error.
func (d *decoder) policyForm(ents []entry) []entry {
	var out []entry
	for _, c := range ents {
		switch c.key {
		case "name":
			m, err := registry.LookupModel(d.model)
			if err != nil {
				continue // the model's own error is reported
			}
			if len(m.Kinds) != 1 {
				var keys []string
				for _, k := range m.Kinds {
					keys = append(keys, k.Key)
				}
				d.add(c.at, c.path, "model %s names %d policies: write %s", d.model, len(m.Kinds), strings.Join(keys, " and "))
				continue
			}
			c.key = strings.TrimPrefix(m.Kinds[0].Key, "policy.")
			c.path = m.Kinds[0].Key
			out = append(out, c)
		case "options":
			n := d.resolve(c.value, c.path)
			if n == nil {
				continue
			}
			opts, ok := d.entries(n, c.path)
			if !ok {
				continue
			}
			for _, o := range opts {
				o.path = "policy." + o.key
				if o.key == "name" || o.key == "options" || isKindKey(o.path) {
					d.add(o.at, c.path+"."+o.key, "not an option (write it beside options, under policy)")
					continue
				}
				out = append(out, o)
			}
		default:
			out = append(out, c)
		}
	}
	return out
}

// isKindKey reports a key that names a policy (policy.queue, ...).
func isKindKey(path string) bool {
	for _, m := range registry.Models() {
		for _, k := range m.Kinds {
			if k.Key == path {
				return true
			}
		}
	}
	return false
}

func (d *decoder) decodeStop(e entry) {
	n := d.resolve(e.value, e.path)
	switch x := n.(type) {
	case nil:
	case *ast.StringNode:
		if x.Value != "trace" {
			d.add(posOf(n), "stop", `unknown value %q (write stop: trace, or stop: {completed: N})`, x.Value)
			return
		}
		d.stop = &val{at: posOf(n), text: "trace"}
	case *ast.MappingNode, *ast.MappingValueNode:
		d.section(entry{key: "stop", path: "stop", at: e.at, value: n})
	case *ast.SequenceNode:
		d.add(posOf(n), "stop", "cannot be swept (sweep stop.completed instead)")
	default:
		d.add(posOf(n), "stop", `must be "trace" or a mapping {completed: N}, got %s`, describe(n))
	}
}

var metricName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_]*$`) })

func (d *decoder) decodeMetrics(e entry) {
	n := d.resolve(e.value, e.path)
	if n == nil {
		return
	}
	items := []ast.Node{n}
	if seq, ok := n.(*ast.SequenceNode); ok {
		items = seq.Values
	}
	first := map[string]pos{}
	d.metrics = []string{}
	for _, it := range items {
		it = d.resolve(it, e.path)
		if it == nil {
			continue
		}
		s, ok := it.(*ast.StringNode)
		if !ok {
			d.add(posOf(it), "metrics", "a metric name must be a string, got %s", describe(it))
			continue
		}
		if !metricName().MatchString(s.Value) {
			d.add(posOf(it), "metrics", "bad metric name %q (names are lower-case letters, digits and _)", s.Value)
			continue
		}
		if f, dup := first[s.Value]; dup {
			d.add(posOf(it), "metrics", "duplicate metric %s (also at %s)", s.Value, f)
			continue
		}
		first[s.Value] = posOf(it)
		d.metrics = append(d.metrics, s.Value)
		d.metricAt = append(d.metricAt, posOf(it))
	}
}

func (d *decoder) platform(e entry) {
	n := d.resolve(e.value, e.path)
	if n == nil {
		return
	}
	ents, ok := d.entries(n, e.path)
	if !ok {
		return
	}
	for _, c := range ents {
		if !d.known("platform", c) {
			continue
		}
		switch c.key {
		case "sites":
			d.decodeSites(c)
		case "reservations":
			d.decodeReservations(c)
		case "partitions":
			d.decodePartitions(c)
		case "nodes":
			d.decodeNodes(c)
		case "failures":
			d.section(entry{key: c.path, path: c.path, at: c.at, value: c.value})
		default:
			d.leaf(fieldOf(c.path), c.path, c)
		}
	}
}

// leaf decodes a scalar setting: one value, or a list of values (a sweep
// axis) when the field may be swept.
func (d *decoder) leaf(f *field, path string, e entry) {
	n := d.resolve(e.value, path)
	if n == nil {
		return
	}
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		if v, ok := d.value(f, path, n); ok {
			d.addSetting(&setting{path: path, key: e.at, vals: []val{v}, axis: -1})
		}
		return
	}
	if !f.sweep {
		d.add(posOf(n), path, "cannot be swept: give one value")
		return
	}
	if len(seq.Values) == 0 {
		d.add(posOf(n), path, "empty list (a sweep needs at least one value)")
		return
	}
	s := &setting{path: path, key: e.at}
	good := true
	for _, el := range seq.Values {
		el = d.resolve(el, path)
		if el == nil {
			good = false
			continue
		}
		if _, nested := el.(*ast.SequenceNode); nested {
			d.add(posOf(el), path, "a sweep value must be a single value, got a list")
			good = false
			continue
		}
		v, ok := d.value(f, path, el)
		if !ok {
			good = false
			continue
		}
		s.vals = append(s.vals, v)
	}
	if !good || d.dupValues(s) {
		return
	}
	s.axis = len(d.axes)
	d.axes = append(d.axes, s)
	d.set[path] = s
}

// dupValues reports values that appear twice in an axis.
func (d *decoder) dupValues(s *setting) bool {
	first := map[string]pos{}
	dup := false
	for _, v := range s.vals {
		if f, ok := first[v.canon]; ok {
			d.add(v.at, s.path, "duplicate value %s in the sweep (also at %s)", v.text, f)
			dup = true
			continue
		}
		first[v.canon] = v.at
	}
	return dup
}

func (d *decoder) addSetting(s *setting) { d.set[s.path] = s }
