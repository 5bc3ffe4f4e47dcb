package slurmconf

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform/nodes"
)

// GresLine is one line of a gres.conf: the nodes it applies to (nil: the
// node whose slurmd reads the file, i.e. every node), the GRES kind and
// its count on each of those nodes: Count, or the number of device
// files File names (/dev/nvidia[0-3] is 4).
type GresLine struct {
	File  string
	Line  int
	Nodes []string
	Kind  nodes.Kind
	Count int
}

// Gres is what a gres.conf says, with the keys it does not read as
// warnings (AutoDetect, Cores, Links, Flags, ...).
type Gres struct {
	Lines    []GresLine
	Warnings []Warning
}

// ReadGres reads a gres.conf: NodeName (a hostlist), Name, Type, Count
// (with K, M or G) and File (a device path with Slurm's range syntax)
// on each line; a malformed line is an *Error naming file, line and key.
func ReadGres(r io.Reader, name string) (*Gres, error) {
	g := &Gres{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineLen)
	n := 0
	for sc.Scan() {
		n++
		if n > MaxLines {
			return nil, &Error{File: name, Line: n, Msg: fmt.Sprintf("more than %d lines (MaxLines)", MaxLines)}
		}
		kvs, err := fields(sc.Text(), name, n)
		if err != nil {
			return nil, err
		}
		if len(kvs) == 0 {
			continue
		}
		gl := GresLine{File: name, Line: n}
		count, files := -1, -1
		for _, k := range kvs {
			switch strings.ToLower(k.key) {
			case "nodename":
				if gl.Nodes, err = nodes.Expand(k.value); err != nil {
					return nil, &Error{File: name, Line: n, Key: k.key, Msg: err.Error()}
				}
			case "name":
				gl.Kind.Name = k.value
			case "type":
				gl.Kind.Type = k.value
			case "count":
				c, ok := gresCount(k.value)
				if !ok || c < 1 || c > nodes.MaxGRESPerNode {
					return nil, &Error{File: name, Line: n, Key: k.key, Msg: fmt.Sprintf("%q: want a count 1..%d", k.value, nodes.MaxGRESPerNode)}
				}
				count = c
			case "file":
				if files, err = countFiles(k.value); err != nil {
					return nil, &Error{File: name, Line: n, Key: k.key, Msg: err.Error()}
				}
			case "autodetect":
				g.Warnings = append(g.Warnings, Warning{File: name, Line: n, Key: k.key, Msg: "not modelled: give Count or File"})
			default:
				g.Warnings = append(g.Warnings, Warning{File: name, Line: n, Key: k.key, Msg: "not modelled"})
			}
		}
		if gl.Kind.Name == "" {
			if len(kvs) == 1 && strings.EqualFold(kvs[0].key, "autodetect") {
				continue
			}
			return nil, &Error{File: name, Line: n, Key: "Name", Msg: "missing: every GRES line names its GRES"}
		}
		switch {
		case count > 0 && files > 0 && count != files:
			return nil, &Error{File: name, Line: n, Key: "Count", Msg: fmt.Sprintf("%d, but File names %d devices", count, files)}
		case count > 0:
			gl.Count = count
		case files > 0:
			gl.Count = files
		default:
			gl.Count = 1
		}
		g.Lines = append(g.Lines, gl)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return g, nil
}

// CheckGres compares a gres.conf with the Gres of slurm.conf's NodeName
// lines: every node's count of each kind the gres.conf gives must be the
// one slurm.conf gives (Slurm refuses to start the node otherwise); it
// returns a warning for each difference, naming the gres.conf line.
func (c *Config) CheckGres(g *Gres) []Warning {
	var out []Warning
	for _, l := range g.Lines {
		names := l.Nodes
		if names == nil {
			for id := 0; id < c.Nodes.Len(); id++ {
				names = append(names, c.Nodes.Name(id))
			}
		}
		for _, nm := range names {
			id, ok := c.Nodes.Lookup(nm)
			if !ok {
				out = append(out, Warning{File: l.File, Line: l.Line, Key: "NodeName", Msg: "node " + nm + " is on no NodeName line of slurm.conf"})
				continue
			}
			if have := c.Nodes.Node(id).GRESCount(l.Kind); have != l.Count {
				out = append(out, Warning{File: l.File, Line: l.Line, Key: "Count",
					Msg: fmt.Sprintf("node %s: %s %d here, %s in slurm.conf", nm, l.Kind, l.Count, strconv.Itoa(have))})
			}
		}
	}
	return out
}

// countFiles counts the device files of a File value: Slurm's range
// syntax over paths (/dev/nvidia[0-3] is 4, /dev/nvidia0,/dev/nvidia2
// 2). The characters of a path that a host name may not hold are read
// as '_' outside brackets, so that the hostlist counter counts it.
func countFiles(v string) (int, error) {
	b := []byte(v)
	depth := 0
	for i, c := range b {
		switch {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case depth == 0 && c != ',' && !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'):
			b[i] = '_'
		}
	}
	return nodes.Count(string(b))
}
