package calibrate

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxJobs bounds the jobs of one jobs.csv (about 100 bytes a job are
// kept).
const MaxJobs = 20_000_000

// Job is one row of a jobs.csv, the columns the comparison reads.
type Job struct {
	ID              int64
	Submit, Start   float64
	User, Partition string
}

// ReadJobs reads a jobs.csv (schedlab's columns: job_id,
// submission_time, starting_time, user, partition; user and partition
// may be absent). name is the file's name in messages, which name the
// line and the column.
func ReadJobs(r io.Reader, name string) ([]Job, error) {
	cr := csv.NewReader(r)
	cr.ReuseRecord = true
	head, err := cr.Read()
	if err != nil {
		if err == io.EOF {
			return nil, fmt.Errorf("%s: empty: not a jobs.csv", name)
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(h)] = i
	}
	for _, need := range []string{"job_id", "submission_time", "starting_time"} {
		if _, ok := col[need]; !ok {
			return nil, fmt.Errorf("%s:1: no column %s: not a jobs.csv (its header: %s)", name, need, strings.Join(head, ","))
		}
	}
	get := func(row []string, c string) string {
		if i, ok := col[c]; ok && i < len(row) {
			return row[i]
		}
		return ""
	}
	var out []Job
	for {
		row, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(out) == MaxJobs {
			return nil, fmt.Errorf("%s:%d: more than %d jobs (calibrate.MaxJobs)", name, line, MaxJobs)
		}
		id, err := strconv.ParseInt(get(row, "job_id"), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: column job_id: %q is not a job id", name, line, get(row, "job_id"))
		}
		j := Job{ID: id, User: get(row, "user"), Partition: get(row, "partition")}
		for _, f := range []struct {
			c   string
			dst *float64
		}{{"submission_time", &j.Submit}, {"starting_time", &j.Start}} {
			v, err := strconv.ParseFloat(get(row, f.c), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("%s:%d: column %s: %q is not a time", name, line, f.c, get(row, f.c))
			}
			*f.dst = v
		}
		out = append(out, j)
	}
}

// Stats summarises one set of matched jobs.
type Stats struct {
	Jobs int
	// Start errors (simulated start - recorded start), seconds.
	MeanErr, MedianErr, P10Err, P90Err, MeanAbsErr float64
	// Shares of jobs whose |error| is at most 60 s, 600 s, 3600 s.
	Within60, Within600, Within3600 float64
	// Waits (start - submit) of the recorded and the simulated run.
	RecMeanWait, SimMeanWait, RecMedianWait, SimMedianWait float64
	// RelMeanWait is (SimMeanWait - RecMeanWait) / RecMeanWait (NaN when
	// the recorded mean wait is 0).
	RelMeanWait float64
}

// Group is the stats of the jobs of one partition or user.
type Group struct {
	Name string
	Stats
}

// Report is the comparison.
type Report struct {
	All Stats
	// OnlyRecorded and OnlySimulated count the jobs of one file only.
	OnlyRecorded, OnlySimulated int
	// SubmitMismatch counts matched jobs whose submission times differ
	// (the two runs are not of the same trace).
	SubmitMismatch int
	Partitions     []Group // by name
	Users          []Group // the most jobs first, at most MaxUsers
}

// MaxUsers is the users a report lists (the most jobs first).
const MaxUsers = 20

type pair struct {
	rec, sim Job
}

// Compare matches rec and sim by job id and computes the report. It
// fails when the files share no job, or a file names a job twice.
func Compare(rec, sim []Job) (Report, error) {
	byID := make(map[int64]Job, len(rec))
	for _, j := range rec {
		if _, dup := byID[j.ID]; dup {
			return Report{}, fmt.Errorf("the recorded run names job %d twice", j.ID)
		}
		byID[j.ID] = j
	}
	var r Report
	var pairs []pair
	seen := make(map[int64]bool, len(sim))
	for _, j := range sim {
		if seen[j.ID] {
			return Report{}, fmt.Errorf("the simulated run names job %d twice", j.ID)
		}
		seen[j.ID] = true
		rj, ok := byID[j.ID]
		if !ok {
			r.OnlySimulated++
			continue
		}
		if rj.Submit != j.Submit {
			r.SubmitMismatch++
		}
		pairs = append(pairs, pair{rj, j})
	}
	r.OnlyRecorded = len(rec) - len(pairs)
	if len(pairs) == 0 {
		return Report{}, errors.New("the two runs have no job in common (are they runs of the same trace?)")
	}
	slices.SortFunc(pairs, func(a, b pair) int { return cmp.Compare(a.rec.ID, b.rec.ID) })
	r.All = stats(pairs)
	r.Partitions = groups(pairs, func(p pair) string { return p.rec.Partition }, 0)
	r.Users = groups(pairs, func(p pair) string { return p.rec.User }, MaxUsers)
	return r, nil
}

func groups(ps []pair, key func(pair) string, most int) []Group {
	by := map[string][]pair{}
	for _, p := range ps {
		by[key(p)] = append(by[key(p)], p)
	}
	var out []Group
	for k, g := range by {
		out = append(out, Group{Name: k, Stats: stats(g)})
	}
	slices.SortFunc(out, func(a, b Group) int {
		if most > 0 {
			if c := cmp.Compare(b.Jobs, a.Jobs); c != 0 {
				return c
			}
		}
		return cmp.Compare(a.Name, b.Name)
	})
	if most > 0 && len(out) > most {
		out = out[:most]
	}
	return out
}

func stats(ps []pair) Stats {
	n := len(ps)
	errs := make([]float64, n)
	rw := make([]float64, n)
	sw := make([]float64, n)
	s := Stats{Jobs: n}
	var w60, w600, w3600 int
	for i, p := range ps {
		e := p.sim.Start - p.rec.Start
		errs[i] = e
		rw[i] = p.rec.Start - p.rec.Submit
		sw[i] = p.sim.Start - p.sim.Submit
		s.MeanErr += e
		s.MeanAbsErr += math.Abs(e)
		s.RecMeanWait += rw[i]
		s.SimMeanWait += sw[i]
		a := math.Abs(e)
		if a <= 60 {
			w60++
		}
		if a <= 600 {
			w600++
		}
		if a <= 3600 {
			w3600++
		}
	}
	fn := float64(n)
	s.MeanErr /= fn
	s.MeanAbsErr /= fn
	s.RecMeanWait /= fn
	s.SimMeanWait /= fn
	s.Within60, s.Within600, s.Within3600 = float64(w60)/fn, float64(w600)/fn, float64(w3600)/fn
	slices.Sort(errs)
	slices.Sort(rw)
	slices.Sort(sw)
	s.MedianErr, s.P10Err, s.P90Err = quantile(errs, 0.5), quantile(errs, 0.1), quantile(errs, 0.9)
	s.RecMedianWait, s.SimMedianWait = quantile(rw, 0.5), quantile(sw, 0.5)
	s.RelMeanWait = math.NaN()
	if s.RecMeanWait != 0 {
		s.RelMeanWait = (s.SimMeanWait - s.RecMeanWait) / s.RecMeanWait
	}
	return s
}

// quantile of sorted xs by linear interpolation between closest ranks
// (the (n-1)q rank; the median of an even count is the mean of the two
// middle values).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	h := float64(len(xs)-1) * q
	lo := math.Floor(h)
	i := int(lo)
	if i+1 >= len(xs) {
		return xs[i]
	}
	return xs[i] + (h-lo)*(xs[i+1]-xs[i])
}
