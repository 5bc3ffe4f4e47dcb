package scenario

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/goccy/go-yaml/ast"
	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/workload/avail"
)

// This file reads the cluster's unavailable CPUs (docs/availability.md):
// platform.reservations, decoded by hand, and the checks of
// platform.events, platform.failures and platform.on_failure that
// involve several keys.

// reservation is one window of platform.reservations as written.
type reservation struct {
	at   pos
	text string
	w    avail.Window // parsed for a machine of platform.MaxCPUs CPUs
	// onNodes: a window "START:END:NODES" naming nodes (a hostlist or
	// ALL), checked against platform.nodes (checkNodeReservations).
	onNodes bool
}

// namesNodes reports whether a window's text names nodes: its last
// field (after the last colon: hostlists have none) has a letter.
func namesNodes(text string) bool {
	return strings.IndexFunc(text[strings.LastIndex(text, ":")+1:], unicode.IsLetter) >= 0
}

// decodeReservations reads platform.reservations: one window
// "START:END:CPUS" (the syntax of schedlab run --reservation) or a list
// of them. A list is the set of windows of every point, not a sweep.
func (d *decoder) decodeReservations(e entry) {
	d.resv = []reservation{}
	n := d.texts(e, `a window must be a quoted string "START:END:CPUS" (seconds, seconds, a CPU count or ids such as "0-49"; unquoted, YAML may read it as a mapping)`, func(it ast.Node, text string) {
		w, err := avail.ParseReservation(text, platform.MaxCPUs)
		if err != nil && namesNodes(text) {
			d.resv = append(d.resv, reservation{at: posOf(it), text: text, onNodes: true})
			return
		}
		if err != nil {
			d.add(posOf(it), e.path, "%v", err)
			return
		}
		for _, r := range d.resv {
			if r.onNodes {
				continue
			}
			if err := avail.CheckWindows([]avail.Window{r.w, w}, "window"); err != nil {
				d.add(posOf(it), e.path, "%q overlaps %q (at %s) on the same CPUs", text, r.text, r.at)
				break
			}
		}
		d.resv = append(d.resv, reservation{at: posOf(it), text: text, w: w})
	})
	if n == nil {
		d.resv = nil // as if absent: the error is said
		return
	}
	if len(d.resv) > avail.MaxWindows {
		d.add(posOf(n), e.path, "%d windows: at most %d", len(d.resv), avail.MaxWindows)
	}
}

// texts reads a setting that is one text or a list of texts (a list
// is the value of every point, not a sweep): f gets each text (a quoted
// string, or a number as written) with its node; any other node is an
// error, what it must be (need) and what it is. It returns the resolved
// setting (nil: none).
func (d *decoder) texts(e entry, need string, f func(it ast.Node, text string)) ast.Node {
	n := d.resolve(e.value, e.path)
	if n == nil {
		return nil
	}
	items := []ast.Node{n}
	if seq, ok := n.(*ast.SequenceNode); ok {
		items = seq.Values
	}
	for _, it := range items {
		it = d.resolve(it, e.path)
		if it == nil {
			continue
		}
		switch x := it.(type) {
		case *ast.StringNode:
			f(it, x.Value)
		case *ast.IntegerNode, *ast.FloatNode:
			f(it, x.GetToken().Value)
		default:
			d.add(posOf(it), e.path, "%s, got %s", need, describe(it))
		}
	}
	return n
}

// canonicalReservation writes a window as START:END:IDS, the form Key
// hashes (a count N is the ids 0-(N-1)); text must parse.
func canonicalReservation(text string) string {
	w, err := avail.ParseReservation(text, platform.MaxCPUs)
	if err != nil {
		return text
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	return f(w.Start) + ":" + f(w.End) + ":" + w.CPUs.String()
}

// checkAvail checks the keys of unavailable CPUs together: the failure
// generator needs both its means, and the failure rule needs failures.
func (d *decoder) checkAvail() {
	if d.nodes == nil {
		for _, r := range d.resv {
			if r.onNodes {
				d.add(r.at, "platform.reservations", "%q names nodes: a window on nodes needs platform.nodes (on a pool of CPUs a window names CPUs: a count or ids such as \"0-49\")", r.text)
			}
		}
	}
	if d.present("platform.failures") && !d.broken["platform.failures"] {
		for _, k := range []string{"platform.failures.mtbf", "platform.failures.mttr"} {
			if d.missing(k) {
				d.add(d.keys["platform.failures"], k, "required with platform.failures (the mean up and down times)")
			}
		}
	}
	if d.present("platform.on_failure") && !d.present("platform.events") && !d.present("platform.failures") {
		d.add(d.keys["platform.on_failure"], "platform.on_failure", "needs failures (platform.events or platform.failures): it says what happens to a job on a CPU that goes down")
	}
}

// checkAvailPoint checks the windows against the point's machine, when
// its size is known before the run (platform.procs; a trace's header is
// read when the point runs).
func (p pointCtx) checkAvailPoint(sc *Scenario) {
	procs := sc.Platform.Procs
	if procs <= 0 {
		return
	}
	for _, r := range p.d.resv {
		if _, err := avail.ParseReservation(r.text, procs); err != nil {
			p.d.add(r.at, "platform.reservations", "%v (platform.procs is %d)", err, procs)
		}
	}
	if g := sc.Platform.Failures.Group; g > procs {
		p.d.add(p.at("platform.failures.group"), "platform.failures.group", "groups of %d CPUs on a machine of %d (platform.procs)", g, procs)
	}
}
