package slurmconf

import (
	"fmt"
	"math"
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
var schedOptions = []string{"bf_window", "bf_max_job_test", "bf_resolution", "bf_interval", "default_queue_depth"}

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
		note("SchedulerParameters %s: not modelled by the slurm policy", q.Key)
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
	return p
}

func containsName(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
