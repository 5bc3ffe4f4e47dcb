package experiment

import (
	"fmt"
	"io"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/internal/nodecheck"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/validate"
	"github.com/schedlab/schedlab/workload/avail"
)

// buildNodes is build on a platform of nodes (docs/nodes.md,
// "Reservations, maintenance and failures on nodes"): a reservation is
// "START:END:NODES" (a hostlist, or ALL), an event's resources are
// nodes, and the generated failures' groups are blocks of GroupSize
// nodes (0: every node one group).
func (a AvailSpec) buildNodes(ns *nodes.Nodes, rep int) (cfg *engine.NodeAvailability, closeFn func() error, err error) {
	name := a.Name
	if name == "" {
		name = "--reservation"
	}
	of, err := engine.ParseOnFailure(orText(a.OnFailure, "kill"))
	if err != nil {
		return nil, nil, err
	}
	var ws []avail.NodeWindow
	for i, s := range a.Reservations {
		w, err := avail.ParseNodeReservationAt(s, ns, a.instant)
		if err != nil {
			return nil, nil, &AvailError{fmt.Errorf("%s %d: %w", name, i+1, err)}
		}
		ws = append(ws, w)
	}
	if err := avail.CheckNodeWindows(ws, ns, name); err != nil {
		return nil, nil, &AvailError{err}
	}
	cfg = &engine.NodeAvailability{OnFailure: of}
	for _, w := range ws {
		cfg.Windows = append(cfg.Windows, policy.NodeWindow{Start: w.Start, End: w.End, Nodes: w.Nodes})
	}
	events := func(f io.Reader) *avail.Events { return avail.NewNodeEvents(f, a.Events, ns).Dates(a.instant) }
	if cfg.Failures, closeFn, err = a.failureSource(events, ns.Len(), rep, "failures (groups of nodes on a platform of nodes)"); err != nil {
		return nil, nil, err
	}
	return cfg, closeFn, nil
}

// Interrupted keeps, for the unavailability check, the attempts of jobs
// requeued by a failure or a window (a killed job's record comes with
// JobKilled).
func (c *nodeCheck) Interrupted(now float64, r *engine.Record, requeued bool) {
	if !requeued || c.err != nil {
		return
	}
	if len(c.tries) >= MaxCheckJobs {
		c.err = fmt.Errorf("--check holds every attempt in memory and is limited to %d; this run has more (run it without --check)", MaxCheckJobs)
		return
	}
	c.tries = append(c.tries, c.rec(r))
}

// Unavailable keeps the spans of unavailable nodes (the engine gives
// them as the nodes' cores) for validate.CheckNodesUnavailable.
func (c *nodeCheck) Unavailable(kind engine.UnavailKind, start, end float64, cpus platform.Runs) {
	c.avail = true
	last := -1
	for i := 0; i+1 < len(cpus); i += 2 {
		for core := cpus[i]; core <= cpus[i+1]; core++ {
			if n := c.ns.NodeOfCore(int(core)); n != last {
				c.spans = append(c.spans, validate.NodeSpan{Kind: kind.String(), Node: n, Start: start, End: end})
				last = n
			}
		}
	}
}

// checkUnavailable runs validate.CheckNodesUnavailable over every
// attempt, all (the finished and killed jobs, and the requeued attempts).
func (c *nodeCheck) checkUnavailable(all []validate.NodeRec) error {
	if !c.avail && len(c.tries) == 0 {
		return nil
	}
	if err := validate.CheckNodesUnavailable(nodecheck.Caps(c.ns), all, c.spans); err != nil {
		return fmt.Errorf("check: the schedule on nodes is invalid: %w", err)
	}
	return nil
}
