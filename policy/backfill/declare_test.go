package backfill_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/option"
)

// The declarations are what the package's lists were: the cluster's five
// policies in documentation order with the cluster's orders (never the
// priority order), a depth only for backfill; the hetero model's three,
// Flexible's constants only for flexible. Each builds with its defaults
// and names itself.
func TestDeclarations(t *testing.T) {
	names := map[string][]string{}
	for _, d := range backfill.Declarations() {
		names[d.Model] = append(names[d.Model], d.Name)
		if d.Kind != policy.KindQueue || d.Summary == "" || d.New == nil || d.QueueOrder == nil {
			t.Errorf("%s %s: %+v", d.Model, d.Name, d)
		}
		var opts []string
		for _, o := range d.Options {
			opts = append(opts, o.Name)
		}
		switch d.Model {
		case policy.ModelCluster:
			order := d.Options[slices.Index(opts, "order")]
			want := []string{"fcfs", "sjf", "multifactor"}
			if d.Name == "fcfs" || d.Name == "slurm" {
				want = []string{"fcfs", "multifactor"}
			}
			if !slices.Equal(order.Values, want) || order.Default != "fcfs" {
				t.Errorf("cluster %s: orders %v (default %s), want %v", d.Name, order.Values, order.Default, want)
			}
			if slices.Contains(opts, "depth") != (d.Name == "backfill") {
				t.Errorf("cluster %s: options %v", d.Name, opts)
			}
			if d.Traits.NodesOnly != (d.Name == "slurm") {
				t.Errorf("cluster %s: NodesOnly %v", d.Name, d.Traits.NodesOnly)
			}
			if d.Traits.NodesOnly {
				continue // TestSlurmDeclaration
			}
			pol, err := declared(d.Model, d.Name, platform.MustCluster(4), nil)
			if err != nil || !strings.HasPrefix(pol.Name(), d.Name) {
				t.Errorf("cluster %s: built %v, %v", d.Name, pol, err)
			}
		case policy.ModelHetero:
			if (len(opts) > 0) != (d.Name == "flexible") || (d.Check != nil) != (d.Name == "flexible") {
				t.Errorf("hetero %s: options %v, check %v", d.Name, opts, d.Check != nil)
			}
			pol, err := declaredMulti(d.Name, platform.MustSites([]int{4, 2}), nil)
			if err != nil || pol.Name() != d.Name {
				t.Errorf("hetero %s: built %v, %v", d.Name, pol, err)
			}
		default:
			t.Errorf("%s %s: model %s", d.Model, d.Name, d.Model)
		}
	}
	if !slices.Equal(names[policy.ModelCluster], []string{"fcfs", "firstfit", "easy", "conservative", "backfill", "slurm"}) {
		t.Errorf("cluster: %v", names[policy.ModelCluster])
	}
	if !slices.Equal(names[policy.ModelHetero], []string{"fcfs", "easy", "flexible"}) {
		t.Errorf("hetero: %v", names[policy.ModelHetero])
	}
	if _, err := backfill.ParseOrderName("priority"); err == nil || err.Error() != `unknown queue order "priority" (known: fcfs, sjf, multifactor)` {
		t.Errorf(`ParseOrderName("priority"): %v`, err)
	}
	if d := backfill.DefaultFlex(); d.AgeFactor != 0.01 || d.K != 2 || d.Max != 20 || d.Min != 0.1 || d.Boost != 2 || !d.Pin {
		t.Errorf("DefaultFlex: %+v, want the paper's 0.01, 2, 20, 0.1, 2, pinned", d)
	}
}

// Every wrong option is an error that says what is wrong.
func TestDeclaredOptionErrors(t *testing.T) {
	p := platform.MustSites([]int{4, 2})
	for _, c := range []struct {
		model, name string
		given       map[string]string
		want        string
	}{
		{policy.ModelHetero, "mesh", nil, `no hetero policy "mesh"`},
		{policy.ModelHetero, "fcfs", map[string]string{"order": "sjf"}, "option order: not an option of this policy"},
		{policy.ModelHetero, "easy", map[string]string{"agefactor": "1"}, "option agefactor: not an option of this policy"},
		{policy.ModelHetero, "easy", map[string]string{"depth": "2"}, "option depth: not an option of this policy"},
		{policy.ModelHetero, "flexible", map[string]string{"order": "sjf"}, "option order: not an option of this policy"},
		{policy.ModelHetero, "flexible", map[string]string{"deadline_k": "-1"}, "option deadline_k: -1 is out of range: must be >= 0"},
		{policy.ModelHetero, "flexible", map[string]string{"deadline_max": "0"}, "flexible backfilling: deadline_max 0 is below deadline_min 0.1"},
		{policy.ModelHetero, "flexible", map[string]string{"boostvalue": "NaN"}, `option boostvalue: "NaN" is not a finite number`},
		{policy.ModelHetero, "flexible", map[string]string{"pin_reservation": "maybe"}, `option pin_reservation: "maybe" is not true or false`},
		{policy.ModelCluster, "fcfs", map[string]string{"order": "sjf"}, "strict FCFS serves jobs in submit order or by multifactor priority"},
		{policy.ModelCluster, "easy", map[string]string{"agefactor": "1"}, "option agefactor: not an option of this policy"},
		{policy.ModelCluster, "easy", map[string]string{"depth": "2"}, "option depth: not an option of this policy"},
		{policy.ModelCluster, "backfill", map[string]string{"depth": "-1"}, "option depth: -1 is out of range: must be >= 0"},
	} {
		plat := p
		if c.model == policy.ModelCluster {
			plat = platform.MustCluster(4)
		}
		_, err := declared(c.model, c.name, plat, c.given)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s %v: error %v, want %q", c.model, c.name, c.given, err, c.want)
		}
	}
	for _, model := range []string{policy.ModelCluster, policy.ModelHetero} {
		for _, d := range backfill.Declarations() {
			if d.Model != model {
				continue
			}
			v, err := option.Check(d.Options, nil)
			if err != nil {
				t.Fatal(err)
			}
			_, err = d.New(policy.Env{}, v)
			want := "a platform is required"
			if d.Traits.NodesOnly {
				want = "runs on a platform of nodes"
			}
			if model == policy.ModelCluster && !d.Traits.NodesOnly {
				want = "machine size must be positive, got 0"
			}
			if err == nil || !strings.Contains(err.Error(), "policy "+d.Name+": "+want) {
				t.Errorf("%s %s without a platform: %v, want %q", model, d.Name, err, want)
			}
		}
	}
	bad := backfill.DefaultFlex()
	bad.Max, bad.K = 0, -1
	nan := backfill.DefaultFlex()
	nan.Boost = math.NaN()
	for _, c := range []struct {
		flex backfill.FlexParams
		want string
	}{
		{bad, "deadline_k is -1 (must be >= 0); deadline_max 0 is below deadline_min 0.1"},
		{nan, "boostvalue is NaN (must be finite)"},
	} {
		_, err := backfill.NewBackfillMulti(backfill.MultiConfig{Name: "flexible", Platform: p, Depth: 1, Order: backfill.OrderPriority, Flex: &c.flex})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want %q", c.flex, err, c.want)
		}
	}
	if _, err := backfill.NewBackfillMulti(backfill.MultiConfig{Name: "x", Platform: p, Depth: 0}); err == nil {
		t.Error("depth 0 accepted")
	}
	if _, err := backfill.NewBackfillMulti(backfill.MultiConfig{Name: "x", Platform: p, Depth: 1, Flex: &bad}); err == nil {
		t.Error("priority constants accepted with FCFS order")
	}
}
