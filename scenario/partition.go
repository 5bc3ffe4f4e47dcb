package scenario

import (
	"fmt"
	"hash/fnv"

	"github.com/goccy/go-yaml/ast"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload/partition"
)

// This file reads a cluster's partitions (docs/partitions.md):
// platform.partitions, decoded by hand like platform.reservations.

// partText is one partition of platform.partitions as written.
type partText struct {
	at   pos
	text string
	spec partition.Spec // parsed for a machine of platform.MaxCPUs CPUs
}

// decodePartitions reads platform.partitions: one partition
// "NAME:CPUS[:limits]" (the syntax of schedlab run --partition) or a
// list of them. A list is the partitions of every point, not a sweep.
func (d *decoder) decodePartitions(e entry) {
	d.parts = []partText{}
	n := d.texts(e, fmt.Sprintf(`a partition must be a quoted string "%s"`, partition.Syntax), func(it ast.Node, text string) {
		s, err := partition.Parse(text, platform.MaxCPUs)
		if err != nil {
			d.add(posOf(it), e.path, "%q: %v", text, err)
			return
		}
		d.parts = append(d.parts, partText{at: posOf(it), text: text, spec: s})
	})
	if n == nil {
		d.parts = nil // as if absent: the error is said
		return
	}
	specs := make([]partition.Spec, len(d.parts))
	for i, p := range d.parts {
		specs[i] = p.spec
	}
	if i, err := partition.Check(specs); err != nil {
		at := posOf(n)
		if i < len(d.parts) {
			at = d.parts[i].at
		}
		d.add(at, e.path, "%v", err)
	}
}

// checkPartitions checks what partitions need of the rest of the file:
// a trace (they route its jobs by their partition, SWF field 16) and,
// with unavailable CPUs, partitions that share no CPU (overlapping
// partitions do not go with them yet).
func (d *decoder) checkPartitions() {
	if d.parts == nil {
		return
	}
	at := d.keys["platform.partitions"]
	if d.nodes == nil {
		for _, p := range d.parts {
			if p.spec.Nodes != nil {
				d.add(p.at, "platform.partitions", "%q: a partition of nodes (nodes=HOSTLIST) needs a platform of nodes (platform.nodes)", p.text)
			}
		}
	}
	if d.missing("workload.trace") {
		d.add(at, "platform.partitions", "partitions route a trace's jobs by their partition (SWF field 16): give workload.trace")
	}
	for _, k := range []string{"platform.reservations", "platform.events", "platform.failures"} {
		if !d.present(k) {
			continue
		}
		for i, a := range d.parts {
			for _, b := range d.parts[:i] {
				if cpu, ok := a.spec.CPUs.Shared(b.spec.CPUs); ok {
					d.add(a.at, "platform.partitions", "overlapping partitions do not go with unavailable CPUs (%s) yet: partitions %s and %s share CPU %d",
						k, b.spec.Name, a.spec.Name, cpu)
					return
				}
			}
		}
		return
	}
}

// checkPartitionsPoint checks the partitions against the point's
// machine, when its size is known before the run (platform.procs; a
// trace's header is read when the point runs).
func (p pointCtx) checkPartitionsPoint(sc *Scenario) {
	procs := sc.Platform.Procs
	if procs <= 0 {
		return
	}
	for _, t := range p.d.parts {
		if t.spec.Nodes != nil {
			continue // said by checkPartitions: no platform of nodes
		}
		if _, err := partition.Parse(t.text, procs); err != nil {
			p.d.add(t.at, "platform.partitions", "%q: %v (platform.procs is %d)", t.text, err, procs)
		}
	}
}

// partitionsKey writes partitions as their number and 8 hex digits of
// the FNV-1a hash of their canonical forms ("2-1a2b3c4d"): "a:4" and
// "a:0-3" are the same partition.
func partitionsKey(texts []string) string {
	if len(texts) == 0 {
		return "none"
	}
	h := fnv.New32a()
	for _, t := range texts {
		c := t
		if s, err := partition.Parse(t, platform.MaxCPUs); err == nil {
			c = s.Canonical()
		}
		h.Write([]byte(c))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%d-%08x", len(texts), h.Sum32())
}
