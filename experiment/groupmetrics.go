package experiment

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"

	"github.com/schedlab/schedlab/engine"
	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/job/actual"
	"github.com/schedlab/schedlab/metrics"
	"github.com/schedlab/schedlab/platform/nodes"
)

// MetricsByKeys are the keys OutputSpec.By groups a run's jobs by: the
// job's user, group (SWF fields 12, 13) or QOS (field 15, the queue;
// trace import writes the QOS there), or, on a platform of nodes, the
// node group its (last) run held nodes of (nodegroup: the groups of
// --nodes in their order, numbered from 0; a job on nodes of several
// groups is counted under MixedNodeGroups).
var MetricsByKeys = []string{"user", "group", "qos", "nodegroup"}

// MixedNodeGroups is the id of the jobs --metrics-by nodegroup counts
// apart: those whose nodes lie in several node groups.
const MixedNodeGroups = -2

// MaxGroupsPrinted is how many groups the printed summary lists (the
// most jobs first); summary.json has every group.
const MaxGroupsPrinted = 20

// GroupMetrics is summary.json's metrics_by section: the run's jobs
// grouped by Key, each group's summary metrics.
type GroupMetrics struct {
	Key  string         `json:"key"`
	List []GroupSummary `json:"list"`
}

// GroupSummary is one group: its id (-1: unknown), its name when the
// trace's header gives one ("; User 1: alice", "; Queue: 1 normal"),
// the jobs that ended, their mean and maximum wait, mean response and
// mean bounded slowdown (the run's tau), and its share of the CPU-seconds
// of the run's jobs.
type GroupSummary struct {
	ID                  int32   `json:"id"`
	Name                string  `json:"name,omitempty"`
	Jobs                int64   `json:"jobs_ended"`
	MeanWait            float64 `json:"mean_wait"`
	MaxWait             float64 `json:"max_wait"`
	MeanResponse        float64 `json:"mean_response"`
	MeanBoundedSlowdown float64 `json:"mean_bounded_slowdown"`
	CPUShare            float64 `json:"cpu_share"`
}

// checkMetricsBy checks OutputSpec.By.
func checkMetricsBy(by string) error {
	if by == "" || slices.Contains(MetricsByKeys, by) {
		return nil
	}
	return &SettingError{Setting: "--metrics-by", Err: fmt.Errorf("--metrics-by %q: want user, group, qos or nodegroup", by)}
}

// groupSums routes each job's events to the summary of its group.
type groupSums struct {
	engine.NopListener
	key  func(*actual.Job) int32
	tau  float64
	sums map[int32]*metrics.Summary
	work map[int32]float64 // CPU-seconds of the group's ended jobs
	// ns, under the key nodegroup: the platform, and each started job's
	// node group (known only at its start).
	ns  *nodes.Nodes
	ran map[job.ID]int32
}

func (g *groupSums) of(j *actual.Job) (int32, *metrics.Summary) {
	var k int32
	if g.ns != nil {
		var ok bool
		if k, ok = g.ran[j.ID]; !ok {
			k = -1 // ended without a start: no node group
		}
		delete(g.ran, j.ID) // its run is over (a requeued job starts anew)
	} else {
		k = g.key(j)
	}
	return k, g.sum(k)
}

func (g *groupSums) sum(k int32) *metrics.Summary {
	s, ok := g.sums[k]
	if !ok {
		s = metrics.NewSummary(1, g.tau)
		g.sums[k] = s
	}
	return s
}

func (g *groupSums) JobSubmitted(now float64, j *actual.Job) {
	if g.ns != nil {
		return // its node group is known at its start
	}
	_, s := g.of(j)
	s.JobSubmitted(now, j)
}

// JobStarted, under the key nodegroup, places the job in the node
// group of the nodes it starts on (a requeued job: of its last run).
func (g *groupSums) JobStarted(now float64, st engine.Start) {
	if g.ns == nil || st.Alloc == nil {
		return
	}
	k := int32(-1)
	for _, na := range st.Alloc.Nodes {
		switch grp := int32(g.ns.GroupOf(na.Node)); {
		case k == -1:
			k = grp
		case grp != k:
			k = MixedNodeGroups
		}
	}
	g.ran[st.Job.ID] = k
	g.sum(k).JobSubmitted(now, st.Job)
}
func (g *groupSums) JobFinished(now float64, r *engine.Record) {
	k, s := g.of(r.Job)
	s.JobFinished(now, r)
	g.work[k] += float64(r.Job.Procs) * (r.End - r.Start)
}
func (g *groupSums) JobKilled(now float64, r *engine.Record) {
	k, s := g.of(r.Job)
	s.JobKilled(now, r)
	g.work[k] += float64(r.Job.Procs) * (r.End - r.Start)
}

func openGroupSums(a *traceAsm, _ *os.File) (engine.Listener, error) {
	tau := a.s.Outputs.Tau
	if tau == 0 {
		tau = metrics.DefaultTau
	}
	g := &groupSums{tau: tau, sums: map[int32]*metrics.Summary{}, work: map[int32]float64{}}
	switch a.s.Outputs.By {
	case "nodegroup":
		if a.ns == nil {
			return nil, &SettingError{Setting: "--metrics-by", Err: errors.New("--metrics-by nodegroup needs a platform of nodes (--nodes, docs/nodes.md)")}
		}
		g.ns, g.ran = a.ns, map[job.ID]int32{}
	case "user":
		g.key = func(j *actual.Job) int32 { return j.User }
	case "group":
		g.key = func(j *actual.Job) int32 { return j.Group }
	default:
		g.key = func(j *actual.Job) int32 { return j.QOS }
	}
	a.o.groups = g
	return g, nil
}

// reportGroupSums writes the groups, the most jobs first (ties by id),
// named by the trace's header where it names them.
func reportGroupSums(a *traceAsm, res *TraceResult) {
	g := a.o.groups
	var names map[int32]string
	h := a.rd.Header()
	switch a.s.Outputs.By {
	case "nodegroup":
		names = map[int32]string{MixedNodeGroups: "several node groups", -1: "never started"}
		for i := range a.ns.Groups() {
			if n, err := nodes.Compress(a.ns.Group(i).Names); err == nil {
				names[int32(i)] = n
			}
		}
	case "user":
		names = h.IDNames("User")
	case "group":
		names = h.IDNames("Group")
	default:
		names = map[int32]string{}
		for _, q := range h.QueueNames {
			names[int32(q.Number)] = q.Name
		}
	}
	total := 0.0
	for _, w := range g.work {
		total += w
	}
	out := &GroupMetrics{Key: a.s.Outputs.By, List: []GroupSummary{}}
	for k, s := range g.sums {
		r := s.Result()
		if r.Jobs == 0 {
			continue
		}
		gs := GroupSummary{ID: k, Name: names[k], Jobs: r.Jobs, MeanWait: r.MeanWait, MaxWait: r.MaxWait,
			MeanResponse: r.MeanResponse, MeanBoundedSlowdown: r.MeanBoundedSlowdown}
		if total > 0 {
			gs.CPUShare = g.work[k] / total
		}
		out.List = append(out.List, gs)
	}
	slices.SortFunc(out.List, func(x, y GroupSummary) int {
		if c := cmp.Compare(y.Jobs, x.Jobs); c != 0 {
			return c
		}
		return cmp.Compare(x.ID, y.ID)
	})
	res.By = out
}

// groupName is a group's name in the printed summary: its name, else
// "user 12" (or "unknown user" for -1).
func groupName(key string, g GroupSummary) string {
	switch {
	case g.Name != "":
		return g.Name
	case g.ID < 0:
		return "unknown " + key
	}
	return key + " " + strconv.Itoa(int(g.ID))
}
