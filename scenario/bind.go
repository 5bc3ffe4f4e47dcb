package scenario

import (
	"fmt"
	"strconv"

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
	case "policy.depth":
		return &p.Depth
	case "policy.order":
		return &p.Order
	case "policy.grid":
		return &p.Grid
	case "policy.allocation_interval":
		return &p.AllocationInterval
	case "policy.random_fraction":
		return &p.RandomFraction
	case "policy.local":
		return &p.Local
	case "policy.normalize_load":
		return &p.NormalizeLoad
	case "policy.approach":
		return &p.Approach
	case "policy.threshold":
		return &p.Threshold
	case "policy.empty_queue":
		return &p.EmptyQueue
	case "policy.examine":
		return &p.Examine
	case "policy.rank":
		return &p.Rank
	case "policy.head":
		return &p.Head
	case "policy.positive_only":
		return &p.PositiveOnly
	case "policy.window":
		return &p.Window
	case "policy.window_jobs":
		return &p.WindowJobs
	case "policy.agefactor":
		return &p.AgeFactor
	case "policy.deadline_k":
		return &p.DeadlineK
	case "policy.deadline_max":
		return &p.DeadlineMax
	case "policy.deadline_min":
		return &p.DeadlineMin
	case "policy.boostvalue":
		return &p.BoostValue
	case "policy.pin_reservation":
		return &p.PinReservation
	case "policy.gaps":
		return &p.Gaps
	case "policy.ties":
		return &p.Ties
	case "policy.iterations":
		return &p.Iterations
	case "policy.tabu_length":
		return &p.TabuLength
	case "policy.machine_order":
		return &p.MachineOrder
	case "policy.trigger":
		return &p.Trigger
	case "policy.every":
		return &p.Every
	case "policy.interval":
		return &p.Interval
	}
	return nil
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
	}
}

// keyText is the setting's value in s as Key writes it: numbers in their
// shortest form, strings cleaned (see clean); isZero reports the zero
// value.
func keyText(s *Scenario, path string) (text string, isZero bool) {
	if path == "platform.sites" {
		return sitesKey(s.Platform.Sites), len(s.Platform.Sites) == 0
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
		return path == "platform.sites" && has(siteModels, s.Model) && (s.Model != registry.ModelHetero || len(s.Platform.Sites) > 0)
	}
	if !has(f.models, s.Model) {
		return false
	}
	if s.Model == registry.ModelHetero && heteroGenerator[path] && len(s.Platform.Sites) > 0 {
		return false // explicit machines
	}
	if has(fieldOf("workload.trace").models, s.Model) {
		trace := s.Workload.Trace != ""
		if f.traceOnly && !trace || f.synthOnly && trace {
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
}

// keyParts lists, per model, what Key writes between the model and the
// common tail (stop, warm-up, seed, replications), in order. Keys are file
// names of results: this order and these names never change.
var keyParts = map[string][]keyPart{
	registry.ModelCluster: {
		{name: "queue", path: "policy.queue"},
		{name: "depth", path: "policy.depth"},
		{name: "order", path: "policy.order"},
		{name: "rank", path: "policy.rank", omitDefault: true},
		{name: "head", path: "policy.head", omitDefault: true},
		{name: "positive", path: "policy.positive_only", omitDefault: true},
		{name: "window", path: "policy.window", omitDefault: true},
		{name: "wjobs", path: "policy.window_jobs", omitDefault: true},
		{name: "trace", path: "workload.trace"},
		{name: "estimate", path: "workload.estimate"},
		{name: "overrun", path: "workload.on_overrun"},
		{name: "clamp", path: "workload.clamp"},
		{name: "ia", path: "workload.mean_interarrival"},
		{name: "svc", path: "workload.mean_service"},
		{name: "procs", path: "platform.procs"},
	},
	registry.ModelGrid: {
		{name: "grid", path: "policy.grid"},
		{name: "ai", path: "policy.allocation_interval"},
		{name: "rf", path: "policy.random_fraction"},
		{name: "local", path: "policy.local"},
		{name: "norm", path: "policy.normalize_load"},
		{name: "ia", path: "workload.mean_interarrival"},
		{name: "svc", path: "workload.mean_service"},
		{name: "sites", path: "platform.sites"},
	},
	registry.ModelGang: {
		{name: "approach", path: "policy.approach"},
		{name: "t", path: "policy.threshold"},
		{name: "empty", path: "policy.empty_queue", omitDefault: true},
		{name: "examine", path: "policy.examine", omitDefault: true},
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
		{name: "age", path: "policy.agefactor", omitDefault: true, zeroDistinct: true},
		{name: "dk", path: "policy.deadline_k", omitDefault: true, zeroDistinct: true},
		{name: "dmax", path: "policy.deadline_max", omitDefault: true, zeroDistinct: true},
		{name: "dmin", path: "policy.deadline_min", omitDefault: true, zeroDistinct: true},
		{name: "boost", path: "policy.boostvalue", omitDefault: true, zeroDistinct: true},
		{name: "pin", path: "policy.pin_reservation", omitDefault: true, zeroDistinct: true},
		{name: "gaps", path: "policy.gaps", omitDefault: true},
		{name: "ties", path: "policy.ties", omitDefault: true},
		{name: "iter", path: "policy.iterations", omitDefault: true},
		{name: "tl", path: "policy.tabu_length", omitDefault: true},
		{name: "morder", path: "policy.machine_order", omitDefault: true},
		{name: "trigger", path: "policy.trigger", omitDefault: true},
		{name: "every", path: "policy.every", omitDefault: true},
		{name: "interval", path: "policy.interval", omitDefault: true},
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
