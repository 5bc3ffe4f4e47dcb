package backfill

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/schedlab/schedlab/job"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
)

// SlurmParams are the settings of the slurm policy (docs/slurm.md, "The
// slurm policy"), under the names of Slurm's SchedulerType and
// SchedulerParameters; times in seconds.
type SlurmParams struct {
	// Backfill: sched/backfill (a backfill pass beside the main
	// scheduler); false is sched/builtin (the main scheduler only).
	Backfill bool
	// Window is bf_window (Slurm gives it in minutes): a job whose
	// earliest start is later than now + Window gets no reservation.
	Window float64
	// MaxJobTest is bf_max_job_test: a pass tests the first MaxJobTest
	// waiting jobs in priority order that it tries to place (a job a
	// bf_max_job_* limit or MaxJobsPU skips is not counted).
	MaxJobTest int
	// Resolution is bf_resolution: a reservation's start and end are
	// rounded down to a multiple of it (simulated time 0 as origin).
	Resolution float64
	// Interval is bf_interval: a backfill pass runs at most every
	// Interval seconds.
	Interval float64
	// QueueDepth is default_queue_depth: the main scheduler tests at most
	// that many jobs.
	QueueDepth int
	// MaxJobUser is bf_max_job_user: a backfill pass tests at most that
	// many jobs of one user (0: no limit); a job past it is skipped (no
	// start, no reservation) and does not count in MaxJobTest.
	MaxJobUser int
	// MaxJobPart is bf_max_job_part: a backfill pass tests at most that
	// many jobs of one partition (0: no limit). MaxJobUserPart is
	// bf_max_job_user_part (jobs of one user in one partition) and
	// MaxJobAssoc bf_max_job_assoc (jobs of one association: the job's
	// user and group, the group standing for Slurm's account). A job past
	// any of them is skipped as past MaxJobUser is; a job skipped counts
	// in none of the four (Slurm's _job_exceeds_max_bf_param). Slurm
	// ignores bf_max_job_user when bf_max_job_assoc is set; Check refuses
	// the two together.
	MaxJobPart, MaxJobUserPart, MaxJobAssoc int
	// MinAgeReserve is bf_min_age_reserve in seconds: a job that has
	// waited less gets no reservation (it may start now), and the main
	// scheduler goes on past it when it cannot start (0: none).
	MinAgeReserve float64
	// MinPrioReserve is bf_min_prio_reserve: a job whose priority is
	// below it gets no reservation (it may start now), and the main
	// scheduler goes on past it when it cannot start (0: none). The
	// priority is the multifactor one under OrderMultifactor, and under
	// OrderFCFS priority/basic's: SlurmTopPriority - k for the k-th job
	// the machine accepted (k from 1).
	MinPrioReserve float64
	// QOS are the limits by QOS number (nil: none; nodes_slurm_qos.go).
	QOS map[int32]QOSLimits
	// Latency is sched_latency in seconds (not a Slurm parameter): each
	// pass runs a delay after the instant that calls for it, drawn
	// uniformly in [0, Latency] from Rand (0: none, the deterministic
	// default); the events in between wait for it.
	Latency float64
	Rand    *rand.Rand
	// Select is the node selection rule of the policy's placements
	// (nodes.FirstFit, or nodes.ConsTRES: Slurm's select/cons_tres).
	Select nodes.SelectRule
	// Preempt is preemption by QOS (nil: none, Slurm's preempt/none;
	// nodes_slurm_preempt.go).
	Preempt *SlurmPreempt
	// WindowLinear is bf_window_linear in seconds: the will-run test's
	// window grows by it (0: doubles; nodes_slurm_willrun.go).
	WindowLinear float64
	// Origin is the Unix time of simulated time 0 (not a Slurm
	// parameter: a trace's UnixStartTime): Slurm aligns the will-run
	// test's windows and bf_resolution to the clock.
	Origin float64
	// ExactWillRun plans each reservation at the earliest end of a hold
	// at which the job fits (not Slurm's: the model before the grouped
	// will-run test).
	ExactWillRun bool
}

// Slurm's defaults (slurm.conf(5), Slurm 22.05).
const (
	SlurmDefaultWindowMin  = 1440
	SlurmDefaultMaxJobTest = 500
	SlurmDefaultResolution = 60
	SlurmDefaultInterval   = 30
	SlurmDefaultQueueDepth = 100
	// Bounds of the options (slurm.conf(5) gives these for bf_window,
	// bf_resolution and bf_interval).
	SlurmMaxWindowMin  = 43200 // 30 days
	SlurmMaxResolution = 3600
	SlurmMaxInterval   = 10800
	SlurmMaxJobs       = 1_000_000  // bf_max_job_test, default_queue_depth
	SlurmMaxMinAge     = 30 * 86400 // bf_min_age_reserve, seconds
	SlurmMaxLatency    = 60         // sched_latency, seconds
	SlurmMaxOrigin     = 1 << 40    // unix_start_time, seconds
	// SlurmMaxPrioReserve bounds bf_min_prio_reserve (Slurm's
	// MAX_BF_MIN_PRIO_RESERVE, INFINITE: a 32-bit priority).
	SlurmMaxPrioReserve = math.MaxUint32
	// SlurmTopPriority is priority/basic's first priority (slurmctld's
	// TOP_PRIORITY, 0xffff0000): the k-th job submitted to a fresh
	// slurmctld gets SlurmTopPriority - k.
	SlurmTopPriority = 0xffff0000
)

// DefaultSlurm is Slurm's default settings: sched/backfill, bf_window
// 1440 minutes, bf_max_job_test 500, bf_resolution 60 s, bf_interval
// 30 s, default_queue_depth 100.
func DefaultSlurm() SlurmParams {
	return SlurmParams{Backfill: true, Window: SlurmDefaultWindowMin * 60, MaxJobTest: SlurmDefaultMaxJobTest,
		Resolution: SlurmDefaultResolution, Interval: SlurmDefaultInterval, QueueDepth: SlurmDefaultQueueDepth}
}

// Check says what is wrong with p, naming the option.
func (p SlurmParams) Check() error {
	switch {
	case !(p.Window >= 60 && p.Window <= SlurmMaxWindowMin*60):
		return fmt.Errorf("bf_window: %g s: want 1..%d minutes", p.Window, SlurmMaxWindowMin)
	case p.MaxJobTest < 1 || p.MaxJobTest > SlurmMaxJobs:
		return fmt.Errorf("bf_max_job_test: %d: want 1..%d", p.MaxJobTest, SlurmMaxJobs)
	case !(p.Resolution >= 1 && p.Resolution <= SlurmMaxResolution):
		return fmt.Errorf("bf_resolution: %g: want 1..%d seconds", p.Resolution, SlurmMaxResolution)
	case !(p.Interval >= 1 && p.Interval <= SlurmMaxInterval):
		return fmt.Errorf("bf_interval: %g: want 1..%d seconds", p.Interval, SlurmMaxInterval)
	case p.QueueDepth < 1 || p.QueueDepth > SlurmMaxJobs:
		return fmt.Errorf("default_queue_depth: %d: want 1..%d", p.QueueDepth, SlurmMaxJobs)
	case p.MaxJobUser < 0 || p.MaxJobUser > p.MaxJobTest:
		return fmt.Errorf("bf_max_job_user: %d: want 0..bf_max_job_test (%d)", p.MaxJobUser, p.MaxJobTest)
	case p.MaxJobPart < 0 || p.MaxJobPart > p.MaxJobTest:
		return fmt.Errorf("bf_max_job_part: %d: want 0..bf_max_job_test (%d)", p.MaxJobPart, p.MaxJobTest)
	case p.MaxJobUserPart < 0 || p.MaxJobUserPart > p.MaxJobTest:
		return fmt.Errorf("bf_max_job_user_part: %d: want 0..bf_max_job_test (%d)", p.MaxJobUserPart, p.MaxJobTest)
	case p.MaxJobAssoc < 0 || p.MaxJobAssoc > p.MaxJobTest:
		return fmt.Errorf("bf_max_job_assoc: %d: want 0..bf_max_job_test (%d)", p.MaxJobAssoc, p.MaxJobTest)
	case p.MaxJobAssoc > 0 && p.MaxJobUser > 0:
		return fmt.Errorf("bf_max_job_assoc: %d with bf_max_job_user %d: give one (Slurm ignores bf_max_job_user then)", p.MaxJobAssoc, p.MaxJobUser)
	case !(p.MinPrioReserve >= 0 && p.MinPrioReserve <= SlurmMaxPrioReserve) || p.MinPrioReserve != math.Trunc(p.MinPrioReserve):
		return fmt.Errorf("bf_min_prio_reserve: %g: want a whole number in 0..%d", p.MinPrioReserve, uint64(SlurmMaxPrioReserve))
	case !(p.MinAgeReserve >= 0 && p.MinAgeReserve <= SlurmMaxMinAge):
		return fmt.Errorf("bf_min_age_reserve: %g: want 0..%d seconds", p.MinAgeReserve, SlurmMaxMinAge)
	case !(p.Latency >= 0 && p.Latency <= SlurmMaxLatency):
		return fmt.Errorf("sched_latency: %g: want 0..%d seconds", p.Latency, SlurmMaxLatency)
	case p.Latency > 0 && p.Rand == nil:
		return fmt.Errorf("sched_latency: %g s without a random stream", p.Latency)
	case !(p.WindowLinear >= 0 && p.WindowLinear <= SlurmMaxWindowMin*60):
		return fmt.Errorf("bf_window_linear: %g: want 0..%d seconds", p.WindowLinear, SlurmMaxWindowMin*60)
	case !(p.Origin >= 0 && p.Origin <= SlurmMaxOrigin) || p.Origin != math.Trunc(p.Origin):
		return fmt.Errorf("unix_start_time: %g: want a whole number of seconds in 0..%d", p.Origin, int64(SlurmMaxOrigin))
	case p.Preempt != nil && !(p.Preempt.CredExpire >= MinCredExpire && p.Preempt.CredExpire <= MaxCredExpire):
		return fmt.Errorf("cred_expire: %g: want %d..%d seconds", p.Preempt.CredExpire, MinCredExpire, MaxCredExpire)
	}
	return nil
}

// slurmState is the slurm policy's own state in a NodePolicy.
type slurmState struct {
	p      SlurmParams
	lastBF float64 // the last backfill pass (-Inf: none yet)
	bfAt   uint64  // b.changes after it
	whole  nodes.Selection
	// qos is the QOS usage (nil without limits; shared by the policies
	// of a machine's partitions); rejects the jobs MaxSubmitPU rejected
	// since the last pass.
	qos     *qosState
	rejects []job.ID
	gpu     []int // the platform's GPU kinds (Nodes.Kinds indexes)
	// who are the waiting jobs' user, group and priority/basic priority
	// (nil without a per-user or association limit or
	// bf_min_prio_reserve); tested a pass's jobs tested per user
	// (bf_max_job_user and bf_max_job_user_part: one partition a policy),
	// assoc per association (bf_max_job_assoc), part in the partition
	// (bf_max_job_part). basic counts the jobs the machine accepted
	// (shared by the partitions' policies).
	who    map[job.ID]slurmWho
	tested map[int32]int
	assoc  map[[2]int32]int
	part   int
	basic  *int64
	// dueAt is the time of the pass a latency defers (-1: none).
	dueAt float64
	// pre is the preemption state (nil: none).
	pre *preemptState
	// slurmEarliest's state within a backfill pass (reset at its start
	// and at each of its starts): the candidate starts the running
	// jobs' groups give (groups, valid when groupsOK), the failures of
	// requests of cores only (fails), and scratch (ends, cands, fresh).
	groups             []float64
	groupsOK           bool
	fails              []slurmFail
	ends, cands, fresh []float64
	noMemo             bool // tests: no memo of failures (every candidate tried)
	memoSkips          int  // the candidates the memo skipped (tests)
	// onReason, when set (SetOnReason: 'schedlab explain'), is told at
	// each pass why each waiting job the pass considered did not start.
	onReason func(now float64, id job.ID, r policy.Reason)
}

// reason tells onReason (when set) why the job at position qi of the
// queue (of n waiting) did not start: Slurm's reason name and the rule.
func (s *slurmState) reason(now float64, e *entry, qi, n int, name, note string, at float64) {
	if s.onReason != nil {
		s.onReason(now, e.ID, policy.Reason{Name: name, Position: qi + 1, Waiting: n, At: at, Note: note})
	}
}

// scheduleSlurm is a pass of the slurm policy (b.slurm set): the main
// scheduler, then, when due, a backfill pass. The running jobs' holds
// are in b.prof as for the other policies; a backfill pass's
// reservations are made anew and dropped at its end.
func (b *NodePolicy) scheduleSlurm(now float64, plan *policy.Plan) {
	s := b.slurm
	for _, id := range s.rejects {
		plan.Reject(id)
	}
	s.rejects = s.rejects[:0]
	if s.p.Latency > 0 && len(b.w.q) > 0 {
		if s.dueAt < 0 {
			s.dueAt = now + s.p.Rand.Float64()*s.p.Latency
		}
		if now < s.dueAt {
			plan.Wake = s.dueAt
			return
		}
		s.dueAt = -1
	}
	n := 0
	held := false // a job a QOS limit holds is ahead (a start is then backfilled)
	// Main scheduler: priority order, stops at the first job that cannot
	// start now (a job a QOS limit holds is passed over), tests at most
	// default_queue_depth jobs.
	nq, nan := len(b.w.q), math.NaN()
	stop := -1 // the job the main scheduler stopped at (-1: none)
	qi := 0
	begin := math.Inf(1) // the earliest BeginTime of a job waiting for it
	for ; qi < len(b.w.q) && qi < s.p.QueueDepth; qi++ {
		e := &b.w.q[qi]
		if s.pre != nil {
			if t, ok := s.pre.waitsBegin(now, e.ID); ok {
				s.reason(now, e, qi, nq, ReasonBeginTime, "main scheduler: requeued by a preemption, it may start at its BeginTime (cred_expire + 1 s after)", t)
				begin = min(begin, t)
				continue
			}
		}
		if s.qos != nil {
			if why := s.qos.hold(e.ID); why != "" {
				s.reason(now, e, qi, nq, why, "main scheduler: a QOS limit holds it; the scheduler goes on to the next job", nan)
				held = true
				continue
			}
		}
		pr := &b.jobs[e.m].prep
		if b.freeCores < b.minCores[e.m] || !b.st.Select(pr, &b.cur) {
			if s.pre != nil && b.preemptFor(now, e, plan) {
				s.reason(now, e, qi, nq, "Resources", "main scheduler: it preempts running jobs of a QOS its QOS preempts, and starts once they have ended; the scheduler stops at it", nan)
				stop = qi
				break
			}
			if s.noReserve(now, e) {
				s.reason(now, e, qi, nq, "Resources", "main scheduler: it does not fit the nodes now; below bf_min_prio_reserve or younger than bf_min_age_reserve, it does not stop the scheduler", nan)
				held = true // it does not stop the main scheduler
				continue
			}
			s.reason(now, e, qi, nq, "Resources", "main scheduler: it does not fit the nodes now, and the scheduler stops at it", nan)
			stop = qi
			break
		}
		s.started(e.ID, &b.cur, e.Procs)
		b.start(now, e, &b.cur, b.prof.AddSelection(now, nodes.Span(now, e.Estimate), &b.cur), held, plan)
		n++
	}
	if s.onReason != nil {
		// The jobs the main scheduler did not reach: behind the one it
		// stopped at, or past default_queue_depth.
		for k := qi + 1; k < len(b.w.q) && stop >= 0; k++ {
			s.reason(now, &b.w.q[k], k, nq, "Priority", fmt.Sprintf("main scheduler: not tested, behind job %d of higher priority, which cannot start", b.w.q[stop].ID), nan)
		}
		for k := s.p.QueueDepth; k < len(b.w.q) && stop < 0; k++ {
			s.reason(now, &b.w.q[k], k, nq, "Priority", "main scheduler: not tested, past default_queue_depth", nan)
		}
	}
	if s.pre != nil {
		for k := qi; k < len(b.w.q) && !math.IsInf(begin, 1); k++ {
			// the jobs the main scheduler did not reach also wait for it
			if t, ok := s.pre.waitsBegin(now, b.w.q[k].ID); ok {
				begin = min(begin, t)
			}
		}
		if !math.IsInf(begin, 1) && (plan.Wake <= now || begin < plan.Wake) {
			plan.Wake = begin
		}
	}
	// A backfill pass when something changed since the last one (a job
	// submitted, started or ended: Slurm's _more_work) and bf_interval
	// has passed since it; else a wake-up then.
	dirty := b.changes != s.bfAt || b.minInsert != math.MaxInt
	if s.p.Backfill && dirty && len(b.w.q) > n {
		if now-s.lastBF >= s.p.Interval {
			n += b.backfillSlurm(now, plan)
			s.lastBF = now
			s.bfAt = b.changes
			b.minInsert = math.MaxInt
		} else if w := s.lastBF + s.p.Interval; plan.Wake <= now || w < plan.Wake {
			plan.Wake = w
		}
	}
	if n > 0 {
		first := -1
		for i := range b.w.q {
			if b.w.q[i].started {
				if first < 0 {
					first = i
				}
				b.freeJobs = append(b.freeJobs, b.w.q[i].m)
				if len(b.jobs[b.w.q[i].m].prep.R.GRESPerJob) > 0 {
					b.perJob--
				}
			}
		}
		b.w.compact(first, n)
	}
	b.kept = false
}

// backfillSlurm is one backfill pass: every waiting job in priority
// order, up to bf_max_job_test, starts now if it fits beside the
// running jobs, those started in the pass and the reservations made so
// far; else, if its earliest start is within bf_window, it gets a
// reservation of whole nodes (the nodes the selection rule gives at
// that time, taken out over its interval, start and end rounded down
// to bf_resolution). It returns the jobs started.
func (b *NodePolicy) backfillSlurm(now float64, plan *policy.Plan) int {
	s := b.slurm
	started, tested := 0, 0
	blocked := false
	nq, nan := len(b.w.q), math.NaN()
	clear(s.tested)
	clear(s.assoc)
	s.part = 0
	s.willRunReset()
	for qi := range b.w.q {
		e := &b.w.q[qi]
		if e.started {
			continue // by the main scheduler, at this instant
		}
		// bf_max_job_test counts the jobs the pass tries to place (Slurm
		// 22.05's bf_last_depth_try, raised at _try_sched): not those a
		// bf_max_job_* limit skips, nor those MaxJobsPU holds (Slurm's
		// acct_policy_job_runnable_pre_select skips them before), but
		// those a TRES limit (CPUs, memory, GPUs) holds (post-select:
		// tried, then skipped).
		if tested >= s.p.MaxJobTest {
			for k := qi; k < len(b.w.q) && s.onReason != nil; k++ {
				if !b.w.q[k].started {
					s.reason(now, &b.w.q[k], k, nq, "", "backfill: not tested, past bf_max_job_test", nan)
				}
			}
			break
		}
		if s.pre != nil {
			if t, ok := s.pre.waitsBegin(now, e.ID); ok {
				s.reason(now, e, qi, nq, ReasonBeginTime, "backfill: waits for its BeginTime (requeued by a preemption): not tested", t)
				continue // not runnable yet: not in Slurm's job queue
			}
		}
		why := ""
		if s.qos != nil {
			why = s.qos.hold(e.ID)
		}
		if why == ReasonMaxJobsPU {
			s.reason(now, e, qi, nq, why, "backfill: a QOS limit holds it (no start, no reservation)", nan)
			blocked = true
			continue // no start, no reservation, not counted
		}
		if s.exceeds(e.ID) {
			s.reason(now, e, qi, nq, "", "backfill: skipped by a bf_max_job_* limit (its user, partition or association)", nan)
			blocked = true
			continue // bf_max_job_*: skipped, not counted
		}
		tested++
		if why != "" {
			s.reason(now, e, qi, nq, why, "backfill: a QOS limit holds it (no start, no reservation)", nan)
			blocked = true
			continue // no start, no reservation (Slurm's backfill skips it)
		}
		pr := &b.jobs[e.m].prep
		d := e.Estimate
		y := nodes.Span(now, d)
		enough := b.freeCores >= b.minCores[e.m]
		if enough && (len(b.resv) == 0 && b.st.Select(pr, &b.cur) || len(b.resv) > 0 && b.prof.Select(now, y, pr, &b.cur)) {
			s.started(e.ID, &b.cur, e.Procs)
			b.start(now, e, &b.cur, b.prof.AddSelection(now, y, &b.cur), blocked, plan)
			s.willRunReset() // one more running job: other groups
			started++
			continue
		}
		blocked = true
		if s.noReserve(now, e) {
			s.reason(now, e, qi, nq, "Resources", "backfill: it does not fit beside the running jobs and the reservations; below bf_min_prio_reserve or younger than bf_min_age_reserve: no reservation", nan)
			continue // bf_min_prio_reserve, bf_min_age_reserve: no reservation
		}
		// A job whose earliest start is past now + bf_window gets no
		// reservation: the search stops there.
		t, ok := b.slurmEarliest(now, now+s.p.Window, d, pr)
		if !ok {
			s.reason(now, e, qi, nq, "Resources", "backfill: it does not fit beside the running jobs and the reservations, nor anywhere within bf_window: no reservation", nan)
			continue // starts too far in the future: no reservation
		}
		s.reason(now, e, qi, nq, "Resources", "backfill: it does not fit now; whole nodes reserved for it from its earliest start", t)
		b.reserveWhole(now, e, t, d)
	}
	// The plan is made anew at every pass: drop its reservations.
	b.ids = b.ids[:0]
	for i := range b.resv {
		if b.resv[i].hold >= 0 {
			b.ids = append(b.ids, b.resv[i].hold)
		}
	}
	b.prof.RemoveAll(b.ids)
	b.resv = b.resv[:0]
	return started
}

// started tells the QOS usage that job id (of cpus CPUs) starts on
// selection sel.
func (s *slurmState) started(id job.ID, sel *nodes.Selection, cpus int) {
	if s.qos != nil {
		s.qos.start(id, selectionTRES(sel, cpus, s.gpu))
	}
	if s.who != nil {
		if s.pre != nil {
			s.pre.runBasic[id] = s.who[id].basic
		}
		delete(s.who, id)
	}
	if s.pre != nil {
		delete(s.pre.begin, id)
		delete(s.pre.basic, id)
	}
}

// slurmWho is a waiting job's user, group and priority/basic priority.
type slurmWho struct {
	user, group int32
	basic       float64
}

// exceeds reports whether job id is past bf_max_job_user_part,
// bf_max_job_part, bf_max_job_assoc or bf_max_job_user in this pass;
// when it is not, it counts the job in each (Slurm's
// _job_exceeds_max_bf_param: a job skipped counts in none).
func (s *slurmState) exceeds(id job.ID) bool {
	p := &s.p
	if p.MaxJobUser == 0 && p.MaxJobUserPart == 0 && p.MaxJobPart == 0 && p.MaxJobAssoc == 0 {
		return false
	}
	w := s.who[id]
	a := [2]int32{w.user, w.group}
	n := s.tested[w.user]
	if p.MaxJobUserPart > 0 && n >= p.MaxJobUserPart || p.MaxJobPart > 0 && s.part >= p.MaxJobPart ||
		p.MaxJobAssoc > 0 && s.assoc[a] >= p.MaxJobAssoc || p.MaxJobUser > 0 && n >= p.MaxJobUser {
		return true
	}
	s.tested[w.user] = n + 1
	s.part++
	if p.MaxJobAssoc > 0 {
		s.assoc[a]++
	}
	return false
}

// noReserve reports whether e gets no reservation (Slurm's
// TEST_NOW_ONLY) and does not stop the main scheduler: its priority is
// below bf_min_prio_reserve, or it has waited less than
// bf_min_age_reserve.
func (s *slurmState) noReserve(now float64, e *entry) bool {
	if s.p.MinPrioReserve > 0 && s.priority(e) < s.p.MinPrioReserve {
		return true
	}
	return s.p.MinAgeReserve > 0 && now-e.Submit < s.p.MinAgeReserve
}

// priority is e's Slurm priority: the multifactor one of this pass, or
// priority/basic's.
func (s *slurmState) priority(e *entry) float64 {
	if e.x != nil {
		return e.x.prio
	}
	return s.who[e.ID].basic
}

// reserveWhole holds the nodes of b.cur whole over the reservation's
// interval rounded down to bf_resolution: an exclusive hold counting no
// cores, memory or units (so that the profile's counts never exceed a
// node's, and its quick refusals stay sound), on which nothing else is
// placed. A rounded interval that is empty holds nothing.
func (b *NodePolicy) reserveWhole(now float64, e *entry, t, d float64) {
	s := b.slurm
	r, o := s.p.Resolution, s.p.Origin
	a, z := math.Floor((t+o)/r)*r-o, math.Floor((t+d+o)/r)*r-o
	w := &s.whole
	w.CopyFrom(&b.cur)
	w.Exclusive = true
	for i := range w.Picks {
		w.Picks[i].Cores, w.Picks[i].MemMB, w.Picks[i].Tasks = 0, 0, 0
		clear(w.Units(i))
	}
	b.resv = append(b.resv, nodeResv{slot: e.m, id: e.ID, t: t, end: nodes.Span(t, d), hold: -1})
	c := &b.resv[len(b.resv)-1]
	c.sel.CopyFrom(&b.cur)
	if z > a {
		c.hold = b.prof.AddSelection(a, z, w)
	}
	b.changes++
	if b.onReserve != nil {
		b.onReserve(now, e.ID, t)
	}
}

// shareBasic makes the count of priority/basic's priorities the
// machine's (s), so that the partitions' policies number the jobs
// together, as one slurmctld does.
func (b *NodePolicy) shareBasic(s *policy.Shared) {
	if b.slurm == nil || b.slurm.basic == nil {
		return
	}
	b.slurm.basic = s.Get("policy/backfill.slurm-basic", func() any { return new(int64) }).(*int64)
}
