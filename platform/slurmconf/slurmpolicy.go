package slurmconf

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// SlurmPolicy is what a configuration says of the slurm policy's options
// (docs/slurm.md, "The slurm policy"): Options by option name, as
// 'run --set NAME=VALUE' texts, and Notes on what the policy leaves out
// (SchedulerParameters and Priority* keys it does not model).
type SlurmPolicy struct {
	Options map[string]string
	Notes   []string
}

// schedOptions are the SchedulerParameters the slurm policy models, by
// their option names (the same).
var schedOptions = []string{"bf_window", "bf_max_job_test", "bf_resolution", "bf_interval", "default_queue_depth", "bf_max_job_user", "bf_min_age_reserve",
	"bf_min_prio_reserve", "bf_max_job_part", "bf_max_job_user_part", "bf_max_job_assoc", "bf_window_linear"}

// schedFlags are the SchedulerParameters flags the slurm policy models
// (bool options of the same name).
var schedFlags = []string{"preempt_youngest_first"}

// priorityWeights maps the Priority weights to the multifactor options.
var priorityWeights = map[string]string{
	"priorityweightage": "priority_weight_age", "priorityweightfairshare": "priority_weight_fairshare",
	"priorityweightjobsize": "priority_weight_job_size", "priorityweightpartition": "priority_weight_partition",
	"priorityweightqos": "priority_weight_qos",
}

// SlurmPolicy maps c's SchedulerType, SchedulerParameters and Priority*
// keys onto the slurm policy's options: sched/backfill and
// sched/builtin are scheduler_type backfill and builtin;
// priority/basic is order fcfs, priority/multifactor order multifactor
// with the weights, PriorityMaxAge, PriorityDecayHalfLife and
// PriorityFavorSmall. Keys left at Slurm's defaults give no option.
func (c *Config) SlurmPolicy() SlurmPolicy {
	p := SlurmPolicy{Options: map[string]string{}}
	note := func(f string, a ...any) { p.Notes = append(p.Notes, fmt.Sprintf(f, a...)) }
	switch c.SchedulerType {
	case "sched/backfill":
		p.Options["scheduler_type"] = "backfill"
	case "sched/builtin":
		p.Options["scheduler_type"] = "builtin"
	default:
		note("SchedulerType=%s is not modelled: the slurm policy runs sched/backfill", c.SchedulerType)
	}
	for _, q := range c.SchedulerParameters {
		k := strings.ToLower(q.Key)
		if !q.Flag && containsName(schedOptions, k) {
			p.Options[k] = q.Value
			continue
		}
		if q.Flag && containsName(schedFlags, k) {
			p.Options[k] = "true"
			continue
		}
		if k == "bf_continue" {
			note("SchedulerParameters bf_continue: without effect in a simulation (a backfill pass is never interrupted, so it never has to go on from where it stopped)")
			continue
		}
		note("SchedulerParameters %s: not modelled by the slurm policy", q.Key)
	}
	if _, ok := p.Options["bf_max_job_assoc"]; ok && p.Options["bf_max_job_user"] != "" {
		// Slurm's backfill.c: "Both bf_max_job_user and bf_max_job_assoc
		// are set: bf_max_job_assoc taking precedence."
		if p.Options["bf_max_job_assoc"] != "0" && p.Options["bf_max_job_user"] != "0" {
			note("SchedulerParameters bf_max_job_user: left out, as Slurm does when bf_max_job_assoc is set")
			delete(p.Options, "bf_max_job_user")
		}
	}
	prio := map[string]string{}
	var keys []string
	for k, v := range c.Priority {
		prio[strings.ToLower(k)] = v
		keys = append(keys, k)
	}
	sort.Strings(keys)
	multi := false
	switch t := prio["prioritytype"]; t {
	case "", "priority/basic":
		p.Options["order"] = "fcfs"
	case "priority/multifactor":
		p.Options["order"] = "multifactor"
		multi = true
	default:
		note("PriorityType=%s is not modelled: jobs in submission order (priority/basic)", t)
		p.Options["order"] = "fcfs"
	}
	for _, k := range keys {
		lk, v := strings.ToLower(k), c.Priority[k]
		if lk == "prioritytype" {
			continue
		}
		opt, known := priorityWeights[lk]
		switch lk {
		case "prioritymaxage":
			opt, known = "priority_max_age", true
		case "prioritydecayhalflife":
			opt, known = "priority_decay_half_life", true
		case "priorityfavorsmall":
			opt, known = "priority_favor_small", true
		}
		switch {
		case !known:
			note("%s: not modelled by the slurm policy", k)
			continue
		case !multi:
			note("%s: without effect under priority/basic (ignored)", k)
			continue
		}
		switch lk {
		case "prioritymaxage", "prioritydecayhalflife":
			d, err := Duration(v)
			if err != nil || math.IsInf(d, 1) || (lk == "prioritymaxage" && d == 0) {
				note("%s=%s: not a finite time the multifactor order takes (left at its default)", k, v)
				continue
			}
			v = strconv.FormatFloat(d, 'f', -1, 64)
		case "priorityfavorsmall":
			switch strings.ToUpper(v) {
			case "YES":
				v = "true"
			case "NO":
				v = "false"
			default:
				note("%s=%s: want YES or NO (left at its default)", k, v)
				continue
			}
		}
		p.Options[opt] = v
	}
	if len(c.PriorityFlags) > 0 {
		note("PriorityFlags: not modelled by the slurm policy")
	}
	c.preemptPolicy(&p, note)
	return p
}

// preemptPolicy maps PreemptType and PreemptMode: preempt/qos with
// PreemptMode REQUEUE or CANCEL is preempt_type qos with that
// preempt_mode (the QOS preempted come from sacctmgr's Preempt column:
// QOSPolicy); anything else is noted.
func (c *Config) preemptPolicy(p *SlurmPolicy, note func(string, ...any)) {
	switch c.PreemptType {
	case "", "preempt/none":
		return
	case "preempt/qos":
	default:
		note("PreemptType=%s is not modelled (preempt/qos is): no preemption", c.PreemptType)
		return
	}
	mode := ""
	for _, m := range strings.Split(strings.ToUpper(c.PreemptMode), ",") {
		switch m = strings.TrimSpace(m); m {
		case "REQUEUE", "CANCEL":
			mode = strings.ToLower(m)
		case "", "OFF":
		default:
			note("PreemptMode %s is not modelled (REQUEUE and CANCEL are)", m)
		}
	}
	if mode == "" {
		note("PreemptType=preempt/qos with PreemptMode=%s: nothing is preempted (REQUEUE or CANCEL preempt)", c.PreemptMode)
		return
	}
	p.Options["preempt_type"], p.Options["preempt_mode"] = "qos", mode
	for _, f := range strings.Split(c.AuthInfo, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(f), "=")
		if !strings.EqualFold(k, "cred_expire") {
			continue
		}
		if n, err := strconv.Atoi(v); err == nil && n >= 5 && n <= 86400 {
			p.Options["cred_expire"] = v
		} else {
			note("AuthInfo cred_expire=%s: want 5..86400 seconds (left at Slurm's default, 120)", v)
		}
	}
}

// tresMemMB reads a mem TRES count as sacctmgr writes it: a whole number
// of MB, or with a unit K, M, G, T or P (powers of 1024; K rounds up to
// whole MB).
func tresMemMB(s string) (int64, error) {
	mult, div := int64(1), int64(1)
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'K', 'k':
			div = 1024
		case 'M', 'm':
		case 'G', 'g':
			mult = 1 << 10
		case 'T', 't':
			mult = 1 << 20
		case 'P', 'p':
			mult = 1 << 30
		default:
			n++
		}
		s = s[:n-1]
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v > (1<<50)/mult {
		return 0, fmt.Errorf("%q: not a size", s)
	}
	return (v*mult + div - 1) / div, nil
}

func containsName(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// QOSPolicy maps a QOS table (ReadQOS) onto the slurm policy's options
// qos_limits (MaxJobsPU, MaxSubmitPU, MaxTRESPU's and GrpTRES's cpu, mem
// and gres/gpu,
// MaxWall; the form of the option's doc), qos_priority (Priority, for
// priority/multifactor's QOS factor) and qos_preempt (Preempt, for
// preempt/qos). number gives a QOS name's number
// in the trace (SWF field 15); a QOS the trace does not know is left
// out. Notes say what is left out: such QOS, TRES other than cpu, mem and
// gres/gpu (node, billing, typed GPUs, other GRES, licenses), a QOS's
// own PreemptMode, a limit of 0 (no job of the QOS could run)
// and a MaxWall that is not whole seconds.
func QOSPolicy(qs []QOS, number func(name string) (int32, bool)) SlurmPolicy {
	p := SlurmPolicy{Options: map[string]string{}}
	note := func(f string, a ...any) { p.Notes = append(p.Notes, fmt.Sprintf(f, a...)) }
	type row struct {
		n    int32
		text string
		prio int64
	}
	var rows []row
	var unknown, preempts []string
	for _, q := range qs {
		n, ok := number(q.Name)
		if !ok {
			unknown = append(unknown, q.Name)
			continue
		}
		var lim []string
		count := func(key, slurm string, v int64) {
			switch {
			case v > 0:
				lim = append(lim, fmt.Sprintf("%s=%d", key, v))
			case v == 0:
				note("QOS %s (line %d): %s=0 (no job of the QOS could run): left out", q.Name, q.Line, slurm)
			}
		}
		count("maxjobspu", "MaxJobsPU", q.MaxJobsPerUser)
		count("maxsubmitpu", "MaxSubmitPU", q.MaxSubmitJobs)
		// keys are the qos_limits keys of cpu, mem and gres/gpu.
		tres := func(keys [3]string, slurm string, ps []Param) {
			for _, t := range ps {
				k := strings.ToLower(t.Key)
				i := slices.Index([]string{"cpu", "mem", "gres/gpu"}, k)
				if i < 0 || t.Flag {
					note("QOS %s (line %d): %s %s: only cpu, mem and gres/gpu are modelled: left out", q.Name, q.Line, slurm, t.Key)
					continue
				}
				var v int64
				var err error
				if k == "mem" {
					v, err = tresMemMB(t.Value)
				} else if v, err = strconv.ParseInt(t.Value, 10, 64); err == nil && v < 0 {
					err = errors.New("negative")
				}
				if err != nil {
					what := "a whole number"
					if k == "mem" {
						what = "a size (MB, or with K, M, G, T, P)"
					}
					note("QOS %s (line %d): %s %s=%s is not %s: left out", q.Name, q.Line, slurm, t.Key, t.Value, what)
					continue
				}
				count(keys[i], slurm+" "+k, v)
			}
		}
		tres([3]string{"maxcpuspu", "maxmempu", "maxgpuspu"}, "MaxTRESPU", q.MaxTRESPerUser)
		tres([3]string{"grpcpus", "grpmem", "grpgpus"}, "GrpTRES", q.GrpTRES)
		if w := q.MaxWall; !math.IsInf(w, 1) {
			if w >= 1 && w == math.Trunc(w) && w <= 1<<31 {
				lim = append(lim, fmt.Sprintf("maxwall=%d", int64(w)))
			} else {
				note("QOS %s (line %d): MaxWall %g s: left out", q.Name, q.Line, w)
			}
		}
		if q.PreemptMode != "" && !strings.EqualFold(q.PreemptMode, "cluster") {
			note("QOS %s (line %d): PreemptMode %s: a QOS's own mode is not modelled (the cluster's PreemptMode applies)", q.Name, q.Line, q.PreemptMode)
		}
		var pre []string
		for _, name := range q.Preempt {
			if m, ok := number(name); ok && m != n {
				pre = append(pre, strconv.Itoa(int(m)))
			} else if ok {
				note("QOS %s (line %d): Preempt %s: a QOS preempting itself is not modelled: left out", q.Name, q.Line, name)
			} else {
				note("QOS %s (line %d): Preempt %s: not among the trace's QOS: left out", q.Name, q.Line, name)
			}
		}
		if len(pre) > 0 {
			preempts = append(preempts, strconv.Itoa(int(n))+":"+strings.Join(pre, "+"))
		}
		text := ""
		if len(lim) > 0 {
			text = strconv.Itoa(int(n)) + ":" + strings.Join(lim, ":")
		}
		rows = append(rows, row{n, text, q.Priority})
	}
	if len(unknown) > 0 {
		note("QOS %s: not among the trace's QOS (its header's Queue lines, or numbers): left out", strings.Join(unknown, ", "))
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].n < rows[j].n })
	var lims, prios []string
	for i, r := range rows {
		if i > 0 && r.n == rows[i-1].n {
			note("QOS number %d named twice: the first kept", r.n)
			continue
		}
		if r.text != "" {
			lims = append(lims, r.text)
		}
		if r.prio > 0 {
			prios = append(prios, fmt.Sprintf("%d:%d", r.n, r.prio))
		}
	}
	if len(lims) > 0 {
		p.Options["qos_limits"] = strings.Join(lims, ",")
	}
	if len(prios) > 0 {
		p.Options["qos_priority"] = strings.Join(prios, ",")
	}
	if len(preempts) > 0 {
		p.Options["qos_preempt"] = strings.Join(preempts, ",")
	}
	return p
}
