package scenario

import (
	"slices"
	"strings"
	"sync"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy/option"
	"github.com/schedlab/schedlab/registry"
	"github.com/schedlab/schedlab/workload"
	"github.com/schedlab/schedlab/workload/resample"
	"github.com/schedlab/schedlab/workload/synth"
)

// This file is the settings table: every setting of a scenario file that
// is not a policy or a policy option (those are the registry's), declared
// once like a policy option (option.Decl: key, type, range, allowed
// values, default, doc) with what only a scenario needs: the models that
// read it, where it lives in a Scenario (bind), where and how the result
// key writes it (key), and the columns of its row in docs/scenarios.md.
// The schema's fields (writtenFields), the binding (bind), the models'
// key parts (keyParts) and the key reference tables of docs/scenarios.md
// (go generate; TestDocsSettingsTables) are derived from it.
//
// Adding a setting: one entry here (in documentation order within its
// section: the order of the section's keys, sections), a field in
// Scenario, then go generate ./scenario/ for the docs.

// settingDecl is one setting of the table.
type settingDecl struct {
	// Key is the path ("workload.mean_interarrival"); Name, the last
	// element, is filled in by settingsTable. Type, Values, Range,
	// Default and Doc mean what they mean for a policy option; Doc is the
	// "allowed values" column of the docs (after the range, if any).
	option.Decl

	models []string // the models that read the setting

	unsigned bool // Int: a non-negative integer up to 2^64-1 (the seed)
	big      bool // Int: an int64 setting (otherwise at most 2^31-1)
	single   bool // may not be swept
	// check replaces the range's own message ("must be " + Range) with
	// one that names the limit; it accepts exactly the range
	// (TestSettingsTable).
	check func(x float64) string
	// traceOnly, synthOnly, synthetic, requests: see field.
	traceOnly, synthOnly, requests bool
	synthetic                      string
	// generator: a setting of the hetero machine generator, read only
	// when the file gives no platform.sites.
	generator bool
	// readWhen: the setting is read by that model only when another
	// setting takes one of some values (dep's model, on and when; its
	// key is the setting's).
	readWhen *dep
	// hand: decoded by hand (decode.go, sites.go): documented here, but
	// not a field of the schema (no type checks, no binding).
	hand bool
	// registry: declared by the registry (Key is all the entry gives);
	// the entry only places the key among its section's, in the order of
	// the first releases' messages and of the docs.
	registry bool

	// bind returns where the setting lives in s (a pointer to one of its
	// fields); nil: the setting is folded into another one
	// (procs_per_site into the site list) or is decoded by hand.
	bind func(s *Scenario) any

	key keySpec
	doc docSpec
}

// keySpec is how Scenario.Key writes a setting: at position at[model]
// among that model's parts (TestKeyPartsPinned pins the order), as
// name=value, or appended to the previous part's value after join when
// name is "". A setting without positions is never written.
type keySpec struct {
	name, join string
	at         map[string]int
	// omitDefault leaves the part out when the setting has its default
	// (or zero) value: settings added later keep the keys of the default.
	omitDefault bool
	// zeroDistinct: with omitDefault, a zero value the point reads is a
	// real setting unlike the default (deadline_fraction 0, not 0.7), so
	// it is written.
	zeroDistinct bool
}

// docSpec overrides the derived columns of a row of docs/scenarios.md
// ("" = derived: the type's name, the default, the models and whether
// it sweeps).
type docSpec struct {
	typ, def, models, sweep string
}

// Model names, short, for the table.
const (
	mC = registry.ModelCluster
	mG = registry.ModelGrid
	mN = registry.ModelGang
	mH = registry.ModelHetero
)

// settingsTable is the table, built once (on first use) and read-only.
var settingsTable = sync.OnceValue(func() []*settingDecl {
	t := settings()
	for _, s := range t {
		s.Name = s.Key[strings.LastIndexByte(s.Key, '.')+1:]
	}
	return t
})

// settingByPath finds a setting of the table by its key (the registry
// entries left out: they are the registry's).
var settingByPath = sync.OnceValue(func() map[string]*settingDecl {
	m := map[string]*settingDecl{}
	for _, s := range settingsTable() {
		if !s.registry {
			m[s.Key] = s
		}
	}
	return m
})

func decl(key string, t option.Type, r option.Range, def, doc string) option.Decl {
	return option.Decl{Key: key, Type: t, Range: r, Default: def, Doc: doc}
}

func enumDecl(key string, values []string, def, doc string) option.Decl {
	return option.Decl{Key: key, Type: option.Enum, Values: values, Default: def, Doc: doc}
}

// The ranges the table uses.
var (
	meanRange     = option.Between(MinMean, MaxMean)
	cpusRange     = option.Between(1, platform.MaxCPUs)
	unitRange     = option.Between(0, 1)
	deadlineRange = option.Range{Min: 0, MinOpen: true, Max: workload.MaxDeadlineFactor}
)

// limited checks a range whose maximum is a limit of the program: the
// message names it (between).
func limited(r option.Range) func(float64) string { return between(r.Min, r.Max) }

// settings lists the table, section by section.
func settings() []*settingDecl {
	return slices.Concat(topSettings(), platformSettings(), workloadSettings(), generatorSettings())
}

// none is the range of a setting that is not a number.
var none = option.Range{}

const seeLimits = "see [limits.md](limits.md)"

// topSettings: the top level, stop and warmup.
func topSettings() []*settingDecl {
	return []*settingDecl{
		{Decl: decl("name", option.Text, none, "", "any non-empty text"), models: allModels, hand: true, single: true,
			doc: docSpec{def: "the file name without `.yaml`/`.yml`"}},
		{Decl: enumDecl("model", allModels, "", "`"+strings.Join(allModels, "`, `")+"`"), models: allModels, hand: true, single: true,
			doc: docSpec{def: "required"}},
		{Decl: decl("seed", option.Int, option.AtLeast(0), "1", "at most 2^64-1"), models: allModels, unsigned: true,
			bind: func(s *Scenario) any { return &s.Seed }},
		{Decl: decl("replications", option.Int, option.Between(1, MaxReplications), "1", "the replications of each point ("+seeLimits+")"), models: allModels,
			check: limited(option.Between(1, MaxReplications)), bind: func(s *Scenario) any { return &s.Replications }},
		{Decl: decl("workers", option.Int, option.AtLeast(0), "", "parallel replications, never changes results"), models: allModels, single: true,
			bind: func(s *Scenario) any { return &s.Workers }, doc: docSpec{def: "0 (all cores)"}},
		{Decl: decl("stop", option.Text, none, "", "`trace`, or `{completed: N}`"), models: allModels, hand: true, single: true,
			doc: docSpec{typ: "`trace` or mapping", def: "`trace` for a cluster trace; required otherwise", sweep: "no (sweep `stop.completed`)"}},
		{Decl: decl("stop.completed", option.Int, option.AtLeast(1), "", "completed jobs (warm-up included) after which a replication stops; hetero: the number of jobs generated (the paper's 3000), all of which run to completion"),
			models: allModels, big: true, bind: func(s *Scenario) any { return &s.Stop.Completed }, doc: docSpec{def: "—"}},
		{Decl: decl("warmup.jobs", option.Int, option.AtLeast(0), "", "< `stop.completed`; the first completed jobs left out of the metrics"),
			models: warmupModels, big: true, bind: func(s *Scenario) any { return &s.Warmup.Jobs },
			doc: docSpec{def: "0", models: "cluster, grid, gang (hetero metrics cover every job, as in the paper)"}},
		{Decl: decl("metrics", option.Text, none, "", "lower-case names (`mean_wait`, `rt`, ...) of metrics the model declares: a subset of its default metrics, per-user ones, and declared metrics that are off by default, measured only when named here; names the model does not declare are an error (the metrics of each model are listed under \"Running a scenario\" below)"),
			models: allModels, hand: true, single: true,
			doc: docSpec{typ: "name or list of names", def: "the model's default metrics", sweep: "no (a list here is the subset, not an axis)"}},
	}
}

// platformSettings: the cluster's machine, the sites, the hetero
// machine generator, the cluster's unavailable CPUs.
func platformSettings() []*settingDecl {
	return []*settingDecl{
		{Decl: decl("platform.procs", option.Int, cpusRange, "", "the machine's CPUs ("+seeLimits+")"), models: clusterOnly, check: limited(cpusRange),
			bind: func(s *Scenario) any { return &s.Platform.Procs }, key: keySpec{name: "procs", at: map[string]int{mC: 110}},
			doc: docSpec{def: "the trace header's `MaxProcs` (required for a synthetic cluster)"}},
		{Decl: decl("platform.power", option.Text, none, "", "`IDLE_W:COMPUTE_W`, watts a CPU draws idle and running a job, or with power states `IDLE_W:COMPUTE_W:OFF_W:ON_S:ON_J:OFF_S:OFF_J` (for `platform.sleep_after`; docs/energy.md): the energy metrics (`energy_kwh`, ...) need it"),
			models: clusterOnly,
			bind:   func(s *Scenario) any { return &s.Platform.Power }, key: keySpec{name: "power", at: map[string]int{mC: 115}, omitDefault: true},
			doc: docSpec{typ: "text", def: "none"}},
		{Decl: decl("platform.carbon", option.Text, none, "", "a carbon intensity signal file (gCO2/kWh, `TIME,VALUE` rows, docs/energy.md), as `run --carbon`, relative to the working folder; needs `platform.power`: the metric `carbon_kg` needs it"),
			models: clusterOnly,
			bind:   func(s *Scenario) any { return &s.Platform.Carbon }, key: keySpec{name: "carbon", at: map[string]int{mC: 116}, omitDefault: true},
			doc: docSpec{typ: "text", def: "none"}},
		{Decl: decl("platform.price", option.Text, none, "", "a price signal file (currency per kWh), as `run --price`; needs `platform.power`: the metric `cost` needs it"),
			models: clusterOnly,
			bind:   func(s *Scenario) any { return &s.Platform.Price }, key: keySpec{name: "price", at: map[string]int{mC: 117}, omitDefault: true},
			doc: docSpec{typ: "text", def: "none"}},
		{Decl: decl("platform.sleep_after", option.Text, none, "", "`T[:keep=K]`, the idle sleeper, as `run --sleep-after` (a trace workload): a CPU idle `T` seconds is switched off, CPUs are switched on when the waiting jobs need them, `K` are kept on (`none`: no sleeper, a sweep's baseline; paired comparisons along the axis like a policy's); needs `platform.power` with power states (`IDLE_W:COMPUTE_W:OFF_W:ON_S:ON_J:OFF_S:OFF_J`, docs/energy.md)"),
			models: clusterOnly,
			bind:   func(s *Scenario) any { return &s.Platform.SleepAfter }, key: keySpec{name: "sleep", at: map[string]int{mC: 118}, omitDefault: true},
			doc: docSpec{typ: "text", def: "none"}},
		{Decl: decl("platform.power_cap", option.Text, none, "", "a power cap, as `run --power-cap` (a trace workload): `W` watts for the whole machine, or windows `W@A-B` (`W` watts over [`A`, `B`) seconds, comma-separated, at most 1,000) with at most one bare `W`, the cap outside them (none without it); `none`: no cap, a sweep's baseline; needs `platform.power` (docs/energy.md, \"Power caps\")"),
			models: clusterOnly,
			bind:   func(s *Scenario) any { return &s.Platform.PowerCap }, key: keySpec{name: "cap", at: map[string]int{mC: 119}, omitDefault: true},
			doc: docSpec{typ: "text", def: "none"}},
		{Decl: decl("platform.sites", option.Int, none, "", ">= 1 sites, at most 10,000 in a list"), models: siteModels, hand: true,
			key: keySpec{name: "sites", at: map[string]int{mG: 90, mN: 130, mH: 130}},
			doc: docSpec{typ: "integer, site list, or list of site lists", def: "required (hetero: optional, else the machine generator below)", sweep: "see below"}},
		{Decl: decl("platform.procs_per_site", option.Int, cpusRange, "", ""), models: siteModels, check: limited(cpusRange),
			doc: docSpec{def: "required with `sites: N`"}},
		{Decl: decl("platform.sites[i].procs", option.Int, cpusRange, "", ""), models: siteModels, hand: true, check: limited(cpusRange), doc: docSpec{def: "required"}},
		{Decl: decl("platform.sites[i].speed", option.Float, meanRange, "1", "relative to the reference speed; hetero: the machine's speed BM on the paper's scale (200..600)"),
			models: siteModels, hand: true, check: mean},
		// hetero: the machine generator, used when platform.sites is not given
		{Decl: decl("platform.machines", option.Int, option.Between(1, platform.MaxMachines), "150", "the number of generated machines"), models: heteroOnly,
			check: limited(option.Between(1, platform.MaxMachines)), generator: true,
			bind: func(s *Scenario) any { return &s.Platform.Machines }, key: keySpec{name: "machines", at: map[string]int{mH: 140}}},
		{Decl: decl("platform.cpus_min", option.Int, cpusRange, "1", "<= `cpus_max`; a generated machine's CPUs, uniform"), models: heteroOnly,
			check: limited(cpusRange), generator: true,
			bind: func(s *Scenario) any { return &s.Platform.CPUsMin }, key: keySpec{name: "cpus", at: map[string]int{mH: 150}}},
		{Decl: decl("platform.cpus_max", option.Int, cpusRange, "16", ">= `cpus_min`"), models: heteroOnly,
			check: limited(cpusRange), generator: true,
			bind: func(s *Scenario) any { return &s.Platform.CPUsMax }, key: keySpec{join: "-", at: map[string]int{mH: 160}}},
		{Decl: decl("platform.speed_min", option.Int, option.AtLeast(1), "200", "<= `speed_max`; a generated machine's speed BM, uniform integer"), models: heteroOnly, generator: true,
			bind: func(s *Scenario) any { return &s.Platform.SpeedMin }, key: keySpec{name: "speed", at: map[string]int{mH: 170}}},
		{Decl: decl("platform.speed_max", option.Int, option.AtLeast(1), "600", ">= `speed_min`"), models: heteroOnly, generator: true,
			bind: func(s *Scenario) any { return &s.Platform.SpeedMax }, key: keySpec{join: "-", at: map[string]int{mH: 180}}},
		// cluster: unavailable CPUs
		{Decl: decl("platform.reservations", option.Text, none, "", "announced windows `\"START:END:CPUS\"`, quoted, in the syntax of `schedlab run --reservation` (START < END in the workload's time; CPUS a count N or ids such as `\"0-49\"`); no two on the same CPUs at overlapping times; at most 10,000 ([availability.md](availability.md#scenario-files)); with `platform.nodes`, `\"START:END:NODES\"`, NODES a hostlist such as `\"n[1-4]\"` or `ALL` ([nodes.md](nodes.md#reservations-maintenance-and-failures-on-nodes))"),
			models: clusterOnly, hand: true, key: keySpec{name: "resv", at: map[string]int{mC: 170}, omitDefault: true},
			doc: docSpec{typ: "string or list of strings", def: "none", sweep: "no (a list is the windows of every point)"}},
		{Decl: decl("platform.events", option.Text, none, "", "a file of Batsim-style external events (JSON lines), as `run --events`; relative to the working folder"),
			models: clusterOnly, bind: func(s *Scenario) any { return &s.Platform.Events },
			key: keySpec{name: "events", at: map[string]int{mC: 180}, omitDefault: true}, doc: docSpec{def: "none"}},
		{Decl: decl("platform.failures.mtbf", option.Float, meanRange, "", "mean up time of the failure generator, as `run --failures MTBF:MTTR`; drawn from `seed` and the replication"),
			models: clusterOnly, check: mean, bind: func(s *Scenario) any { return &s.Platform.Failures.MTBF },
			key: keySpec{name: "mtbf", at: map[string]int{mC: 190}, omitDefault: true}, doc: docSpec{def: "required with `platform.failures`"}},
		{Decl: decl("platform.failures.mttr", option.Float, meanRange, "", "mean down time of the failure generator"),
			models: clusterOnly, check: mean, bind: func(s *Scenario) any { return &s.Platform.Failures.MTTR },
			key: keySpec{name: "mttr", at: map[string]int{mC: 200}, omitDefault: true}, doc: docSpec{def: "required with `platform.failures`"}},
		{Decl: decl("platform.failures.group", option.Int, cpusRange, "", "at most `platform.procs`; CPUs per failure group (a node); with `platform.nodes`, nodes per group"),
			models: clusterOnly, check: limited(cpusRange), bind: func(s *Scenario) any { return &s.Platform.Failures.Group },
			key: keySpec{name: "fgroup", at: map[string]int{mC: 210}, omitDefault: true}, doc: docSpec{def: "the whole machine"}},
		{Decl: enumDecl("platform.on_failure", []string{"kill", "requeue"}, "kill", "what becomes of a job on a CPU that goes down: `kill`, `requeue`; read only with `events` or `failures`"),
			models: clusterOnly, bind: func(s *Scenario) any { return &s.Platform.OnFailure },
			key: keySpec{name: "onfail", at: map[string]int{mC: 220}, omitDefault: true}},
		{Decl: decl("platform.partitions", option.Text, none, "", "partitions `\"NAME:CPUS[:LIMIT]...\"`, quoted, in the syntax of `schedlab run --partition`; no name twice, no CPU in two, at most one `default`, at most 256 ([partitions.md](partitions.md#scenario-files)); beside `platform.nodes`, partitions of nodes `\"NAME:nodes=HOSTLIST[:LIMIT]...\"`, no node in two ([nodes.md](nodes.md#partitions-on-nodes))"),
			models: clusterOnly, hand: true, key: keySpec{name: "parts", at: map[string]int{mC: 230}, omitDefault: true},
			doc: docSpec{typ: "string or list of strings", def: "none", models: "cluster running a trace", sweep: "no (a list is the partitions of every point)"}},
		{Decl: decl("platform.nodes", option.Text, none, "", "node groups `\"NAMES:cores=N[:mem=SIZE][:gres=...]...\"`, quoted, in the syntax of `schedlab run --nodes`: the cluster becomes a platform of nodes; not with `platform.procs`; at most 4,096 groups ([nodes.md](nodes.md))"),
			models: clusterOnly, hand: true, key: keySpec{name: "nodes", at: map[string]int{mC: 235}, omitDefault: true},
			doc: docSpec{typ: "string or list of strings", def: "none", models: "cluster", sweep: "no (a list is the node groups of every point)"}},
		{Decl: enumDecl("platform.node_planner", []string{"auto", "counts", "nodes"}, "auto", "with `platform.nodes`, how `fcfs`, `firstfit`, `easy`, `conservative` and `backfill` plan, as `schedlab run --node-planner`: `auto` (by counts, the pool's policy over the nodes' cores, when every job asks for cores alone; else on nodes), `counts` (or an error saying why not), `nodes` (the node version) ([nodes.md](nodes.md#two-planners))"),
			models: clusterOnly, bind: func(s *Scenario) any { return &s.Platform.NodePlanner },
			key: keySpec{name: "planner", at: map[string]int{mC: 236}, omitDefault: true}},
	}
}

// workloadSettings: the cluster's trace and workload model, and the
// Poisson arrivals of every model.
func workloadSettings() []*settingDecl {
	return []*settingDecl{
		{Decl: decl("workload.trace", option.Text, none, "", "an SWF path or a bare name, looked up like `schedlab run --trace` (see [traces.md](traces.md)); a relative path is relative to the working folder, not to the scenario file"),
			models: clusterOnly, traceOnly: true, bind: func(s *Scenario) any { return &s.Workload.Trace },
			key: keySpec{name: "trace", at: map[string]int{mC: 50}}, doc: docSpec{def: "— (a cluster needs a trace, `mean_interarrival` or `model: lublin`)", models: "cluster"}},
		{Decl: enumDecl("workload.estimate", estimateNames(), estimateNames()[0], "`request` (the requested time), `exact` (the runtime), `tsafrir` (the request; jobs without one get a request from Tsafrir's model of user estimates), `predict` (system-generated predictions, EASY++: [workloads.md](workloads.md))"),
			models: clusterOnly, traceOnly: true, synthetic: exact, requests: true, bind: func(s *Scenario) any { return &s.Workload.Estimate },
			key: keySpec{name: "estimate", at: map[string]int{mC: 60}}},
		{Decl: decl("workload.predictor", option.Text, none, "last2", "`last2` (the mean of the user's last two runtimes), `avg:K` (of the last K, 1 <= K <= 1000)"),
			models: clusterOnly, readWhen: &dep{model: mC, on: "workload.estimate", when: []string{Predict}},
			bind: func(s *Scenario) any { return &s.Workload.Predictor },
			key:  keySpec{name: "pred", at: map[string]int{mC: 120}, omitDefault: true}},
		{Decl: enumDecl("workload.correction", predictCorrections, predictCorrections[0], "what a job that outlives its prediction gets: `increments` (the prediction grows in the published steps), `request` (its request)"),
			models: clusterOnly, readWhen: &dep{model: mC, on: "workload.estimate", when: []string{Predict}},
			bind: func(s *Scenario) any { return &s.Workload.Correction },
			key:  keySpec{name: "corr", at: map[string]int{mC: 130}, omitDefault: true}},
		{Decl: enumDecl("workload.on_overrun", []string{"kill", "continue"}, "kill", "`kill` (killed at the requested time), `continue`"),
			models: clusterOnly, traceOnly: true, synthetic: "kill", requests: true, bind: func(s *Scenario) any { return &s.Workload.OnOverrun },
			key: keySpec{name: "overrun", at: map[string]int{mC: 70}}},
		{Decl: decl("workload.clamp", option.Bool, none, "", "clamp jobs larger than the machine instead of rejecting them"),
			models: clusterOnly, traceOnly: true, bind: func(s *Scenario) any { return &s.Workload.Clamp },
			key: keySpec{name: "clamp", at: map[string]int{mC: 80}}, doc: docSpec{def: "false"}},
		{Decl: enumDecl("workload.resample", resample.Methods, resample.Methods[0], "`none` (the trace as it is: one replication), `user-weeks` (each replication runs a new trace of the trace's user-weeks drawn at random: [workloads.md](workloads.md))"),
			models: clusterOnly, traceOnly: true, bind: func(s *Scenario) any { return &s.Workload.Resample },
			key: keySpec{name: "resample", at: map[string]int{mC: 140}, omitDefault: true}},
		{Decl: decl("workload.jobs", option.Int, option.Between(1, workload.MaxPrefixJobs), "", "`workload.MaxPrefixJobs`; run the first N jobs the trace gives (after the records skipped or rejected, before resampling); a trace with fewer jobs fails the run (\"trace T: N jobs, fewer than the M asked for (workload.jobs)\")"),
			models: clusterOnly, check: limited(option.Between(1, workload.MaxPrefixJobs)), big: true, traceOnly: true,
			bind: func(s *Scenario) any { return &s.Workload.Jobs },
			key:  keySpec{name: "jobs", at: map[string]int{mC: 240}, omitDefault: true}, doc: docSpec{def: "— (the whole trace)"}},
		{Decl: enumDecl("workload.submit", []string{SubmitAsIs, SubmitZero}, SubmitAsIs, "`as-is` (the workload's submit times), `zero` (every job submitted at time 0, in the workload's order: a batch)"),
			models: clusterOnly, bind: func(s *Scenario) any { return &s.Workload.Submit },
			key: keySpec{name: "submit", at: map[string]int{mC: 250}, omitDefault: true}},
		{Decl: enumDecl("workload.model", registry.WorkloadNames(), Poisson, "`poisson` (one-CPU jobs, Poisson arrivals, exponential service: `mean_interarrival`, `mean_service`), `lublin` (the Lublin-Feitelson model of rigid parallel jobs with Tsafrir requests: [workloads.md](workloads.md)), `jrb` (al-najjar-2019's workload, reconstructed from its regression tables: [papers/alnajjar2019.md](papers/alnajjar2019.md)), `hafshejani` (hafshejani-2012's synthetic parallel jobs: [papers/hafshejani2012.md](papers/hafshejani2012.md)), `gpumix` (lublin's jobs, a share of them asking for GPUs, schedlab's construction: [nodes.md](nodes.md#a-synthetic-gpu-cluster)); the options of each model follow"),
			models: clusterOnly, synthOnly: true, bind: func(s *Scenario) any { return &s.Workload.Model },
			key: keySpec{name: "wl", at: map[string]int{mC: 150}, omitDefault: true}},

		// workload: Poisson arrivals (every model)
		{Decl: decl("workload.mean_interarrival", option.Float, meanRange, "", "Poisson arrivals: at the grid scheduler (grid), of local jobs at each site (gang), at the queue (cluster, hetero)"),
			models: allModels, check: mean, synthOnly: true, readWhen: &dep{model: mC, on: "workload.model", when: []string{Poisson}}, bind: func(s *Scenario) any { return &s.Workload.MeanInterarrival },
			key: keySpec{name: "ia", at: map[string]int{mC: 90, mG: 70, mN: 40, mH: 30}}, doc: docSpec{def: "required (grid, gang, hetero; a synthetic cluster)"}},
		{Decl: decl("workload.mean_service", option.Float, meanRange, "1", "exponential service demand"),
			models: serviceModel, check: mean, synthOnly: true, readWhen: &dep{model: mC, on: "workload.model", when: []string{Poisson}},
			bind: func(s *Scenario) any { return &s.Workload.MeanService },
			key:  keySpec{name: "svc", at: map[string]int{mC: 100, mG: 80, mN: 50}}},
	}
}

// generatorSettings: the job generators of the gang and hetero models.
func generatorSettings() []*settingDecl {
	return []*settingDecl{
		// gang
		{Decl: decl("workload.gang_mean_interarrival", option.Float, meanRange, "", "Poisson gang arrivals at the grid scheduler (2 = lambda_3 0.5)"),
			models: gangOnly, check: mean, bind: func(s *Scenario) any { return &s.Workload.GangMeanInterarrival },
			key: keySpec{name: "gia", at: map[string]int{mN: 60}}, doc: docSpec{def: "required"}},
		{Decl: enumDecl("workload.gang_sizes", []string{"uniform", "pow2"}, "uniform", "`uniform` (gang_min..gang_max), `pow2` ({2, 4, 8, 16})"),
			models: gangOnly, bind: func(s *Scenario) any { return &s.Workload.GangSizes },
			key: keySpec{name: "sizes", at: map[string]int{mN: 70}}},
		{Decl: decl("workload.gang_min", option.Int, option.AtLeast(1), "2", "<= gang_max"),
			models: gangOnly, readWhen: &dep{model: mN, on: "workload.gang_sizes", when: []string{"uniform"}},
			bind: func(s *Scenario) any { return &s.Workload.GangMin },
			key:  keySpec{at: map[string]int{mN: 80}}},
		{Decl: decl("workload.gang_max", option.Int, option.AtLeast(1), "13", ">= gang_min; a gang must fit: <= the largest site (approach 1) or all processors (approach 2)"),
			models: gangOnly, readWhen: &dep{model: mN, on: "workload.gang_sizes", when: []string{"uniform"}},
			bind: func(s *Scenario) any { return &s.Workload.GangMax },
			key:  keySpec{join: "-", at: map[string]int{mN: 90}}},
		{Decl: enumDecl("workload.gang_times", []string{"independent", "shared"}, "independent", "`independent` (each task its own service time), `shared` (one time for all tasks)"),
			models: gangOnly, bind: func(s *Scenario) any { return &s.Workload.GangTimes },
			key: keySpec{name: "times", at: map[string]int{mN: 100}}},
		{Decl: decl("workload.estimate_error", option.Fraction, unitRange, "", "estimate = actual x (1 + u), u uniform in [-E, E]"),
			models: gangOnly, bind: func(s *Scenario) any { return &s.Workload.EstimateError },
			key: keySpec{name: "e", at: map[string]int{mN: 110}}, doc: docSpec{def: "0"}},
		{Decl: option.Decl{Key: "workload.split_overhead"}, registry: true}, // the gang approaches' option

		// hetero: the job generator of klusacek-2008
		{Decl: decl("workload.cpus_min", option.Int, option.AtLeast(1), "1", "<= `cpus_max`; CPUs a job asks for, uniform"),
			models: heteroOnly, bind: func(s *Scenario) any { return &s.Workload.CPUsMin },
			key: keySpec{name: "jcpus", at: map[string]int{mH: 40}, omitDefault: true}},
		{Decl: decl("workload.cpus_max", option.Int, option.AtLeast(1), "8", ">= `cpus_min`, <= the largest machine"),
			models: heteroOnly, bind: func(s *Scenario) any { return &s.Workload.CPUsMax },
			key: keySpec{join: "-", at: map[string]int{mH: 50}, omitDefault: true}},
		{Decl: decl("workload.estimated_min", option.Int, option.AtLeast(0), "500", "<= `estimated_max`; Estimated, the job's runtime in seconds at speed BM_est, uniform integer"),
			models: heteroOnly, bind: func(s *Scenario) any { return &s.Workload.EstimatedMin },
			key: keySpec{name: "est", at: map[string]int{mH: 60}, omitDefault: true}},
		{Decl: decl("workload.estimated_max", option.Int, option.AtLeast(0), "3000", ">= `estimated_min`"),
			models: heteroOnly, bind: func(s *Scenario) any { return &s.Workload.EstimatedMax },
			key: keySpec{join: "-", at: map[string]int{mH: 70}, omitDefault: true}},
		{Decl: decl("workload.deadline_fraction", option.Fraction, unitRange, "0.7", "the fraction of jobs with a deadline"),
			models: heteroOnly, bind: func(s *Scenario) any { return &s.Workload.DeadlineFraction },
			key: keySpec{name: "dlf", at: map[string]int{mH: 80}, omitDefault: true, zeroDistinct: true}},
		{Decl: enumDecl("workload.deadline", synth.DeadlineRules(), "factor", "`factor` (submit + s x Estimated), `fastest` (submit + s x the runtime on the fastest machine that can hold the job), `alea` (submit + 2 x Estimated)"),
			models: heteroOnly, bind: func(s *Scenario) any { return &s.Workload.Deadline },
			key: keySpec{name: "dl", at: map[string]int{mH: 90}, omitDefault: true}},
		{Decl: decl("workload.deadline_factor_min", option.Float, deadlineRange, "2", "<= `deadline_factor_max`; s is uniform on [min, max]"),
			models: heteroOnly, check: deadlineFactor, readWhen: &dep{model: mH, on: "workload.deadline", when: []string{"factor", "fastest"}},
			bind: func(s *Scenario) any { return &s.Workload.DeadlineFactorMin },
			key:  keySpec{name: "s", at: map[string]int{mH: 100}, omitDefault: true}},
		{Decl: decl("workload.deadline_factor_max", option.Float, deadlineRange, "4", ">= `deadline_factor_min`"),
			models: heteroOnly, check: deadlineFactor, readWhen: &dep{model: mH, on: "workload.deadline", when: []string{"factor", "fastest"}},
			bind: func(s *Scenario) any { return &s.Workload.DeadlineFactorMax },
			key:  keySpec{join: "-", at: map[string]int{mH: 110}, omitDefault: true}},
		{Decl: enumDecl("workload.bm_est", synth.BMEstRules(), "min", "the speed at which Estimated holds: `min` (the slowest speed of the range), `uniform` (an integer uniform on the speed range), `max` (the fastest), `random-machine` (the speed of a random machine that can hold the job)"),
			models: heteroOnly, bind: func(s *Scenario) any { return &s.Workload.BMEst },
			key: keySpec{name: "bm", at: map[string]int{mH: 120}, omitDefault: true}},
	}
}

// registryKeyParts are the key parts the registry's declarations fill,
// per model, at their positions among the settings' (see keySpec.at):
// the policies (policy.queue, ...) and the options of the first
// releases, written whenever the point reads them (their declarations
// say KeyAlways; TestKeyAlways checks the two agree), under the kind's
// key or the option's KeyName; and the markers where every other policy
// option (optionsMark: optionKeyParts) and the declared workload
// models' options (workloadOptionsMark: workloadKeyParts) go.
//
// The declarations cannot say where among the settings an option of the
// first releases was written (the grid's normalize_load comes after the
// local scheduler, its siblings before), and a key that moved would make
// a resumed sweep miss every result it has: these positions never
// change.
var registryKeyParts = map[string][]struct {
	path string
	at   int
}{
	mC: {{"policy.queue", 10}, {"policy.depth", 20}, {"policy.order", 30}, {optionsMark, 40}, {workloadOptionsMark, 160}},
	mG: {{"policy.grid", 10}, {"policy.allocation_interval", 20}, {"policy.random_fraction", 30}, {"policy.local", 40},
		{"policy.normalize_load", 50}, {optionsMark, 60}},
	mN: {{"policy.approach", 10}, {"policy.threshold", 20}, {optionsMark, 30}, {"workload.split_overhead", 120}},
	mH: {{"policy.queue", 10}, {optionsMark, 20}},
}

// The markers of registryKeyParts.
const (
	optionsMark         = "<policy options>"
	workloadOptionsMark = "<workload options>"
)
