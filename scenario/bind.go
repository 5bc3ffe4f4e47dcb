package scenario

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/schedlab/schedlab/registry"
)

// bind returns where the setting at path lives in s (a pointer to one of
// its fields), or nil for settings that are built by hand (the site list,
// procs_per_site) or are not settings: the settings table's bind, the
// policies' and the registry's options. TestSchemaBindings checks that
// every scalar setting of the schema, registry options included, has
// one.
func bind(s *Scenario, path string) any {
	if st := settingByPath()[path]; st != nil {
		if st.bind == nil {
			return nil
		}
		return st.bind(s)
	}
	if b := registryBinds[path]; b != nil {
		return b(s)
	}
	if name, ok := strings.CutPrefix(path, "policy."); ok && isOption(path) {
		return optRef{m: &s.Policy.Options, name: name}
	}
	if name, ok := strings.CutPrefix(path, "workload."); ok && isWorkloadOption(path) {
		return optRef{m: &s.Workload.Options, name: name}
	}
	return nil
}

// registryBinds are the registry's settings that have fields of their
// own in a Scenario: the policies (one per kind) and the gang model's
// split overhead; every other registry option lives in an options map.
var registryBinds = map[string]func(s *Scenario) any{
	"policy.queue":            func(s *Scenario) any { return &s.Policy.Queue },
	"policy.grid":             func(s *Scenario) any { return &s.Policy.Grid },
	"policy.local":            func(s *Scenario) any { return &s.Policy.Local },
	"policy.approach":         func(s *Scenario) any { return &s.Policy.Approach },
	"workload.split_overhead": func(s *Scenario) any { return &s.Workload.SplitOverhead },
}

// optRef is where a declared option lives: (*m)[name], a policy option
// in Policy.Options or a workload model's in Workload.Options. The maps
// are copied on write (SetOption's rule): scenarios may share them.
type optRef struct {
	m    *map[string]string
	name string
}

// isWorkloadOption reports an option of a declared workload model.
func isWorkloadOption(path string) bool {
	f := fieldOf(path)
	return f != nil && f.wopt
}

// isOption reports a policy option of the registry (a schema field under
// policy. that is not a policy kind).
func isOption(path string) bool {
	f := fieldOf(path)
	return f != nil && f.option
}

// optionText is the canonical text of a decoded value for an option
// field.
func optionText(f *field, v val) string {
	switch f.kind {
	case kInt:
		return strconv.FormatInt(v.i, 10)
	case kFloat, kFrac:
		return strconv.FormatFloat(v.f, 'g', -1, 64)
	case kBool:
		return strconv.FormatBool(v.b)
	}
	return v.s
}

// optionKeyText is keyText for an option: its value in the form Key
// writes, and whether it is the zero value (absent: the zero of its
// kind).
func optionKeyText(f *field, text string, present bool) (string, bool) {
	switch f.kind {
	case kInt:
		n, _ := strconv.ParseInt(text, 10, 64)
		return strconv.FormatInt(n, 10), n == 0
	case kFloat, kFrac:
		x, _ := strconv.ParseFloat(text, 64)
		return num(x), x == 0
	case kBool:
		b, _ := strconv.ParseBool(text)
		return strconv.FormatBool(b), !b
	}
	if !present {
		return "", true
	}
	return clean(text), text == ""
}

// assign stores v (decoded for field f) in the Scenario field at ptr.
func assign(ptr any, f *field, v val) {
	switch x := ptr.(type) {
	case *string:
		*x = v.s
	case *bool:
		*x = v.b
	case *float64:
		*x = v.f
	case *int:
		*x = int(v.i)
	case *int64:
		*x = v.i
	case *uint64:
		*x = v.u
	case optRef:
		m := make(map[string]string, len(*x.m)+1)
		for k, v := range *x.m {
			m[k] = v
		}
		m[x.name] = optionText(f, v)
		*x.m = m
	default:
		panic(fmt.Sprintf("scenario: %s bound to %T", f.path, ptr))
	}
}

// textVal decodes a default written as text (schema data, always valid).
func textVal(f *field, text string) val {
	v := val{text: text, canon: text, s: text}
	switch f.kind {
	case kInt:
		v.i, _ = strconv.ParseInt(text, 10, 64)
		v.f = float64(v.i)
	case kUint:
		v.u, _ = strconv.ParseUint(text, 10, 64)
	case kFloat, kFrac:
		v.f, _ = strconv.ParseFloat(text, 64)
	case kBool:
		v.b, _ = strconv.ParseBool(text)
	}
	return v
}

// zero resets the Scenario field at ptr.
func zero(ptr any) {
	switch x := ptr.(type) {
	case *string:
		*x = ""
	case *bool:
		*x = false
	case *float64:
		*x = 0
	case *int:
		*x = 0
	case *int64:
		*x = 0
	case *uint64:
		*x = 0
	case optRef:
		if _, ok := (*x.m)[x.name]; ok {
			m := make(map[string]string, len(*x.m))
			for k, v := range *x.m {
				if k != x.name {
					m[k] = v
				}
			}
			if len(m) == 0 {
				m = nil
			}
			*x.m = m
		}
	}
}

// keyText is the setting's value in s as Key writes it: numbers in their
// shortest form, strings cleaned (see clean); isZero reports the zero
// value.
func keyText(s *Scenario, path string) (text string, isZero bool) {
	switch path {
	case "platform.sites":
		return sitesKey(s.Platform.Sites), len(s.Platform.Sites) == 0
	case "platform.reservations":
		return reservationsKey(s.Platform.Reservations), len(s.Platform.Reservations) == 0
	case "platform.partitions":
		return partitionsKey(s.Platform.Partitions), len(s.Platform.Partitions) == 0
	case "platform.nodes":
		return nodesKey(s.Platform.Nodes), len(s.Platform.Nodes) == 0
	}
	switch x := bind(s, path).(type) {
	case *string:
		return clean(*x), *x == ""
	case *bool:
		return strconv.FormatBool(*x), !*x
	case *float64:
		return num(*x), *x == 0
	case *int:
		return strconv.Itoa(*x), *x == 0
	case *int64:
		return strconv.FormatInt(*x, 10), *x == 0
	case *uint64:
		return strconv.FormatUint(*x, 10), *x == 0
	case optRef:
		text, ok := (*x.m)[x.name]
		return optionKeyText(fieldOf(path), text, ok)
	}
	return "", true
}

// valueText is the setting's value in s as a file would write it (the
// canonical text deps compare).
func valueText(s *Scenario, path string) string {
	switch x := bind(s, path).(type) {
	case *string:
		return *x
	case *int:
		return strconv.Itoa(*x)
	case optRef:
		if f := fieldOf(path); f.kind == kEnum || f.kind == kString || f.kind == kInt {
			return (*x.m)[x.name]
		}
	}
	t, _ := keyText(s, path)
	return t
}

// usedIn reports whether scenario s reads the setting at path: its model
// reads it, the point's policies read it (deps), and, with a model that
// reads workload.trace, it suits the workload (trace or synthetic).
func usedIn(s *Scenario, path string) bool {
	f := fieldOf(path)
	if f == nil {
		switch path {
		case "platform.reservations", "platform.partitions", "platform.nodes":
			return s.Model == registry.ModelCluster
		}
		return path == "platform.sites" && has(siteModels, s.Model) && (s.Model != registry.ModelHetero || len(s.Platform.Sites) > 0)
	}
	if !has(f.models, s.Model) {
		return false
	}
	if path == "platform.on_failure" {
		// the failure rule matters only when CPUs fail
		return s.Platform.Events != "" || s.Platform.Failures.MTBF > 0
	}
	if s.Model == registry.ModelHetero && heteroGenerator(path) && len(s.Platform.Sites) > 0 {
		return false // explicit machines
	}
	if has(fieldOf("workload.trace").models, s.Model) {
		trace := s.Workload.Trace != ""
		declared := s.Workload.Model != "" && s.Workload.Model != Poisson
		if f.traceOnly && !trace && !(f.requests && declared) || f.synthOnly && trace {
			return false
		}
	}
	for _, dp := range schemaDeps() {
		if dp.key == path && dp.model == s.Model && !has(dp.when, valueText(s, dp.on)) {
			return false
		}
	}
	return true
}

// heteroGenerator reports a setting of the hetero machine generator,
// read when the file gives no platform.sites.
func heteroGenerator(path string) bool {
	st := settingByPath()[path]
	return st != nil && st.generator
}

// fill sets every setting of s's model: the point's value where the file
// gives one (get), else the default; then settings the point does not
// read are reset to zero, and a synthetic workload gets its fixed values.
func fill(s *Scenario, get func(path string) *val) {
	for _, f := range schemaFields() {
		ptr := bind(s, f.path)
		if ptr == nil || !has(f.models, s.Model) {
			continue
		}
		if v := get(f.path); v != nil {
			assign(ptr, f, *v)
		} else if f.def != "" {
			assign(ptr, f, textVal(f, f.def))
		}
	}
	for _, f := range schemaFields() {
		ptr := bind(s, f.path)
		if ptr == nil || !has(f.models, s.Model) || usedIn(s, f.path) {
			continue
		}
		zero(ptr)
		if f.synthetic != "" && s.Workload.Trace == "" {
			assign(ptr, f, textVal(f, f.synthetic))
		}
	}
}

// keyPart is one key=value pair of Scenario.Key: the setting at path,
// written when the scenario reads it.
type keyPart struct {
	name string // "" = appended to the previous part's value after join
	path string
	join string
	// omitDefault leaves the part out when the setting has its default
	// (or zero) value: readings added later keep the keys of the default.
	omitDefault bool
	// zeroDistinct: with omitDefault, a zero value the point reads is a
	// real setting unlike the default (deadline_fraction 0, not 0.7), so
	// it is written.
	zeroDistinct bool
	// options marks where a model's declared policy options go
	// (registryKeyParts only).
	options bool
	// workloadOptions marks where the declared workload models' options
	// go (the cluster's; written only away from their defaults).
	workloadOptions bool
}

// optionKeyParts are the key parts of a model's policy options that are
// not in registryKeyParts: per kind, its policies' options in declaration
// order, then the model's own policy settings; each written only when
// the point sets it away from its default, under its declared KeyName.
func optionKeyParts(model string) []keyPart {
	m, err := registry.LookupModel(model)
	if err != nil {
		return nil
	}
	var out []keyPart
	add := func(o registry.Option) {
		if o.KeyAlways || !strings.HasPrefix(o.Key, "policy.") {
			return
		}
		name := o.KeyName
		if name == "" {
			name = o.Name
		}
		out = append(out, keyPart{name: name, path: o.Key, omitDefault: true, zeroDistinct: o.ZeroDistinct})
	}
	for _, k := range m.Kinds {
		for _, ko := range registry.KindOptions(model, k.Name) {
			add(ko.Option)
		}
	}
	for _, o := range m.Options {
		add(o)
	}
	return out
}

// workloadKeyParts are the key parts of the declared workload models'
// options, in table and declaration order, under their KeyName; an
// option two models share is written once.
func workloadKeyParts() []keyPart {
	var out []keyPart
	seen := map[string]bool{}
	for _, d := range registry.WorkloadModels() {
		for _, o := range d.Options {
			if seen[o.Key] {
				continue
			}
			seen[o.Key] = true
			name := o.KeyName
			if name == "" {
				name = o.Name
			}
			out = append(out, keyPart{name: name, path: o.Key, omitDefault: true, zeroDistinct: o.ZeroDistinct})
		}
	}
	return out
}

// keyParts are the models' key parts, in the order of their positions
// (keySpec.at, registryKeyParts): the settings table's and the
// registry's, with each model's option parts at its markers. Built on
// first use.
var keyParts = sync.OnceValue(func() map[string][]keyPart {
	type placed struct {
		at int
		kp keyPart
	}
	by := map[string][]placed{}
	for _, st := range settingsTable() {
		k := st.key
		for model, at := range k.at {
			by[model] = append(by[model], placed{at, keyPart{name: k.name, path: st.Key, join: k.join,
				omitDefault: k.omitDefault, zeroDistinct: k.zeroDistinct}})
		}
	}
	for model, parts := range registryKeyParts {
		for _, p := range parts {
			kp := keyPart{path: p.path, options: p.path == optionsMark, workloadOptions: p.path == workloadOptionsMark}
			if !kp.options && !kp.workloadOptions {
				kp.name = registryKeyName(model, p.path)
			}
			by[model] = append(by[model], placed{p.at, kp})
		}
	}
	out := map[string][]keyPart{}
	for model, ps := range by {
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].at < ps[j].at })
		for _, p := range ps {
			switch {
			case p.kp.options:
				out[model] = append(out[model], optionKeyParts(model)...)
			case p.kp.workloadOptions:
				out[model] = append(out[model], workloadKeyParts()...)
			default:
				out[model] = append(out[model], p.kp)
			}
		}
	}
	return out
})

// registryKeyName is the name a registry setting of the model is written
// under in keys: a policy's, its kind's key (queue, grid, ...); an
// option's, its KeyName, else its name ("" when the model has neither).
func registryKeyName(model, path string) string {
	m, err := registry.LookupModel(model)
	if err != nil {
		return ""
	}
	name := func(o registry.Option) string {
		if o.KeyName != "" {
			return o.KeyName
		}
		return o.Name
	}
	for _, k := range m.Kinds {
		if k.Key == path {
			return strings.TrimPrefix(k.Key, "policy.")
		}
		for _, ko := range registry.KindOptions(model, k.Name) {
			if ko.Key == path {
				return name(ko.Option)
			}
		}
	}
	for _, o := range m.Options {
		if o.Key == path {
			return name(o)
		}
	}
	return ""
}
