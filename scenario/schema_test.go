package scenario

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schedlab/schedlab/registry"
)

// The schema's enumerations of policy names are the registry's, model by
// model; a numeric kind (the gang approach) accepts exactly the
// registry's names.
func TestSchemaPolicyNamesAreTheRegistrys(t *testing.T) {
	if !slices.Equal(allModels, registry.ModelNames()) {
		t.Errorf("models %v, registry %v", allModels, registry.ModelNames())
	}
	if f := fieldOf("model"); f != nil {
		t.Errorf("model is decoded by hand, yet the schema has a field for it")
	}
	kinds := 0
	for _, m := range registry.Models() {
		for _, k := range m.Kinds {
			kinds++
			f := fieldOf(k.Key)
			if f == nil {
				t.Errorf("%s %s: no schema field %s", m.Name, k.Name, k.Key)
				continue
			}
			names := registry.Names(m.Name, k.Name)
			if !has(f.models, m.Name) || !has(sectionKeys("policy"), strings.TrimPrefix(k.Key, "policy.")) {
				t.Errorf("%s: models %v, policy section %v; want %s in both", k.Key, f.models, sectionKeys("policy"), m.Name)
			}
			if k.Numeric {
				for x := -1; x <= len(names)+2; x++ {
					ok := f.check(float64(x)) == ""
					if ok != has(names, strconv.Itoa(x)) {
						t.Errorf("%s: %d accepted %v, registry names %v", k.Key, x, ok, names)
					}
				}
				if msg := f.check(9); msg != "must be "+orList(names) {
					t.Errorf("%s: message %q", k.Key, msg)
				}
				continue
			}
			if got := f.enumValues(m.Name); !slices.Equal(got, names) {
				t.Errorf("%s for model %s: schema %v, registry %v", k.Key, m.Name, got, names)
			}
		}
	}
	if kinds < 5 {
		t.Errorf("only %d kinds", kinds)
	}
	// Through a file: the message lists the registry's names.
	_, err := Parse("t.yaml", []byte(strings.Replace(grid, "local: sq", "local: fastest", 1)))
	want := `policy.local: unknown value "fastest" (known: ` + strings.Join(registry.Names(registry.ModelGrid, registry.KindLocal), ", ") + ")"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v, want %s", err, want)
	}
}

// The policy options are the registry's: type, range, default, and which
// policies read them (deps).
func TestSchemaOptionsAreTheRegistrys(t *testing.T) {
	for _, m := range registry.Models() {
		for _, k := range m.Kinds {
			all := registry.Names(m.Name, k.Name)
			for _, ko := range registry.KindOptions(m.Name, k.Name) {
				f := fieldOf(ko.Key)
				if f == nil || !has(f.models, m.Name) || f.def != ko.Default {
					t.Errorf("%s: field %+v, registry %+v", ko.Key, f, ko)
					continue
				}
				var d *dep
				deps := schemaDeps()
				for i := range deps {
					if deps[i].key == ko.Key && deps[i].model == m.Name && deps[i].on == k.Key {
						d = &deps[i]
					}
				}
				switch {
				case len(ko.Policies) < len(all) && (d == nil || !slices.Equal(d.when, ko.Policies) || d.on != k.Key || d.required != ko.Required()):
					t.Errorf("%s: dep %+v, want on %s when %v", ko.Key, d, k.Key, ko.Policies)
				case len(ko.Policies) == len(all) && !ko.Required() && d != nil:
					t.Errorf("%s: read by every %s, yet dep %+v", ko.Key, k.Key, d)
				}
			}
		}
	}
	for _, c := range []struct {
		path string
		x    float64
		msg  string
	}{
		{"policy.depth", -1, "must be >= 0"},
		{"policy.allocation_interval", 0, "must be > 0"},
		{"policy.random_fraction", 1.5, "must be in [0, 1]"},
		{"policy.threshold", -0.5, "must be >= 0"},
		{"workload.split_overhead", -0.1, "must be >= 0"},
	} {
		if got := fieldOf(c.path).check(c.x); got != c.msg {
			t.Errorf("%s at %g: %q, want %q", c.path, c.x, got, c.msg)
		}
	}
}

// Every scalar setting has a place in Scenario (procs_per_site is folded
// into the site list), of a type its kind decodes to; every key of every
// section is a field or a special key; every model named in the schema is
// a registry model, and every registry model has its key parts.
func TestSchemaBindings(t *testing.T) {
	var s Scenario
	for _, f := range schemaFields() {
		ptr := bind(&s, f.path)
		if f.path == "platform.procs_per_site" {
			if ptr != nil {
				t.Errorf("%s is bound", f.path)
			}
			continue
		}
		ok := false
		switch ptr.(type) {
		case *string:
			ok = f.kind == kEnum || f.kind == kString
		case *bool:
			ok = f.kind == kBool
		case *float64:
			ok = f.kind == kFloat || f.kind == kFrac
		case *int:
			ok = f.kind == kInt && !f.big
		case *int64:
			ok = f.kind == kInt && f.big
		case *uint64:
			ok = f.kind == kUint
		case optRef:
			ok = f.option || f.wopt
		}
		if !ok {
			t.Errorf("%s (kind %d) bound to %T", f.path, f.kind, ptr)
		}
		for _, m := range f.models {
			if !has(registry.ModelNames(), m) {
				t.Errorf("%s: model %q is not in the registry", f.path, m)
			}
		}
	}
	for _, section := range []string{"", "stop", "warmup", "platform", "platform.failures", "workload", "policy"} {
		for _, k := range sectionKeys(section) {
			p := join(section, k)
			if fieldOf(p) == nil && specials[p] == nil {
				t.Errorf("section key %s: no field", p)
			}
		}
	}
	for _, f := range schemaFields() {
		section, key := "", f.path
		if i := strings.LastIndexByte(f.path, '.'); i >= 0 {
			section, key = f.path[:i], f.path[i+1:]
		}
		if !has(sectionKeys(section), key) {
			t.Errorf("field %s is not listed in section %q", f.path, section)
		}
	}
	for _, m := range registry.ModelNames() {
		if len(keyParts()[m]) == 0 {
			t.Errorf("model %s: no key parts", m)
		}
		for _, kp := range keyParts()[m] {
			if kp.path != "platform.sites" && !has(modelsOf(kp.path), m) {
				t.Errorf("model %s: key part %s is a setting of %v", m, kp.path, modelsOf(kp.path))
			}
		}
	}
	if len(keyParts()) != len(registry.ModelNames()) {
		t.Errorf("key parts for %d models, registry has %d", len(keyParts()), len(registry.ModelNames()))
	}
}
