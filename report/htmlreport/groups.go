package htmlreport

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strings"
)

// MaxGroupRows is how many groups of summary.json's metrics_by (run
// --metrics-by) the page's table lists: the most jobs first, as the
// file orders them.
const MaxGroupRows = 20

// groupsKey is the summary row that holds metrics_by's list.
const groupsKey = "metrics_by.list"

// groupTable is the page's table of metrics_by.
type groupTable struct {
	Key   string // user, group, qos or nodegroup
	Total int    // groups in the file
	Rows  []groupRow
}

// groupRow is one group, in human units.
type groupRow struct {
	Name, Jobs, MeanWait, MaxWait, MeanResp, MeanBSLD, Share string
}

// readGroups reads summary.json's metrics_by (nil when absent or not of
// its shape: the summary rows then show it as it is).
func readGroups(path string) *groupTable {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var s struct {
		By *struct {
			Key  string `json:"key"`
			List []struct {
				ID       int64    `json:"id"`
				Name     string   `json:"name"`
				Jobs     *int64   `json:"jobs_ended"`
				MeanWait *float64 `json:"mean_wait"`
				MaxWait  *float64 `json:"max_wait"`
				MeanResp *float64 `json:"mean_response"`
				MeanBSLD *float64 `json:"mean_bounded_slowdown"`
				Share    *float64 `json:"cpu_share"`
			} `json:"list"`
		} `json:"metrics_by"`
	}
	if json.Unmarshal(b, &s) != nil || s.By == nil || s.By.Key == "" {
		return nil
	}
	g := &groupTable{Key: s.By.Key, Total: len(s.By.List)}
	dur := func(v *float64) string {
		if v == nil || math.IsNaN(*v) || math.IsInf(*v, 0) {
			return ""
		}
		return humanDuration(*v)
	}
	for i, x := range s.By.List {
		if i == MaxGroupRows {
			break
		}
		r := groupRow{Name: x.Name, MeanWait: dur(x.MeanWait), MaxWait: dur(x.MaxWait), MeanResp: dur(x.MeanResp)}
		switch {
		case r.Name != "":
		case x.ID < 0:
			r.Name = "unknown " + g.Key
		default:
			r.Name = fmt.Sprintf("%s %d", g.Key, x.ID)
		}
		if x.Jobs != nil {
			r.Jobs = fmt.Sprint(*x.Jobs)
		}
		if x.MeanBSLD != nil {
			r.MeanBSLD = sig3(*x.MeanBSLD)
		}
		if x.Share != nil {
			r.Share = sig3(100*(*x.Share)) + "%"
		}
		g.Rows = append(g.Rows, r)
	}
	return g
}

// text is the summary row's value in place of the raw list: the groups
// with the most jobs, each with its jobs and mean wait.
func (g *groupTable) text() string {
	var parts []string
	for i, r := range g.Rows {
		if i == 5 {
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s jobs, mean wait %s)", r.Name, r.Jobs, r.MeanWait))
	}
	s := fmt.Sprintf("%d %s(s): %s", g.Total, g.Key, strings.Join(parts, "; "))
	if g.Total > len(parts) {
		s += "; ..."
	}
	return s
}
