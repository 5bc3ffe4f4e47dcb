package htmlreport

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/schedlab/schedlab/validate"
)

// partition is one partition of a run, as summary.json's
// run.partitions.list gives it (experiment.PartitionInfo).
type partition struct {
	Name    string `json:"name"`
	CPUs    string `json:"cpus"`
	Nodes   string `json:"nodes"`
	Jobs    *int64 `json:"jobs"`
	Metrics *struct {
		JobsEnded    *int64   `json:"jobs_ended"`
		MeanWait     *float64 `json:"mean_wait"`
		MaxWait      *float64 `json:"max_wait"`
		MeanResponse *float64 `json:"mean_response"`
		MeanBSLD     *float64 `json:"mean_bounded_slowdown"`
		Utilization  *float64 `json:"utilization"`
	} `json:"metrics"`
	// lo, hi are its CPU intervals (nil when CPUs does not parse as
	// allocated_resources does: then it has no lines on the Gantt).
	lo, hi []int
}

// partRow is one row of the page's table of partitions, in human units.
type partRow struct {
	Name, CPUs, Jobs, Ended                            string
	MeanWait, MaxWait, MeanResp, MeanBSLD, Utilization string
}

// partView is a partition as the page's script draws it on the Gantt
// chart: its name and CPU intervals.
type partView struct {
	Name string `json:"name"`
	Lo   []int  `json:"lo"`
	Hi   []int  `json:"hi"`
}

// partitionsKey is the summary row that holds the partitions' list.
const partitionsKey = "run.partitions.list"

// readPartitions reads the partitions of summary.json (nil when the run
// has none). A list that is not one of partitions is an error naming
// the file; CPUs beyond the machine are refused as jobs.csv's are.
func readPartitions(path string, m machine) ([]partition, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var s struct {
		Run struct {
			Partitions *struct {
				List json.RawMessage `json:"list"`
			} `json:"partitions"`
		} `json:"run"`
	}
	if err := json.Unmarshal(b, &s); err != nil || s.Run.Partitions == nil || len(s.Run.Partitions.List) == 0 {
		return nil, nil // not an object of that shape: the rows show it as it is
	}
	var ps []partition
	if err := json.Unmarshal(s.Run.Partitions.List, &ps); err != nil {
		return nil, fmt.Errorf("%s: %s: not a list of partitions: %v", path, partitionsKey, err)
	}
	for i := range ps {
		p := &ps[i]
		if p.Name == "" {
			return nil, fmt.Errorf("%s: %s[%d]: a partition without a name", path, partitionsKey, i)
		}
		ivs, err := validate.ParseResources(p.CPUs)
		if err != nil || len(ivs) == 0 {
			continue
		}
		if last := ivs[len(ivs)-1].Hi; last >= m.cpus {
			return nil, fmt.Errorf("%s: partition %s: CPU %d is not on the machine (%d CPUs: %s)", path, p.Name, last, m.cpus, m.what)
		}
		for _, iv := range ivs {
			p.lo, p.hi = append(p.lo, iv.Lo), append(p.hi, iv.Hi)
		}
	}
	return ps, nil
}

// partitionRows are the rows of the table of partitions.
func partitionRows(ps []partition) []partRow {
	var rows []partRow
	for _, p := range ps {
		r := partRow{Name: p.Name, CPUs: p.CPUs}
		if p.Nodes != "" {
			r.CPUs = p.Nodes + " (cores " + p.CPUs + ")"
		}
		if p.Jobs != nil {
			r.Jobs = fmt.Sprint(*p.Jobs)
		}
		if m := p.Metrics; m != nil {
			dur := func(v *float64) string {
				if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
					return ""
				}
				return humanDuration(*v)
			}
			if m.JobsEnded != nil {
				r.Ended = fmt.Sprint(*m.JobsEnded)
			}
			r.MeanWait, r.MaxWait, r.MeanResp = dur(m.MeanWait), dur(m.MaxWait), dur(m.MeanResponse)
			if m.MeanBSLD != nil {
				r.MeanBSLD = sig3(*m.MeanBSLD)
			}
			if m.Utilization != nil {
				r.Utilization = sig3(100*(*m.Utilization)) + "%"
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// partitionsText is the summary row's value in place of the raw list:
// each partition's name, CPUs and mean wait.
func partitionsText(ps []partition) string {
	var parts []string
	for _, r := range partitionRows(ps) {
		s := r.Name + " (CPUs " + r.CPUs
		if r.Jobs != "" {
			s += ", " + r.Jobs + " jobs"
		}
		if r.MeanWait != "" {
			s += ", mean wait " + r.MeanWait
		}
		parts = append(parts, s+")")
	}
	return strings.Join(parts, "; ")
}

// partitionViews are the partitions the Gantt chart draws (those whose
// CPUs it can place).
func partitionViews(ps []partition) []partView {
	var vs []partView
	for _, p := range ps {
		if p.lo != nil {
			vs = append(vs, partView{Name: p.Name, Lo: p.lo, Hi: p.hi})
		}
	}
	return vs
}
