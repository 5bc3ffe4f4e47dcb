package scenario

import (
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/registry"
)

// bases are minimal valid files per model; %s is the policy section's
// content.
var bases = map[string]string{
	registry.ModelCluster: "model: cluster\nworkload: {trace: t.swf}\npolicy: {%s}\n",
	registry.ModelGrid:    "model: grid\nstop: {completed: 10}\nplatform: {sites: 2, procs_per_site: 4}\nworkload: {mean_interarrival: 1}\npolicy: {%s}\n",
	registry.ModelGang:    "model: gang\nstop: {completed: 10}\nplatform: {sites: 2, procs_per_site: 16}\nworkload: {mean_interarrival: 1, gang_mean_interarrival: 2}\npolicy: {%s}\n",
	registry.ModelHetero:  "model: hetero\nstop: {completed: 10}\nworkload: {mean_interarrival: 1}\npolicy: {%s}\n",
}

// otherValue is a valid value of o other than its default ("" when o
// has none).
func otherValue(o registry.Option) string {
	switch o.Type {
	case registry.TypeEnum:
		if len(o.Values) > 1 {
			return o.Values[1]
		}
		return ""
	case registry.TypeBool:
		b, _ := strconv.ParseBool(o.Default)
		return strconv.FormatBool(!b)
	case registry.TypeText:
		return `"1,2,3"`
	}
	x, err := strconv.ParseFloat(o.Default, 64)
	if err != nil {
		x = o.Range.Min
	}
	for _, d := range []float64{1, 0.5, -1, -0.5} {
		if y := x + d; o.Range.Contains(y) && (o.Type != registry.TypeInt || y == float64(int64(y))) {
			return strconv.FormatFloat(y, 'g', -1, 64)
		}
	}
	return ""
}

// Every policy option the registry declares is part of a point's result
// key when the point sets it away from its default, under its declared
// key name: two points that differ in one option never share a key (a
// resumed sweep would reuse the wrong results). No list of options here:
// the test walks the registry.
func TestEveryOptionInKey(t *testing.T) {
	checked := 0
	for _, m := range registry.Models() {
		base := bases[m.Name]
		if base == "" {
			t.Fatalf("model %s: no base file in this test", m.Name)
		}
		for _, k := range m.Kinds {
			for _, p := range registry.Policies(m.Name, k.Name) {
				name := strings.TrimPrefix(k.Key, "policy.") + ": " + p.Name
				if m.Name == registry.ModelGrid {
					name = "grid: deferred, local: sq, allocation_interval: 1"
					if k.Name == registry.KindGrid {
						name = "grid: " + p.Name + ", local: sq"
					} else {
						name = "grid: random, local: " + p.Name
					}
				}
				opts := p.Options()
				if k.Name == m.Kinds[len(m.Kinds)-1].Name {
					opts = append(opts, m.Options...)
				}
				for _, o := range opts {
					if !strings.HasPrefix(o.Key, "policy.") {
						continue // a workload setting (split_overhead): the workload's key parts
					}
					v := otherValue(o)
					if v == "" {
						continue
					}
					pre := name
					for _, r := range p.Options() {
						if r.Required() && r.Name != o.Name {
							pre += ", " + r.Name + ": " + requiredValue(r)
						}
					}
					if o.On != "" {
						pre += ", " + o.On + ": " + o.When[0]
					}
					def := pre
					if o.Required() {
						def += ", " + o.Name + ": " + requiredValue(o)
					}
					set := pre + ", " + o.Name + ": " + v
					kd, ks := keyOf(t, base, def), keyOf(t, base, set)
					if kd == "" || ks == "" {
						continue
					}
					checked++
					if kd == ks {
						t.Errorf("%s %s: option %s=%s leaves the key %s unchanged", m.Name, p.Name, o.Name, v, ks)
					}
					kn := o.KeyName
					if kn == "" {
						kn = o.Name
					}
					if !strings.Contains(ks, "_"+kn+"=") {
						t.Errorf("%s %s: key %s does not name %s=", m.Name, p.Name, ks, kn)
					}
				}
			}
		}
	}
	if checked < 25 {
		t.Errorf("only %d options checked", checked)
	}
}

// requiredValue is a valid value of a required (numeric) option other
// than otherValue's: the middle of its range, or its minimum + 2.
func requiredValue(o registry.Option) string {
	x := o.Range.Min + 2
	if o.Range.Max-o.Range.Min < 2 {
		x = (o.Range.Min + o.Range.Max) / 2
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func keyOf(t *testing.T, base, policy string) string {
	t.Helper()
	pts, err := Parse("t.yaml", []byte(strings.Replace(base, "%s", policy, 1)))
	if err != nil {
		t.Errorf("%s: %v", policy, err)
		return ""
	}
	return pts[0].Scenario.Key()
}

// The options written in every key that reads them (registryKeyParts) are
// exactly those whose declarations say KeyAlways.
func TestKeyAlways(t *testing.T) {
	kinds := map[string]bool{}
	for _, m := range registry.Models() {
		for _, k := range m.Kinds {
			kinds[k.Key] = true
		}
	}
	for _, m := range registry.Models() {
		legacy := map[string]bool{}
		for _, kp := range registryKeyParts[m.Name] {
			if f := fieldOf(kp.path); f != nil && f.option {
				legacy[kp.path] = true
			}
		}
		for _, k := range m.Kinds {
			for _, ko := range registry.KindOptions(m.Name, k.Name) {
				if !strings.HasPrefix(ko.Key, "policy.") {
					continue
				}
				if ko.KeyAlways != legacy[ko.Key] {
					t.Errorf("%s %s: KeyAlways %v, in registryKeyParts %v", m.Name, ko.Key, ko.KeyAlways, legacy[ko.Key])
				}
				delete(legacy, ko.Key)
			}
		}
		for _, o := range m.Options {
			delete(legacy, o.Key)
		}
		for path := range legacy {
			t.Errorf("%s: registryKeyParts names %s, which no policy declares", m.Name, path)
		}
	}
}

// The structured policy form (name, options) reads as the flat one; the
// two may be mixed, but not give one setting twice.
func TestPolicyNameOptionsForm(t *testing.T) {
	base := "model: cluster\nworkload: {trace: t.swf}\npolicy: %s\n"
	flat := keyOf(t, base, "{queue: jrb, rank: log, head: easy}")
	for _, form := range []string{
		"{name: jrb, options: {rank: log, head: easy}}",
		"{name: jrb, rank: log, options: {head: easy}}",
		"\n  name: jrb\n  options:\n    rank: log\n    head: easy",
	} {
		if got := keyOf(t, base, form); got != flat {
			t.Errorf("%s: key %s, want %s", form, got, flat)
		}
	}
	pts, err := Parse("t.yaml", []byte(strings.Replace(base, "%s", "{name: backfill, options: {depth: [1, 4]}}", 1)))
	if err != nil || len(pts) != 2 || pts[1].Scenario.Policy.Options["depth"] != "4" {
		t.Errorf("a swept option under options: %v, %+v", err, pts)
	}
	for _, c := range []struct{ src, want string }{
		{strings.Replace(base, "%s", "{name: jrb, rank: log, options: {rank: linear}}", 1), "t.yaml:3:42: policy.rank: given twice"},
		{strings.Replace(base, "%s", "{name: jrb, options: {queue: easy}}", 1), "policy.options.queue: not an option"},
		{strings.Replace(base, "%s", "{name: jrb, options: {colour: red}}", 1), "policy.colour: unknown key"},
		{"model: grid\nstop: {completed: 10}\nplatform: {sites: 2, procs_per_site: 4}\nworkload: {mean_interarrival: 1}\npolicy: {name: random}\n",
			"model grid names 2 policies: write policy.grid and policy.local"},
	} {
		_, err := Parse("t.yaml", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want %q", c.src, err, c.want)
		}
	}
}
