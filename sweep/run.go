package sweep

import (
	"fmt"
	"sort"
	"sync"

	"github.com/schedlab/schedlab/experiment"
	"github.com/schedlab/schedlab/scenario"
)

// replicate is the replication core of every in-process run of scenarios
// (Sweep, Run, Memo): it runs every replication of the points
// points[todo[0]], points[todo[1]], ... in parallel, each through
// experiment.RunReplication, and calls done(i, reps) from the worker that
// ended point i's last replication, with its replications' metrics in
// replication order (no other worker touches point i from then on).
// records, when not nil, says where replication rep of a point writes its
// per-job records; perJob asks for the per-job part of the replications'
// Detail instead (experiment.RunReplicationPerJob; no records then).
//
// Tasks are not listed: task k is replication k-first[j] of the j-th
// point to run, where first[j] <= k < first[j+1]; memory grows with the
// points, not with points x replications (beyond the metrics of the
// points still running). The error is that of the lowest-numbered
// failing task (see Each).
func replicate(points []scenario.Point, todo []int, workers int, prog Progress, perJob bool,
	records func(p scenario.Point, rep int) string, done func(i int, reps []experiment.RepMetrics) error) error {
	first := []int{0} // first task of each point in todo, then the total
	for _, i := range todo {
		first = append(first, first[len(first)-1]+points[i].Scenario.Replications)
	}
	reps := make([][]experiment.RepMetrics, len(points)) // made when a point's first replication ends
	left := make([]int, len(points))
	for _, i := range todo {
		left[i] = points[i].Scenario.Replications
	}
	var mu sync.Mutex
	return Each(first[len(first)-1], workers, prog, func(k int) error {
		j := sort.SearchInts(first, k+1) - 1
		point, rep := todo[j], k-first[j]
		rec := ""
		if records != nil {
			rec = records(points[point], rep)
		}
		var m experiment.RepMetrics
		var err error
		if perJob {
			m, err = experiment.RunReplicationPerJob(points[point].Scenario, rep)
		} else {
			m, err = experiment.RunReplication(points[point].Scenario, rep, rec)
		}
		if err != nil {
			return fmt.Errorf("point %d (%s) replication %d: %w", point, points[point].Scenario.Key(), rep, err)
		}
		mu.Lock()
		if reps[point] == nil {
			reps[point] = make([]experiment.RepMetrics, points[point].Scenario.Replications)
		}
		reps[point][rep] = m
		left[point]--
		complete := left[point] == 0
		var rs []experiment.RepMetrics
		if complete {
			rs, reps[point] = reps[point], nil
		}
		mu.Unlock()
		if complete {
			return done(point, rs)
		}
		return nil
	})
}

// Run runs every replication of every scenario in memory, in parallel
// (the replication core Sweep uses, without its folder): out[i][rep] is
// replication rep of scenarios[i]. Results depend on the scenarios only,
// not on the number of workers or on timing. The scenarios are checked
// as CheckPoints checks a sweep's points; each scenario is its own point
// (its index in error messages).
func Run(scenarios []scenario.Scenario, workers int, prog Progress) ([][]experiment.RepMetrics, error) {
	return run(scenarios, workers, prog, false)
}

// run is Run; perJob asks for the per-job part of a cluster
// replication's Detail (Memo.PerJob).
func run(scenarios []scenario.Scenario, workers int, prog Progress, perJob bool) ([][]experiment.RepMetrics, error) {
	points := make([]scenario.Point, len(scenarios))
	todo := make([]int, len(scenarios))
	for i, s := range scenarios {
		points[i], todo[i] = scenario.Point{Index: i, Scenario: s}, i
	}
	if err := CheckPoints(points); err != nil {
		return nil, err
	}
	out := make([][]experiment.RepMetrics, len(scenarios))
	err := replicate(points, todo, workers, prog, perJob, nil, func(i int, reps []experiment.RepMetrics) error {
		out[i] = reps // each point is done by one worker, once
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
