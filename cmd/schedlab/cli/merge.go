package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/schedlab/schedlab/scenario"
	"github.com/schedlab/schedlab/sweep"
)

type mergeCmd struct {
	Dir      string        `arg:"" name:"dir" help:"The folder the shards wrote into (their --out)."`
	Scenario string        `arg:"" optional:"" name:"scenario" help:"The scenario file the shards ran, checked against the copy the first shard left in DIR/shards/ (optional: the merge reads that copy)."`
	Wait     time.Duration `placeholder:"DURATION" help:"Wait up to DURATION (e.g. 30m, 48h) for missing units, looking every 10 s, before giving up: for a merge started together with the shards (the Kubernetes merge Job). Default 0: no wait."`
}

// maxMergeWait bounds merge --wait (a year: a typo like 1000000h ends in
// a message).
const maxMergeWait = 366 * 24 * time.Hour

// mergePoll is how often merge --wait looks for the missing units: every
// 10 s, more often for a short wait.
func mergePoll(wait time.Duration) time.Duration {
	return min(max(wait/20, 50*time.Millisecond), 10*time.Second)
}

func (c *mergeCmd) Run(g *globals) error {
	if c.Wait < 0 || c.Wait > maxMergeWait {
		return usageError{fmt.Errorf("--wait %s: want 0 (no wait) up to %s", c.Wait, maxMergeWait)}
	}
	if err := checkOutDir(c.Dir); err != nil {
		return err
	}
	// With --wait, the merge may start before the first shard has
	// written the folder's manifest (a Kubernetes merge Job starts with
	// the shards).
	deadline := time.Now().Add(c.Wait)
	var m sweep.Manifest
	var points []scenario.Point
	for said := false; ; {
		var err error
		m, points, err = sweep.OpenShards(c.Dir)
		if errors.Is(err, sweep.ErrNoShards) && time.Now().Before(deadline) {
			if !said {
				fmt.Fprintf(g.stderr, "schedlab: %s holds no shards yet; waiting up to %s for the first\n", c.Dir, c.Wait)
				said = true
			}
			time.Sleep(min(mergePoll(c.Wait), time.Until(deadline)))
			continue
		}
		if err != nil {
			return err
		}
		break
	}
	copyName := filepath.Join(sweep.ShardsDir(c.Dir), "scenario.yaml") + " (a copy of " + m.Scenario + ")"
	if c.Scenario != "" {
		theirs, err := scenario.Load(c.Scenario)
		if err != nil {
			return err
		}
		if d := sweep.DiffPoints(points, theirs, copyName, c.Scenario); d != "" {
			return &sweep.MismatchError{Dir: c.Dir, What: "another scenario", Detail: d}
		}
	}
	// Only the merge writes these two folders; the shards may still be
	// writing theirs (merge --wait): the lock is shared with them.
	if err := g.lockOutDir(c.Dir, true); err != nil {
		return err
	}
	for _, d := range []string{c.Dir, filepath.Join(c.Dir, "points")} {
		if err := g.useOutDir(d); err != nil {
			return err
		}
	}
	waiting := false
	for {
		res, err := sweep.Merge(points, c.Dir, m.Shards)
		var me *sweep.MissingError
		if errors.As(err, &me) && time.Now().Before(deadline) {
			if !waiting {
				fmt.Fprintf(g.stderr, "schedlab: %d of %d unit(s) not there yet; waiting up to %s for them\n", len(me.Missing), me.Total, c.Wait)
				waiting = true
			}
			time.Sleep(min(mergePoll(c.Wait), time.Until(deadline)))
			continue
		}
		if err != nil {
			if me != nil && c.Wait > 0 {
				return fmt.Errorf("after waiting %s: %w", c.Wait, err)
			}
			return err
		}
		sayReused(g, res, c.Dir, "taken from", "not merged again")
		return writeSweep(g, c.Dir, mergedInfo(c.Dir, m, points), points, res)
	}
}

// mergedInfo is sweep.json of a merged sweep. The points come from the
// copy of the scenario in DIR/shards/, so a scenario without a name key
// takes its name from the original file's name (the manifest's), as the
// unsharded sweep does.
func mergedInfo(dir string, m sweep.Manifest, points []scenario.Point) sweepInfo {
	info := sweepInfo{Name: scenarioName(points), File: m.Scenario}
	if data, err := os.ReadFile(filepath.Join(sweep.ShardsDir(dir), "scenario.yaml")); err == nil {
		if ps, err := scenario.Parse(m.Scenario, data); err == nil && len(ps) > 0 {
			info.Name = ps[0].Scenario.Name
		}
	}
	return info
}
