package backfill

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/policy"
)

// Multifactor is Slurm's priority/multifactor as a queue order
// (OrderMultifactor). A waiting job's priority at time now is
//
//	P = floor(WeightAge·age + WeightFairshare·fairshare + WeightJobSize·size
//	          + WeightPartition·partition + WeightQOS·qos), at least 1
//
// with every factor in [0, 1]:
//
//	age       = min((now - submit) / MaxAge, 1)
//	size      = procs / C, or (C - procs) / C with FavorSmall (C: the
//	            machine's CPUs; each CPU counts as a Slurm node, so the
//	            node and CPU halves of Slurm's rule are equal)
//	partition = PartitionPriority[partition] / max(PartitionPriority) (0 unlisted)
//	qos       = QOSPriority[qos] / max(QOSPriority) (0 unlisted)
//	fairshare = 2^(-UE/S) (Slurm's classic fair-share; 0 when S is 0)
//
// S is the user's normalized shares and UE its effective usage. With
// Levels "user" the users hang under the root: S = shares / sum of the
// users' shares, UE = usage / total usage. With Levels "account" the
// accounts (the jobs' groups, SWF field 12) hang under the root and their
// users under them: S = S_acct/sum(S_accts) · S_user/sum(S_users of the
// account), UE_acct = usage_acct / total, UE = U + (UE_acct - U) ·
// S_user/sum(S_users of the account), U = usage / total. An association
// (user, or account and user) exists from its first submitted job;
// shares are normalized among the existing ones. Usage is CPU-seconds
// (procs × seconds run) decayed with half-life DecayHalfLife: a job
// running from s is charged, at time t, procs · ∫_s^t 2^(-(t-x)/H) dx =
// procs · H/ln2 · (1 - 2^(-(t-s)/H)), so usage accrues while the job runs
// and decays continuously afterwards; H = 0 means no decay (procs ·
// (t - s)). The value is exact (closed form), not polled: ended jobs'
// usage is folded into a per-user sum at each completion, and running
// jobs are charged for their elapsed time at every pass.
//
// The priorities are recomputed, and the queue re-sorted, at every
// scheduling pass (every instant with a submission, a completion or a
// wake-up), since the age and the running jobs' usage change with time;
// between passes nothing can start, so nothing is decided on a stale
// order. Ties go to the earlier submission, then the smaller job id.
type Multifactor struct {
	WeightAge, WeightFairshare, WeightJobSize, WeightPartition, WeightQOS float64
	MaxAge                                                                float64 // seconds, > 0
	DecayHalfLife                                                         float64 // seconds, >= 0 (0: no decay)
	FavorSmall                                                            bool
	// Accounts: two levels (accounts = groups, then users); false: the
	// users under the root.
	Accounts bool
	// Shares are raw shares by user id, AccountShares by group id;
	// unlisted ones have 1 share.
	Shares, AccountShares map[int32]float64
	// PartitionPriority is each partition's PriorityJobFactor (SWF field
	// 16), QOSPriority each QOS's priority (SWF field 15, the queue).
	PartitionPriority, QOSPriority map[int32]float64
}

// MaxPriority is the largest priority (Slurm's is a 32-bit unsigned
// integer); a sum above it is cut to it.
const MaxPriority = math.MaxUint32

// MaxTableEntries bounds the entries of one shares or priority table.
const MaxTableEntries = 1 << 16

// DefaultMultifactor is Slurm's defaults: every weight 0 (so the order
// is FCFS until a weight is set), PriorityMaxAge 7 days,
// PriorityDecayHalfLife 7 days, PriorityFavorSmall no, users under the
// root with equal shares.
func DefaultMultifactor() Multifactor {
	return Multifactor{MaxAge: 7 * 86400, DecayHalfLife: 7 * 86400}
}

// Check reports settings that make no priority.
func (m *Multifactor) Check() error {
	var probs []string
	for _, w := range []struct {
		name string
		v    float64
	}{{"priority_weight_age", m.WeightAge}, {"priority_weight_fairshare", m.WeightFairshare}, {"priority_weight_job_size", m.WeightJobSize},
		{"priority_weight_partition", m.WeightPartition}, {"priority_weight_qos", m.WeightQOS}} {
		if !(w.v >= 0 && w.v <= MaxPriority) {
			probs = append(probs, fmt.Sprintf("%s is %g (must be in [0, %d])", w.name, w.v, uint64(MaxPriority)))
		}
	}
	if !(m.MaxAge > 0) || math.IsInf(m.MaxAge, 0) {
		probs = append(probs, fmt.Sprintf("priority_max_age is %g (must be a finite number > 0)", m.MaxAge))
	}
	if !(m.DecayHalfLife >= 0) || math.IsInf(m.DecayHalfLife, 0) {
		probs = append(probs, fmt.Sprintf("priority_decay_half_life is %g (must be a finite number >= 0)", m.DecayHalfLife))
	}
	if len(probs) > 0 {
		return fmt.Errorf("multifactor priority: %s", strings.Join(probs, "; "))
	}
	return nil
}

// ParseTable parses a table "ID:VALUE,ID:VALUE" (user, group, partition
// or QOS ids; values integers >= 0, as Slurm's shares and priorities
// are). "" is the empty table. At most MaxTableEntries entries; an id
// given twice is an error. Errors name the entry; the caller names the
// table.
func ParseTable(text string) (map[int32]float64, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, nil
	}
	if n := strings.Count(text, ",") + 1; n > MaxTableEntries {
		return nil, fmt.Errorf("%d entries (at most %d)", n, MaxTableEntries)
	}
	out := map[int32]float64{}
	for i, item := range strings.Split(text, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(item), ":")
		if !ok {
			return nil, fmt.Errorf("entry %d %q: want ID:VALUE", i+1, item)
		}
		id, err := strconv.ParseInt(strings.TrimSpace(k), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("entry %d %q: the id %q is not a 32-bit integer", i+1, item, k)
		}
		x, err := strconv.ParseUint(strings.TrimSpace(v), 10, 32)
		if err != nil {
			return nil, fmt.Errorf("entry %d %q: the value %q is not an integer in [0, %d]", i+1, item, v, uint64(math.MaxUint32))
		}
		if _, dup := out[int32(id)]; dup {
			return nil, fmt.Errorf("entry %d: id %d given twice", i+1, id)
		}
		out[int32(id)] = float64(x)
	}
	return out, nil
}

// fsUser is one user association: its raw shares, its account, and the
// decayed usage of its ended jobs (done, as of time at).
type fsUser struct {
	shares   float64
	acct     int32
	done, at float64
	usage    float64 // at the pass
	factor   float64 // fair-share factor at the pass
}

type fsAcct struct {
	shares           float64
	usage, userShare float64 // at the pass: usage, sum of its users' shares
}

type fsRun struct {
	id     job.ID
	who    int32
	procs  float64
	start  float64
	active bool
}

// multifactor is the state of the order: associations, usage, running
// jobs; one per policy.
type multifactor struct {
	p     Multifactor
	cpus  float64
	users []fsUser
	accts []fsAcct
	byKey map[[2]int32]int32 // (account, user) -> users index
	byAcc map[int32]int32    // account -> accts index
	// running jobs in start order (ended ones removed lazily)
	runs  []fsRun
	runAt map[job.ID]int32
	maxP  float64 // largest partition priority
	maxQ  float64 // largest QOS priority
	last  float64 // time of the last prepare; NaN: never
}

func newMultifactor(p Multifactor, cpus int) *multifactor {
	m := &multifactor{p: p, cpus: float64(cpus), byKey: map[[2]int32]int32{}, byAcc: map[int32]int32{}, runAt: map[job.ID]int32{}, last: math.NaN()}
	for _, v := range p.PartitionPriority {
		m.maxP = max(m.maxP, v)
	}
	for _, v := range p.QOSPriority {
		m.maxQ = max(m.maxQ, v)
	}
	return m
}

// register returns the association of a job of user u in group g,
// creating it (and its account) at its first job.
func (m *multifactor) register(u, g int32) int32 {
	if !m.p.Accounts {
		g = 0
	}
	if i, ok := m.byKey[[2]int32{g, u}]; ok {
		return i
	}
	a := int32(-1)
	if m.p.Accounts {
		var ok bool
		if a, ok = m.byAcc[g]; !ok {
			a = int32(len(m.accts))
			m.byAcc[g] = a
			sh, ok := m.p.AccountShares[g]
			if !ok {
				sh = 1
			}
			m.accts = append(m.accts, fsAcct{shares: sh})
		}
	}
	sh, ok := m.p.Shares[u]
	if !ok {
		sh = 1
	}
	i := int32(len(m.users))
	m.users = append(m.users, fsUser{shares: sh, acct: a})
	m.byKey[[2]int32{g, u}] = i
	return i
}

// charge is the decayed usage at t of procs CPUs used from s to t.
func (m *multifactor) charge(procs, s, t float64) float64 {
	d := t - s
	if d <= 0 {
		return 0
	}
	h := m.p.DecayHalfLife
	if h == 0 {
		return procs * d
	}
	return procs * h / math.Ln2 * -math.Expm1(-d*math.Ln2/h)
}

// decay is the factor by which usage shrinks over d seconds.
func (m *multifactor) decay(d float64) float64 {
	if m.p.DecayHalfLife == 0 || d <= 0 {
		return 1
	}
	return math.Exp2(-d / m.p.DecayHalfLife)
}

// started records that job id of association who started at now on
// procs CPUs.
func (m *multifactor) started(id job.ID, who int32, procs int, now float64) {
	m.runAt[id] = int32(len(m.runs))
	m.runs = append(m.runs, fsRun{id: id, who: who, procs: float64(procs), start: now, active: true})
}

// finished folds the usage of job id, ended at now, into its user's sum.
func (m *multifactor) finished(id job.ID, now float64) {
	k, ok := m.runAt[id]
	if !ok {
		return
	}
	delete(m.runAt, id)
	r := &m.runs[k]
	r.active = false
	u := &m.users[r.who]
	u.done = u.done*m.decay(now-u.at) + m.charge(r.procs, r.start, now)
	u.at = now
	// Drop ended runs once they are half the list (amortised O(1)).
	if len(m.runAt)*2 < len(m.runs) {
		n := 0
		for _, x := range m.runs {
			if x.active {
				m.runAt[x.id] = int32(n)
				m.runs[n] = x
				n++
			}
		}
		m.runs = m.runs[:n]
	}
}

// prepare computes every association's usage and fair-share factor at
// now.
func (m *multifactor) prepare(now float64) {
	if now == m.last {
		return
	}
	m.last = now
	for i := range m.users {
		u := &m.users[i]
		u.usage = u.done * m.decay(now-u.at)
	}
	for _, r := range m.runs {
		if r.active {
			m.users[r.who].usage += m.charge(r.procs, r.start, now)
		}
	}
	total, shares := 0.0, 0.0
	for i := range m.accts {
		m.accts[i].usage, m.accts[i].userShare = 0, 0
	}
	for i := range m.users {
		u := &m.users[i]
		total += u.usage
		if u.acct >= 0 {
			a := &m.accts[u.acct]
			a.usage += u.usage
			a.userShare += u.shares
		} else {
			shares += u.shares
		}
	}
	norm := func(x float64) float64 {
		if total <= 0 {
			return 0
		}
		return min(x/total, 1)
	}
	if m.p.Accounts {
		for i := range m.accts {
			shares += m.accts[i].shares
		}
	}
	for i := range m.users {
		u := &m.users[i]
		var s, ue float64
		U := norm(u.usage)
		if u.acct < 0 {
			if shares > 0 {
				s = u.shares / shares
			}
			ue = U
		} else {
			a := &m.accts[u.acct]
			ueA := norm(a.usage)
			if shares > 0 && a.userShare > 0 {
				s = a.shares / shares * u.shares / a.userShare
				ue = U + (ueA-U)*u.shares/a.userShare
			} else {
				ue = ueA
			}
		}
		u.factor = 0
		if s > 0 {
			u.factor = math.Exp2(-ue / s)
		}
	}
}

// Factors are a job's priority factors, each in [0, 1], and its priority.
type Factors struct {
	Age, Fairshare, JobSize, Partition, QOS float64
	Priority                                float64
}

// factors computes e's factors at now (after prepare(now)).
func (m *multifactor) factors(now float64, e *entry) Factors {
	p := &m.p
	f := Factors{Age: min(max(now-e.Submit, 0)/p.MaxAge, 1), Fairshare: m.users[e.x.who].factor}
	if m.cpus > 0 {
		n := float64(e.Procs)
		if p.FavorSmall {
			f.JobSize = (m.cpus - n) / m.cpus
		} else {
			f.JobSize = n / m.cpus
		}
		f.JobSize = min(max(f.JobSize, 0), 1)
	}
	if m.maxP > 0 {
		f.Partition = p.PartitionPriority[e.x.part] / m.maxP
	}
	if m.maxQ > 0 {
		f.QOS = p.QOSPriority[e.x.qos] / m.maxQ
	}
	sum := p.WeightAge*f.Age + p.WeightFairshare*f.Fairshare + p.WeightJobSize*f.JobSize +
		p.WeightPartition*f.Partition + p.WeightQOS*f.QOS
	f.Priority = min(max(math.Floor(sum), 1), MaxPriority)
	return f
}

// sort computes every entry's priority at now and sorts q by it, largest
// first, ties by (submit time, job id); it reports whether the order of
// the entries changed.
func (m *multifactor) sort(now float64, q []entry) bool {
	m.prepare(now)
	sorted := true
	for i := range q {
		q[i].x.prio = m.factors(now, &q[i]).Priority
		if i > 0 && m.before(&q[i], &q[i-1]) {
			sorted = false
		}
	}
	if sorted {
		return false
	}
	slices.SortFunc(q, func(a, c entry) int {
		switch {
		case a.x.prio > c.x.prio:
			return -1
		case a.x.prio < c.x.prio:
			return 1
		case a.Submit != c.Submit:
			return cmp.Compare(a.Submit, c.Submit)
		}
		return cmp.Compare(a.ID, c.ID)
	})
	return true
}

// before reports whether a goes before b: higher priority, then earlier
// submission, then smaller id.
func (m *multifactor) before(a, b *entry) bool {
	if a.x.prio != b.x.prio {
		return a.x.prio > b.x.prio
	}
	if a.Submit != b.Submit {
		return a.Submit < b.Submit
	}
	return a.ID < b.ID
}

// attach records in e's attributes (made with a slab) the job's
// association, partition and QOS.
func (m *multifactor) attach(e *entry, info *job.Info) {
	e.x.who = m.register(info.User, info.Group)
	e.x.part, e.x.qos = info.Partition, info.QOS
}

// shareMultifactor makes q's multifactor state (if it has one) the one
// of the machine s: the policies of a machine's partitions then charge
// and read one usage per association, and the job size factor is
// relative to the whole machine's CPUs.
func shareMultifactor(q policy.QueueScheduler, s *policy.Shared) {
	var mf **multifactor
	switch x := q.(type) {
	case *Backfill:
		mf = &x.mf
	case *FCFS:
		mf = &x.mf
	case *FirstFit:
		mf = &x.mf
	}
	if mf == nil || *mf == nil {
		return
	}
	p := (*mf).p
	*mf = s.Get("policy/backfill.multifactor", func() any { return newMultifactor(p, s.CPUs) }).(*multifactor)
}

// NewBackfillMultifactor returns the backfilling engine over one machine
// of procs CPUs (reservation depth as NewBackfill) with its queue in the
// multifactor order p.
func NewBackfillMultifactor(name string, procs, depth int, p Multifactor) (*Backfill, error) {
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("policy %s: %w", name, err)
	}
	if procs <= 0 || depth < 1 {
		return nil, fmt.Errorf("policy %s: %d CPUs and reservation depth %d (want both >= 1)", name, procs, depth)
	}
	b := newBackfill(name, procs, depth, OrderMultifactor, false)
	b.mf = newMultifactor(p, procs)
	return b, nil
}
