package backfill_test

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/backfill"
)

// The one-machine list is what it was: four policies, none over several
// machines, none with further parameters, the cluster's orders.
func TestClusterListUnchanged(t *testing.T) {
	var names []string
	for _, d := range backfill.Policies() {
		names = append(names, d.Name)
		if d.Multi || d.Params != nil || len(d.Orders) == 0 || d.Orders[0] != backfill.OrderFCFS {
			t.Errorf("%s: Multi %v, Params %v, Orders %v", d.Name, d.Multi, d.Params, d.Orders)
		}
		if slices.Contains(d.Orders, backfill.OrderPriority) {
			t.Errorf("%s offers the priority order", d.Name)
		}
	}
	if !slices.Equal(names, []string{"fcfs", "firstfit", "easy", "conservative", "backfill"}) {
		t.Errorf("Policies: %v", names)
	}
	if !slices.Equal(backfill.Orders(), []backfill.Order{backfill.OrderFCFS, backfill.OrderSJF}) {
		t.Errorf("Orders: %v", backfill.Orders())
	}
	if _, err := backfill.ParseOrderName("priority"); err == nil || err.Error() != `unknown queue order "priority" (known: fcfs, sjf, multifactor)` {
		t.Errorf(`ParseOrderName("priority"): %v`, err)
	}
}

// The policies over several machines, as data for a registry: names,
// summaries, the orders each takes, Flexible's constants with defaults
// that are DefaultFlex()'s and that Set reads back.
func TestMultiPoliciesAsData(t *testing.T) {
	p := platform.MustSites([]int{4, 2})
	var names []string
	for _, d := range backfill.MultiPolicies() {
		names = append(names, d.Name)
		if !d.Multi || d.Summary == "" || d.TakesDepth {
			t.Errorf("%s: %+v", d.Name, d)
		}
		pol, err := d.New(backfill.Options{Platform: p})
		if err != nil || pol.Name() != d.Name {
			t.Errorf("%s: built %v, %v", d.Name, pol, err)
		}
	}
	if !slices.Equal(names, []string{"fcfs", "easy", "flexible"}) {
		t.Errorf("MultiPolicies: %v", names)
	}
	var f backfill.FlexParams
	for _, prm := range backfill.FlexParamList() {
		if prm.Type == "float" {
			v, _ := strconv.ParseFloat(prm.Default, 64)
			if v < prm.Min {
				t.Errorf("%s: default %s below its minimum %g", prm.Name, prm.Default, prm.Min)
			}
		}
		if err := f.Set(prm.Name, prm.Default); err != nil {
			t.Errorf("Set(%s, %s): %v", prm.Name, prm.Default, err)
		}
	}
	if f != backfill.DefaultFlex() {
		t.Errorf("the listed defaults give %+v, DefaultFlex is %+v", f, backfill.DefaultFlex())
	}
	if d := backfill.DefaultFlex(); d.AgeFactor != 0.01 || d.K != 2 || d.Max != 20 || d.Min != 0.1 || d.Boost != 2 || !d.Pin {
		t.Errorf("DefaultFlex: %+v, want the paper's 0.01, 2, 20, 0.1, 2, pinned", d)
	}
}

// Every wrong option is an error that says what is wrong.
func TestMultiOptionErrors(t *testing.T) {
	p := platform.MustSites([]int{4, 2})
	bad := backfill.DefaultFlex()
	bad.Max, bad.K = 0, -1
	nan := backfill.DefaultFlex()
	nan.Boost = math.NaN()
	for _, c := range []struct {
		name string
		opt  backfill.Options
		want string
	}{
		{"easy", backfill.Options{}, "policy easy: a platform is required"},
		{"mesh", backfill.Options{Platform: p}, `unknown policy "mesh" (known: fcfs, easy, flexible)`},
		{"fcfs", backfill.Options{Platform: p, Order: backfill.OrderSJF}, "policy fcfs: order sjf is not allowed"},
		{"flexible", backfill.Options{Platform: p, Order: backfill.OrderSJF}, "policy flexible takes no order (its queue is ordered by its priority)"},
		{"easy", backfill.Options{Platform: p, Flex: &bad}, "policy easy takes no priority constants"},
		{"easy", backfill.Options{Platform: p, Depth: 2}, "policy easy fixes its own reservation depth; depth 2 is not an option"},
		{"flexible", backfill.Options{Platform: p, Flex: &bad}, "deadline_k is -1 (must be >= 0); deadline_max 0 is below deadline_min 0.1"},
		{"flexible", backfill.Options{Platform: p, Flex: &nan}, "boostvalue is NaN (must be finite)"},
	} {
		_, err := backfill.NewMulti(c.name, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: error %v, want %q", c.name, c.opt, err, c.want)
		}
	}
	if _, err := backfill.New("easy", backfill.Options{Procs: 4, Flex: &bad}); err == nil {
		t.Error("a cluster policy accepted priority constants")
	}
	var f backfill.FlexParams
	for _, c := range [][2]string{{"agefactor", "x"}, {"pin_reservation", "maybe"}, {"speed", "1"}} {
		if err := f.Set(c[0], c[1]); err == nil {
			t.Errorf("Set(%s, %s) accepted", c[0], c[1])
		}
	}
	if _, err := backfill.NewBackfillMulti(backfill.MultiConfig{Name: "x", Platform: p, Depth: 0}); err == nil {
		t.Error("depth 0 accepted")
	}
	if _, err := backfill.NewBackfillMulti(backfill.MultiConfig{Name: "x", Platform: p, Depth: 1, Flex: &bad}); err == nil {
		t.Error("priority constants accepted with FCFS order")
	}
}
