package scenario

import (
	"fmt"
	"math"
	"strings"
)

// This file is the schema: every key a scenario file may hold, its type,
// range, allowed values and the models that read it. The tables are
// read-only; nothing in the package modifies them.

// Models lists the model names, in documentation order.
func Models() []string { return []string{"cluster", "grid", "gang", "hetero"} }

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
}

var (
	allModels    = []string{"cluster", "grid", "gang", "hetero"}
	siteModels   = []string{"grid", "gang", "hetero"}
	clusterOnly  = []string{"cluster"}
	gridOnly     = []string{"grid"}
	gangOnly     = []string{"gang"}
	queueModels  = []string{"cluster", "hetero"}
	serviceModel = []string{"cluster", "grid", "gang"}
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

func positive(x float64) string {
	if x <= 0 {
		return "must be > 0"
	}
	return ""
}

func unit(x float64) string {
	if x < 0 || x > 1 {
		return "must be in [0, 1]"
	}
	return ""
}

func oneOrTwo(x float64) string {
	if x != 1 && x != 2 {
		return "must be 1 or 2"
	}
	return ""
}

// fields lists every scalar setting in documentation order. The special
// keys (name, model, stop, metrics, platform.sites and the keys of a site)
// are decoded by hand in decode.go.
var fields = []*field{
	{path: "seed", kind: kUint, models: allModels, sweep: true},
	{path: "replications", kind: kInt, models: allModels, check: atLeast(1), sweep: true},
	{path: "workers", kind: kInt, models: allModels, check: atLeast(0)},
	{path: "stop.completed", kind: kInt, models: allModels, check: atLeast(1), sweep: true, big: true},
	{path: "warmup.jobs", kind: kInt, models: allModels, check: atLeast(0), sweep: true, big: true},

	{path: "platform.procs", kind: kInt, models: clusterOnly, check: atLeast(1), sweep: true},
	{path: "platform.procs_per_site", kind: kInt, models: siteModels, check: atLeast(1), sweep: true},

	{path: "workload.trace", kind: kString, models: clusterOnly, sweep: true},
	{path: "workload.estimate", kind: kEnum, models: clusterOnly, enum: anyModel("request", "exact"), sweep: true},
	{path: "workload.on_overrun", kind: kEnum, models: clusterOnly, enum: anyModel("kill", "continue"), sweep: true},
	{path: "workload.clamp", kind: kBool, models: clusterOnly, sweep: true},
	{path: "workload.mean_interarrival", kind: kFloat, models: allModels, check: positive, sweep: true},
	{path: "workload.mean_service", kind: kFloat, models: serviceModel, check: positive, sweep: true},
	{path: "workload.gang_mean_interarrival", kind: kFloat, models: gangOnly, check: positive, sweep: true},
	{path: "workload.gang_sizes", kind: kEnum, models: gangOnly, enum: anyModel("uniform", "pow2"), sweep: true},
	{path: "workload.gang_min", kind: kInt, models: gangOnly, check: atLeast(1), sweep: true},
	{path: "workload.gang_max", kind: kInt, models: gangOnly, check: atLeast(1), sweep: true},
	{path: "workload.gang_times", kind: kEnum, models: gangOnly, enum: anyModel("independent", "shared"), sweep: true},
	{path: "workload.estimate_error", kind: kFrac, models: gangOnly, check: unit, sweep: true},
	{path: "workload.split_overhead", kind: kFrac, models: gangOnly, check: atLeast(0), sweep: true},

	{path: "policy.queue", kind: kEnum, models: queueModels, enum: map[string][]string{
		"cluster": {"fcfs", "easy", "conservative", "backfill"},
		"hetero":  {"fcfs", "easy", "flexible", "eg-edf", "tabu"},
	}, sweep: true},
	{path: "policy.depth", kind: kInt, models: clusterOnly, check: atLeast(0), sweep: true},
	{path: "policy.order", kind: kEnum, models: clusterOnly, enum: anyModel("fcfs", "sjf"), sweep: true},
	{path: "policy.grid", kind: kEnum, models: gridOnly, enum: anyModel("random", "realtime", "deferred", "hybrid"), sweep: true},
	{path: "policy.allocation_interval", kind: kFloat, models: gridOnly, check: positive, sweep: true},
	{path: "policy.random_fraction", kind: kFrac, models: gridOnly, check: unit, sweep: true},
	{path: "policy.local", kind: kEnum, models: gridOnly, enum: anyModel("random", "sq", "2rsq"), sweep: true},
	{path: "policy.normalize_load", kind: kBool, models: gridOnly, sweep: true},
	{path: "policy.approach", kind: kInt, models: gangOnly, check: oneOrTwo, sweep: true},
	{path: "policy.threshold", kind: kFloat, models: gangOnly, check: atLeast(0), sweep: true},
	{path: "policy.empty_queue", kind: kEnum, models: gangOnly, enum: anyModel("waiting", "idle"), sweep: true},
	{path: "policy.examine", kind: kEnum, models: gangOnly, enum: anyModel("emptied", "every"), sweep: true},
}

// The keys of one site in a site list.
var (
	siteProcs = &field{path: "procs", kind: kInt, models: siteModels, check: atLeast(1), sweep: true}
	siteSpeed = &field{path: "speed", kind: kFloat, models: siteModels, check: positive, sweep: true}
)

// special keys, decoded by hand, and the models that read them.
var specials = map[string][]string{
	"name":           allModels,
	"model":          allModels,
	"stop":           allModels,
	"warmup":         allModels,
	"platform":       allModels,
	"workload":       allModels,
	"policy":         allModels,
	"metrics":        allModels,
	"platform.sites": siteModels,
}

// sections are the mappings of the file and their keys, in documentation
// order.
var sections = map[string][]string{
	"":         {"name", "model", "seed", "replications", "workers", "stop", "warmup", "platform", "workload", "policy", "metrics"},
	"stop":     {"completed"},
	"warmup":   {"jobs"},
	"platform": {"procs", "sites", "procs_per_site"},
	"workload": {"trace", "estimate", "on_overrun", "clamp", "mean_interarrival", "mean_service", "gang_mean_interarrival", "gang_sizes", "gang_min", "gang_max", "gang_times", "estimate_error", "split_overhead"},
	"policy":   {"queue", "depth", "order", "grid", "allocation_interval", "random_fraction", "local", "normalize_load", "approach", "threshold", "empty_queue", "examine"},
}

func fieldOf(path string) *field {
	for _, f := range fields {
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
	for _, k := range sections[section] {
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

// dep says that a setting is read only when another one (on) takes one of
// the values in when. A point whose value of on is not in when has the
// setting reset to its zero value; a file that gives the setting while no
// value of on uses it is in error, and so is a file whose value of on
// needs the setting when it has no default (required).
type dep struct {
	key      string
	on       string
	when     []string
	required bool
}

var deps = []dep{
	{key: "policy.allocation_interval", on: "policy.grid", when: []string{"deferred", "hybrid"}, required: true},
	{key: "policy.random_fraction", on: "policy.grid", when: []string{"hybrid"}, required: true},
	{key: "policy.normalize_load", on: "policy.grid", when: []string{"realtime", "deferred", "hybrid"}},
	{key: "policy.depth", on: "policy.queue", when: []string{"backfill"}},
	{key: "workload.gang_min", on: "workload.gang_sizes", when: []string{"uniform"}},
	{key: "workload.gang_max", on: "workload.gang_sizes", when: []string{"uniform"}},
	{key: "workload.split_overhead", on: "policy.approach", when: []string{"2"}},
}

// defaultText is the value a controlling setting takes when the file does
// not give it ("" = none).
func defaultText(path string) string {
	switch path {
	case "workload.gang_sizes":
		return "uniform"
	case "policy.approach":
		return "1"
	}
	return ""
}

// required lists, per model, the settings a file must give. The cluster
// model's requirements depend on trace vs synthetic and are checked in
// decode.go.
var required = map[string][]string{
	"cluster": {"policy.queue"},
	"grid":    {"platform.sites", "workload.mean_interarrival", "stop.completed", "policy.grid", "policy.local"},
	"gang":    {"platform.sites", "workload.mean_interarrival", "workload.gang_mean_interarrival", "stop.completed"},
	"hetero":  {"platform.sites", "workload.mean_interarrival", "stop.completed", "policy.queue"},
}
