package registry

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/schedlab/schedlab/platform"
	"github.com/schedlab/schedlab/policy"
	"github.com/schedlab/schedlab/policy/backfill"
	"github.com/schedlab/schedlab/policy/gang"
	"github.com/schedlab/schedlab/policy/grid"
	"github.com/schedlab/schedlab/policy/rank"
	"github.com/schedlab/schedlab/policy/schedule"
)

// The models, by name (the scenario key model).
const (
	ModelCluster = "cluster" // one space-shared cluster, central queue
	ModelGrid    = "grid"    // zikos-karatza-2008: sites of per-processor queues under a grid scheduler
	ModelGang    = "gang"    // dimitriadou-karatza-2010: gangs and local jobs on sites
	ModelHetero  = "hetero"  // klusacek-2008: heterogeneous machines, deadlines
)

// The policy kinds, by name: what a model selects by name.
const (
	KindQueue    = "queue"    // cluster, hetero: the central queue's policy
	KindGrid     = "grid"     // grid: the grid scheduler's dispatch
	KindLocal    = "local"    // grid: the local scheduler's processor selection
	KindApproach = "approach" // gang: gang placement, approach 1 or 2
)

// Model describes one simulation model.
type Model struct {
	Name        string
	Summary     string // one line
	Implemented bool   // false: scenario files are checked, nothing runs them yet
	Kinds       []Kind // the policies the model selects by name, in documentation order
	// Options are settings of the model itself that read like policy
	// options (the gang model's GS-queue examination rule).
	Options []Option
	// Metrics are the names of the metrics a replication of the model
	// reports, in output order; SiteMetrics the per-site ones, reported
	// as "site<i>_<name>" for every site i (0-based) after them.
	Metrics, SiteMetrics []string
}

// Kind is one kind of policy a model selects by name.
type Kind struct {
	Model string // the model's name
	Name  string // KindQueue, KindGrid, KindLocal or KindApproach
	Title string // for listings: "queue policy", "grid scheduler"
	Noun  string // for messages: unknown <Noun> "x"
	Key   string // the scenario key that names the policy, e.g. "policy.grid"
	Flag  string // the flag of 'schedlab run' that names it ("" = scenario files only)
	// Default is the policy used when a scenario does not name one ("" =
	// the scenario must).
	Default string
	// Numeric: the names are integers, written as numbers in scenario
	// files (the gang approaches 1 and 2).
	Numeric bool
}

// Traits are what other parts of a model need to know about a policy,
// as typed facts rather than tests of its name.
type Traits struct {
	// PreferIdle (local schedulers): the scheduler takes an idle processor
	// first, so the grid scheduler's informed choices should prefer sites
	// that have one (zikos-karatza-2008: "LSs send the GS the number of
	// free processors"). The grid builders pass it as grid.Options.PreferIdle.
	PreferIdle bool
	// SplitsGangs (gang approaches): a gang may be split over several
	// sites, so the largest gang must fit all sites together rather than
	// the largest site.
	SplitsGangs bool
	// Threads (cluster queue policies): the policy schedules one-processor
	// threads, not jobs (hafshejani-2012's matrix scanning). A runner
	// splits the workload with workload.Threads, builds the policy with
	// NewThreadQueue and folds the records back into jobs with
	// metrics.ThreadFold.
	Threads bool
}

// Policy is one registered policy: a name within a model and kind, its
// summary, options and traits, and a typed builder (NewQueue,
// NewGridScheduler, NewLocalScheduler or NewGang, whichever its kind
// takes).
type Policy struct {
	Model   string
	Kind    string
	Name    string
	Summary string // one line
	Traits  Traits
	options []Option

	queue func(backfill.Options) (policy.QueueScheduler, error)
	grid  func(grid.Options, *rand.Rand) (policy.GridScheduler, error)
	local func(*rand.Rand) policy.LocalScheduler
	gang  func(gang.Options, *rand.Rand) (policy.GangPolicy, error)
	// threads builds a policy with the Threads trait for a window rule
	// ("" = its default).
	threads func(window string) (policy.QueueScheduler, error)
	// hetero builds a policy of the heterogeneous model for a platform;
	// seed and rep give it its own random stream when it needs one.
	hetero func(p platform.Platform, seed uint64, rep int, o HeteroOptions) (policy.QueueScheduler, error)
	// rank builds Job Ranking Backfilling with its rank options (NewRank).
	rank func(rank.Options) (policy.QueueScheduler, error)
}

// HeteroOptions are the options of the heterogeneous model's policies. The
// zero value is every policy's defaults; each policy reads only its own
// (the registry lists them as its Options).
type HeteroOptions struct {
	// Flex: flexible's priority constants (nil: the paper's,
	// backfill.DefaultFlex).
	Flex *backfill.FlexParams
	// Schedule: eg-edf's and tabu's gap and tie rules, and tabu's iteration
	// budget, tabu list, machine order and trigger (eg-edf reads only
	// Ties); its Tabu field is set by the policy.
	Schedule schedule.Options
}

// Options lists the policy's options in documentation order (a fresh
// copy).
func (p Policy) Options() []Option { return cloneOptions(p.options) }

// Option returns the policy's option called name.
func (p Policy) Option(name string) (Option, bool) {
	for _, o := range p.options {
		if o.Name == name {
			return o.clone(), true
		}
	}
	return Option{}, false
}

// HasOption reports whether the policy reads the option called name.
func (p Policy) HasOption(name string) bool {
	_, ok := p.Option(name)
	return ok
}

// OptionType is the type of an option's value.
type OptionType uint8

const (
	TypeInt      OptionType = iota + 1 // an integer
	TypeFloat                          // a finite number
	TypeFraction                       // a finite number; "10%" in scenario files
	TypeBool                           // true or false
	TypeEnum                           // one of Values
)

func (t OptionType) String() string {
	switch t {
	case TypeInt:
		return "integer"
	case TypeFloat:
		return "number"
	case TypeFraction:
		return "fraction"
	case TypeBool:
		return "true or false"
	case TypeEnum:
		return "name"
	}
	return "OptionType(" + strconv.Itoa(int(t)) + ")"
}

// Range bounds a numeric option. The zero Range is [0, 0]: write
// bounds with AtLeast, Above or Between.
type Range struct {
	Min, Max float64 // -Inf, +Inf: unbounded
	MinOpen  bool    // Min itself is excluded
}

// AtLeast is [min, +Inf).
func AtLeast(min float64) Range { return Range{Min: min, Max: math.Inf(1)} }

// Above is (min, +Inf).
func Above(min float64) Range { return Range{Min: min, Max: math.Inf(1), MinOpen: true} }

// Between is [min, max].
func Between(min, max float64) Range { return Range{Min: min, Max: max} }

// Contains reports whether x is in the range.
func (r Range) Contains(x float64) bool {
	if r.MinOpen && !(x > r.Min) || !r.MinOpen && !(x >= r.Min) {
		return false
	}
	return x <= r.Max
}

// String describes the range as it completes "must be ...": ">= 0",
// "> 0", "in [0, 1]".
func (r Range) String() string {
	lo := "["
	if r.MinOpen {
		lo = "("
	}
	switch {
	case math.IsInf(r.Max, 1) && math.IsInf(r.Min, -1):
		return "a number"
	case math.IsInf(r.Max, 1) && r.MinOpen:
		return fmt.Sprintf("> %g", r.Min)
	case math.IsInf(r.Max, 1):
		return fmt.Sprintf(">= %g", r.Min)
	}
	return fmt.Sprintf("in %s%g, %g]", lo, r.Min, r.Max)
}

// Option is one typed option of a policy or model.
type Option struct {
	Name string     // as in scenario files, e.g. "allocation_interval"
	Key  string     // the scenario key, e.g. "policy.allocation_interval"
	Type OptionType //
	// Values are the allowed values of an enum, in documentation order,
	// the default first.
	Values []string
	Range  Range // TypeInt, TypeFloat, TypeFraction
	// Default is the value, as written in a scenario file, taken when the
	// option is not given; "" means the option is required.
	Default string
	Doc     string // one line
	// Note says why Values is narrower for this policy than for the
	// others of its kind, for the message that refuses a value ("" when it
	// is not).
	Note string
}

// Required reports an option without a default.
func (o Option) Required() bool { return o.Default == "" }

func (o Option) clone() Option {
	o.Values = slices.Clone(o.Values)
	return o
}

func cloneOptions(os []Option) []Option {
	if os == nil {
		return nil
	}
	out := make([]Option, len(os))
	for i, o := range os {
		out[i] = o.clone()
	}
	return out
}

// HasMetric reports whether the model reports a metric called name for a
// platform of any number of sites (a site metric's index is not checked).
func (m Model) HasMetric(name string) bool {
	if slices.Contains(m.Metrics, name) {
		return true
	}
	rest, ok := strings.CutPrefix(name, "site")
	if !ok {
		return false
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 || i > 1 && rest[0] == '0' || i >= len(rest) || rest[i] != '_' {
		return false
	}
	return slices.Contains(m.SiteMetrics, rest[i+1:])
}

func (m Model) clone() Model {
	m.Kinds = slices.Clone(m.Kinds)
	m.Options = cloneOptions(m.Options)
	m.Metrics, m.SiteMetrics = slices.Clone(m.Metrics), slices.Clone(m.SiteMetrics)
	return m
}

// Kind returns the model's kind called name.
func (m Model) Kind(name string) (Kind, bool) {
	for _, k := range m.Kinds {
		if k.Name == name {
			return k, true
		}
	}
	return Kind{}, false
}

// Models lists the models in documentation order (fresh copies).
func Models() []Model {
	ms := models()
	for i := range ms {
		ms[i] = ms[i].clone()
	}
	return ms
}

// ModelNames lists the models' names in documentation order.
func ModelNames() []string {
	var out []string
	for _, m := range models() {
		out = append(out, m.Name)
	}
	return out
}

// LookupModel returns the model called name, or an *UnknownNameError.
func LookupModel(name string) (Model, error) {
	for _, m := range models() {
		if m.Name == name {
			return m.clone(), nil
		}
	}
	return Model{}, &UnknownNameError{Kind: "model", Name: name, Known: ModelNames()}
}

// Policies lists the policies of one kind of a model in documentation
// order; nil for an unknown model or kind.
func Policies(model, kind string) []Policy {
	var out []Policy
	for _, p := range policies() {
		if p.Model == model && p.Kind == kind {
			p.options = cloneOptions(p.options)
			out = append(out, p)
		}
	}
	return out
}

// Names lists the names of one kind of policy of a model, in
// documentation order.
func Names(model, kind string) []string {
	var out []string
	for _, p := range Policies(model, kind) {
		out = append(out, p.Name)
	}
	return out
}

// Lookup returns the policy called name among the policies of one kind of
// a model. An unknown model, kind or name gives an *UnknownNameError
// listing the known ones.
func Lookup(model, kind, name string) (Policy, error) {
	m, err := LookupModel(model)
	if err != nil {
		return Policy{}, err
	}
	k, ok := m.Kind(kind)
	if !ok {
		var known []string
		for _, k := range m.Kinds {
			known = append(known, k.Name)
		}
		return Policy{}, &UnknownNameError{Kind: "policy kind of model " + model, Name: kind, Known: known}
	}
	for _, p := range Policies(model, kind) {
		if p.Name == name {
			return p, nil
		}
	}
	return Policy{}, &UnknownNameError{Kind: k.Noun, Name: name, Known: Names(model, kind)}
}

// NewQueue builds a queue policy (kind KindQueue).
func (p Policy) NewQueue(o backfill.Options) (policy.QueueScheduler, error) {
	if p.queue == nil {
		return nil, p.cannot(KindQueue)
	}
	return p.queue(o)
}

// NewThreadQueue builds a queue policy with the Threads trait for the
// window rule window ("" = the default; see policy/matrix.ParseWindow).
func (p Policy) NewThreadQueue(window string) (policy.QueueScheduler, error) {
	if p.threads == nil {
		return nil, fmt.Errorf("%s %s of model %s does not schedule threads (a window rule is only for a policy that does)", p.Kind, p.Name, p.Model)
	}
	return p.threads(window)
}

// TakesRank reports a policy with rank options (Job Ranking Backfilling):
// build it with NewRank to set them.
func (p Policy) TakesRank() bool { return p.rank != nil }

// NewRank builds a queue policy with rank options (TakesRank): the rank
// function, head mode and positive_only of o, on o.Platform.
func (p Policy) NewRank(o rank.Options) (policy.QueueScheduler, error) {
	if p.rank == nil {
		return nil, fmt.Errorf("%s %s of model %s takes no rank options", p.Kind, p.Name, p.Model)
	}
	return p.rank(o)
}

// NewGridScheduler builds a grid scheduler (kind KindGrid); r is its
// stream for random choices. Set o.PreferIdle from the local scheduler's
// trait, or build both with NewGridPair.
func (p Policy) NewGridScheduler(o grid.Options, r *rand.Rand) (policy.GridScheduler, error) {
	if p.grid == nil {
		return nil, p.cannot(KindGrid)
	}
	return p.grid(o, r)
}

// NewLocalScheduler builds a local scheduler (kind KindLocal); r is its
// stream.
func (p Policy) NewLocalScheduler(r *rand.Rand) (policy.LocalScheduler, error) {
	if p.local == nil {
		return nil, p.cannot(KindLocal)
	}
	return p.local(r), nil
}

// NewGang builds a gang policy (kind KindApproach); the approach is the
// policy's, whatever o.Approach says. r is its stream.
func (p Policy) NewGang(o gang.Options, r *rand.Rand) (policy.GangPolicy, error) {
	if p.gang == nil {
		return nil, p.cannot(KindApproach)
	}
	return p.gang(o, r)
}

// NewHetero builds a queue policy of the heterogeneous model (klusacek-2008)
// for platform plat, with the policy's default options; seed and rep derive
// its random stream, if it uses one.
func (p Policy) NewHetero(plat platform.Platform, seed uint64, rep int) (policy.QueueScheduler, error) {
	return p.NewHeteroWith(plat, seed, rep, HeteroOptions{})
}

// NewHeteroWith is NewHetero with options o (the policy reads its own).
func (p Policy) NewHeteroWith(plat platform.Platform, seed uint64, rep int, o HeteroOptions) (policy.QueueScheduler, error) {
	if p.hetero == nil {
		return nil, p.cannot(KindQueue)
	}
	return p.hetero(plat, seed, rep, o)
}

func (p Policy) cannot(kind string) error {
	if m, err := LookupModel(p.Model); err == nil && !m.Implemented {
		return &NotImplementedError{Model: p.Model}
	}
	return fmt.Errorf("%s %s of model %s is not a %s policy", p.Kind, p.Name, p.Model, kind)
}

// NewGridPair builds the grid model's two policies by name: the grid
// scheduler called gridName and the local scheduler called localName, with
// o.PreferIdle set from the local scheduler's PreferIdle trait. gr and lr
// are their streams.
func NewGridPair(gridName, localName string, o grid.Options, gr, lr *rand.Rand) (policy.GridScheduler, policy.LocalScheduler, error) {
	gp, err := Lookup(ModelGrid, KindGrid, gridName)
	if err != nil {
		return nil, nil, err
	}
	lp, err := Lookup(ModelGrid, KindLocal, localName)
	if err != nil {
		return nil, nil, err
	}
	o.PreferIdle = lp.Traits.PreferIdle
	gs, err := gp.NewGridScheduler(o, gr)
	if err != nil {
		return nil, nil, err
	}
	ls, err := lp.NewLocalScheduler(lr)
	if err != nil {
		return nil, nil, err
	}
	return gs, ls, nil
}

// KindOption is one option of a kind of policy, with the policies that
// take it.
type KindOption struct {
	Option            // Values: every value some policy allows, the widest list
	Policies []string // the policies that take the option, in documentation order
}

// KindOptions lists the options the policies of one kind take, each
// once. The order keeps every policy's own order of its options (ties:
// the option met first).
func KindOptions(model, kind string) []KindOption {
	ps := Policies(model, kind)
	var out []KindOption
	index := map[string]int{}
	before := map[string]map[string]bool{} // before[b][a]: a comes before b in some policy
	for _, p := range ps {
		for i, o := range p.options {
			k, ok := index[o.Name]
			if !ok {
				k = len(out)
				index[o.Name] = k
				out = append(out, KindOption{Option: o.clone()})
				before[o.Name] = map[string]bool{}
			}
			out[k].Policies = append(out[k].Policies, p.Name)
			if len(o.Values) > len(out[k].Values) {
				out[k].Values = slices.Clone(o.Values)
			}
			for _, a := range p.options[:i] {
				before[o.Name][a.Name] = true
			}
		}
	}
	// Topological order, stable by first appearance; a cycle (two
	// policies listing two options in opposite orders) is broken by first
	// appearance.
	var sorted []KindOption
	placed := map[string]bool{}
	for len(sorted) < len(out) {
		next := -1
		for i, ko := range out {
			if placed[ko.Name] {
				continue
			}
			if next < 0 {
				next = i
			}
			ready := true
			for a := range before[ko.Name] {
				ready = ready && placed[a]
			}
			if ready {
				next = i
				break
			}
		}
		placed[out[next].Name] = true
		sorted = append(sorted, out[next])
	}
	return sorted
}
