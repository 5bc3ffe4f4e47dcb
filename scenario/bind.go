package scenario

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/schedlab/schedlab/registry"
)

// bind returns where the setting at path lives in s (a pointer to one of
// its fields), or nil for settings that are built by hand (the site list,
// procs_per_site) or are not settings. TestEveryFieldBound checks that
// every scalar setting of the schema, registry options included, has
// one.
func bind(s *Scenario, path string) any {
	w, p := &s.Workload, &s.Policy
	switch path {
	case "seed":
		return &s.Seed
	case "replications":
		return &s.Replications
	case "workers":
		return &s.Workers
	case "stop.completed":
		return &s.Stop.Completed
	case "warmup.jobs":
		return &s.Warmup.Jobs
	case "platform.procs":
		return &s.Platform.Procs
	case "platform.machines":
		return &s.Platform.Machines
	case "platform.cpus_min":
		return &s.Platform.CPUsMin
	case "platform.cpus_max":
		return &s.Platform.CPUsMax
	case "platform.speed_min":
		return &s.Platform.SpeedMin
	case "platform.speed_max":
		return &s.Platform.SpeedMax
	case "platform.events":
		return &s.Platform.Events
	case "platform.failures.mtbf":
		return &s.Platform.Failures.MTBF
	case "platform.failures.mttr":
		return &s.Platform.Failures.MTTR
	case "platform.failures.group":
		return &s.Platform.Failures.Group
	case "platform.on_failure":
		return &s.Platform.OnFailure
	case "workload.cpus_min":
		return &w.CPUsMin
	case "workload.cpus_max":
		return &w.CPUsMax
	case "workload.estimated_min":
		return &w.EstimatedMin
	case "workload.estimated_max":
		return &w.EstimatedMax
	case "workload.deadline_fraction":
		return &w.DeadlineFraction
	case "workload.deadline":
		return &w.Deadline
	case "workload.deadline_factor_min":
		return &w.DeadlineFactorMin
	case "workload.deadline_factor_max":
		return &w.DeadlineFactorMax
	case "workload.bm_est":
		return &w.BMEst
	case "workload.trace":
		return &w.Trace
	case "workload.estimate":
		return &w.Estimate
	case "workload.on_overrun":
		return &w.OnOverrun
	case "workload.clamp":
		return &w.Clamp
	case "workload.mean_interarrival":
		return &w.MeanInterarrival
	case "workload.resample":
		return &w.Resample
	case "workload.jobs":
		return &w.Jobs
	case "workload.submit":
		return &w.Submit
	case "workload.predictor":
		return &w.Predictor
	case "workload.correction":
		return &w.Correction
	case "workload.model":
		return &w.Model
	case "workload.mean_service":
		return &w.MeanService
	case "workload.gang_mean_interarrival":
		return &w.GangMeanInterarrival
	case "workload.gang_sizes":
		return &w.GangSizes
	case "workload.gang_min":
		return &w.GangMin
	case "workload.gang_max":
		return &w.GangMax
	case "workload.gang_times":
		return &w.GangTimes
	case "workload.estimate_error":
		return &w.EstimateError
	case "workload.split_overhead":
		return &w.SplitOverhead
	case "policy.queue":
		return &p.Queue
	case "policy.grid":
		return &p.Grid
	case "policy.local":
		return &p.Local
	case "policy.approach":
		return &p.Approach
	}
	if name, ok := strings.CutPrefix(path, "policy."); ok && isOption(path) {
		return optRef{m: &p.Options, name: name}
	}
	if name, ok := strings.CutPrefix(path, "workload."); ok && isWorkloadOption(path) {
		return optRef{m: &w.Options, name: name}
	}
	return nil
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
		case "platform.reservations", "platform.partitions":
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
	if s.Model == registry.ModelHetero && heteroGenerator[path] && len(s.Platform.Sites) > 0 {
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

// heteroGenerator are the settings of the hetero machine generator, read
// when the file gives no platform.sites.
var heteroGenerator = map[string]bool{
	"platform.machines": true, "platform.cpus_min": true, "platform.cpus_max": true,
	"platform.speed_min": true, "platform.speed_max": true,
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
	// (legacyKeyParts only).
	options bool
	// workloadOptions marks where the declared workload models' options
	// go (the cluster's; written only away from their defaults).
	workloadOptions bool
}

// legacyKeyParts lists, per model, what Key writes between the model and
// the common tail (stop, warm-up, seed, replications), in order. Keys are
// file names of results: this order and these names never change. The
// policy options of the first releases are here, written whenever the
// point reads them (their declarations say KeyAlways; TestKeyAlways
// checks the two agree); every other policy option is written at the
// marker (options) by its declaration (optionKeyParts).
//
// This table is the one place outside the policies' folders that names
// their options (depth, order, the grid's allocation interval, ...), and
// it must: the declarations cannot say where among the other parts an
// option of the first releases was written (the grid's normalize_load
// comes after the local scheduler, its siblings before), and a key that
// moved would make a resumed sweep miss every result it has.
var legacyKeyParts = map[string][]keyPart{
	registry.ModelCluster: {
		{name: "queue", path: "policy.queue"},
		{name: "depth", path: "policy.depth"},
		{name: "order", path: "policy.order"},
		{options: true},
		{name: "trace", path: "workload.trace"},
		{name: "estimate", path: "workload.estimate"},
		{name: "overrun", path: "workload.on_overrun"},
		{name: "clamp", path: "workload.clamp"},
		{name: "ia", path: "workload.mean_interarrival"},
		{name: "svc", path: "workload.mean_service"},
		{name: "procs", path: "platform.procs"},
		{name: "pred", path: "workload.predictor", omitDefault: true},
		{name: "corr", path: "workload.correction", omitDefault: true},
		{name: "resample", path: "workload.resample", omitDefault: true},
		{name: "wl", path: "workload.model", omitDefault: true},
		{workloadOptions: true},
		// unavailable CPUs (docs/availability.md): written only when set
		{name: "resv", path: "platform.reservations", omitDefault: true},
		{name: "events", path: "platform.events", omitDefault: true},
		{name: "mtbf", path: "platform.failures.mtbf", omitDefault: true},
		{name: "mttr", path: "platform.failures.mttr", omitDefault: true},
		{name: "fgroup", path: "platform.failures.group", omitDefault: true},
		{name: "onfail", path: "platform.on_failure", omitDefault: true},
		// partitions (docs/partitions.md): written only when set
		{name: "parts", path: "platform.partitions", omitDefault: true},
		// a trace's prefix and the batch transform: written only when set
		{name: "jobs", path: "workload.jobs", omitDefault: true},
		{name: "submit", path: "workload.submit", omitDefault: true},
	},
	registry.ModelGrid: {
		{name: "grid", path: "policy.grid"},
		{name: "ai", path: "policy.allocation_interval"},
		{name: "rf", path: "policy.random_fraction"},
		{name: "local", path: "policy.local"},
		{name: "norm", path: "policy.normalize_load"},
		{options: true},
		{name: "ia", path: "workload.mean_interarrival"},
		{name: "svc", path: "workload.mean_service"},
		{name: "sites", path: "platform.sites"},
	},
	registry.ModelGang: {
		{name: "approach", path: "policy.approach"},
		{name: "t", path: "policy.threshold"},
		{options: true},
		{name: "ia", path: "workload.mean_interarrival"},
		{name: "svc", path: "workload.mean_service"},
		{name: "gia", path: "workload.gang_mean_interarrival"},
		{name: "sizes", path: "workload.gang_sizes"},
		{path: "workload.gang_min"},
		{path: "workload.gang_max", join: "-"},
		{name: "times", path: "workload.gang_times"},
		{name: "e", path: "workload.estimate_error"},
		{name: "split", path: "workload.split_overhead"},
		{name: "sites", path: "platform.sites"},
	},
	// hetero: the machines are explicit (sites) or generated (machines,
	// cpus, speed); the job generator's settings are written only when
	// one of a group differs from its default.
	registry.ModelHetero: {
		{name: "queue", path: "policy.queue"},
		{options: true},
		{name: "ia", path: "workload.mean_interarrival"},
		{name: "jcpus", path: "workload.cpus_min", omitDefault: true},
		{path: "workload.cpus_max", join: "-", omitDefault: true},
		{name: "est", path: "workload.estimated_min", omitDefault: true},
		{path: "workload.estimated_max", join: "-", omitDefault: true},
		{name: "dlf", path: "workload.deadline_fraction", omitDefault: true, zeroDistinct: true},
		{name: "dl", path: "workload.deadline", omitDefault: true},
		{name: "s", path: "workload.deadline_factor_min", omitDefault: true},
		{path: "workload.deadline_factor_max", join: "-", omitDefault: true},
		{name: "bm", path: "workload.bm_est", omitDefault: true},
		{name: "sites", path: "platform.sites"},
		{name: "machines", path: "platform.machines"},
		{name: "cpus", path: "platform.cpus_min"},
		{path: "platform.cpus_max", join: "-"},
		{name: "speed", path: "platform.speed_min"},
		{path: "platform.speed_max", join: "-"},
	},
}

// optionKeyParts are the key parts of a model's policy options that are
// not in legacyKeyParts: per kind, its policies' options in declaration
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

// keyParts are the models' key parts: legacyKeyParts with each model's
// option parts at its marker. Built on first use.
var keyParts = sync.OnceValue(func() map[string][]keyPart {
	out := map[string][]keyPart{}
	for model, parts := range legacyKeyParts {
		for _, kp := range parts {
			if kp.options {
				out[model] = append(out[model], optionKeyParts(model)...)
				continue
			}
			if kp.workloadOptions {
				out[model] = append(out[model], workloadKeyParts()...)
				continue
			}
			out[model] = append(out[model], kp)
		}
	}
	return out
})
