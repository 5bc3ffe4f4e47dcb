package backfill

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// QOSLimits are the limits of one QOS the slurm policy enforces
// (docs/slurm.md, "QOS limits"), under the names of sacctmgr's columns;
// 0 is no limit.
type QOSLimits struct {
	// MaxJobsPU is MaxJobsPU: running jobs of one user in the QOS.
	MaxJobsPU int
	// MaxSubmitPU is MaxSubmitPU: waiting and running jobs of one user
	// in the QOS; a job submitted over it is rejected.
	MaxSubmitPU int
	// MaxCPUsPU is MaxTRESPU's cpu: running CPUs of one user in the QOS.
	MaxCPUsPU int
	// GrpCPUs is GrpTRES's cpu: running CPUs of all the QOS's jobs.
	GrpCPUs int
	// MaxWall is MaxWall in seconds: a job whose time limit is longer is
	// rejected at submission.
	MaxWall float64
}

// Bounds of the qos_limits option.
const (
	MaxQOSEntries = 4096    // QOS in one table (slurmconf reads at most 4,096)
	MaxQOSLimit   = 1 << 30 // a count or CPU limit
	MaxQOSWall    = 1 << 31 // MaxWall in seconds (68 years)
	qosSharedKey  = "policy/backfill.slurm-qos"
)

// Slurm's reasons for a job a QOS limit holds or rejects
// (squeue's REASON column; sbatch's error).
const (
	ReasonMaxJobsPU   = "QOSMaxJobsPerUserLimit"
	ReasonMaxCPUsPU   = "QOSMaxCpuPerUserLimit"
	ReasonGrpCPUs     = "QOSGrpCpuLimit"
	ReasonMaxSubmitPU = "QOSMaxSubmitJobPerUserLimit"
	ReasonMaxWall     = "QOSMaxWallDurationPerJobLimit"
)

// ParseQOSLimits reads the qos_limits option: entries
// "QOS:KEY=N[:KEY=N...]" separated by commas, QOS a trace's QOS number
// (SWF field 15), KEY one of maxjobspu, maxsubmitpu, maxcpuspu, grpcpus
// and maxwall (seconds). "" is no limits.
func ParseQOSLimits(text string) (map[int32]QOSLimits, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	if n := strings.Count(text, ",") + 1; n > MaxQOSEntries {
		return nil, fmt.Errorf("%d entries (at most %d)", n, MaxQOSEntries)
	}
	out := map[int32]QOSLimits{}
	for i, item := range strings.Split(text, ",") {
		fs := strings.Split(strings.TrimSpace(item), ":")
		id, err := strconv.ParseInt(fs[0], 10, 32)
		if err != nil || id < 0 {
			return nil, fmt.Errorf("entry %d %q: the QOS %q is not a QOS number (SWF field 15: 0..%d)", i+1, item, fs[0], math.MaxInt32)
		}
		if _, dup := out[int32(id)]; dup {
			return nil, fmt.Errorf("entry %d: QOS %d given twice", i+1, id)
		}
		if len(fs) == 1 {
			return nil, fmt.Errorf("entry %d %q: no limit (want QOS:KEY=N, KEY one of maxjobspu, maxsubmitpu, maxcpuspu, grpcpus, maxwall)", i+1, item)
		}
		var l QOSLimits
		seen := map[string]bool{}
		for _, kv := range fs[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, fmt.Errorf("entry %d %q: %q: want KEY=N", i+1, item, kv)
			}
			k = strings.ToLower(strings.TrimSpace(k))
			if seen[k] {
				return nil, fmt.Errorf("entry %d %q: %s given twice", i+1, item, k)
			}
			seen[k] = true
			lim := int64(MaxQOSLimit)
			if k == "maxwall" {
				lim = MaxQOSWall
			}
			n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			if err != nil || n < 1 || n > lim {
				return nil, fmt.Errorf("entry %d %q: %s %q: want a whole number in 1..%d", i+1, item, k, v, lim)
			}
			switch k {
			case "maxjobspu":
				l.MaxJobsPU = int(n)
			case "maxsubmitpu":
				l.MaxSubmitPU = int(n)
			case "maxcpuspu":
				l.MaxCPUsPU = int(n)
			case "grpcpus":
				l.GrpCPUs = int(n)
			case "maxwall":
				l.MaxWall = float64(n)
			default:
				return nil, fmt.Errorf("entry %d %q: unknown limit %q (want maxjobspu, maxsubmitpu, maxcpuspu, grpcpus, maxwall)", i+1, item, k)
			}
		}
		out[int32(id)] = l
	}
	return out, nil
}

// FormatQOSLimits writes limits in ParseQOSLimits' form, QOS in
// ascending order.
func FormatQOSLimits(limits map[int32]QOSLimits) string {
	ids := make([]int32, 0, len(limits))
	for id := range limits {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var b strings.Builder
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		l := limits[id]
		b.WriteString(strconv.Itoa(int(id)))
		for _, x := range []struct {
			k string
			n int64
		}{{"maxjobspu", int64(l.MaxJobsPU)}, {"maxsubmitpu", int64(l.MaxSubmitPU)}, {"maxcpuspu", int64(l.MaxCPUsPU)}, {"grpcpus", int64(l.GrpCPUs)}, {"maxwall", int64(l.MaxWall)}} {
			if x.n > 0 {
				fmt.Fprintf(&b, ":%s=%d", x.k, x.n)
			}
		}
	}
	return b.String()
}

// qosKey is one user in one QOS.
type qosKey struct{ qos, user int32 }

// qosUse is what a user holds in a QOS: jobs waiting or running
// (submitted, for MaxSubmitPU), running jobs and their CPUs.
type qosUse struct{ submitted, jobs, cpus int }

// qosJob is a limited job's QOS, user and CPUs.
type qosJob struct {
	k    qosKey
	cpus int
}

// qosState is the QOS usage of the machine: one for all the slurm
// policies of a run (partitions share it through policy.Shared, as
// Slurm's QOS limits span partitions).
type qosState struct {
	limits  map[int32]QOSLimits
	user    map[qosKey]*qosUse
	grp     map[int32]int // running CPUs per QOS
	waiting map[job.ID]qosJob
	running map[job.ID]qosJob
}

func newQOSState(limits map[int32]QOSLimits) *qosState {
	return &qosState{limits: limits, user: map[qosKey]*qosUse{}, grp: map[int32]int{},
		waiting: map[job.ID]qosJob{}, running: map[job.ID]qosJob{}}
}

// useOf is k's use, made on first sight.
func (q *qosState) useOf(k qosKey) *qosUse {
	u := q.user[k]
	if u == nil {
		u = &qosUse{}
		q.user[k] = u
	}
	return u
}

// submit records job j (cpus its request's CPUs) and reports false when
// MaxSubmitPU rejects it.
func (q *qosState) submit(j *job.Info, cpus int) bool {
	l, ok := q.limits[j.QOS]
	if !ok {
		return true
	}
	k := qosKey{j.QOS, j.User}
	u := q.useOf(k)
	if l.MaxSubmitPU > 0 && u.submitted >= l.MaxSubmitPU {
		return false
	}
	u.submitted++
	q.waiting[j.ID] = qosJob{k: k, cpus: cpus}
	return true
}

// hold is the reason a QOS limit holds waiting job id now ("" none).
func (q *qosState) hold(id job.ID) string {
	w, ok := q.waiting[id]
	if !ok {
		return ""
	}
	l, u := q.limits[w.k.qos], q.useOf(w.k)
	switch {
	case l.MaxJobsPU > 0 && u.jobs >= l.MaxJobsPU:
		return ReasonMaxJobsPU
	case l.MaxCPUsPU > 0 && u.cpus+w.cpus > l.MaxCPUsPU:
		return ReasonMaxCPUsPU
	case l.GrpCPUs > 0 && q.grp[w.k.qos]+w.cpus > l.GrpCPUs:
		return ReasonGrpCPUs
	}
	return ""
}

// start moves job id from waiting to running.
func (q *qosState) start(id job.ID) {
	w, ok := q.waiting[id]
	if !ok {
		return
	}
	delete(q.waiting, id)
	q.running[id] = w
	u := q.useOf(w.k)
	u.jobs++
	u.cpus += w.cpus
	q.grp[w.k.qos] += w.cpus
}

// finish forgets running job id.
func (q *qosState) finish(id job.ID) {
	w, ok := q.running[id]
	if !ok {
		return
	}
	delete(q.running, id)
	u := q.useOf(w.k)
	u.submitted--
	u.jobs--
	u.cpus -= w.cpus
	q.grp[w.k.qos] -= w.cpus
}

// refuse is why limits reject job j at submission whatever runs: a
// time limit above MaxWall, or more CPUs than MaxTRESPU's or GrpTRES's
// cpu (Slurm would leave it pending for ever; see docs/slurm.md).
func refuseQOS(limits map[int32]QOSLimits, j *job.Info) string {
	l, ok := limits[j.QOS]
	if !ok {
		return ""
	}
	cpus := j.Procs
	if j.Req != nil {
		cpus = j.Req.CPUs()
	}
	switch {
	case l.MaxWall > 0 && j.Estimate > l.MaxWall:
		return fmt.Sprintf("%s: time limit %g s above the QOS %d's MaxWall %g s", ReasonMaxWall, j.Estimate, j.QOS, l.MaxWall)
	case l.MaxCPUsPU > 0 && cpus > l.MaxCPUsPU:
		return fmt.Sprintf("%s: %d CPUs above the QOS %d's MaxTRESPU cpu=%d", ReasonMaxCPUsPU, cpus, j.QOS, l.MaxCPUsPU)
	case l.GrpCPUs > 0 && cpus > l.GrpCPUs:
		return fmt.Sprintf("%s: %d CPUs above the QOS %d's GrpTRES cpu=%d", ReasonGrpCPUs, cpus, j.QOS, l.GrpCPUs)
	}
	return ""
}

// SlurmQOS is the slurm policy with QOS limits: a NodePolicy that also
// refuses at submission the jobs its limits can never let run
// (policy.Screener).
type SlurmQOS struct{ *NodePolicy }

// Refuse implements policy.Screener.
func (p SlurmQOS) Refuse(j job.Info) string { return refuseQOS(p.slurm.qos.limits, &j) }

// shareQOS makes the QOS usage the one of the machine s.
func (b *NodePolicy) shareQOS(s *policy.Shared) {
	if b.slurm == nil || b.slurm.qos == nil {
		return
	}
	l := b.slurm.qos.limits
	b.slurm.qos = s.Get(qosSharedKey, func() any { return newQOSState(l) }).(*qosState)
}
