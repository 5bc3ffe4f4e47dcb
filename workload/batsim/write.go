package batsim

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/schedlab/schedlab/workload/swf"
)

// Records yields SWF records one at a time; io.EOF ends them. A
// *swf.Reader is one.
type Records interface {
	Next() (swf.Record, error)
}

// Written says what Write wrote and left out.
type Written struct {
	Jobs, Profiles int
	// Skipped counts the records without a submit time, a run time or a
	// processor count (allocated, else requested).
	Skipped int64
}

// Write writes the records of recs as a Batsim workload for a machine of
// nbRes resources (at least 1), streaming: it holds the distinct
// profiles, not the jobs. See the package documentation for the
// mapping. Nothing is written past an error, but what was written
// before it stays: write to an atomic file.
func Write(w io.Writer, recs Records, nbRes int, description string) (Written, error) {
	var out Written
	if nbRes < 1 {
		return out, fmt.Errorf("nb_res %d: want at least 1 resource", nbRes)
	}
	bw := bufio.NewWriter(w)
	desc, _ := json.Marshal(description)
	fmt.Fprintf(bw, "{\n  \"description\": %s,\n  \"nb_res\": %d,\n  \"jobs\": [", desc, nbRes)
	type key struct {
		run    float64
		failed bool
	}
	profiles := map[key]string{}
	for {
		rec, err := recs.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return out, err
		}
		procs := rec.AllocProcs
		if procs <= 0 {
			procs = rec.ReqProcs
		}
		if rec.Submit < 0 || rec.Run < 0 || procs <= 0 {
			out.Skipped++
			continue
		}
		k := key{rec.Run, rec.Status == 0}
		name, ok := profiles[k]
		if !ok {
			name = "delay_" + num(rec.Run)
			if k.failed {
				name += "_failed"
			}
			profiles[k] = name
		}
		if out.Jobs > 0 {
			bw.WriteByte(',')
		}
		fmt.Fprintf(bw, "\n    {\"id\": \"%d\", \"subtime\": %s, \"res\": %d, \"profile\": \"%s\"", rec.JobNumber, num(rec.Submit), procs, name)
		if rec.ReqTime > 0 {
			fmt.Fprintf(bw, ", \"walltime\": %s", num(rec.ReqTime))
		}
		bw.WriteByte('}')
		out.Jobs++
	}
	if out.Jobs == 0 {
		return out, fmt.Errorf("no record to export (%d without a submit time, run time or processor count)", out.Skipped)
	}
	bw.WriteString("\n  ],\n  \"profiles\": {")
	// Profiles sorted by name: the output does not depend on map order.
	type named struct {
		name string
		k    key
	}
	var ps []named
	for k, n := range profiles {
		ps = append(ps, named{n, k})
	}
	sort.Slice(ps, func(a, b int) bool { return ps[a].name < ps[b].name })
	for i, p := range ps {
		if i > 0 {
			bw.WriteByte(',')
		}
		fmt.Fprintf(bw, "\n    \"%s\": {\"type\": \"delay\", \"delay\": %s", p.name, num(p.k.run))
		if p.k.failed {
			bw.WriteString(", \"ret\": 1")
		}
		bw.WriteByte('}')
	}
	bw.WriteString("\n  }\n}\n")
	out.Profiles = len(ps)
	return out, bw.Flush()
}

// num prints a number in the shortest form that reads back the same.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
