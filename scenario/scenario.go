package scenario

import (
	"fmt"
	"os"
)

// Scenario is one fully expanded experiment: every setting has one value,
// defaults are applied and the whole has been validated for its model.
//
// Fields a model does not read are left at their zero values, and so are
// settings the point's own policy does not use (for example
// Policy.AllocationInterval when Policy.Grid is "random"; see Point).
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
	Policy       Policy
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

// Platform is the machine: one cluster (Procs) or a list of sites (Sites).
type Platform struct {
	Procs int    // cluster: machine size (0 = the trace header's MaxProcs)
	Sites []Site // grid, gang, hetero; never shared between points

	// hetero without Sites: the machine generator of klusacek-2008,
	// Machines machines with CPUs uniform on CPUsMin..CPUsMax and speed
	// uniform on SpeedMin..SpeedMax (integers), drawn per replication;
	// defaults 150, 1..16, 200..600. With Sites they are zero.
	Machines           int
	CPUsMin, CPUsMax   int
	SpeedMin, SpeedMax int
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
	Estimate  string // cluster with a trace: "request" | "exact"; default "request" ("exact" for synthetic jobs)
	OnOverrun string // cluster with a trace: "kill" | "continue"; default "kill"
	Clamp     bool   // cluster with a trace: clamp jobs larger than the machine

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

// Policy holds the scheduling policies and their options.
type Policy struct {
	// The policies are named as in package registry (registry.Names of
	// the model and kind); their options are the registry's, each read
	// only by the policies the registry gives it to.

	// cluster and hetero
	Queue string // the queue policy
	Depth int    // reservation depth, for a policy with the depth option (0 = unlimited)
	Order string // "fcfs" | "sjf"; default "fcfs"

	// grid
	Grid               string  // the grid scheduler
	AllocationInterval float64 // A_I, > 0; deferred and hybrid only
	RandomFraction     float64 // A_I% in [0,1]; hybrid only
	Local              string  // the local scheduler
	NormalizeLoad      bool    // informed grid policies compare load/procs instead of load

	// gang
	Approach  int     // the gang approach (a number); default 1
	Threshold float64 // T >= 0; default 0
	// Readings of rules the paper leaves open (docs/papers/dimitriadou2010.md):
	EmptyQueue string // "waiting" (nothing waiting; default) | "idle" (nothing waiting or running)
	Examine    string // GS queue examined after a departure that "emptied" a queue (default) | after "every" departure

	// cluster: jrb's rank function, head rule and positive_only
	Rank         string // "original" (default) | "linear" | "log"
	Head         string // "none" (default) | "fcfs" | "easy"
	PositiveOnly bool
	// cluster: matrix's window rule
	Window     string // "lazy" (default) | "eager" | "fixed"
	WindowJobs int    // window fixed: jobs per window; default 1

	// hetero: flexible's priority constants (defaults: the paper's)
	AgeFactor, DeadlineK, DeadlineMax, DeadlineMin, BoostValue float64
	PinReservation                                             bool
	// hetero: eg-edf's and tabu's gap rule and weight ties
	Gaps string // "finite" (default) | "tail"
	Ties string // "index" (default) | "end"
	// hetero: tabu's search (docs/scheduling.md)
	Iterations   int     // iteration budget of one search; 0 = 2 x planned jobs
	TabuLength   int     // tabu list capacity; 0 = min(10, planned/2)
	MachineOrder string  // "index" (default) | "random"
	Trigger      string  // "each-arrival" (default) | "every-n" | "interval"
	Every        int     // every-n: the search runs after every Every-th arrival; default 1
	Interval     float64 // interval: seconds between searches; default 300
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
// grid scheduler (deferred, hybrid: one pass every
// policy.allocation_interval) is expected to make: stop.completed x
// workload.mean_interarrival (the time the run lasts) /
// policy.allocation_interval. A billion passes take about ten seconds; a
// larger count is a typo, and past 2^53 the clock cannot advance at all.
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
