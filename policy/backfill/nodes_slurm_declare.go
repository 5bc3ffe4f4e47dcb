package backfill

import (
	"fmt"
	"strconv"

	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/rng"
)

// slurmDecl declares the slurm policy: Slurm's main scheduler and
// backfill pass on a platform of nodes (nodes_slurm.go), its options
// named as Slurm's SchedulerType and SchedulerParameters, its priority
// the order option (fcfs: priority/basic, multifactor:
// priority/multifactor with the multifactor settings). It runs on
// nodes only: on a pool of CPUs it is refused, saying so.
func slurmDecl() policy.Decl {
	itoa := strconv.Itoa
	opts := append([]option.Decl{
		OrderOption([]string{OrderFCFS.String(), OrderMultifactor.String()},
			"Slurm's priority is priority/basic (fcfs, submit order) or priority/multifactor"),
	}, MultifactorOptions()...)
	own := len(opts)
	opts = append(opts,
		option.Decl{Name: "scheduler_type", Type: option.Enum, Values: []string{"backfill", "builtin"}, Default: "backfill", KeyName: "sched",
			Doc: "SchedulerType: backfill (sched/backfill: the main scheduler and a backfill pass) or builtin (sched/builtin: the main scheduler only)"},
		option.Decl{Name: "bf_window", Type: option.Int, Range: option.Between(1, SlurmMaxWindowMin), Default: itoa(SlurmDefaultWindowMin), KeyName: "bf_window",
			Doc: "bf_window in minutes: no reservation for a job whose earliest start is later than now + bf_window"},
		option.Decl{Name: "bf_max_job_test", Type: option.Int, Range: option.Between(1, SlurmMaxJobs), Default: itoa(SlurmDefaultMaxJobTest), KeyName: "bf_max_job_test",
			Doc: "bf_max_job_test: a backfill pass tests the first N waiting jobs in priority order"},
		option.Decl{Name: "bf_resolution", Type: option.Int, Range: option.Between(1, SlurmMaxResolution), Default: itoa(SlurmDefaultResolution), KeyName: "bf_resolution",
			Doc: "bf_resolution in seconds: a reservation's start and end are rounded down to a multiple of it"},
		option.Decl{Name: "bf_interval", Type: option.Int, Range: option.Between(1, SlurmMaxInterval), Default: itoa(SlurmDefaultInterval), KeyName: "bf_interval",
			Doc: "bf_interval in seconds: a backfill pass runs at most every bf_interval seconds, after a change"},
		option.Decl{Name: "default_queue_depth", Type: option.Int, Range: option.Between(1, SlurmMaxJobs), Default: itoa(SlurmDefaultQueueDepth), KeyName: "queue_depth",
			Doc: "default_queue_depth: the main scheduler (at every submission and end) tests at most this many jobs"},
		option.Decl{Name: "bf_max_job_user", Type: option.Int, Range: option.Between(0, SlurmMaxJobs), Default: "0", KeyName: "bf_max_job_user",
			Doc: "bf_max_job_user: a backfill pass tests at most N jobs of one user (0: no limit; at most bf_max_job_test); the others are skipped"},
		option.Decl{Name: "bf_max_job_part", Type: option.Int, Range: option.Between(0, SlurmMaxJobs), Default: "0", KeyName: "bf_max_job_part",
			Doc: "bf_max_job_part: a backfill pass tests at most N jobs of one partition (0: no limit; at most bf_max_job_test); the others are skipped"},
		option.Decl{Name: "bf_max_job_user_part", Type: option.Int, Range: option.Between(0, SlurmMaxJobs), Default: "0", KeyName: "bf_max_job_user_part",
			Doc: "bf_max_job_user_part: a backfill pass tests at most N jobs of one user in one partition (0: no limit; at most bf_max_job_test); the others are skipped"},
		option.Decl{Name: "bf_max_job_assoc", Type: option.Int, Range: option.Between(0, SlurmMaxJobs), Default: "0", KeyName: "bf_max_job_assoc",
			Doc: "bf_max_job_assoc: a backfill pass tests at most N jobs of one association, the job's user and group (SWF fields 12 and 13; the group stands for the account) (0: no limit; at most bf_max_job_test; not with bf_max_job_user)"},
		option.Decl{Name: "bf_min_age_reserve", Type: option.Int, Range: option.Between(0, SlurmMaxMinAge), Default: "0", KeyName: "bf_min_age_reserve",
			Doc: "bf_min_age_reserve in seconds: a job that has waited less gets no reservation and does not stop the main scheduler (0: none)"},
		option.Decl{Name: "bf_min_prio_reserve", Type: option.Int, Range: option.Between(0, SlurmMaxPrioReserve), Default: "0", KeyName: "bf_min_prio_reserve",
			Doc: "bf_min_prio_reserve: a job of a lower priority gets no reservation and does not stop the main scheduler (0: none); the priority is multifactor's, or priority/basic's under order fcfs (4294901760 - k for the k-th job submitted)"},
		option.Decl{Name: "sched_latency", Type: option.Float, Range: option.Between(0, SlurmMaxLatency), Default: "0", KeyName: "sched_latency",
			Doc: "not a Slurm parameter: slurmctld's delay in seconds; each pass runs a delay drawn uniformly in [0, S] from the run's seed after the instant that calls for it (0: none, deterministic)"},
		option.Decl{Name: "select_rule", Type: option.Enum, Values: []string{nodes.FirstFit.String(), nodes.ConsTRES.String()}, Default: nodes.FirstFit.String(), KeyName: "select",
			Doc: "the node selection: first_fit (docs/nodes.md's rule: by weight, then node order) or cons_tres (Slurm's select/cons_tres: best-fit runs of consecutive nodes, docs/nodes.md)"},
		option.Decl{Name: "qos_limits", Type: option.Text, KeyName: "qos_limits",
			Valid: func(s string) error { _, err := ParseQOSLimits(s); return err },
			Doc:   "QOS limits by QOS number (SWF field 15), \"QOS:KEY=N[:KEY=N...],...\" with KEY maxjobspu, maxsubmitpu, maxcpuspu (MaxTRESPU cpu), grpcpus (GrpTRES cpu), maxwall (seconds), maxmempu and grpmem (MaxTRESPU and GrpTRES mem, MB), maxgpuspu and grpgpus (their gres/gpu); run --slurm-qos FILE writes it from sacctmgr show qos"},
		option.Decl{Name: "bf_window_linear", Type: option.Int, Range: option.Between(0, SlurmMaxWindowMin*60), Default: "0", KeyName: "bf_window_linear",
			Doc: "bf_window_linear in seconds: the will-run test's window (30 s at first) grows by this much at each group of running jobs' ends (0: it doubles)"},
		option.Decl{Name: "will_run", Type: option.Enum, Values: []string{"grouped", "exact"}, Default: "grouped", KeyName: "will_run",
			Doc: "how a backfill reservation's start is found: grouped (Slurm's select/cons_tres will-run test: the running jobs end in groups of growing windows, and the start is a group's last end) or exact (not Slurm's: the first end of any hold at which the job fits)"},
		option.Decl{Name: "unix_start_time", Type: option.Int, Range: option.Between(0, SlurmMaxOrigin), Default: "0", KeyName: "unix_start",
			Doc: "not a Slurm parameter: the Unix time of simulated time 0 (run sets it from a trace's UnixStartTime); Slurm aligns bf_resolution and the will-run test's 30 s windows to the clock"},
		option.Decl{Name: "preempt_type", Type: option.Enum, Values: []string{"none", "qos"}, Default: "none", KeyName: "preempt",
			Doc: "PreemptType: none (preempt/none) or qos (preempt/qos: a job the main scheduler cannot start may stop running jobs of the QOS its QOS preempts, qos_preempt)"},
		option.Decl{Name: "preempt_mode", Type: option.Enum, Values: []string{"off", "cancel", "requeue"}, Default: "off", KeyName: "preempt_mode",
			Doc: "PreemptMode: off, cancel (a preempted job ends, final state COMPLETED_PREEMPTED) or requeue (it waits again, from its beginning, startable cred_expire + 1 s later); preempt_type qos needs cancel or requeue"},
		option.Decl{Name: "qos_preempt", Type: option.Text, KeyName: "qos_preempt",
			Valid: func(s string) error { _, err := ParseQOSPreempt(s); return err },
			Doc:   "with preempt_type qos: the QOS each QOS preempts (sacctmgr's Preempt), \"QOS:QOS[+QOS...],...\" by QOS number (SWF field 15); run --slurm-qos FILE writes it from sacctmgr show qos"},
		option.Decl{Name: "preempt_youngest_first", Type: option.Bool, Default: "false", KeyName: "youngest",
			Doc: "SchedulerParameters preempt_youngest_first: the jobs to preempt are tried from the latest started (default: by QOS priority, then node count, then submission order)"},
		option.Decl{Name: "cred_expire", Type: option.Int, Range: option.Between(MinCredExpire, MaxCredExpire), Default: itoa(SlurmDefaultCredExpire), KeyName: "cred_expire",
			Doc: "AuthInfo's cred_expire in seconds (Slurm's default 120, at least 5): a job requeued by a preemption may start again cred_expire + 1 s later (Slurm's BeginTime)"},
	)
	for i := own; i < len(opts); i++ {
		opts[i].Key = "policy." + opts[i].Name
	}
	return policy.Decl{Model: policy.ModelCluster, Kind: policy.KindQueue, Name: "slurm", Traits: policy.Traits{NodesOnly: true, AllPartitions: true},
		Summary: "Slurm's schedulers on a platform of nodes: the main scheduler (priority order, stops at the first blocked job) and the backfill pass (whole-node reservations, bf_window, bf_max_job_test, bf_resolution, bf_interval); nodes only",
		Options: opts, QueueOrder: func(v option.Values) string { return v.Text("order") },
		// The options together (bounds relative to bf_max_job_test, the
		// limits that exclude each other), before any work; the latency's
		// random stream is the build's.
		Check: func(v option.Values) error {
			p := slurmFrom(v)
			p.Latency = 0
			if err := p.Check(); err != nil {
				return err // the caller names the policy
			}
			return checkPreemptOptions(v)
		},
		New: func(env policy.Env, v option.Values) (policy.Built, error) {
			if env.Nodes == nil {
				return policy.Built{}, fmt.Errorf("policy slurm: runs on a platform of nodes only: give --nodes or --slurm-conf FILE --slurm-nodes (platform.nodes in a scenario)")
			}
			var mf *Multifactor
			var err error
			if orderOf(v) == OrderMultifactor {
				m, err := multifactorFrom(v)
				if err != nil {
					return policy.Built{}, err
				}
				mf = &m
			}
			p := slurmFrom(v)
			if p.Latency > 0 {
				p.Rand = rng.New(env.Seed, env.Rep, "policy/backfill.slurm-latency")
			}
			if p.QOS, err = ParseQOSLimits(v.Text("qos_limits")); err != nil {
				return policy.Built{}, fmt.Errorf("policy slurm: option qos_limits: %w", err)
			}
			if err := checkPreemptOptions(v); err != nil {
				return policy.Built{}, fmt.Errorf("policy slurm: %w", err)
			}
			if v.Text("preempt_type") == "qos" {
				pre := SlurmPreempt{Requeue: v.Text("preempt_mode") == "requeue", CredExpire: float64(v.Int("cred_expire")), YoungestFirst: v.Bool("preempt_youngest_first")}
				pre.Preempts, _ = ParseQOSPreempt(v.Text("qos_preempt"))
				if mf != nil {
					pre.QOSPriority = mf.QOSPriority
				}
				p.Preempt = &pre
			}
			nb, err := NewNodePolicy(NodeConfig{Name: "slurm", Nodes: env.Nodes, Order: orderOf(v), MF: mf, Slurm: &p})
			if err != nil {
				return policy.Built{}, err
			}
			if env.Shared != nil {
				nb.shareMF(env.Shared)
				nb.shareQOS(env.Shared)
				nb.shareBasic(env.Shared)
			}
			if p.QOS != nil {
				return policy.Built{Nodes: SlurmQOS{nb}}, nil
			}
			return policy.Built{Nodes: Slurm{nb}}, nil
		}}
}

// slurmFrom reads the slurm policy's settings from checked values.
func slurmFrom(v option.Values) SlurmParams {
	p := SlurmParams{Backfill: v.Text("scheduler_type") == "backfill", Window: float64(v.Int("bf_window")) * 60,
		MaxJobTest: v.Int("bf_max_job_test"), Resolution: float64(v.Int("bf_resolution")), Interval: float64(v.Int("bf_interval")),
		QueueDepth: v.Int("default_queue_depth"), MaxJobUser: v.Int("bf_max_job_user"), MinAgeReserve: float64(v.Int("bf_min_age_reserve")),
		MaxJobPart: v.Int("bf_max_job_part"), MaxJobUserPart: v.Int("bf_max_job_user_part"), MaxJobAssoc: v.Int("bf_max_job_assoc"),
		MinPrioReserve: float64(v.Int("bf_min_prio_reserve")), Latency: v.Float("sched_latency"), Select: nodes.FirstFit,
		WindowLinear: float64(v.Int("bf_window_linear")), ExactWillRun: v.Text("will_run") == "exact", Origin: float64(v.Int("unix_start_time"))}
	if v.Text("select_rule") == nodes.ConsTRES.String() {
		p.Select = nodes.ConsTRES
	}
	return p
}

// checkPreemptOptions checks the preemption options together.
func checkPreemptOptions(v option.Values) error {
	typ, mode, list := v.Text("preempt_type"), v.Text("preempt_mode"), v.Text("qos_preempt")
	switch {
	case typ == "qos" && mode == "off":
		return fmt.Errorf("preempt_type qos with preempt_mode off: give preempt_mode cancel or requeue (Slurm preempts nothing with PreemptMode OFF)")
	case typ == "none" && mode != "off":
		return fmt.Errorf("preempt_mode %s with preempt_type none: give preempt_type qos (preemption by partition priority is not modelled)", mode)
	case typ == "none" && list != "":
		return fmt.Errorf("qos_preempt with preempt_type none: give preempt_type qos")
	case typ == "qos" && list == "":
		return fmt.Errorf("preempt_type qos without qos_preempt: no QOS preempts another (give qos_preempt \"QOS:QOS[+QOS...]\")")
	}
	_, err := ParseQOSPreempt(list)
	return err
}
