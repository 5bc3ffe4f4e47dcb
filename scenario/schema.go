package scenario

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
)

// This file is the schema: every key a scenario file may hold, its type,
// range, allowed values, default and the models that read it. The
// settings come from the settings table (settings.go); the model names,
// the policy names, the policy options (type, range, default) and which
// policies read which option from package registry; the keys decoded
// by hand and the settings each model requires are written here. The tables are built once and read-only; nothing in the
// package modifies them.

type kind uint8

const (
	kInt    kind = iota // an integer (1.2e5 and 8.0 accepted: integral numbers)
	kUint               // a non-negative integer up to 2^64-1 (seed)
	kFloat              // a finite number
	kFrac               // a finite number, or a percentage string "10%"
	kBool               // true or false
	kEnum               // one of a fixed list of names
	kString             // any non-empty scalar, taken as text
)

var kindNames = [...]string{
	kInt:    "an integer",
	kUint:   "a non-negative integer",
	kFloat:  "a number",
	kFrac:   `a fraction like 0.1 or a percentage like "10%"`,
	kBool:   "true or false",
	kEnum:   "a name",
	kString: "a string",
}

// field is one scalar setting.
type field struct {
	path   string
	kind   kind
	models []string            // models that read the setting
	enum   map[string][]string // kEnum: allowed values per model ("" = every model)
	check  func(x float64) string
	sweep  bool // may be written as a list (a sweep axis)
	big    bool // kInt: an int64 setting (otherwise at most 2^31-1)
	// def is the value, as text, that a model reading the setting takes
	// when the file does not give it ("" = the zero value).
	def string
	// With models that read workload.trace (the cluster): traceOnly
	// settings are read only with a trace, synthOnly ones only with a
	// synthetic workload; synthetic is the value a setting has with a
	// synthetic workload.
	traceOnly, synthOnly bool
	synthetic            string
	// requests: a traceOnly setting that a declared workload model
	// (workload.model other than poisson) reads too: its jobs have
	// requests (estimate, on_overrun).
	requests bool
	// option: a policy option or a model's policy setting from the
	// registry (policy.<name>), held in Policy.Options.
	option bool
	// wopt: an option of a declared workload model (workload.<name>),
	// held in Workload.Options.
	wopt bool
}

// The models that read groups of settings (the model names are the
// registry's; TestSchemaModels checks that each is one).
var (
	allModels    = registry.ModelNames()
	siteModels   = []string{registry.ModelGrid, registry.ModelGang, registry.ModelHetero}
	clusterOnly  = []string{registry.ModelCluster}
	gangOnly     = []string{registry.ModelGang}
	serviceModel = []string{registry.ModelCluster, registry.ModelGrid, registry.ModelGang}
	heteroOnly   = []string{registry.ModelHetero}
	// warmupModels: the hetero model counts every job (its metrics are
	// those of klusacek-2008, over the whole workload).
	warmupModels = []string{registry.ModelCluster, registry.ModelGrid, registry.ModelGang}
)

func anyModel(vals ...string) map[string][]string { return map[string][]string{"": vals} }

func atLeast(min float64) func(float64) string {
	return func(x float64) string {
		if x < min {
			return fmt.Sprintf("must be >= %g", min)
		}
		return ""
	}
}

// between checks an integer setting that sizes an allocation: its limit
// is named in the message.
func between(min, max float64) func(float64) string {
	return func(x float64) string {
		switch {
		case x < min:
			return fmt.Sprintf("must be >= %g", min)
		case x > max:
			return fmt.Sprintf("must be at most %.0f (the limit of this setting; see docs/limits.md)", max)
		}
		return ""
	}
}

// MinMean and MaxMean bound the mean times of a synthetic workload
// (workload.mean_interarrival, mean_service, gang_mean_interarrival) and
// the speeds of sites: beyond them the times of a run overflow (a mean
// of 1e300 sums to +Inf, a speed of 1e-300 divides to it) and its
// metrics come out NaN or infinite. MaxMean is swf.MaxSeconds, the
// largest time of a trace record.
const (
	MinMean = 1e-6
	MaxMean = 1e12
)

// mean checks a mean time or a speed against MinMean and MaxMean.
func mean(x float64) string {
	switch {
	case x <= 0:
		return "must be > 0"
	case x < MinMean || x > MaxMean:
		return fmt.Sprintf("must be between %g and %g (scenario.MinMean, scenario.MaxMean: times beyond them overflow; see docs/limits.md)", MinMean, MaxMean)
	}
	return ""
}

// deadlineFactor checks a deadline factor: positive, at most
// workload.MaxDeadlineFactor (as run --deadline-factor).
func deadlineFactor(x float64) string {
	switch {
	case x <= 0:
		return "must be > 0"
	case x > workload.MaxDeadlineFactor:
		return fmt.Sprintf("must be at most %g (workload.MaxDeadlineFactor; see docs/limits.md)", float64(workload.MaxDeadlineFactor))
	}
	return ""
}

// inRange checks a registry option's range.
func inRange(r registry.Range) func(float64) string {
	return func(x float64) string {
		if !r.Contains(x) {
			return "must be " + r.String()
		}
		return ""
	}
}

// oneOf checks a number against names that are numbers (the gang
// approaches).
func oneOf(names []string) func(float64) string {
	return func(x float64) string {
		if x != math.Trunc(x) || !has(names, strconv.FormatFloat(x, 'f', -1, 64)) {
			return "must be " + orList(names)
		}
		return ""
	}
}

// schemaFields lists every scalar setting: those written here, then the
// policies and their options from the registry. The special keys (name,
// model, stop, metrics, platform.sites and the keys of a site) are
// decoded by hand in decode.go; sections gives the documentation order.
// Built on first use, not at start-up: commands that read no scenario do
// not pay for it.
var schemaFields = sync.OnceValue(func() []*field { return append(writtenFields(), registryFields()...) })

// writtenFields are the schema's fields of the settings table (the
// settings decoded by hand left out), in table order.
func writtenFields() []*field {
	var out []*field
	for _, st := range settingsTable() {
		if !st.hand && !st.registry {
			out = append(out, st.field())
		}
	}
	return out
}

// field makes the schema's field of a setting: its kind from its type,
// its check from its range (or its own message), its allowed values.
func (st *settingDecl) field() *field {
	f := &field{path: st.Key, models: st.models, sweep: !st.single, big: st.big, def: st.Default,
		traceOnly: st.traceOnly, synthOnly: st.synthOnly, synthetic: st.synthetic, requests: st.requests}
	switch st.Type {
	case option.Int:
		f.kind = kInt
		if st.unsigned {
			f.kind = kUint
		}
	case option.Float:
		f.kind = kFloat
	case option.Fraction:
		f.kind = kFrac
	case option.Bool:
		f.kind = kBool
	case option.Enum:
		f.kind, f.enum = kEnum, anyModel(st.Values...)
	default:
		f.kind = kString
	}
	switch {
	case st.check != nil:
		f.check = st.check
	case f.kind == kInt || f.kind == kFloat || f.kind == kFrac:
		f.check = inRange(st.Range)
	}
	return f
}

// Poisson is the cluster's default workload.model: one-CPU jobs with
// Poisson arrivals (the declared models are registry.WorkloadModels).
const Poisson = registry.PoissonWorkload

// workload.submit's values: the workload's own submit times (the
// default), or every job submitted at time 0 (a batch).
const (
	SubmitAsIs = "as-is"
	SubmitZero = "zero"
)

// Predict is the estimate model of system-generated predictions.
var Predict = workload.EstimatePredict.String()

// predictCorrections are workload.correction's values, the default first.
var predictCorrections = []string{"increments", "request"}

// estimateNames are the estimate models' names.
func estimateNames() []string { return workload.EstimateNames() }

// exact is the estimate model of synthetic jobs.
var exact = workload.EstimateExact.String()

// registryFields makes the settings that name policies (one per kind of
// each model: policy.queue, policy.grid, ...) and their options.
func registryFields() []*field {
	var out []*field
	byPath := map[string]*field{}
	get := func(path string, make func() *field, model string) *field {
		f, ok := byPath[path]
		if !ok {
			f = make()
			f.path, f.sweep = path, true
			byPath[path] = f
			out = append(out, f)
		}
		if !has(f.models, model) {
			f.models = append(f.models, model)
		}
		return f
	}
	option := func(model string, o registry.Option) {
		f := get(o.Key, func() *field {
			f := &field{def: o.Default}
			switch o.Type {
			case registry.TypeInt:
				f.kind, f.check = kInt, inRange(o.Range)
			case registry.TypeFloat:
				f.kind, f.check = kFloat, inRange(o.Range)
			case registry.TypeFraction:
				f.kind, f.check = kFrac, inRange(o.Range)
			case registry.TypeBool:
				f.kind = kBool
			case registry.TypeText:
				f.kind = kString
			default:
				f.kind, f.enum = kEnum, map[string][]string{}
			}
			f.option = strings.HasPrefix(o.Key, "policy.")
			return f
		}, model)
		if f.kind == kEnum {
			f.enum[model] = o.Values
		}
	}
	for _, m := range registry.Models() {
		for _, k := range m.Kinds {
			names := registry.Names(m.Name, k.Name)
			f := get(k.Key, func() *field {
				if k.Numeric {
					return &field{kind: kInt, def: k.Default}
				}
				return &field{kind: kEnum, enum: map[string][]string{}, def: k.Default}
			}, m.Name)
			if f.kind == kEnum {
				f.enum[m.Name] = names
			} else {
				f.check = oneOf(names)
			}
			for _, ko := range registry.KindOptions(m.Name, k.Name) {
				option(m.Name, ko.Option)
			}
		}
		for _, o := range m.Options {
			option(m.Name, o)
		}
	}
	for _, d := range registry.WorkloadModels() {
		for _, o := range d.Options {
			option(registry.ModelCluster, o)
			f := byPath[o.Key]
			f.wopt, f.synthOnly = true, true
		}
	}
	return out
}

// The keys of one site in a site list.
// (the settings table's platform.sites[i].procs and speed, under their
// own names).
var (
	siteProcs = sync.OnceValue(func() *field { return siteField("procs") })
	siteSpeed = sync.OnceValue(func() *field { return siteField("speed") })
)

func siteField(key string) *field {
	f := settingByPath()["platform.sites[i]."+key].field()
	f.path = key
	return f
}

// special keys, decoded by hand, and the models that read them.
var specials = map[string][]string{
	"name":                  allModels,
	"model":                 allModels,
	"stop":                  allModels,
	"warmup":                allModels,
	"platform":              allModels,
	"workload":              allModels,
	"policy":                allModels,
	"metrics":               allModels,
	"platform.sites":        siteModels,
	"platform.reservations": clusterOnly,
	"platform.partitions":   clusterOnly,
	"platform.nodes":        clusterOnly,
	"platform.failures":     clusterOnly,
}

// topKeys are the keys of the file's top level, in documentation order.
var topKeys = []string{"name", "model", "seed", "replications", "workers", "stop", "warmup", "platform", "workload", "policy", "metrics"}

// sections are the mappings of the file below the top level and their
// keys, in documentation order: the settings table's, in table order (a
// nested key names its mapping: platform.failures.mtbf gives
// platform.failures its key mtbf and platform its key failures). The
// policy section and the options of the registry's models under
// workload are added by policyKeys and workloadKeys. Built on first use.
var sections = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{"": topKeys}
	for _, st := range settingsTable() {
		if strings.Contains(st.Key, "[") {
			continue // a site's keys: sites.go
		}
		for path := st.Key; ; {
			i := strings.LastIndexByte(path, '.')
			if i < 0 {
				break
			}
			section, key := path[:i], path[i+1:]
			if !has(out[section], key) {
				out[section] = append(out[section], key)
			}
			path = section
		}
	}
	return out
})

// policyKeys are the keys of the policy section, in documentation order:
// per model, each kind's key and its policies' options, then the model's
// own policy settings (each key once). Built on first use.
var policyKeys = sync.OnceValue(func() []string {
	var out []string
	add := func(key string) {
		if k, ok := strings.CutPrefix(key, "policy."); ok && !has(out, k) {
			out = append(out, k)
		}
	}
	for _, m := range registry.Models() {
		for _, k := range m.Kinds {
			add(k.Key)
			for _, ko := range registry.KindOptions(m.Name, k.Name) {
				add(ko.Key)
			}
		}
		for _, o := range m.Options {
			add(o.Key)
		}
	}
	return out
})

// sectionKeys lists the keys of a section in documentation order.
func sectionKeys(section string) []string {
	switch section {
	case "policy":
		return policyKeys()
	case "workload":
		return workloadKeys()
	}
	return sections()[section]
}

// workloadKeys are the workload section's keys: the settings table's,
// then the registry's under workload (the gang's split_overhead, the
// declared workload models' options), in schema order.
var workloadKeys = sync.OnceValue(func() []string {
	out := append([]string(nil), sections()["workload"]...)
	for _, f := range schemaFields() {
		if k, ok := strings.CutPrefix(f.path, "workload."); ok && !has(out, k) {
			out = append(out, k)
		}
	}
	return out
})

func fieldOf(path string) *field {
	for _, f := range schemaFields() {
		if f.path == path {
			return f
		}
	}
	return nil
}

// modelsOf returns the models that read the setting at path.
func modelsOf(path string) []string {
	if f := fieldOf(path); f != nil {
		return f.models
	}
	return specials[path]
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// knownKeys lists the keys of a section the model reads (all of them when
// the model is unknown).
func knownKeys(section, model string) []string {
	var out []string
	for _, k := range sectionKeys(section) {
		ms := modelsOf(join(section, k))
		if model == "" || has(ms, model) {
			out = append(out, k)
		}
	}
	return out
}

// enumValues returns the allowed values of an enum for a model (for an
// unknown model: every value of every model, without repeats).
func (f *field) enumValues(model string) []string {
	if v, ok := f.enum[""]; ok {
		return v
	}
	if v, ok := f.enum[model]; ok {
		return v
	}
	var out []string
	for _, m := range allModels {
		for _, v := range f.enum[m] {
			if !has(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// unknownKeyMsg explains an unknown key, suggesting a close known one.
func unknownKeyMsg(key string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := editDistance(key, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best != "" && bestD <= len(key)/2 {
		return fmt.Sprintf("unknown key (did you mean %s?)", best)
	}
	return fmt.Sprintf("unknown key (known: %s)", strings.Join(known, ", "))
}

// editDistance is the Levenshtein distance of two short strings.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return math.MaxInt32
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// dep says that a setting of a model is read only when another one (on)
// takes one of the values in when. A point whose value of on is not in
// when has the setting reset to its zero value; a file that gives the
// setting while no value of on uses it is in error, and so is a file
// whose value of on needs the setting when it has no default (required).
type dep struct {
	model    string
	key      string
	on       string
	when     []string
	required bool
}

// schemaDeps are the settings table's (readWhen), then those of the
// policy options that only some policies of their kind read (from the
// registry); built on first use.
var schemaDeps = sync.OnceValue(func() []dep { return append(writtenDeps(), registryDeps()...) })

// writtenDeps are the settings table's (readWhen), in table order.
func writtenDeps() []dep {
	var out []dep
	for _, st := range settingsTable() {
		if st.readWhen != nil {
			d := *st.readWhen
			d.key = st.Key
			out = append(out, d)
		}
	}
	return out
}

func registryDeps() []dep {
	var out []dep
	for _, m := range registry.Models() {
		for _, k := range m.Kinds {
			all := registry.Names(m.Name, k.Name)
			for _, ko := range registry.KindOptions(m.Name, k.Name) {
				if len(ko.Policies) < len(all) || ko.Required() {
					out = append(out, dep{model: m.Name, key: ko.Key, on: k.Key, when: ko.Policies, required: ko.Required()})
				}
				if ko.On != "" {
					// read only when another option of the same policy
					// has one of the values When (option.Decl.On)
					for _, p := range registry.Policies(m.Name, k.Name) {
						if on, ok := p.Option(ko.On); ok && p.HasOption(ko.Name) {
							out = append(out, dep{model: m.Name, key: ko.Key, on: on.Key, when: ko.When})
							break
						}
					}
				}
			}
		}
	}
	// a declared workload model's options: read with that model only
	when := map[string][]string{}
	var keys []string
	for _, d := range registry.WorkloadModels() {
		for _, o := range d.Options {
			if _, ok := when[o.Key]; !ok {
				keys = append(keys, o.Key)
			}
			when[o.Key] = append(when[o.Key], d.Name)
		}
	}
	for _, k := range keys {
		out = append(out, dep{model: registry.ModelCluster, key: k, on: "workload.model", when: when[k]})
	}
	return out
}

// defaultText is the value a setting takes when the file does not give it
// ("" = none).
func defaultText(path string) string {
	if f := fieldOf(path); f != nil {
		return f.def
	}
	return ""
}

// required lists, per model, the settings a file must give: those written
// here, then the policies that have no default. The cluster model's
// requirements depend on trace vs synthetic and are checked in check.go.
// Built on first use.
var required = sync.OnceValue(func() map[string][]string {
	r := map[string][]string{
		registry.ModelGrid:   {"platform.sites", "workload.mean_interarrival", "stop.completed"},
		registry.ModelGang:   {"platform.sites", "workload.mean_interarrival", "workload.gang_mean_interarrival", "stop.completed"},
		registry.ModelHetero: {"workload.mean_interarrival", "stop.completed"},
	}
	for _, m := range registry.Models() {
		for _, k := range m.Kinds {
			if k.Default == "" {
				r[m.Name] = append(r[m.Name], k.Key)
			}
		}
	}
	return r
})
