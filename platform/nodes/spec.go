package nodes

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Limits of one node group. Every one is checked before anything of its
// size is allocated.
const (
	// MaxNodes bounds the nodes of a platform (and of one group).
	MaxNodes = 1 << 18
	// MaxCPUsPerNode bounds a node's CPUs: sockets x cores per socket x
	// threads per core.
	MaxCPUsPerNode = 1 << 13
	// MaxMemMB bounds a node's memory in MB (1 PiB).
	MaxMemMB = 1 << 30
	// MaxGRESPerNode bounds a node's GRES units, all names and types
	// together.
	MaxGRESPerNode = 1024
	// MaxGRESKinds bounds the distinct (name, type) GRES of a node.
	MaxGRESKinds = 64
	// MaxFeatures bounds the features of a node.
	MaxFeatures = 64
	// MaxWordLen bounds a GRES name, a GRES type and a feature, in bytes.
	MaxWordLen = 64
	// MaxWeight is the largest weight (Slurm's Weight is a 32-bit
	// unsigned number).
	MaxWeight = math.MaxUint32
	// MaxSpecLen bounds the text of one node group spec, in bytes.
	MaxSpecLen = MaxExprLen + 4096
)

// GRES is a count of one generic resource on a node: Name ("gpu"), Type
// ("a100"; "" when untyped) and Count (>= 1).
type GRES struct {
	Name, Type string
	Count      int
}

// Kind is the GRES's (Name, Type).
func (g GRES) Kind() Kind { return Kind{g.Name, g.Type} }

// Kind names one generic resource: Name and Type ("" when untyped).
type Kind struct{ Name, Type string }

// String is "name" or "name:type".
func (k Kind) String() string {
	if k.Type == "" {
		return k.Name
	}
	return k.Name + ":" + k.Type
}

func compareKind(a, b Kind) int {
	if c := strings.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return strings.Compare(a.Type, b.Type)
}

// NodeGroup is one group of identical nodes, as a spec describes it.
type NodeGroup struct {
	// Names are the nodes' names, in the order the hostlist gives them.
	Names []string
	// Sockets per node (1 when the spec gives none), CoresPerSocket and
	// ThreadsPerCore (1 when the spec gives none).
	Sockets, CoresPerSocket, ThreadsPerCore int
	// MemMB is the memory of a node in MB (0: not given, memory not
	// modelled).
	MemMB int64
	// GRES sorted by (Name, Type), each kind once.
	GRES []GRES
	// Features sorted, each once.
	Features []string
	// Weight, Slurm's node weight (default 1: lower weights are
	// allocated first).
	Weight uint32
}

// Cores is the cores of one node: Sockets x CoresPerSocket.
func (g NodeGroup) Cores() int { return g.Sockets * g.CoresPerSocket }

// CPUs is the CPUs of one node as Slurm counts them (hardware threads):
// Cores x ThreadsPerCore.
func (g NodeGroup) CPUs() int { return g.Cores() * g.ThreadsPerCore }

// Field is one key and value of a node group written as a mapping (the
// form a scenario file gives): keys "names", "cores", "sockets",
// "threads", "mem", "gres", "features", "weight", values as in the spec.
type Field struct {
	Key, Value string
}

// the keys, in the order the spec writes them
var keys = []string{"cores", "sockets", "threads", "mem", "gres", "features", "weight"}

// a field located in the text: off is the offset of its value
type located struct {
	key, value string
	keyOff     int
	off        int
}

// ParseGroup parses a node group spec:
//
//	NAMES:cores=N[:sockets=S][:threads=T][:mem=SIZE][:gres=NAME[:TYPE]=COUNT[,...]][:features=F[,...]][:weight=W]
//
// NAMES is a hostlist expression (Expand). cores is required: the cores
// of a node, or, when sockets is given, the cores of each socket (Slurm's
// CoresPerSocket), so a node has sockets x cores cores; threads is the
// threads of each core (default 1), and a node's CPUs are its cores x
// threads. SIZE is a whole number with an optional unit K, M, G or T
// (powers of 1024; a plain number is MB, as Slurm's RealMemory; K is
// rounded up to whole MB). A GRES is NAME=COUNT (untyped) or
// NAME:TYPE=COUNT, several separated by commas; the ':' inside a GRES is
// told from the ':' between fields by the '=' still missing ("gres=gpu:a100=4"
// is one GRES). features is a comma list of words; weight a whole number
// (default 1). Fields after NAMES may come in any order, each at most once.
//
// Every error is an *Error naming the field and the column.
func ParseGroup(spec string) (NodeGroup, error) {
	if len(spec) > MaxSpecLen {
		return NodeGroup{}, &Error{Field: "names", Msg: fmt.Sprintf("spec of %d bytes, more than %d (MaxSpecLen)", len(spec), MaxSpecLen)}
	}
	segs := splitColons(spec)
	fs := []located{{key: "names", value: segs[0].text, off: 0}}
	for k := 1; k < len(segs); k++ {
		s := segs[k]
		key, val, ok := strings.Cut(s.text, "=")
		if !ok || key == "" {
			return NodeGroup{}, &Error{Offset: s.off, Msg: fmt.Sprintf("field %q: want KEY=VALUE, KEY one of %s", s.text, strings.Join(keys, ", "))}
		}
		f := located{key: key, value: val, keyOff: s.off, off: s.off + len(key) + 1}
		if key == "gres" {
			// a GRES NAME:TYPE=COUNT spans segments: while the last item
			// has no '=', the next segment continues it
			for gresOpen(f.value) && k+1 < len(segs) {
				k++
				f.value += ":" + segs[k].text
			}
		}
		fs = append(fs, f)
	}
	return build(fs)
}

// ParseFields parses a node group written as a mapping of the spec's
// fields (Field): the same values and checks as ParseGroup. An error's
// column is within the field's value.
func ParseFields(fields []Field) (NodeGroup, error) {
	fs := make([]located, len(fields))
	for i, f := range fields {
		fs[i] = located{key: f.Key, value: f.Value}
	}
	return build(fs)
}

type segment struct {
	text string
	off  int
}

func splitColons(s string) []segment {
	var segs []segment
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ':' {
			segs = append(segs, segment{s[start:i], start})
			start = i + 1
		}
	}
	return segs
}

// gresOpen reports whether the last comma item of a GRES list still
// lacks its "=COUNT".
func gresOpen(v string) bool {
	last := v[strings.LastIndexByte(v, ',')+1:]
	return !strings.Contains(last, "=")
}

func build(fs []located) (NodeGroup, error) {
	g := NodeGroup{Sockets: 1, ThreadsPerCore: 1, Weight: 1}
	seen := map[string]bool{}
	var names *located
	cores, sockets := 0, 0
	for i := range fs {
		f := &fs[i]
		fail := func(off int, format string, args ...any) error {
			return &Error{Field: f.key, Offset: off, Msg: fmt.Sprintf(format, args...)}
		}
		if f.key != "names" && !slices.Contains(keys, f.key) {
			return NodeGroup{}, fail(f.keyOff, "unknown field %q: want one of %s", f.key, strings.Join(keys, ", "))
		}
		if seen[f.key] {
			return NodeGroup{}, fail(f.keyOff, "%s given twice", f.key)
		}
		seen[f.key] = true
		var err error
		switch f.key {
		case "names":
			names = f
		case "cores":
			cores, err = count(f, 1, MaxCPUsPerNode)
		case "sockets":
			sockets, err = count(f, 1, MaxCPUsPerNode)
		case "threads":
			g.ThreadsPerCore, err = count(f, 1, MaxCPUsPerNode)
		case "mem":
			g.MemMB, err = parseMem(f)
		case "gres":
			g.GRES, err = parseGRES(f)
		case "features":
			g.Features, err = parseFeatures(f)
		case "weight":
			var w int64
			w, err = number(f, f.value, f.off, 0, MaxWeight)
			g.Weight = uint32(w)
		}
		if err != nil {
			return NodeGroup{}, err
		}
	}
	if names == nil {
		return NodeGroup{}, &Error{Field: "names", Msg: "no names (the hostlist of the group's nodes)"}
	}
	if cores == 0 {
		end := 0
		for _, f := range fs {
			end = max(end, f.off+len(f.value))
		}
		return NodeGroup{}, &Error{Field: "cores", Offset: end, Msg: "no cores=N (the cores of a node, or of a socket with sockets=S)"}
	}
	if sockets > 0 {
		g.Sockets, g.CoresPerSocket = sockets, cores
	} else {
		g.CoresPerSocket = cores
	}
	if cpus := int64(g.Sockets) * int64(g.CoresPerSocket) * int64(g.ThreadsPerCore); cpus > MaxCPUsPerNode {
		f := fs[0]
		for _, x := range fs {
			if x.key == "cores" {
				f = x
			}
		}
		return NodeGroup{}, &Error{Field: "cores", Offset: f.off, Msg: fmt.Sprintf("%d sockets x %d cores x %d threads = %d CPUs a node, more than %d (MaxCPUsPerNode)", g.Sockets, g.CoresPerSocket, g.ThreadsPerCore, cpus, MaxCPUsPerNode)}
	}
	ns, err := expand(names.value, names.off)
	if err != nil {
		e := err.(*Error)
		e.Field = "names"
		return NodeGroup{}, e
	}
	g.Names = ns
	return g, nil
}

// number parses a whole number in [lo, hi] at offset off.
func number(f *located, s string, off int, lo, hi int64) (int64, error) {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return 0, &Error{Field: f.key, Offset: off + i, Msg: fmt.Sprintf("%q is not a whole number", s)}
		}
	}
	if s == "" {
		return 0, &Error{Field: f.key, Offset: off, Msg: "no number"}
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < lo || v > hi {
		return 0, &Error{Field: f.key, Offset: off, Msg: fmt.Sprintf("%s: want %d..%d", s, lo, hi)}
	}
	return v, nil
}

func count(f *located, lo, hi int64) (int, error) {
	v, err := number(f, f.value, f.off, lo, hi)
	return int(v), err
}

// parseMem reads SIZE: digits and an optional unit K, M, G, T (either
// case); a plain number is MB.
func parseMem(f *located) (int64, error) {
	s := f.value
	digits := strings.TrimRightFunc(s, func(r rune) bool { return !('0' <= r && r <= '9') })
	unit := s[len(digits):]
	var shift uint
	switch strings.ToUpper(unit) {
	case "K":
		shift = 0 // handled below
	case "", "M":
		shift = 0
	case "G":
		shift = 10
	case "T":
		shift = 20
	default:
		return 0, &Error{Field: f.key, Offset: f.off + len(digits), Msg: fmt.Sprintf("unit %q: want K, M, G or T (a plain number is MB)", unit)}
	}
	v, err := number(f, digits, f.off, 1, math.MaxInt64>>20)
	if err != nil {
		return 0, err
	}
	if strings.EqualFold(unit, "K") {
		v = (v + 1023) / 1024 // rounded up to whole MB, as Slurm does
	}
	if v > MaxMemMB>>shift {
		return 0, &Error{Field: f.key, Offset: f.off, Msg: fmt.Sprintf("%s is more than %d MB (MaxMemMB)", s, MaxMemMB)}
	}
	return v << shift, nil
}

// word checks a GRES name, a GRES type or a feature: letters, digits,
// '_', '-', '.', starting with a letter or digit.
func word(f *located, what, s string, off int) error {
	if s == "" {
		return &Error{Field: f.key, Offset: off, Msg: fmt.Sprintf("empty %s", what)}
	}
	if len(s) > MaxWordLen {
		return &Error{Field: f.key, Offset: off, Msg: fmt.Sprintf("%s of %d bytes, more than %d (MaxWordLen)", what, len(s), MaxWordLen)}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !nameByte(c) || i == 0 && (c == '-' || c == '.') {
			return &Error{Field: f.key, Offset: off + i, Msg: fmt.Sprintf("%s %q: %q not allowed (letters, digits, '_', '-', '.'; not first '-' or '.')", what, s, c)}
		}
	}
	return nil
}

// items splits a comma list, with each item's offset.
func items(s string, off int) []segment {
	var out []segment
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			out = append(out, segment{s[start:i], off + start})
			start = i + 1
		}
	}
	return out
}

func parseGRES(f *located) ([]GRES, error) {
	its := items(f.value, f.off)
	if len(its) > MaxGRESKinds {
		return nil, &Error{Field: f.key, Offset: f.off, Msg: fmt.Sprintf("%d GRES, more than %d kinds (MaxGRESKinds)", len(its), MaxGRESKinds)}
	}
	var gs []GRES
	total := 0
	for _, it := range its {
		kind, num, ok := strings.Cut(it.text, "=")
		if !ok {
			return nil, &Error{Field: f.key, Offset: it.off, Msg: fmt.Sprintf("GRES %q: want NAME=COUNT or NAME:TYPE=COUNT", it.text)}
		}
		name, typ, typed := strings.Cut(kind, ":")
		if err := word(f, "GRES name", name, it.off); err != nil {
			return nil, err
		}
		if typed {
			if err := word(f, "GRES type", typ, it.off+len(name)+1); err != nil {
				return nil, err
			}
		}
		n, err := number(f, num, it.off+len(kind)+1, 1, MaxGRESPerNode)
		if err != nil {
			return nil, err
		}
		total += int(n)
		if total > MaxGRESPerNode {
			return nil, &Error{Field: f.key, Offset: it.off, Msg: fmt.Sprintf("more than %d GRES units a node (MaxGRESPerNode)", MaxGRESPerNode)}
		}
		for _, g := range gs {
			switch {
			case g.Name == name && g.Type == typ:
				return nil, &Error{Field: f.key, Offset: it.off, Msg: fmt.Sprintf("GRES %s given twice", Kind{name, typ})}
			case g.Name == name && (g.Type == "") != (typ == ""):
				return nil, &Error{Field: f.key, Offset: it.off, Msg: fmt.Sprintf("GRES %s given both with and without a type: type every %s or none", name, name)}
			}
		}
		gs = append(gs, GRES{Name: name, Type: typ, Count: int(n)})
	}
	slices.SortFunc(gs, func(a, b GRES) int { return compareKind(a.Kind(), b.Kind()) })
	return gs, nil
}

func parseFeatures(f *located) ([]string, error) {
	its := items(f.value, f.off)
	if len(its) > MaxFeatures {
		return nil, &Error{Field: f.key, Offset: f.off, Msg: fmt.Sprintf("%d features, more than %d (MaxFeatures)", len(its), MaxFeatures)}
	}
	var out []string
	for _, it := range its {
		if err := word(f, "feature", it.text, it.off); err != nil {
			return nil, err
		}
		if slices.Contains(out, it.text) {
			return nil, &Error{Field: f.key, Offset: it.off, Msg: fmt.Sprintf("feature %q given twice", it.text)}
		}
		out = append(out, it.text)
	}
	slices.Sort(out)
	return out, nil
}
