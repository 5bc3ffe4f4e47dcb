package backfill

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
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
	// MaxMemPU and GrpMem are MaxTRESPU's and GrpTRES's mem (MB), and
	// MaxGPUsPU and GrpGPUs their gres/gpu (units of every GPU type): the
	// running jobs' memory and GPUs, of one user, and of all the QOS's
	// jobs.
	MaxMemPU, GrpMem   int64
	MaxGPUsPU, GrpGPUs int
	// MaxWall is MaxWall in seconds: a job whose time limit is longer is
	// rejected at submission.
	MaxWall float64
}

// Bounds of the qos_limits option.
const (
	MaxQOSEntries = 4096    // QOS in one table (slurmconf reads at most 4,096)
	MaxQOSLimit   = 1 << 30 // a count or CPU limit
	MaxQOSWall    = 1 << 31 // MaxWall in seconds (68 years)
	MaxQOSMem     = 1 << 40 // a memory limit in MB (an exbibyte)
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
	ReasonMaxMemPU    = "QOSMaxMemoryPerUser"
	ReasonGrpMem      = "QOSGrpMemLimit"
	ReasonMaxGPUsPU   = "QOSMaxGRESPerUser"
	ReasonGrpGPUs     = "QOSGrpGRES"
)

// qosKeys are the keys of the qos_limits option, in FormatQOSLimits'
// order.
var qosKeys = []string{"maxjobspu", "maxsubmitpu", "maxcpuspu", "grpcpus", "maxwall", "maxmempu", "grpmem", "maxgpuspu", "grpgpus"}

// ParseQOSLimits reads the qos_limits option: entries
// "QOS:KEY=N[:KEY=N...]" separated by commas, QOS a trace's QOS number
// (SWF field 15), KEY one of maxjobspu, maxsubmitpu, maxcpuspu, grpcpus,
// maxwall (seconds), maxmempu and grpmem (MB), maxgpuspu and grpgpus.
// "" is no limits.
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
			return nil, fmt.Errorf("entry %d %q: no limit (want QOS:KEY=N, KEY one of %s)", i+1, item, strings.Join(qosKeys, ", "))
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
			switch k {
			case "maxwall":
				lim = MaxQOSWall
			case "maxmempu", "grpmem":
				lim = MaxQOSMem
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
			case "maxmempu":
				l.MaxMemPU = n
			case "grpmem":
				l.GrpMem = n
			case "maxgpuspu":
				l.MaxGPUsPU = int(n)
			case "grpgpus":
				l.GrpGPUs = int(n)
			default:
				return nil, fmt.Errorf("entry %d %q: unknown limit %q (want %s)", i+1, item, k, strings.Join(qosKeys, ", "))
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
		}{{"maxjobspu", int64(l.MaxJobsPU)}, {"maxsubmitpu", int64(l.MaxSubmitPU)}, {"maxcpuspu", int64(l.MaxCPUsPU)}, {"grpcpus", int64(l.GrpCPUs)}, {"maxwall", int64(l.MaxWall)},
			{"maxmempu", l.MaxMemPU}, {"grpmem", l.GrpMem}, {"maxgpuspu", int64(l.MaxGPUsPU)}, {"grpgpus", int64(l.GrpGPUs)}} {
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
// (submitted, for MaxSubmitPU), running jobs and their TRES.
type qosUse struct {
	submitted, jobs int
	qosTRES
}

// qosTRES are the TRES the QOS limits count: CPUs, memory (MB), GPUs.
type qosTRES struct {
	cpus, gpus int
	mem        int64
}

func (a *qosTRES) add(b qosTRES, sign int) {
	a.cpus += sign * b.cpus
	a.gpus += sign * b.gpus
	a.mem += int64(sign) * b.mem
}

// qosJob is a limited job's QOS and user, and its TRES: those of its
// request while it waits, those of its allocation once it runs.
type qosJob struct {
	k qosKey
	t qosTRES
}

// qosState is the QOS usage of the machine: one for all the slurm
// policies of a run (partitions share it through policy.Shared, as
// Slurm's QOS limits span partitions).
type qosState struct {
	limits  map[int32]QOSLimits
	user    map[qosKey]*qosUse
	grp     map[int32]*qosTRES // running jobs' TRES per QOS
	waiting map[job.ID]qosJob
	running map[job.ID]qosJob
}

func newQOSState(limits map[int32]QOSLimits) *qosState {
	return &qosState{limits: limits, user: map[qosKey]*qosUse{}, grp: map[int32]*qosTRES{},
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

// grpOf is QOS n's use, made on first sight.
func (q *qosState) grpOf(n int32) *qosTRES {
	g := q.grp[n]
	if g == nil {
		g = &qosTRES{}
		q.grp[n] = g
	}
	return g
}

// submit records job j (t its request's TRES) and reports false when
// MaxSubmitPU rejects it.
func (q *qosState) submit(j *job.Info, t qosTRES) bool {
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
	q.waiting[j.ID] = qosJob{k: k, t: t}
	return true
}

// hold is the reason a QOS limit holds waiting job id now ("" none).
func (q *qosState) hold(id job.ID) string {
	w, ok := q.waiting[id]
	if !ok {
		return ""
	}
	l, u, g := q.limits[w.k.qos], q.useOf(w.k), q.grpOf(w.k.qos)
	switch {
	case l.MaxJobsPU > 0 && u.jobs >= l.MaxJobsPU:
		return ReasonMaxJobsPU
	case l.MaxCPUsPU > 0 && u.cpus+w.t.cpus > l.MaxCPUsPU:
		return ReasonMaxCPUsPU
	case l.GrpCPUs > 0 && g.cpus+w.t.cpus > l.GrpCPUs:
		return ReasonGrpCPUs
	case l.MaxMemPU > 0 && u.mem+w.t.mem > l.MaxMemPU:
		return ReasonMaxMemPU
	case l.GrpMem > 0 && g.mem+w.t.mem > l.GrpMem:
		return ReasonGrpMem
	case l.MaxGPUsPU > 0 && u.gpus+w.t.gpus > l.MaxGPUsPU:
		return ReasonMaxGPUsPU
	case l.GrpGPUs > 0 && g.gpus+w.t.gpus > l.GrpGPUs:
		return ReasonGrpGPUs
	}
	return ""
}

// start moves job id from waiting to running, holding t (its
// allocation's TRES).
func (q *qosState) start(id job.ID, t qosTRES) {
	w, ok := q.waiting[id]
	if !ok {
		return
	}
	delete(q.waiting, id)
	w.t = t
	q.running[id] = w
	u := q.useOf(w.k)
	u.jobs++
	u.add(t, 1)
	q.grpOf(w.k.qos).add(t, 1)
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
	u.add(w.t, -1)
	q.grpOf(w.k.qos).add(w.t, -1)
}

// refuse is why limits reject job j at submission whatever runs: a
// time limit above MaxWall, or more CPUs than MaxTRESPU's or GrpTRES's
// cpu (Slurm would leave it pending for ever; see docs/slurm.md).
func refuseQOS(limits map[int32]QOSLimits, j *job.Info) string {
	l, ok := limits[j.QOS]
	if !ok {
		return ""
	}
	r := nodes.FromProcs(j.Procs)
	if j.Req != nil {
		r = *j.Req
	}
	t := requestTRES(r)
	cpus := t.cpus
	switch {
	case l.MaxWall > 0 && j.Estimate > l.MaxWall:
		return fmt.Sprintf("%s: time limit %g s above the QOS %d's MaxWall %g s", ReasonMaxWall, j.Estimate, j.QOS, l.MaxWall)
	case l.MaxCPUsPU > 0 && cpus > l.MaxCPUsPU:
		return fmt.Sprintf("%s: %d CPUs above the QOS %d's MaxTRESPU cpu=%d", ReasonMaxCPUsPU, cpus, j.QOS, l.MaxCPUsPU)
	case l.GrpCPUs > 0 && cpus > l.GrpCPUs:
		return fmt.Sprintf("%s: %d CPUs above the QOS %d's GrpTRES cpu=%d", ReasonGrpCPUs, cpus, j.QOS, l.GrpCPUs)
	case l.MaxMemPU > 0 && t.mem > l.MaxMemPU:
		return fmt.Sprintf("%s: %d MB above the QOS %d's MaxTRESPU mem=%dM", ReasonMaxMemPU, t.mem, j.QOS, l.MaxMemPU)
	case l.GrpMem > 0 && t.mem > l.GrpMem:
		return fmt.Sprintf("%s: %d MB above the QOS %d's GrpTRES mem=%dM", ReasonGrpMem, t.mem, j.QOS, l.GrpMem)
	case l.MaxGPUsPU > 0 && t.gpus > l.MaxGPUsPU:
		return fmt.Sprintf("%s: %d GPUs above the QOS %d's MaxTRESPU gres/gpu=%d", ReasonMaxGPUsPU, t.gpus, j.QOS, l.MaxGPUsPU)
	case l.GrpGPUs > 0 && t.gpus > l.GrpGPUs:
		return fmt.Sprintf("%s: %d GPUs above the QOS %d's GrpTRES gres/gpu=%d", ReasonGrpGPUs, t.gpus, j.QOS, l.GrpGPUs)
	}
	return ""
}

// requestTRES is what request r asks of the TRES the QOS limits count,
// as Slurm's tres_req_cnt before the nodes are chosen: its CPUs; its
// memory, per CPU times its CPUs or per node times its least node count
// (1 when it gives none); its GPUs (GRES named gpu, of any type), per
// node times that count plus per job.
func requestTRES(r nodes.Request) qosTRES {
	n := int64(max(r.Nodes, 1))
	t := qosTRES{cpus: r.CPUs(), mem: r.MemPerCPUMB*int64(r.CPUs()) + r.MemPerNodeMB*n}
	for _, g := range r.GRESPerNode {
		if g.Name == "gpu" {
			t.gpus += g.Count * int(n)
		}
	}
	for _, g := range r.GRESPerJob {
		if g.Name == "gpu" {
			t.gpus += g.Count
		}
	}
	return t
}

// selectionTRES is what selection sel holds of the TRES the QOS limits
// count (the CPUs of the request, cpus: a task's CPUs, not its whole
// cores): the memory on its nodes and its GPU units; gpu are the
// indexes of the platform's GPU kinds (Nodes.Kinds).
func selectionTRES(sel *nodes.Selection, cpus int, gpu []int) qosTRES {
	t := qosTRES{cpus: cpus}
	for i, p := range sel.Picks {
		t.mem += p.MemMB
		u := sel.Units(i)
		for _, k := range gpu {
			t.gpus += u[k]
		}
	}
	return t
}

// SlurmQOS is the slurm policy with QOS limits: a NodePolicy that also
// refuses at submission the jobs its limits can never let run
// (policy.Screener).
type SlurmQOS struct{ *NodePolicy }

// Slurm is the slurm policy without QOS limits: a NodePolicy that also
// gives Slurm's reasons (policy.ReasonReporter), as SlurmQOS does.
type Slurm struct{ *NodePolicy }

// SetOnReason implements policy.ReasonReporter: at each pass, f is told
// why each waiting job the main scheduler or the backfill pass
// considered did not start, under Slurm's reason names (Priority,
// Resources, the QOS limits'), its position in the priority order and,
// for a backfill reservation, its planned start.
func (p Slurm) SetOnReason(f func(now float64, id job.ID, r policy.Reason)) { p.slurm.onReason = f }

// SetOnReason implements policy.ReasonReporter (Slurm.SetOnReason).
func (p SlurmQOS) SetOnReason(f func(now float64, id job.ID, r policy.Reason)) {
	p.slurm.onReason = f
}

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
