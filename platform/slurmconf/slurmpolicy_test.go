package slurmconf

import (
	"maps"
	"strings"
	"testing"
)

// The site file's scheduler keys as the slurm policy's options:
// sched/backfill; bf_window 2880 minutes, bf_interval 30, bf_max_job_test
// 500, default_queue_depth 100, bf_resolution 60 as given (bf_continue
// has no effect in a simulation); priority/multifactor with its five weights and
// PriorityMaxAge = PriorityDecayHalfLife = 7-0 = 604800 s; PriorityFlags
// not modelled; PreemptType=preempt/qos with PreemptMode=REQUEUE.
func TestSlurmPolicy(t *testing.T) {
	c, err := ReadFile("testdata/site.conf")
	if err != nil {
		t.Fatal(err)
	}
	p := c.SlurmPolicy()
	want := map[string]string{
		"scheduler_type": "backfill", "bf_window": "2880", "bf_interval": "30", "bf_max_job_test": "500",
		"default_queue_depth": "100", "bf_resolution": "60", "order": "multifactor",
		"priority_weight_age": "1000", "priority_weight_fairshare": "10000", "priority_weight_job_size": "500",
		"priority_weight_partition": "1000", "priority_weight_qos": "2000",
		"priority_max_age": "604800", "priority_decay_half_life": "604800",
		"preempt_type": "qos", "preempt_mode": "requeue",
	}
	if !maps.Equal(p.Options, want) {
		t.Errorf("options\n%v\nwant\n%v", p.Options, want)
	}
	notes := strings.Join(p.Notes, "\n")
	for _, s := range []string{"SchedulerParameters bf_continue: without effect in a simulation", "PriorityFlags: not modelled"} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes lack %q:\n%s", s, notes)
		}
	}
	if len(p.Notes) != 2 {
		t.Errorf("notes:\n%s", notes)
	}
}

// sched/builtin, priority/basic (weights then without effect), and a
// scheduler the policy does not model.
func TestSlurmPolicyBuiltin(t *testing.T) {
	c, err := Read(strings.NewReader("SchedulerType=sched/builtin\nPriorityWeightAge=10\nNodeName=n1 CPUs=4\n"), "s.conf")
	if err != nil {
		t.Fatal(err)
	}
	p := c.SlurmPolicy()
	if want := map[string]string{"scheduler_type": "builtin", "order": "fcfs"}; !maps.Equal(p.Options, want) {
		t.Errorf("options %v, want %v", p.Options, want)
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "PriorityWeightAge: without effect under priority/basic") {
		t.Errorf("notes %q", p.Notes)
	}
	c, err = Read(strings.NewReader("SchedulerType=sched/hold\nPriorityType=priority/multifactor\nPriorityFavorSmall=YES\nNodeName=n1 CPUs=4\n"), "s.conf")
	if err != nil {
		t.Fatal(err)
	}
	p = c.SlurmPolicy()
	if want := map[string]string{"order": "multifactor", "priority_favor_small": "true"}; !maps.Equal(p.Options, want) {
		t.Errorf("options %v, want %v", p.Options, want)
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "SchedulerType=sched/hold is not modelled") {
		t.Errorf("notes %q", p.Notes)
	}
}

// bf_max_job_user, bf_min_age_reserve, bf_min_prio_reserve (up to
// Slurm's 32-bit priority), bf_max_job_part, bf_max_job_user_part and
// bf_max_job_assoc are the policy's options of the same names;
// bf_max_job_start is said; bf_max_job_user beside bf_max_job_assoc is
// left out, said, as Slurm ignores it.
func TestSlurmPolicyUserAndAge(t *testing.T) {
	c, err := Read(strings.NewReader("SchedulerParameters=bf_max_job_user=10,bf_min_age_reserve=600,bf_min_prio_reserve=4294967295,bf_max_job_part=7,bf_max_job_user_part=3,bf_max_job_start=9\nNodeName=n1 CPUs=4\n"), "s.conf")
	if err != nil {
		t.Fatal(err)
	}
	p := c.SlurmPolicy()
	if want := map[string]string{"scheduler_type": "backfill", "order": "fcfs", "bf_max_job_user": "10", "bf_min_age_reserve": "600",
		"bf_min_prio_reserve": "4294967295", "bf_max_job_part": "7", "bf_max_job_user_part": "3"}; !maps.Equal(p.Options, want) {
		t.Errorf("options %v, want %v", p.Options, want)
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "SchedulerParameters bf_max_job_start: not modelled") {
		t.Errorf("notes %q", p.Notes)
	}
	c, err = Read(strings.NewReader("SchedulerParameters=bf_max_job_user=10,bf_max_job_assoc=4\nNodeName=n1 CPUs=4\n"), "s.conf")
	if err != nil {
		t.Fatal(err)
	}
	p = c.SlurmPolicy()
	if _, ok := p.Options["bf_max_job_user"]; ok || p.Options["bf_max_job_assoc"] != "4" {
		t.Errorf("options %v", p.Options)
	}
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], "bf_max_job_user: left out, as Slurm does when bf_max_job_assoc is set") {
		t.Errorf("notes %q", p.Notes)
	}
	for _, bad := range []string{"bf_min_prio_reserve=4294967296", "bf_max_job_assoc=x"} {
		if _, err := Read(strings.NewReader("SchedulerParameters="+bad+"\nNodeName=n1 CPUs=4\n"), "s.conf"); err == nil || !strings.Contains(err.Error(), "not a whole number") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

// PreemptType and PreemptMode: preempt/qos with REQUEUE or CANCEL (a
// mode among others, GANG noted) is preempt_type qos; OFF, or another
// type, is no preemption, noted.
func TestSlurmPolicyPreempt(t *testing.T) {
	for _, c := range []struct {
		typ, mode, want, note string
	}{
		{"preempt/qos", "CANCEL", "qos cancel", ""},
		{"preempt/qos", "REQUEUE", "qos requeue 7", ""},
		{"preempt/qos", "REQUEUE,GANG", "qos requeue", "PreemptMode GANG is not modelled"},
		{"preempt/qos", "OFF", " ", "nothing is preempted"},
		{"preempt/partition_prio", "REQUEUE", " ", "PreemptType=preempt/partition_prio is not modelled"},
		{"preempt/none", "", " ", ""},
	} {
		cfg := &Config{PreemptType: c.typ, PreemptMode: c.mode}
		if strings.HasSuffix(c.want, " 7") {
			cfg.AuthInfo = "socket=/run/munge.sock,cred_expire=7"
		}
		p := cfg.SlurmPolicy()
		got := strings.TrimSpace(p.Options["preempt_type"] + " " + p.Options["preempt_mode"] + " " + p.Options["cred_expire"])
		if got == "" {
			got = " "
		}
		if got != c.want {
			t.Errorf("%s %s: %q, want %q", c.typ, c.mode, got, c.want)
		}
		if notes := strings.Join(p.Notes, "\n"); c.note != "" && !strings.Contains(notes, c.note) || c.note == "" && strings.Contains(notes, "reempt") {
			t.Errorf("%s %s: notes %q, want %q", c.typ, c.mode, notes, c.note)
		}
	}
}
