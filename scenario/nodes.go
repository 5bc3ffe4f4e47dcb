package scenario

import (
	"fmt"
	"hash/fnv"

	"github.com/goccy/go-yaml/ast"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/workload/avail"
)

// This file reads a cluster's nodes (docs/nodes.md): platform.nodes,
// decoded by hand like platform.partitions.

// MaxNodeGroups bounds the node groups of platform.nodes (as
// experiment.MaxNodeGroups).
const MaxNodeGroups = 4096

// nodeText is one node group of platform.nodes as written.
type nodeText struct {
	at   pos
	text string
}

// decodeNodes reads platform.nodes: one node group
// "NAMES:cores=N[:...]" (the syntax of schedlab run --nodes) or a list
// of them, the platform of every point (not a sweep). Each group is
// parsed, and the groups together built, here: a bad spec is an error
// at its line.
func (d *decoder) decodeNodes(e entry) {
	d.nodes = []nodeText{}
	var groups []nodes.NodeGroup
	n := d.texts(e, `a node group must be a quoted string "NAMES:cores=N[:mem=SIZE][:gres=...]..."`, func(it ast.Node, text string) {
		if len(d.nodes) == MaxNodeGroups {
			d.add(posOf(it), e.path, "more than %d node groups", MaxNodeGroups)
			return
		}
		g, err := nodes.ParseGroup(text)
		if err != nil {
			d.add(posOf(it), e.path, "%q: %v", text, err)
			return
		}
		d.nodes = append(d.nodes, nodeText{at: posOf(it), text: text})
		groups = append(groups, g)
	})
	if n == nil {
		d.nodes = nil // as if absent: the error is said
		return
	}
	if len(groups) == len(d.nodes) && len(groups) > 0 {
		if _, err := nodes.New(groups); err != nil {
			d.add(posOf(n), e.path, "%v", err)
		}
	}
}

// checkNodes checks what nodes need of the rest of the file: no
// platform.procs (the machine is the nodes' cores), and none of what
// does not run on nodes yet.
func (d *decoder) checkNodes() {
	if d.nodes == nil {
		return
	}
	at := d.keys["platform.nodes"]
	if d.present("platform.procs") {
		d.add(at, "platform.nodes", "platform.nodes does not go with platform.procs (on nodes the machine is the nodes' cores)")
	}
	d.checkNodeReservations()
	d.checkNodeParts()
}

// checkNodeReservations checks platform.reservations on a platform of
// nodes: each window "START:END:NODES" (avail.ParseNodeReservationAt,
// seconds), every node on the platform, no node in two windows at once.
// Each mistake is said at its window's text.
func (d *decoder) checkNodeReservations() {
	if len(d.resv) == 0 {
		return
	}
	var groups []nodes.NodeGroup
	for _, t := range d.nodes {
		g, err := nodes.ParseGroup(t.text)
		if err != nil {
			return // said at platform.nodes
		}
		groups = append(groups, g)
	}
	ns, err := nodes.New(groups)
	if err != nil {
		return // said at platform.nodes
	}
	var ws []avail.NodeWindow
	var texts []reservation
	for _, r := range d.resv {
		w, err := avail.ParseNodeReservationAt(r.text, &ns, nil)
		if err != nil {
			d.add(r.at, "platform.reservations", "%v", err)
			continue
		}
		for k, o := range ws {
			if err := avail.CheckNodeWindows([]avail.NodeWindow{o, w}, &ns, "window"); err != nil {
				d.add(r.at, "platform.reservations", "%q overlaps %q (at %s): %v", r.text, texts[k].text, texts[k].at, err)
				break
			}
		}
		ws, texts = append(ws, w), append(texts, r)
	}
}

// checkNodeParts checks platform.partitions on a platform of nodes
// (docs/nodes.md, "Partitions on nodes"): each a partition of nodes
// ("NAME:nodes=HOSTLIST[:limits]"), every node of it on the platform,
// partitions may share nodes. Each mistake is said at
// its partition's text.
func (d *decoder) checkNodeParts() {
	if d.parts == nil || len(d.nodes) == 0 {
		return
	}
	var groups []nodes.NodeGroup
	for _, t := range d.nodes {
		g, err := nodes.ParseGroup(t.text)
		if err != nil {
			return // said at platform.nodes
		}
		groups = append(groups, g)
	}
	ns, err := nodes.New(groups)
	if err != nil {
		return // said at platform.nodes
	}
	for _, p := range d.parts { // partitions may share nodes (docs/nodes.md, "Overlapping partitions")
		if p.spec.Nodes == nil {
			d.add(p.at, "platform.partitions", "%q: on a platform of nodes a partition is a set of nodes: want NAME:nodes=HOSTLIST[:...] (as gpu:nodes=gpu[01-04])", p.text)
			continue
		}
		for _, name := range p.spec.Nodes {
			if _, ok := ns.Lookup(name); !ok {
				d.add(p.at, "platform.partitions", "%q: node %s is not on the platform (platform.nodes)", p.text, name)
				break
			}
		}
	}
}

// nodesKey is platform.nodes in a result key: the group count and a
// hash of the texts.
func nodesKey(texts []string) string {
	if len(texts) == 0 {
		return "none"
	}
	h := fnv.New32a()
	for _, t := range texts {
		h.Write([]byte(t))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%d-%08x", len(texts), h.Sum32())
}
