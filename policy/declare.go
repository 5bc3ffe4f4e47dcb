package policy

import (
	"math/rand/v2"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/platform/nodes"
	"github.com/schedlab/schedlab/policy/option"
)

// The models, by name (the scenario key model). Package registry
// describes them; they are named here so that a policy can say which
// model it serves.
const (
	ModelCluster = "cluster" // one space-shared cluster, central queue
	ModelGrid    = "grid"    // zikos-karatza-2008: sites of per-processor queues under a grid scheduler
	ModelGang    = "gang"    // dimitriadou-karatza-2010: gangs and local jobs on sites
	ModelHetero  = "hetero"  // klusacek-2008: heterogeneous machines, deadlines
)

// The policy kinds, by name: what a model selects by name.
const (
	KindQueue    = "queue"    // cluster, hetero: the central queue's policy (a QueueScheduler)
	KindGrid     = "grid"     // grid: the grid scheduler's dispatch (a GridScheduler)
	KindLocal    = "local"    // grid: the local scheduler's processor selection (a LocalScheduler)
	KindApproach = "approach" // gang: gang placement, approach 1 or 2 (a GangPolicy)
)

// Traits are what other parts of a model need to know about a policy,
// as typed facts rather than tests of its name.
type Traits struct {
	// PreferIdle (local schedulers): the scheduler takes an idle processor
	// first, so the grid scheduler's informed choices should prefer sites
	// that have one (zikos-karatza-2008: "LSs send the GS the number of
	// free processors"). The grid model hands it to the grid scheduler as
	// Env.PreferIdle.
	PreferIdle bool
	// SplitsGangs (gang approaches): a gang may be split over several
	// sites, so the largest gang must fit all sites together rather than
	// the largest site.
	SplitsGangs bool
	// Threads (cluster queue policies): the policy schedules one-processor
	// threads, not jobs (hafshejani-2012's matrix scanning). A runner
	// splits the workload into threads and folds the threads' records
	// back into jobs.
	Threads bool
	// PeriodOption (grid schedulers): the name of the declared option
	// whose value is the scheduler's Period (zikos-karatza-2008's
	// allocation interval), "" for a scheduler without one. A scenario
	// checks the number of passes a run would make against it, and a
	// run whose grid scheduler's queue overflows names it; neither needs
	// to know the option by name.
	PeriodOption string
	// NodesOnly (cluster queue policies): the policy runs only on a
	// platform of nodes (Env.Nodes); on a pool of CPUs it is refused with
	// an error saying so (slurm: whole-node reservations).
	NodesOnly bool
	// ByCounts (cluster queue policies with a node version): on a
	// platform of nodes where every job asks for cores alone
	// (nodes.CoresAlone), the policy built for a pool of the platform's
	// cores plans the run exactly (docs/nodes.md, "Two planners"), so
	// a run may plan it by counts (package policy/counts) at about the
	// pool's speed.
	ByCounts bool
	// AllPartitions (cluster queue policies on partitions): the policy
	// of each partition passes after every job end of the machine, not
	// only of its own partition, as Slurm's main scheduler walks the jobs
	// of every partition at each end (slurm: a QOS limit spans the
	// partitions, so an end in one can let a job of another start).
	AllPartitions bool
}

// Env is what a policy is built for: the machines and its random
// streams. The model fills it; a policy reads what it needs.
type Env struct {
	// Platform is the machines the policy schedules (a cluster run: one
	// machine; a grid or gang run: one machine per site).
	Platform platform.Platform
	// Rand is the random stream the model gives the policy (grid and local
	// schedulers, gang approaches); nil where the model gives none.
	Rand *rand.Rand
	// Seed and Rep identify the replication, for a policy that derives a
	// stream of its own (rng.New(Seed, Rep, purpose)).
	Seed uint64
	Rep  int
	// PreferIdle (grid schedulers): the local scheduler the grid runs
	// with has the PreferIdle trait.
	PreferIdle bool
	// Decider is what a program that runs the engine in its own process
	// hands the external policy to decide instead of a decision process
	// (a policy/external.Decider; the shared library cmd/libschedlab).
	// Every other policy ignores it; nil is none.
	Decider any
	// Shared, when not nil, is what the policies of one machine share:
	// a machine split into partitions has a policy per partition, each
	// built with the same Shared, and a policy keeps there the state
	// that is one per machine (the multifactor order's fair-share usage,
	// kept per user across partitions as Slurm keeps it per association).
	// Keys are package paths. Nil: the policy is alone on its platform.
	Shared *Shared
	// Nodes, when set, is a platform of nodes (docs/nodes.md): a cluster
	// queue policy then builds a NodeScheduler (Built.Nodes) for it, or
	// refuses with an error saying it does not run on nodes. Platform is
	// then one machine of the nodes' cores.
	Nodes *nodes.Nodes
}

// Shared is the state the policies of one machine's partitions share
// (Env.Shared): the CPUs of the whole machine, and values by key.
type Shared struct {
	// CPUs is the whole machine's CPU count (a partition's policy sees
	// only its partition's in Platform).
	CPUs   int
	values map[string]any
}

// NewShared returns empty shared state for a machine of cpus CPUs.
func NewShared(cpus int) *Shared { return &Shared{CPUs: cpus, values: map[string]any{}} }

// Get returns the value under key, making it with mk the first time.
func (s *Shared) Get(key string, mk func() any) any {
	v, ok := s.values[key]
	if !ok {
		v = mk()
		s.values[key] = v
	}
	return v
}

// Built is a built policy: the one field its kind takes is set
// (KindQueue: Queue; KindGrid: Grid; KindLocal: Local; KindApproach:
// Gang).
type Built struct {
	Queue QueueScheduler
	Nodes NodeScheduler // KindQueue on a platform of nodes (Env.Nodes)
	Grid  GridScheduler
	Local LocalScheduler
	Gang  GangPolicy
}

// Decl declares one policy: the model and kind it serves, its name, a
// one-line summary, traits, its options and its factory. A policy
// package lists its declarations in its own folder (a Declarations
// function); package registry lists the packages.
type Decl struct {
	Model   string // ModelCluster, ...
	Kind    string // KindQueue, ...
	Name    string
	Summary string // one line
	Traits  Traits
	Options []option.Decl
	// New builds the policy for env with checked option values (every
	// declared option present). It parses its own options.
	New func(env Env, opts option.Values) (Built, error)
	// Check, when set, reports what no single option's declaration can
	// say (Flexible backfilling: deadline_max below deadline_min), before
	// any platform exists: a scenario file is refused at parse time.
	Check func(opts option.Values) error
	// CheckInProcess, when set, says that the policy can take its
	// decisions from Env.Decider (a program that runs the engine in its
	// own process: cmd/libschedlab) and checks the option values of
	// such a run in place of Check (the external policy: the decider
	// replaces the decision process, so neither command nor fds). A
	// runner given a decider refuses a policy without it.
	CheckInProcess func(opts option.Values) error
	// QueueOrder (queue policies: KindQueue) names the order the policy
	// serves its waiting jobs in, as a run reports it (summary.json's
	// "order": fcfs, sjf, multifactor, ...), computed from the checked
	// option values. Every queue policy declares it, whatever its options
	// are called: a policy that orders its queue itself (by shortest
	// estimate, by a priority) says so here; FixedOrder is the common
	// case of an order no option changes. Nil for the other kinds; a
	// queue policy without one reports "" (registry's tests refuse it).
	QueueOrder func(opts option.Values) string
}

// FixedOrder is a Decl.QueueOrder for a policy whose queue order no
// option changes.
func FixedOrder(name string) func(option.Values) string {
	return func(option.Values) string { return name }
}
