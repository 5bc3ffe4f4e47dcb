package resample

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
)

// Methods are the resampling methods' names, "none" first (the trace as
// it is).
var Methods = []string{"none", "user-weeks"}

// Week is the length of the unit UserWeeks cuts a trace into, in seconds.
const Week = 7 * 24 * 3600

// MaxJobs bounds the jobs of a trace UserWeeks resamples: the whole trace
// is held in memory (about 200 bytes a job, twice over while the new
// trace is built).
const MaxJobs = 5_000_000

// UserWeeks returns a resampled copy of jobs (a trace in submit order):
// the trace's weeks, counted from its first submission, each filled with
// as many user-weeks drawn with replacement from the whole trace as it
// had active users (see the package doc). Jobs of an unknown user (-1)
// form one stream per week. The result is in submit order, numbered
// 1..n; jobs is not changed. The same r state gives the same result.
func UserWeeks(jobs []actual.Job, r *rand.Rand) ([]actual.Job, error) {
	if len(jobs) == 0 {
		return nil, fmt.Errorf("resample: the trace has no jobs")
	}
	if len(jobs) > MaxJobs {
		return nil, fmt.Errorf("resample: the trace has %d jobs; user-weeks resamples at most %d (resample.MaxJobs: it holds the trace in memory)", len(jobs), MaxJobs)
	}
	t0 := math.Inf(1)
	for i := range jobs {
		t0 = math.Min(t0, jobs[i].Submit)
	}
	type key struct {
		week int64
		user int32
	}
	// units: every user-week's jobs (indexes into jobs, in trace order),
	// units ordered by week, then by first appearance in the week.
	at := map[key]int{}
	var units [][]int32
	var unitWeek []int64
	weeks := int64(0)
	for i := range jobs {
		w := int64((jobs[i].Submit - t0) / Week)
		k := key{w, jobs[i].User}
		u, ok := at[k]
		if !ok {
			u = len(units)
			at[k] = u
			units = append(units, nil)
			unitWeek = append(unitWeek, w)
		}
		units[u] = append(units[u], int32(i))
		weeks = max(weeks, w+1)
	}
	// active users per week of the trace
	active := make([]int, weeks)
	for _, w := range unitWeek {
		active[w]++
	}
	out := make([]actual.Job, 0, len(jobs))
	for w := int64(0); w < weeks; w++ {
		base := t0 + float64(w)*Week
		for range active[w] {
			u := r.IntN(len(units))
			src := t0 + float64(unitWeek[u])*Week
			if len(out)+len(units[u]) > 2*MaxJobs {
				return nil, fmt.Errorf("resample: the resampled trace would have more than %d jobs (twice resample.MaxJobs)", 2*MaxJobs)
			}
			for _, i := range units[u] {
				j := jobs[i]
				j.Submit = base + (j.Submit - src)
				j.Recorded, j.RecordedWait = false, 0 // another week's machine
				out = append(out, j)
			}
		}
	}
	// Submit order; equal submits keep the order of the draw.
	sort.SliceStable(out, func(a, b int) bool { return out[a].Submit < out[b].Submit })
	for i := range out {
		out[i].ID = job.ID(i + 1)
	}
	return out, nil
}
