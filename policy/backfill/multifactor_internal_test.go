package backfill

import (
	"math"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/job"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// Two-level fair-share (accounts, then users), by hand. Accounts (groups)
// 1 and 2 with 1 share each; users 1 and 3 in account 1, user 2 in
// account 2, 1 share each. No decay: usage = CPUs × seconds. Usage 300,
// 100, 100 (users 1, 3, 2), total 500:
//
//	U1 = 0.6, U3 = 0.2, U2 = 0.2; UE_acct1 = 0.8, UE_acct2 = 0.2
//	S1 = S3 = 1/2 · 1/2 = 0.25, S2 = 1/2 · 1 = 0.5
//	UE1 = 0.6 + (0.8 - 0.6)/2 = 0.7, UE3 = 0.2 + (0.8 - 0.2)/2 = 0.5, UE2 = 0.2
//	F1 = 2^(-0.7/0.25) = 0.143587, F3 = 2^(-2) = 0.25, F2 = 2^(-0.4) = 0.757858
//
// Flat (users under the root), the same usage: S = 1/3 each,
// F = 2^(-3U): 2^-1.8, 2^-0.6, 2^-0.6.
func TestFairShareLevels(t *testing.T) {
	for _, accounts := range []bool{true, false} {
		p := DefaultMultifactor()
		p.DecayHalfLife, p.Accounts = 0, accounts
		m := newMultifactor(p, 10)
		u1, u3, u2 := m.register(1, 1), m.register(3, 1), m.register(2, 2)
		// Each runs on 1 CPU for its usage, all from 0; the last ends at 300.
		m.started(1, u1, 1, 0)
		m.started(3, u3, 1, 0)
		m.started(2, u2, 1, 0)
		m.finished(3, 100)
		m.finished(2, 100)
		m.prepare(300) // job 1 still runs: charged 300 at the pass
		want := []float64{math.Exp2(-0.7 / 0.25), 0.25, math.Exp2(-0.4)}
		if !accounts {
			want = []float64{math.Exp2(-1.8), math.Exp2(-0.6), math.Exp2(-0.6)}
		}
		for k, u := range []int32{u1, u3, u2} {
			if got := m.users[u].factor; !near(got, want[k]) {
				t.Errorf("accounts %v: user #%d factor %v, want %v", accounts, k, got, want[k])
			}
		}
	}
}

// Decay in closed form: a 2-CPU job run 0..50 with half-life 50 is
// charged 2 · 50/ln2 · (1 - 1/2) = 50/ln2 at its end, and half that 50 s
// later; the order of passes and completions does not change it.
func TestUsageDecay(t *testing.T) {
	p := DefaultMultifactor()
	p.DecayHalfLife = 50
	m := newMultifactor(p, 4)
	u := m.register(7, -1)
	m.started(1, u, 2, 0)
	m.prepare(25) // a pass while it runs: 2 · 50/ln2 · (1 - 2^-0.5)
	if want := 100 / math.Ln2 * (1 - math.Sqrt(0.5)); !near(m.users[u].usage, want) {
		t.Errorf("usage while running %v, want %v", m.users[u].usage, want)
	}
	m.finished(1, 50)
	m.prepare(100)
	if want := 50 / math.Ln2 / 2; !near(m.users[u].usage, want) {
		t.Errorf("usage at 100 %v, want %v", m.users[u].usage, want)
	}
}

// The priority is Slurm's integer: the weighted sum cut down, at least 1,
// at most MaxPriority; partition and QOS factors are normalised by the
// largest value of their tables.
func TestPriorityFactors(t *testing.T) {
	p := DefaultMultifactor()
	p.WeightPartition, p.WeightQOS = 999, 10
	p.PartitionPriority = map[int32]float64{1: 3, 2: 4}
	p.QOSPriority = map[int32]float64{5: 2}
	m := newMultifactor(p, 8)
	info := job.Info{ID: 1, Procs: 2, User: 1, Partition: 1, QOS: 5}
	e := newEntry(&info, &attrsSlab{})
	m.attach(&e, &info)
	m.prepare(0)
	f := m.factors(0, &e)
	// 999 · 3/4 + 10 · 1 = 759.25 -> 759
	if f.Partition != 0.75 || f.QOS != 1 || f.Priority != 759 {
		t.Errorf("factors %+v, want partition 0.75, QOS 1, priority 759", f)
	}
	info.Partition, info.QOS = 9, 9 // unlisted: factors 0, priority at least 1
	m.attach(&e, &info)
	if f := m.factors(0, &e); f.Partition != 0 || f.QOS != 0 || f.Priority != 1 {
		t.Errorf("unlisted: %+v", f)
	}
	p = DefaultMultifactor()
	p.WeightAge, p.WeightFairshare = MaxPriority, MaxPriority
	m = newMultifactor(p, 8)
	m.attach(&e, &info)
	m.prepare(1e9)
	if f := m.factors(1e9, &e); f.Priority != MaxPriority {
		t.Errorf("capped priority %v", f.Priority)
	}
}

func TestParseTable(t *testing.T) {
	got, err := ParseTable(" 1:10, -1:0,2:1 ")
	if err != nil || len(got) != 3 || got[1] != 10 || got[-1] != 0 || got[2] != 1 {
		t.Errorf("ParseTable: %v %v", got, err)
	}
	for text, want := range map[string]string{
		"1":             `entry 1 "1": want ID:VALUE`,
		"1:2,x:3":       `entry 2 "x:3": the id "x" is not a 32-bit integer`,
		"1:-2":          `entry 1 "1:-2": the value "-2" is not an integer in [0, 4294967295]`,
		"1:2.5":         `entry 1 "1:2.5": the value "2.5" is not an integer`,
		"1:1,1:2":       `entry 2: id 1 given twice`,
		"99999999999:1": `the id "99999999999" is not a 32-bit integer`,
	} {
		if _, err := ParseTable(text); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseTable(%q): %v, want %q", text, err, want)
		}
	}
	if _, err := ParseTable(strings.Repeat("1:1,", MaxTableEntries)); err == nil || !strings.Contains(err.Error(), "at most 65536") {
		t.Errorf("too many entries: %v", err)
	}
	bad := DefaultMultifactor()
	bad.MaxAge, bad.DecayHalfLife, bad.WeightQOS = 0, -1, -3
	if err := bad.Check(); err == nil || !strings.Contains(err.Error(), "priority_weight_qos is -3") ||
		!strings.Contains(err.Error(), "priority_max_age is 0") || !strings.Contains(err.Error(), "priority_decay_half_life is -1") {
		t.Errorf("Check: %v", err)
	}
}
