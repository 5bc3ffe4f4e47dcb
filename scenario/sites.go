package scenario

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// decodeSites decodes platform.sites: a count, a site list, or a list of
// site lists (a sweep axis).
func (d *decoder) decodeSites(e entry) {
	n := d.resolve(e.value, e.path)
	if n == nil {
		return
	}
	seq, ok := n.(*ast.SequenceNode)
	if !ok {
		v, ok := d.value(&field{path: e.path, kind: kInt, check: atLeast(1)}, e.path, n)
		if !ok {
			return
		}
		if v.i > MaxSites {
			d.add(v.at, e.path, "too many sites (%d; at most %d)", v.i, MaxSites)
			return
		}
		d.sites = sitesCount
		d.maxSites = int(v.i)
		d.addSetting(&setting{path: e.path, key: e.at, vals: []val{v}, axis: -1})
		return
	}
	if len(seq.Values) == 0 {
		d.add(posOf(seq), e.path, "empty site list")
		return
	}
	if len(seq.Values) > MaxSites {
		d.add(posOf(seq), e.path, "too many sites (%d; at most %d)", len(seq.Values), MaxSites)
		return
	}
	elems := make([]ast.Node, len(seq.Values))
	lists := 0
	for i, el := range seq.Values {
		elems[i] = d.resolve(el, fmt.Sprintf("%s[%d]", e.path, i))
		if _, ok := elems[i].(*ast.SequenceNode); ok {
			lists++
		}
	}
	if lists > 0 {
		d.siteLists(e, elems, lists)
		return
	}
	d.sites, d.nsites, d.maxSites = sitesList, len(elems), len(elems)
	for i, el := range elems {
		if el == nil {
			continue
		}
		p := fmt.Sprintf("%s[%d]", e.path, i)
		if !isMapping(el) {
			d.add(posOf(el), p, "must be a mapping such as {procs: 8}, got %s (a list under sites is the site list, not a sweep; to sweep over site lists, write a list of lists)", describe(el))
			continue
		}
		ents, _ := d.entries(el, p)
		seen := false
		for _, c := range ents {
			switch c.key {
			case "procs":
				seen = true
				d.keys[c.path] = c.at
				d.leaf(siteProcs(), c.path, c)
			case "speed":
				d.keys[c.path] = c.at
				d.leaf(siteSpeed(), c.path, c)
			default:
				d.add(c.at, c.path, "%s", unknownKeyMsg(c.key, []string{"procs", "speed"}))
			}
		}
		if !seen {
			d.add(posOf(el), p+".procs", "required (every site needs its number of processors)")
		}
	}
}

func isMapping(n ast.Node) bool {
	switch n.(type) {
	case *ast.MappingNode, *ast.MappingValueNode:
		return true
	}
	return false
}

// siteLists decodes a list of site lists: a sweep axis whose values are
// whole site lists. Settings inside cannot be swept.
func (d *decoder) siteLists(e entry, elems []ast.Node, lists int) {
	if lists != len(elems) {
		for i, el := range elems {
			if _, ok := el.(*ast.SequenceNode); !ok && el != nil {
				d.add(posOf(el), fmt.Sprintf("%s[%d]", e.path, i), "must be a site list like the other elements, got %s (write either one site list, or a list of site lists to sweep)", describe(el))
			}
		}
		return
	}
	s := &setting{path: e.path, key: e.at, axis: -1}
	good := true
	for i, el := range elems {
		inner := el.(*ast.SequenceNode)
		p := fmt.Sprintf("%s[%d]", e.path, i)
		v := val{at: posOf(inner)}
		if len(inner.Values) == 0 {
			d.add(posOf(inner), p, "empty site list")
			good = false
			continue
		}
		if len(inner.Values) > MaxSites {
			d.add(posOf(inner), p, "too many sites (at most %d in a list)", MaxSites)
			return
		}
		var texts []string
		for j, sn := range inner.Values {
			sp := fmt.Sprintf("%s[%d]", p, j)
			sn = d.resolve(sn, sp)
			if sn == nil {
				good = false
				continue
			}
			if !isMapping(sn) {
				d.add(posOf(sn), sp, "must be a mapping such as {procs: 8}, got %s", describe(sn))
				good = false
				continue
			}
			site := Site{Speed: 1}
			var parts []string
			ents, _ := d.entries(sn, sp)
			seen := false
			for _, c := range ents {
				var f *field
				switch c.key {
				case "procs":
					f = siteProcs()
					seen = true
				case "speed":
					f = siteSpeed()
				default:
					d.add(c.at, c.path, "%s", unknownKeyMsg(c.key, []string{"procs", "speed"}))
					good = false
					continue
				}
				cv := d.resolve(c.value, c.path)
				if _, ok := cv.(*ast.SequenceNode); ok {
					d.add(posOf(cv), c.path, "cannot be swept inside a swept site list")
					good = false
					continue
				}
				if cv == nil {
					good = false
					continue
				}
				x, ok := d.value(f, c.path, cv)
				if !ok {
					good = false
					continue
				}
				if c.key == "procs" {
					site.Procs = int(x.i)
				} else {
					site.Speed = x.f
				}
				parts = append(parts, c.key+": "+x.text)
			}
			if !seen {
				d.add(posOf(sn), sp+".procs", "required (every site needs its number of processors)")
				good = false
			}
			v.sites = append(v.sites, site)
			texts = append(texts, "{"+strings.Join(parts, ", ")+"}")
		}
		v.text = "[" + strings.Join(texts, ", ") + "]"
		v.canon = siteCanon(v.sites)
		s.vals = append(s.vals, v)
		d.maxSites = max(d.maxSites, len(v.sites))
	}
	d.sites = sitesLists
	if !good {
		return
	}
	if d.dupValues(s) {
		return
	}
	s.axis = len(d.axes)
	d.axes = append(d.axes, s)
	d.set[s.path] = s
}

func siteCanon(sites []Site) string {
	var b strings.Builder
	for _, s := range sites {
		fmt.Fprintf(&b, "%d/%v;", s.Procs, s.Speed)
	}
	return b.String()
}
