package scenario

import (
	"fmt"
	"os"
)

// Scenario is one fully expanded experiment: every setting has one value,
// defaults are applied and the whole has been validated for its model.
//
// Fields a model does not read are left at their zero values, and so are
// settings the point's own policy does not use (an option that only
// other policies of the kind declare is absent; see Point).
type Scenario struct {
	Name         string
	Model        string // a registry model: registry.ModelNames()
	Seed         uint64 // default 1
	Replications int    // default 1; >= 1
	Workers      int    // 0 = all cores
	Stop         Stop
	Warmup       Warmup
	Platform     Platform
	Workload     Workload
	Policy       PolicySpec
	Metrics      []string // optional subset of metric names to report; empty = all
}

// Stop is the stopping rule of one replication.
type Stop struct {
	// Completed stops the run after this many completed jobs (warm-up
	// included); 0 = run the whole workload (a trace; the cluster model
	// only).
	Completed int64
}

// Warmup is the part of a run left out of the metrics.
type Warmup struct {
	Jobs int64 // the first Jobs completed jobs are discarded from metrics; default 0
}

// SleepNone is Platform.SleepAfter's value for no sleeper.
const SleepNone = "none"

// CapNone is Platform.PowerCap's value for no cap.
const CapNone = "none"

// Platform is the machine: one cluster (Procs) or a list of sites (Sites).
type Platform struct {
	Procs int // cluster: machine size (0 = the trace header's MaxProcs)
	// Power is the cluster's power model "IDLE_W:COMPUTE_W", watts a CPU
	// draws idle and running a job ("" none; docs/energy.md), which the
	// energy metrics require.
	Power string
	// Carbon and Price are signal files, the carbon intensity
	// (gCO2/kWh) and the price (currency per kWh) over the run's time
	// ("" none; docs/energy.md), which carbon_kg and cost require; each
	// needs Power.
	Carbon, Price string
	// SleepAfter, "T" or "T:keep=K", is the idle sleeper of a trace run
	// (run --sleep-after; docs/energy.md): it needs a Power model with
	// power states. SleepNone ("none", a value of a sweep's axis) is no
	// sleeper: every CPU always on.
	SleepAfter string
	// PowerCap, "W" or "W@A-B,..." (run --power-cap; docs/energy.md,
	// "Power caps"), is a power budget over time of a trace run: it
	// needs Power. CapNone ("none", a value of a sweep's axis) is no cap.
	PowerCap string
	Sites    []Site // grid, gang, hetero; never shared between points

	// hetero without Sites: the machine generator of klusacek-2008,
	// Machines machines with CPUs uniform on CPUsMin..CPUsMax and speed
	// uniform on SpeedMin..SpeedMax (integers), drawn per replication;
	// defaults 150, 1..16, 200..600. With Sites they are zero.
	Machines           int
	CPUsMin, CPUsMax   int
	SpeedMin, SpeedMax int

	// cluster: unavailable CPUs (docs/availability.md). Reservations are
	// announced windows "START:END:CPUS" as written (the syntax of
	// schedlab run --reservation; never shared between points); Events
	// is a file of Batsim-style external events ("" = none); Failures
	// generates failures (zero MTBF = none); OnFailure is "kill" or
	// "requeue", set only when Events or Failures is.
	Reservations []string
	Events       string
	Failures     Failures
	OnFailure    string

	// Partitions split a cluster's CPUs, each text "NAME:CPUS[:limits]"
	// as in schedlab run --partition (docs/partitions.md); trace runs
	// only.
	Partitions []string

	// Nodes, when set, make the cluster a platform of nodes, each text a
	// node group "NAMES:cores=N[:...]" as in schedlab run --nodes
	// (docs/nodes.md); trace runs only.
	Nodes []string
	// NodePlanner, with Nodes, is how a policy of the backfill family
	// plans on the nodes: "auto" (by counts when every job asks for
	// cores alone), "counts" or "nodes" (docs/nodes.md, "Two
	// planners"); as schedlab run --node-planner.
	NodePlanner string
}

// Failures is the failure generator of a cluster (platform.failures):
// groups of Group CPUs (0 = the whole machine) up for exponential times
// of mean MTBF and down for exponential times of mean MTTR, in the
// scenario's time unit (seconds for a trace), seeded by the scenario's
// seed and the replication. The zero value is none.
type Failures struct {
	MTBF, MTTR float64
	Group      int
}

// UsesAvailability reports whether the platform makes CPUs unavailable.
func (p Platform) UsesAvailability() bool {
	return len(p.Reservations) > 0 || p.Events != "" || p.Failures.MTBF > 0
}

// Site is one site (grid, gang) or machine (hetero) of a multi-site
// platform.
type Site struct {
	Procs int
	Speed float64 // relative to the reference speed; default 1
}

// Workload says where jobs come from: a trace (cluster) or a synthetic
// generator (every model).
type Workload struct {
	Trace     string // cluster: SWF path or bare name, resolved like 'schedlab run --trace'
	Estimate  string // cluster with a trace or a declared workload model's jobs: "request" | "exact" | "tsafrir" | "predict"; default "request" ("exact" for Poisson jobs)
	OnOverrun string // cluster with a trace or a declared workload model's jobs: "kill" | "continue"; default "kill"
	Clamp     bool   // cluster with a trace: clamp jobs larger than the machine
	Resample  string // cluster with a trace: "none" | "user-weeks" (a different trace per replication); default "none"
	Jobs      int64  // cluster with a trace: run its first Jobs jobs (0: all; at most workload.MaxPrefixJobs)
	Submit    string // cluster: "as-is" (the default) | "zero" (SubmitZero: every job submitted at time 0, a batch)
	// estimate "predict": the predictor ("last2", "avg:K") and the
	// correction of an outlived prediction ("increments", "request").
	Predictor, Correction string

	// cluster, synthetic: the workload model, "poisson" (one-CPU jobs,
	// MeanInterarrival, MeanService; the default) or a declared model
	// (registry.WorkloadModels, e.g. "lublin"), whose options are in
	// Options by name as canonical text (defaults applied; absent for
	// Poisson). Like Policy.Options, the map is never changed in place
	// once a Scenario holds it.
	Model   string
	Options map[string]string

	MeanInterarrival float64 // synthetic Poisson arrivals (grid: at the grid scheduler; gang: per-site local jobs; cluster: at the queue)
	MeanService      float64 // exponential service demand; default 1

	// gang model
	GangMeanInterarrival float64 // Poisson gang arrivals at the grid scheduler
	GangSizes            string  // "uniform" (GangMin..GangMax) | "pow2" ({2,4,8,16}); default "uniform"
	GangMin, GangMax     int     // for "uniform"; defaults 2 and 13
	GangTimes            string  // "independent" (each task its own service time; default) | "shared" (one time for all tasks). Added field: docs/papers/dimitriadou2010.md explains the option.
	EstimateError        float64 // E as a fraction: estimate = actual * (1 + u), u uniform in [-E, E]; 0..1; default 0
	SplitOverhead        float64 // extra service of split gangs as a fraction (0.1 = +10%); approach 2 only; default 0.1

	// hetero model (klusacek-2008); Stop.Completed is the number of jobs
	CPUsMin, CPUsMax           int     // CPUs a job asks for, uniform; defaults 1..8
	EstimatedMin, EstimatedMax int     // Estimated (seconds at speed BM_est), uniform integers; defaults 500..3000
	DeadlineFraction           float64 // fraction of the jobs with a deadline; default 0.7
	Deadline                   string  // "factor" (default) | "fastest" | "alea"
	DeadlineFactorMin          float64 // the deadline factor's range, for factor and fastest; defaults 2..4
	DeadlineFactorMax          float64
	BMEst                      string // "min" (default) | "uniform" | "max" | "random-machine"
}

// PolicySpec holds the scheduling policies a scenario names and their
// options.
type PolicySpec struct {
	// The policies are named as in package registry (registry.Names of
	// the model and kind).
	Queue    string // cluster and hetero: the queue policy
	Grid     string // grid: the grid scheduler
	Local    string // grid: the local scheduler
	Approach int    // gang: the gang approach (a number); default 1

	// Options are the values of the options the point's policies declare
	// (and a model's own policy settings, registry.Model.Options), by
	// option name, as canonical text (numbers in Go's
	// shortest form, "10%" as 0.1): every option the point reads, with
	// defaults applied; options the point does not read are absent. The
	// registry checks them again when it builds the policy (Build). The
	// map is never changed in place once a Scenario holds it, so copies
	// of a Scenario may share it; SetOption copies it.
	Options map[string]string
}

// SetOption returns p with the option called name set to text (a copy
// of the map: scenarios sharing the old one keep their value).
func (p PolicySpec) SetOption(name, text string) PolicySpec {
	m := make(map[string]string, len(p.Options)+1)
	for k, v := range p.Options {
		m[k] = v
	}
	m[name] = text
	p.Options = m
	return p
}

// Point is one point of a sweep.
type Point struct {
	Index    int      // 0..n-1, in expansion order (the first axis varies slowest)
	Labels   []Label  // the swept settings of this point, in axis order; empty without sweeps
	Scenario Scenario // fully expanded, defaults applied, validated
	// TraceLine and TraceColumn are where the point's workload.trace is
	// written in the file (0 when it has none), for messages about the
	// trace itself (a missing file).
	TraceLine, TraceColumn int
}

// Label is the value one sweep axis takes at a point.
type Label struct {
	Key   string `json:"key"`   // YAML path of the axis, e.g. "policy.local" or "platform.sites[1].procs"
	Value string `json:"value"` // the value as written in the file ("0.048", "10%", "sq")
}

// MaxPoints is the largest number of points a file may expand to.
const MaxPoints = 100_000

// MaxReplications is the largest replications setting of a point.
const MaxReplications = 10_000

// MaxRuns bounds the replications of a whole sweep (points x
// replications, summed over the points): every replication's metrics are
// kept for the summary and the paired comparisons.
const MaxRuns = 1_000_000

// MaxGridPasses bounds the scheduling passes a grid run with a periodic
// grid scheduler (one pass per allocation interval, the option its
// declaration names as its PeriodOption trait) is expected to make:
// stop.completed x workload.mean_interarrival (the time the run lasts) /
// the interval. A billion passes take about ten seconds; a larger count
// is a typo, and past 2^53 the clock cannot advance at all.
const MaxGridPasses = 1_000_000_000

// MaxFileSize is the largest scenario file Parse accepts, in bytes. Real
// scenario files are a few kilobytes; the YAML parser takes time that grows
// faster than linearly on huge inputs, so they are refused up front.
const MaxFileSize = 64 << 10

// Load reads and parses the scenario file at path. Errors in the file
// name it as path:line:column.
func Load(path string) ([]Point, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse parses a scenario file's contents; name is used in error messages
// (and, without a "name" key, for Scenario.Name: its base name without
// the .yaml/.yml extension). It returns the sweep points in expansion
// order, or an Errors value listing every problem found.
//
// Parse never panics, whatever data holds.
func Parse(name string, data []byte) (points []Point, err error) {
	if len(data) > MaxFileSize {
		return nil, Errors{{File: name, Msg: fmt.Sprintf("file too large (%d bytes; a scenario file may have at most %d)", len(data), MaxFileSize)}}
	}
	return parse(name, data)
}
